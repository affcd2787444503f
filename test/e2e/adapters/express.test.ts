import { createServer } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { close, createRouter, describeConformance, generateAdapters, listen, type AnyRouter, type Generated, type Observed } from "./conformance.js";

/** Express 5 with `app.use(toExpress(router))`: before the app's own routes and its 404, with and without body parsers. */

/** The app's own routes, which the spec does not have, and its own 404. */
function appRoutes(app: express.Express): void {
  app.get("/v1/app-route", (_req, res) => void res.json({ from: "app" }));
  app.get("/elsewhere", (_req, res) => void res.json({ from: "app", elsewhere: true }));
  app.use((_req: express.Request, res: express.Response) => void res.status(404).json({ from: "app", notFound: true }));
}

async function serve(app: express.Express) {
  const server = createServer(app);
  return { origin: await listen(server), close: () => close(server) };
}

describeConformance("express", {
  mount: "",
  async start(gen: Generated, router: AnyRouter) {
    const app = express();
    app.use((_req, res, next) => {
      res.setHeader("x-app", "express");
      next();
    });
    app.use(gen.toExpress(router));
    appRoutes(app);
    return serve(app);
  },
  frameworkHeaders: { "x-app": "express" },
  fallthrough: [
    { path: "/v1/app-route", status: 200, body: { from: "app" } },
    { path: "/elsewhere", status: 200, body: { from: "app", elsewhere: true } },
    { path: "/v2/pets", status: 404, body: { from: "app", notFound: true } },
  ],
});

describeConformance("express under /api", {
  mount: "/api",
  async start(gen: Generated, router: AnyRouter) {
    const app = express();
    app.use("/api", gen.toExpress(router));
    appRoutes(app);
    return serve(app);
  },
  fallthrough: [
    { path: "/v1/pets", status: 404, body: { from: "app", notFound: true } },
    { path: "/api/v2/pets", status: 404, body: { from: "app", notFound: true } },
    { path: "/v1/app-route", status: 200, body: { from: "app" } },
  ],
});

describeConformance("express after body parsers", {
  mount: "",
  async start(gen: Generated, router: AnyRouter) {
    const app = express();
    // Limits above the router's: the router's own limit must still answer 413 for a body the parsers accepted.
    app.use(express.json({ limit: "1mb" }), express.urlencoded({ extended: true, limit: "1mb" }), express.text({ limit: "1mb" }), express.raw({ limit: "1mb" }));
    app.use(gen.toExpress(router));
    appRoutes(app);
    return serve(app);
  },
  fallthrough: [{ path: "/v1/app-route", status: 200, body: { from: "app" } }],
});

describe("express: a body read before the router", () => {
  let gen: Generated;
  const observed: Observed = { aborted: [], errors: [] };
  let origin = "";
  let closeServer: () => Promise<void>;

  beforeAll(async () => {
    gen = await generateAdapters("express-consumed");
    const app = express();
    app.use(express.json());
    // A middleware that reads multipart bodies itself (as multer does) before the router.
    app.use((req, _res, next) => {
      if (!req.headers["content-type"]?.startsWith("multipart/")) return next();
      req.on("data", () => undefined);
      req.on("end", () => ((req.body = { caption: "parsed elsewhere" }), next()));
    });
    app.use(gen.toExpress(createRouter(gen, observed, "/v1")));
    app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(400).json({ from: "app", error: error.name }));
    ({ origin, close: closeServer } = await serve(app));
  }, 120_000);
  afterAll(() => closeServer?.());

  it("a body parser's own refusal (malformed JSON) is the app's answer: the router never sees the request", async () => {
    const response = await fetch(`${origin}/v1/pets`, { method: "POST", headers: { authorization: "Bearer good", "content-type": "application/json" }, body: "{not json" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ from: "app", error: "SyntaxError" });
  });

  it("a body the router cannot read again is a 500 (not validated as something it was not), and onError says why", async () => {
    const form = new FormData();
    form.append("file", new File(["abc"], "a.txt"));
    const response = await fetch(`${origin}/v1/pets/1/photo`, { method: "POST", headers: { authorization: "Bearer good" }, body: form });
    expect(response.status).toBe(500);
    expect(observed.errors).toHaveLength(1);
    expect(String(observed.errors[0])).toMatch(/was read by a middleware before the router.*mount toExpress before it/);
  });
});
