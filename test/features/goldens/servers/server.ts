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
const routes: RouteSpec[] = JSON.parse(
  '[\
  {"name":"listItems","method":"GET","secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{"type":"array","items":{"type":"string"}}}}}},"validationErrorStatus":400,"path":"/items"},\
  {"name":"upload","method":"POST","server":1,"secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"204":{}},"validationErrorStatus":400,"path":"/uploads"},\
  {"name":"getReport","method":"GET","server":2,"secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{"type":"object","properties":{"region":{"type":"string"}}}}}}},"validationErrorStatus":400,"path":"/reports"},\
  {"name":"getLegacy","method":"GET","server":3,"secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"204":{}},"validationErrorStatus":400,"path":"/legacy"},\
  {"name":"uploadBatch","method":"PUT","server":4,"secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"204":{}},"validationErrorStatus":400,"path":"/batches/upload"}\
]',
);

/** What `authenticate` can be handed: one member per security alternative of the spec (the schemes a request presented, by key). Narrow with `"key" in credentials`. */
export interface SecurityAlternatives {}
export type Credentials = SecurityAlternatives[keyof SecurityAlternatives];

/** What the router needs to know of the spec besides its routes: the patterns that backtrack catastrophically (run on its linear-time matcher) and where its servers' routes are served. */
const generated: GeneratedInfo = JSON.parse(
  '{\
  "superLinearPatterns":[],\
  "serverPaths":[\
    ["/v1"],\
    [""],\
    ["/reports"],\
    ["/v0"],\
    [""]\
  ]\
}',
);

/** One optional handler per operation. A missing handler answers 501 (or a mock value in mock mode). */
export interface Handlers<Auth = unknown> {
  /** `GET /items` */
  listItems?: Handler<paths["/items"]["get"], Auth>;
  /** `POST /uploads` */
  upload?: Handler<paths["/uploads"]["post"], Auth>;
  /** `GET /reports` */
  getReport?: Handler<paths["/reports"]["get"], Auth>;
  /** `GET /legacy` */
  getLegacy?: Handler<paths["/legacy"]["get"], Auth>;
  /** `PUT /batches/upload` */
  uploadBatch?: Handler<paths["/batches/upload"]["put"], Auth>;
}

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
