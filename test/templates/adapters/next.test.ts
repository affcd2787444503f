import { NextRequest } from "next/server.js";
import { describe, expect, it } from "vitest";
import { toNextHandlers } from "../../../templates/adapters/next.js";
import { createRouter } from "../server/fixtures/server.js";

/** Where a catch-all route file is, found from what Next.js hands its handlers (the segments it caught). */
describe("toNextHandlers: the route folder", () => {
  const seen: string[] = [];
  const router = createRouter(
    {
      healthCheck: ({ request }) => (seen.push(request.url), { status: 200, body: { status: "ok" } }),
      getFile: ({ path }) => ({ status: 200, body: JSON.stringify(path) }),
    },
    { insecureNoAuth: true },
  );
  const { GET } = toNextHandlers(router);
  const get = (url: string, caught?: string[], options?: { prefix: string }) =>
    (options ? toNextHandlers(router, options).GET : GET)(new NextRequest(url), caught === undefined ? undefined : { params: Promise.resolve({ path: caught }) });

  it("strips the folder the catch-all is in, whatever it is called and however deep", async () => {
    expect((await get("http://app.test/api/v1/health", ["v1", "health"])).status).toBe(200);
    expect((await get("http://app.test/internal/rest/v1/health", ["v1", "health"])).status).toBe(200);
    // next.config's basePath is part of the path the route file is under.
    expect((await get("http://app.test/docs/api/v1/health", ["v1", "health"])).status).toBe(200);
    expect(seen.at(-1)).toBe("http://app.test/docs/api/v1/health");
  });

  it("counts an encoded slash inside its segment and a trailing slash as no segment", async () => {
    const file = await get("http://app.test/api/v1/files/a%2Fb.txt", ["v1", "files", "a/b.txt"]);
    expect(JSON.parse(await file.text())).toEqual({ name: "a/b", ext: "txt" });
    expect((await get("http://app.test/api/v1/health/", ["v1", "health"])).status).toBe(404); // the spec has no /v1/health/
  });

  it("takes the prefix it is given (a route file that is not a catch-all, an optional catch-all with nothing caught)", async () => {
    expect((await get("http://app.test/rest/v1/health", undefined, { prefix: "/rest" })).status).toBe(200);
    expect((await get("http://app.test/rest/v1/health", [], { prefix: "/rest" })).status).toBe(200);
  });

  it("answers a path the spec does not have with the router's 404, and a path outside the prefix too", async () => {
    const unknown = await get("http://app.test/api/v1/nope", ["v1", "nope"]);
    expect(unknown.status).toBe(404);
    expect((await get("http://app.test/elsewhere/v1/health", undefined, { prefix: "/api" })).status).toBe(404);
  });

  it("names the base path below the route folder in a 404 outside it, as the client sees the paths", async () => {
    const mounted = createRouter({}, { insecureNoAuth: true, basePath: "/svc" });
    const message = async (url: string, caught?: string[], options?: { prefix: string }) => {
      const response = await toNextHandlers(mounted, options).GET(new NextRequest(url), caught && { params: Promise.resolve({ path: caught }) });
      expect(response.status).toBe(404);
      return ((await response.json()) as { error: { message: string } }).error.message;
    };
    // In the route folder, outside the router's base path.
    expect(await message("http://app.test/api/v2/pets", ["v2", "pets"])).toBe("Not Found: expected paths under /api/svc");
    expect(await message("http://app.test/api/v2/pets", undefined, { prefix: "/api/" })).toBe("Not Found: expected paths under /api/svc");
    // Outside the route folder it was given.
    expect(await message("http://app.test/elsewhere/v2", undefined, { prefix: "/api" })).toBe("Not Found: expected paths under /api/svc");
    // Served at the root, the hint is the base path alone.
    expect(await message("http://app.test/v2/pets", ["v2", "pets"])).toBe("Not Found: expected paths under /svc");
  });
});
