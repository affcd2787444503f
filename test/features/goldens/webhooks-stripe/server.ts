import type { paths } from "./schema.js";
import {
  createRouterRuntime,
  type GeneratedInfo,
  type Handler,
  type RouteSpec,
  type Router,
  type RouterOptions,
  type SchemaDocument,
} from "./runtime/server/index.js";
import { requestValidators } from "./server-validators.js";

export { toNodeListener } from "./runtime/server/node.js";
export {
  HttpError,
  mockFromSchema,
  type Router,
  type RouterError,
  type RouterOptions,
  type HandlerResult,
} from "./runtime/server/index.js";

/** The spec's component schemas that route schemas `$ref`. */
const document: SchemaDocument = JSON.parse(
  '{\
  "components":{\
    "schemas":{}\
  }\
}',
);

/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes: RouteSpec[] = JSON.parse("[]");

/** What `authenticate` can be handed: one member per security alternative of the spec (the schemes a request presented, by key). Narrow with `"key" in credentials`. */
export interface SecurityAlternatives {}
export type Credentials = SecurityAlternatives[keyof SecurityAlternatives];

/** What the router needs to know of the spec besides its routes: the patterns that backtrack catastrophically (run on its linear-time matcher) and where its servers' routes are served. */
const generated: GeneratedInfo = JSON.parse(
  '{\
  "superLinearPatterns":[]\
}',
);

/** One optional handler per operation. A missing handler answers 501 (or a mock value in mock mode). */
export interface Handlers<Auth = unknown> {}

/** A web-standard router (`fetch(request) => Promise<Response>`) for every route of the spec. Secured operations need `options.authenticate` (or `insecureNoAuth: true`); use `toNodeListener(router)` with `node:http`. */
export function createRouter<Auth = unknown>(
  handlers: Handlers<Auth>,
  options: RouterOptions<Auth, Credentials> = {},
): Router {
  return createRouterRuntime<Auth, Credentials>(
    document,
    routes,
    handlers as Record<string, unknown>,
    options,
    generated,
    requestValidators,
  );
}
