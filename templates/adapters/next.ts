/**
 * Next.js App Router: a catch-all route file hands every method to the router.
 *
 * ```ts
 * // app/api/[...path]/route.ts
 * export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = toNextHandlers(router);
 * ```
 *
 * The folder the route file is in (`/api`, with next.config's `basePath` before it) is found from the catch-all
 * segment Next.js hands each handler, and stripped before the router's own `basePath`: a route `/pets` of a router
 * with `basePath: "/v1"` is served at `/api/v1/pets`. The router owns every path below that folder, so a path the
 * spec does not have gets the router's 404 in the spec's shape. `request.signal` aborts when the client goes away.
 * (https://nextjs.org/docs/app/api-reference/file-conventions/route)
 *
 * Next.js is not imported: `NextRequest` is a `Request`, and the context type is the part the handlers read.
 */
import { fromRequest, mountPrefixOf, serveIncomingOf, toWebResponse } from "../server/incoming.js";
import type { MountOptions, Router } from "../server/types.js";

/** Route segment values as Next.js hands them: a catch-all's are a list. */
type Params = Record<string, string | string[] | undefined>;

/** The second argument of a route handler: the dynamic segments (a promise since Next.js 15). */
export interface NextRouteContext {
  params?: PromiseLike<Params> | Params;
}

/** A route handler, as a route file exports it. */
export type NextRouteHandler = (request: Request, context?: NextRouteContext) => Promise<Response>;

/** The exports of a route file: one handler per method. */
export interface NextHandlers {
  GET: NextRouteHandler;
  POST: NextRouteHandler;
  PUT: NextRouteHandler;
  PATCH: NextRouteHandler;
  DELETE: NextRouteHandler;
  HEAD: NextRouteHandler;
  OPTIONS: NextRouteHandler;
}

/**
 * The route handlers of a catch-all route file. `options.prefix`: the path the route file serves (`"/api"` for
 * `app/api/[...path]/route.ts`, next.config's `basePath` included); found from the catch-all segment when left out.
 */
export function toNextHandlers(router: Router, options: MountOptions = {}): NextHandlers {
  const serve = serveIncomingOf(router);
  if (!serve) throw new TypeError("toNextHandlers: pass the router createRouter returns");
  const handler: NextRouteHandler = async (request, context) => {
    const prefix = options.prefix ?? routeFolder(new URL(request.url).pathname, await context?.params);
    // The router owns the folder: what it does not know gets its 404, not Next.js's.
    const incoming = fromRequest(request, prefix) ?? { ...fromRequest(request), mountPrefix: mountPrefixOf(prefix) };
    const answer = await serve(incoming);
    return answer instanceof Response ? answer : toWebResponse(answer);
  };
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler, HEAD: handler, OPTIONS: handler };
}

/**
 * The path of the folder a catch-all route file is in: the request path without the segments the catch-all took
 * (Next.js hands them decoded, one per segment; an encoded `/` stays inside its segment). Without a catch-all value,
 * the whole path.
 */
function routeFolder(pathname: string, params: Params | undefined): string {
  const caught = Object.values(params ?? {}).find((value): value is string[] => Array.isArray(value));
  const segments = pathname.split("/");
  // A trailing slash (next.config's `trailingSlash`) is no segment.
  const end = segments.length - (segments.length > 1 && segments[segments.length - 1] === "" ? 1 : 0);
  return segments.slice(0, Math.max(1, end - (caught?.length ?? 0))).join("/");
}
