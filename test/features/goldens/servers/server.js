// @ts-self-types="./server.d.ts"
import { createRouterRuntime, documentMocker } from "./runtime/server/index.js";
import { requestValidators } from "./server-validators.js";
export { toNodeListener } from "./runtime/server/node.js";
export { HttpError } from "./runtime/server/index.js";
/** The spec's component schemas that route schemas `$ref`. */
const document = JSON.parse(
  '{\
  "components":{\
    "schemas":{}\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes = JSON.parse(
  '[\
  {"name":"listItems","method":"GET","secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{"type":"array","items":{"type":"string"}}}}}},"validationErrorStatus":400,"path":"/items"},\
  {"name":"upload","method":"POST","server":1,"secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"204":{}},"validationErrorStatus":400,"path":"/uploads"},\
  {"name":"getReport","method":"GET","server":2,"secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{"type":"object","properties":{"region":{"type":"string"}}}}}}},"validationErrorStatus":400,"path":"/reports"},\
  {"name":"getLegacy","method":"GET","server":3,"secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"204":{}},"validationErrorStatus":400,"path":"/legacy"},\
  {"name":"uploadBatch","method":"PUT","server":4,"secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"204":{}},"validationErrorStatus":400,"path":"/batches/upload"}\
]',
);
/** What the router needs to know of the spec besides its routes: the patterns that backtrack catastrophically (run on its linear-time matcher) and where its servers' routes are served. */
const generated = JSON.parse(
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
/** What the routes need beyond the router's core: multipart bodies, the linear-time matcher of catastrophic patterns. */
const features = [];
/** A web-standard router (`fetch(request) => Promise<Response>`) for every route of the spec. Secured operations need `options.authenticate` (or `insecureNoAuth: true`); use `toNodeListener(router)` with `node:http`. */
export function createRouter(handlers, options) {
  return createRouterRuntime(
    document,
    routes,
    handlers,
    options ?? {},
    generated,
    requestValidators,
    features,
  );
}

/**
 * Deterministic, schema-valid values, as the router's mock answers are made: `mockFromSchema("Pet")` is a `Pet`
 * (the spec's example when it validates, else one generated from the schema: formats, patterns, bounds, unique
 * items, discriminators; sizes clamped). `options.variant` gives other values; `options.onIssue` hears of any
 * place no value could satisfy.
 */
export const mockFromSchema = documentMocker(document);
