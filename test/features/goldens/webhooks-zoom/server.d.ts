import type { Router, RouterOptions } from "./runtime/server/index.js";

export { toNodeListener } from "./runtime/server/node.js";
export {
  HttpError,
  mockFromSchema,
  type Router,
  type RouterError,
  type RouterOptions,
  type HandlerResult,
} from "./runtime/server/index.js";

/** What `authenticate` can be handed: one member per security alternative of the spec (the schemes a request presented, by key). Narrow with `"key" in credentials`. */
export interface SecurityAlternatives {}
export type Credentials = SecurityAlternatives[keyof SecurityAlternatives];

/** One optional handler per operation. A missing handler answers 501 (or a mock value in mock mode). */
export interface Handlers<Auth = unknown> {}

/** A web-standard router (`fetch(request) => Promise<Response>`) for every route of the spec. Secured operations need `options.authenticate` (or `insecureNoAuth: true`); use `toNodeListener(router)` with `node:http`. */
export declare function createRouter<Auth = unknown>(
  handlers: Handlers<Auth>,
  options?: RouterOptions<Auth, Credentials>,
): Router;
