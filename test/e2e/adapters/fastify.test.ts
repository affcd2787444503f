import Fastify, { type FastifyInstance } from "fastify";
import { expect, it } from "vitest";
import { describeConformance, type AnyRouter, type Generated } from "./conformance.js";

/**
 * Fastify 5 with `app.register(toFastify(router), { prefix })`: the app's hooks run for the router's answers (an
 * onRequest header), its own routes keep Fastify's JSON parser, and its not-found handler answers what the spec does
 * not have.
 */

async function start(gen: Generated, router: AnyRouter, prefix: string) {
  const app: FastifyInstance = Fastify();
  app.addHook("onRequest", async (_request, reply) => {
    reply.header("x-app", "fastify");
  });
  await app.register(gen.toFastify(router), { prefix });
  app.get("/v1/app-route", async () => ({ from: "app" }));
  // Outside the plugin, Fastify's own parsers still read bodies.
  app.post("/app-json", async (request) => ({ from: "app", parsed: request.body }));
  app.setNotFoundHandler((_request, reply) => void reply.code(404).send({ from: "app", notFound: true }));
  const origin = await app.listen({ port: 0, host: "127.0.0.1" });
  return { origin, close: () => app.close() };
}

describeConformance("fastify", {
  mount: "",
  start: (gen, router) => start(gen, router, ""),
  frameworkHeaders: { "x-app": "fastify" },
  fallthrough: [
    { path: "/v1/app-route", status: 200, body: { from: "app" } },
    { path: "/v1/nope", status: 404, body: { from: "app", notFound: true } },
    { path: "/elsewhere", status: 404, body: { from: "app", notFound: true } },
  ],
  also: fastifyOwn,
});

/** What stays Fastify's: its JSON parser on its own routes, its refusal of a Content-Type it cannot parse. */
function fastifyOwn(origin: () => string): void {
  it("the app's own routes keep Fastify's content-type parsers (the pass-through parser is the plugin's only)", async () => {
    const response = await fetch(`${origin()}/app-json`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"a":1}' });
    expect(await response.json()).toEqual({ from: "app", parsed: { a: 1 } });
  });
  it("a Content-Type header that is not a media type is refused by Fastify before any route runs (its own 415)", async () => {
    const response = await fetch(`${origin()}/v1/pets`, { method: "POST", headers: { authorization: "Bearer good", "content-type": "json" }, body: "{}" });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ code: "FST_ERR_CTP_INVALID_MEDIA_TYPE" });
  });
}

describeConformance("fastify under /api", {
  mount: "/api",
  start: (gen, router) => start(gen, router, "/api"),
  frameworkHeaders: { "x-app": "fastify" },
  fallthrough: [
    { path: "/api/v1/nope", status: 404, body: { from: "app", notFound: true } },
    { path: "/api", status: 404, body: { from: "app", notFound: true } },
    { path: "/v1/app-route", status: 200, body: { from: "app" } },
  ],
});
