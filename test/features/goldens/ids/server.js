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
      "Pet":{\
        "$id":"https://example.com/schemas/pet",\
        "type":"object",\
        "required":["id","name"],\
        "properties":{"id":{"$anchor":"pet-id","type":"integer"},"name":{"$ref":"#/components/schemas/name"},"owner":{"$ref":"#/components/schemas/Owner"},"nickname":{"$ref":"#/components/schemas/Pet_Nickname"},"tag":{"$ref":"#/components/schemas/Tag"},"collar":{"$ref":"#/components/schemas/collar"},"vet":{"$ref":"#/components/schemas/vet"},"toy":{"$ref":"#/components/schemas/favourite"}},\
        "$defs":{"Name":{"$anchor":"name","type":"string","minLength":1},"Nickname":{"type":"string","maxLength":10}}\
      },\
      "Owner":{"$id":"https://example.com/schemas/owner","type":"object","required":["name"],"properties":{"name":{"type":"string"},"pets":{"type":"array","items":{"$ref":"#/components/schemas/Pet"}}}},\
      "Tag":{"type":"string","enum":["cat","dog"]},\
      "NewPetEcho":{"$ref":"#/components/schemas/new-pet"},\
      "name":{"$anchor":"name","type":"string","minLength":1},\
      "Pet_Nickname":{"type":"string","maxLength":10},\
      "collar":{"$id":"https://example.com/schemas/collar","type":"object","required":["colour"],"properties":{"colour":{"type":"string","enum":["red","blue"]}}},\
      "vet":{"type":"object","properties":{"name":{"type":"string"}}},\
      "favourite":{"$anchor":"favourite","type":"object","required":["bounces"],"properties":{"bounces":{"type":"boolean"}}},\
      "new-pet":{"$anchor":"new-pet","type":"object","required":["name"],"properties":{"name":{"type":"string"}}},\
      "pet-id":{"$anchor":"pet-id","type":"integer"}\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes = JSON.parse(
  '[\
  {\
    "name":"createPet",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{"required":true,"content":{"application/json":{"schema":{"$anchor":"new-pet","type":"object","required":["name"],"properties":{"name":{"type":"string"}}}}}},\
    "responses":{"201":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/NewPetEcho"}}}}},\
    "validationErrorStatus":400,\
    "path":"/pets"\
  },\
  {"name":"getPet","method":"GET","secured":false,"params":{"path":[{"name":"id","required":true,"schema":{"$ref":"#/components/schemas/pet-id"}}],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}}},"validationErrorStatus":400,"path":"/pets/{id}"}\
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
