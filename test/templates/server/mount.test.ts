import { describe, expect, it } from "vitest";
import { createRouter } from "./fixtures/server.js";

const auth = { authorization: "Bearer good" };
const options = { authenticate: () => ({ user: "u1" }), basePath: "/svc" };

/** `router.handle`: the router mounted inside another app answers its own paths and hands every other one back. */
describe("router.handle", () => {
  const router = createRouter({ healthCheck: () => ({ status: 200, body: { status: "ok" } }) }, { ...options, basePath: undefined });

  it("answers a path of the spec as fetch does, and resolves to undefined for any other", async () => {
    const handled = await router.handle(new Request("http://api.test/v1/health"));
    expect(handled?.status).toBe(200);
    expect(await handled?.json()).toEqual({ status: "ok" });
    expect(await router.handle(new Request("http://api.test/v1/nope"))).toBeUndefined();
    expect(await router.handle(new Request("http://api.test/elsewhere"))).toBeUndefined();
    // fetch answers the same requests with its 404
    expect((await router.fetch(new Request("http://api.test/v1/nope"))).status).toBe(404);
  });

  it("keeps a path's 405 (the path is the spec's) and its errors in the spec's shape", async () => {
    const wrongMethod = await router.handle(new Request("http://api.test/v1/health", { method: "DELETE" }));
    expect(wrongMethod?.status).toBe(405);
    expect(wrongMethod?.headers.get("allow")).toMatch(/GET/);
    const unauthorized = await router.handle(new Request("http://api.test/v1/models"));
    expect(unauthorized?.status).toBe(401);
  });

  it("reads nothing of a request it hands back", async () => {
    let pulled = false;
    const body = new ReadableStream(
      {
        pull(controller) {
          pulled = true;
          controller.enqueue(new TextEncoder().encode("{}"));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request("http://api.test/v1/nope", { method: "POST", body, duplex: "half", headers: { ...auth, "content-type": "application/json" } } as RequestInit);
    expect(await router.handle(request)).toBeUndefined();
    expect(pulled).toBe(false);
    expect(request.bodyUsed).toBe(false);
  });

  it("a mount prefix and the base path compose: prefix, then basePath, then the route", async () => {
    const mounted = createRouter({ healthCheck: () => ({ status: 200, body: { status: "ok" } }) }, options);
    const at = (path: string) => mounted.handle(new Request(`http://api.test${path}`), { prefix: "/api" });
    expect((await at("/api/svc/v1/health"))?.status).toBe(200);
    expect((await mounted.handle(new Request("http://api.test/api/svc/v1/health"), { prefix: "/api/" }))?.status).toBe(200);
    expect(await at("/svc/v1/health")).toBeUndefined(); // not below the prefix
    expect(await at("/apisvc/v1/health")).toBeUndefined(); // a prefix ends at a segment
    expect(await at("/api/v1/health")).toBeUndefined(); // below the prefix, outside basePath
    expect(await at("/api")).toBeUndefined();
    // The handler's Request keeps the URL the client used.
    let seen = "";
    const echo = createRouter({ healthCheck: ({ request }) => ((seen = request.url), { status: 200, body: { status: "ok" } }) }, options);
    await echo.handle(new Request("http://api.test/api/svc/v1/health?x=1"), { prefix: "/api" });
    expect(seen).toBe("http://api.test/api/svc/v1/health?x=1");
  });

  it("refuses a malformed request on the spec's paths only", async () => {
    const request = (path: string) => new Request(`http://api.test${path}`, { headers: { host: "bad host" } });
    expect(await router.handle(request("/elsewhere"))).toBeUndefined();
    expect((await router.handle(request("/v1/health")))?.status).toBe(400);
    expect((await router.fetch(request("/elsewhere"))).status).toBe(400);
  });
});
