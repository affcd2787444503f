import { createServer } from "node:http";
import { NextRequest } from "next/server.js";
import { toRequest, writeResponse } from "../../../templates/server/node.js";
import { close, describeConformance, listen, type AnyRouter, type Generated } from "./conformance.js";

/**
 * Next.js App Router: `export const { GET, POST, … } = toNextHandlers(router)` in `app/api/[...path]/route.ts`. The
 * handlers are driven with Next.js's own `NextRequest` (next/server) and the context Next.js hands a catch-all route
 * (`{ params: Promise<{ path: string[] }> }`), behind a node:http server that does what Next.js's server does around
 * a route file: a more specific route file (`app/api/app-route/route.ts`) wins, paths outside `app/api` are not the
 * route file's, and the client going away aborts `request.signal`. (The route file's types are checked under
 * Next.js's own tsconfig by test/e2e/adapters/types.test.ts.)
 */

async function start(gen: Generated, router: AnyRouter) {
  const route = gen.toNextHandlers(router);
  const server = createServer(async (req, res) => {
    const controller = new AbortController();
    res.once("close", () => res.writableFinished || controller.abort());
    const request = new NextRequest(toRequest(req, controller.signal));
    const path = new URL(request.url).pathname;
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    let response: Response;
    if (path === "/api/app-route") response = json(200, { from: "app" });
    else if (!path.startsWith("/api/")) response = json(404, { from: "next", notFound: true });
    else {
      // What Next.js hands a catch-all: the segments below the route folder, decoded.
      const segments = path.slice("/api/".length).split("/").filter(Boolean).map(decodeURIComponent);
      const handler = route[req.method ?? "GET"];
      response = handler ? await handler(request, { params: Promise.resolve({ path: segments }) }) : json(405, {});
    }
    await writeResponse(response, req, res);
  });
  return { origin: await listen(server), close: () => close(server) };
}

describeConformance("next", {
  mount: "/api",
  start,
  // The route folder is the router's: a path the spec does not have gets the router's 404, in the spec's shape.
  cases: [
    { name: "an unknown path in the route folder: the router's 404", path: "/nope", headers: { authorization: "Bearer good" }, status: 404 },
    // `/api/v1/../v2/pets` is `/api/v2/pets`: in the route folder, outside the base path; the 404 names `/api/v1`.
    { name: "a path outside the router's base path: the router's 404", path: "/../v2/pets", headers: { authorization: "Bearer good" }, status: 404 },
  ],
  fallthrough: [
    { path: "/api/app-route", status: 200, body: { from: "app" } },
    { path: "/v1/health", status: 404, body: { from: "next", notFound: true } },
  ],
});
