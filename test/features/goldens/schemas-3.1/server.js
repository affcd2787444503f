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
      "Id":{"type":["string","integer"]},\
      "MaybeName":{"type":["string","null"]},\
      "Kind":{"const":"thing"},\
      "Version":{"const":2},\
      "Flags":{"type":["array","null"],"items":{"type":"boolean"}},\
      "Letter":{"type":["string","null"],"enum":["a","b",null]},\
      "Owner":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"email":{"type":"string"}}},\
      "Thing":{\
        "type":"object",\
        "required":["id","kind","version"],\
        "properties":{\
          "id":{"$ref":"#/components/schemas/Id"},\
          "kind":{"$ref":"#/components/schemas/Kind"},\
          "version":{"$ref":"#/components/schemas/Version"},\
          "name":{"$ref":"#/components/schemas/MaybeName"},\
          "flags":{"$ref":"#/components/schemas/Flags"},\
          "letter":{"$ref":"#/components/schemas/Letter"},\
          "owner":{"$ref":"#/components/schemas/Owner"},\
          "contact":{"required":["email"],"allOf":[{"$ref":"#/components/schemas/Owner"}]},\
          "ownerOrNull":{"anyOf":[{"$ref":"#/components/schemas/Owner"},{"type":"null"}]},\
          "legacyNullable":{"nullable":true,"anyOf":[{"$ref":"#/components/schemas/Owner"}]},\
          "inlineConst":{"type":"string","const":"fixed"}\
        }\
      }\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes = JSON.parse(
  '[\
  {"name":"createThing","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Thing"}}}},"responses":{"201":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Thing"}}}}},"validationErrorStatus":400,"path":"/things"}\
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
