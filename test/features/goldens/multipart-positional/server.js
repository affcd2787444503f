// @ts-self-types="./server.d.ts"
import { createRouterRuntime, documentMocker } from "./runtime/server/index.js";
import { multipartFeature } from "./runtime/server/multipart.js";
import { requestValidators } from "./server-validators.js";
export { toNodeListener } from "./runtime/server/node.js";
export { HttpError } from "./runtime/server/index.js";
/** The spec's component schemas that route schemas `$ref`. */
const document = JSON.parse(
  '{\
  "components":{\
    "schemas":{\
      "Checksum":{"type":"string","pattern":"^[0-9a-f]{8}$"}\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes = JSON.parse(
  '[\
  {\
    "name":"uploadBatch",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{\
      "required":true,\
      "content":{\
        "multipart/mixed":{\
          "schema":{"type":"array","minItems":1,"prefixItems":[{"type":"object","required":["count"],"properties":{"count":{"type":"integer"}}}],"items":{"type":"string","format":"binary"}},\
          "positionalHeaders":{"prefix":[{"X-Manifest-Version":{"required":true,"schema":{"type":"integer","const":2}}}],"items":{"X-Checksum":{"required":true,"schema":{"$ref":"#/components/schemas/Checksum"}},"X-Source":{"required":false,"schema":{"type":"string","default":"specforge"}}}}\
        }\
      }\
    },\
    "responses":{"200":{"content":{"application/json":{"schema":{"type":"object","additionalProperties":true}}}}},\
    "validationErrorStatus":400,\
    "path":"/batches"\
  },\
  {\
    "name":"addNote",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{\
      "required":true,\
      "content":{\
        "multipart/form-data":{"schema":{"type":"object","properties":{"note":{"type":"string"}}},"encoding":{"note":{"contentType":"text/plain","headers":{"X-Lang":{"required":true,"schema":{"type":"string","enum":["en","fr"]}}}}}},\
        "multipart/related":{"schema":{"type":"array","prefixItems":[{"type":"string"}]},"positionalHeaders":{"prefix":[{"X-Priority":{"required":false,"schema":{"type":"integer","minimum":1}}}]}}\
      }\
    },\
    "responses":{"200":{"content":{"application/json":{"schema":{"type":"object","additionalProperties":true}}}}},\
    "validationErrorStatus":400,\
    "path":"/notes"\
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
const features = [multipartFeature];
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
