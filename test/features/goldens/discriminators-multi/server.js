// @ts-self-types="./server.d.ts"
import { createRouterRuntime, documentMocker } from "./runtime/server/index.js";
import { requestValidators } from "./server-validators.js";
export { toNodeListener } from "./runtime/server/node.js";
export { HttpError } from "./runtime/server/index.js";
/** The spec's component schemas that route schemas `$ref`. */
const document = JSON.parse(
  '{\
  "components":{\
    "schemas":{\
      "record_a":{"allOf":[{"$ref":"#/components/schemas/record"}]},\
      "record":{"type":"object","required":["type","data"],"properties":{"type":{"type":"string","MX…).":null},"data":{"type":"string"},"priority":{"type":"integer"}}},\
      "record_mx":{"allOf":[{"$ref":"#/components/schemas/record"},{"type":"object","required":["priority"]}]}\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes = JSON.parse(
  '[\
  {\
    "name":"createRecord",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{"required":true,"content":{"application/json":{"schema":{"oneOf":[{"$ref":"#/components/schemas/record_a"},{"$ref":"#/components/schemas/record_mx"}],"discriminator":{"propertyName":"type","mapping":{"A":"#/components/schemas/record_a","MX":"#/components/schemas/record_mx"}}}}}},\
    "responses":{"201":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/record"}}}}},\
    "validationErrorStatus":400,\
    "path":"/records"\
  }\
]',
);
/** What the router needs to know of the spec besides its routes: the patterns that backtrack catastrophically (run on its linear-time matcher) and where its servers' routes are served. */
const generated = JSON.parse(
  '{\
  "superLinearPatterns":[]\
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
