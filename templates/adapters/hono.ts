/**
 * Hono: `app.use(toHono(router))`, or under a path, `app.use("/api/*", toHono(router, { prefix: "/api" }))` (the
 * router's `basePath` then applies below the prefix). The spec's routes are answered by the router; for any other
 * request the middleware calls `next()`, so the app's own routes and not-found handler answer it
 * (https://hono.dev/docs/guides/middleware).
 *
 * Hono is not imported: the types below are the part of its context the middleware reads, which Hono's `Context`
 * satisfies. On Node (@hono/node-server) and on every other runtime Hono runs on, the router reads the web Request.
 */
import type { MountOptions, Router } from "../server/types.js";

/** The part of Hono's `Context` the middleware reads. */
export interface HonoContextLike {
  req: { raw: Request };
}

/** A Hono middleware, as `app.use` (or a route) takes it. */
export type HonoMiddleware = (c: HonoContextLike, next: () => Promise<void>) => Promise<Response | void>;

/** Serves the router's routes as a Hono middleware; every other request goes to `next()`. */
export function toHono(router: Router, options: MountOptions = {}): HonoMiddleware {
  return async (c, next) => {
    const response = await router.handle(c.req.raw, options);
    if (response !== undefined) return response;
    await next();
  };
}
