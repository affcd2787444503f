import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import { describeConformance, type AnyRouter, type Generated } from "./conformance.js";

/**
 * Hono on Node (@hono/node-server) with the adapter as middleware: `app.use(toHono(router))` at the root, and
 * `app.use("/api/*", toHono(router, { prefix: "/api" }))` under a path; the app's own routes and not-found handler
 * answer what the spec does not have.
 */

async function start(gen: Generated, router: AnyRouter, prefix: string) {
  const app = new Hono();
  app.use(async (c, next) => {
    await next();
    c.header("x-app", "hono");
  });
  if (prefix) app.use(`${prefix}/*`, gen.toHono(router, { prefix }));
  else app.use(gen.toHono(router));
  app.get("/v1/app-route", (c) => c.json({ from: "app" }));
  app.notFound((c) => c.json({ from: "app", notFound: true }, 404));
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started));
  });
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => ("closeAllConnections" in server && server.closeAllConnections(), server.close(() => resolve()))),
  };
}

describeConformance("hono", {
  mount: "",
  start: (gen, router) => start(gen, router, ""),
  frameworkHeaders: { "x-app": "hono" },
  fallthrough: [
    { path: "/v1/app-route", status: 200, body: { from: "app" } },
    { path: "/v1/nope", status: 404, body: { from: "app", notFound: true } },
    { path: "/elsewhere", status: 404, body: { from: "app", notFound: true } },
  ],
});

describeConformance("hono under /api", {
  mount: "/api",
  start: (gen, router) => start(gen, router, "/api"),
  frameworkHeaders: { "x-app": "hono" },
  fallthrough: [
    { path: "/api/v1/nope", status: 404, body: { from: "app", notFound: true } },
    { path: "/v1/app-route", status: 200, body: { from: "app" } },
  ],
});
