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
      "Echo":{"type":"object","properties":{"path":{"type":"object"},"query":{"type":"object"},"headers":{"type":"object"},"cookies":{"type":"object"}}}\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes = JSON.parse(
  '[\
  {"name":"getItem","method":"GET","secured":false,"params":{"path":[{"name":"id","required":true,"schema":{"type":"integer"}}],"query":[{"name":"verbose","required":false,"schema":{"type":"boolean"}}],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Echo"}}}}},"validationErrorStatus":400,"path":"/items/{id}"},\
  {\
    "name":"deleteItem",\
    "method":"DELETE",\
    "secured":false,\
    "params":{"path":[{"name":"id","required":true,"schema":{"type":"integer"}}],"query":[{"name":"verbose","required":true,"schema":{"type":"string","enum":["yes","no"]}},{"name":"limit","required":false,"schema":{"type":"integer","minimum":1,"maximum":100,"default":20}}],"header":[]},\
    "responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Echo"}}}}},\
    "validationErrorStatus":400,\
    "path":"/items/{id}"\
  },\
  {\
    "name":"search",\
    "method":"GET",\
    "secured":false,\
    "params":{\
      "path":[],\
      "query":[\
        {"name":"ids","required":false,"schema":{"type":"array","items":{"type":"integer"}}},\
        {"name":"idsCsv","required":false,"schema":{"type":"array","items":{"type":"integer"}},"explode":false},\
        {"name":"idsSpace","required":false,"schema":{"type":"array","items":{"type":"string"}},"style":"spaceDelimited"},\
        {"name":"idsPipe","required":false,"schema":{"type":"array","items":{"type":"string"}},"style":"pipeDelimited"},\
        {"name":"filter","required":false,"schema":{"type":"object","properties":{"color":{"type":"string"},"size":{"type":"integer"}}}},\
        {"name":"point","required":false,"schema":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}}},"explode":false},\
        {"name":"where","required":false,"schema":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}},"style":"deepObject"},\
        {"name":"bar","required":false,"schema":{"type":"object","properties":{"R":{"type":"integer"},"G":{"type":"integer"}}},"style":"pipeDelimited"},\
        {"name":"limit","required":false,"schema":{"type":"integer","minimum":1,"maximum":100,"default":20}}\
      ],\
      "header":[{"name":"X-Trace","required":true,"schema":{"type":"string"}},{"name":"X-Coords","required":false,"schema":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}}},"explode":true},{"name":"X-Tags","required":false,"schema":{"type":"array","items":{"type":"string"}}}],\
      "cookie":[{"name":"session","required":false,"schema":{"type":"string"}}]\
    },\
    "responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Echo"}}}}},\
    "validationErrorStatus":400,\
    "path":"/search"\
  },\
  {\
    "name":"pathStyles",\
    "method":"GET",\
    "secured":false,\
    "params":{\
      "path":[\
        {"name":"simple","required":true,"schema":{"type":"array","items":{"type":"integer"}}},\
        {"name":"label","required":true,"schema":{"type":"array","items":{"type":"string"}},"style":"label"},\
        {"name":"matrix","required":true,"schema":{"type":"array","items":{"type":"integer"}},"style":"matrix"},\
        {"name":"labelExplode","required":true,"schema":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}}},"style":"label","explode":true},\
        {"name":"matrixExplode","required":true,"schema":{"type":"array","items":{"type":"integer"}},"style":"matrix","explode":true},\
        {"name":"simpleObject","required":true,"schema":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}}}},\
        {"name":"simpleExplode","required":true,"schema":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}}},"explode":true}\
      ],\
      "query":[],\
      "header":[]\
    },\
    "responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Echo"}}}}},\
    "validationErrorStatus":400,\
    "path":"/styles/{simple}/{label}/{matrix}/{labelExplode}/{matrixExplode}/{simpleObject}/{simpleExplode}"\
  },\
  {\
    "name":"pathScalars",\
    "method":"GET",\
    "secured":false,\
    "params":{"path":[{"name":"label","required":true,"schema":{"type":"integer"},"style":"label"},{"name":"matrix","required":true,"schema":{"type":"string"},"style":"matrix"}],"query":[],"header":[]},\
    "responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Echo"}}}}},\
    "validationErrorStatus":400,\
    "path":"/scalars/{label}/{matrix}"\
  }\
]',
);
/** What the router needs to know of the spec besides its routes: the patterns that backtrack catastrophically (run on its linear-time matcher) and where its servers' routes are served. */
const generated = JSON.parse(
  '{\
  "superLinearPatterns":[],\
  "serverPaths":[\
    ["/api"]\
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
