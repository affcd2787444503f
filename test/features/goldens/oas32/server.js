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
      "Airport":{"type":"string","pattern":"^[A-Z]{3}$"},\
      "Flight":{"type":"object","required":["id","from","to"],"properties":{"id":{"type":"string"},"from":{"$ref":"#/components/schemas/airport"},"to":{"$ref":"#/components/schemas/airport"},"price":{"type":"number","minimum":0}},"$defs":{"airport":{"type":"string","pattern":"^[A-Z]{3}$"}}},\
      "Pet":{"oneOf":[{"$ref":"#/components/schemas/Cat"},{"$ref":"#/components/schemas/Dog"},{"$ref":"#/components/schemas/OtherPet"}],"discriminator":{"propertyName":"kind","mapping":{"cat":"#/components/schemas/Cat","dog":"#/components/schemas/Dog"},"defaultMapping":"#/components/schemas/OtherPet"}},\
      "Cat":{"type":"object","required":["kind","lives"],"properties":{"kind":{"type":"string"},"lives":{"type":"integer","maximum":9}}},\
      "Dog":{"type":"object","required":["kind","bark"],"properties":{"kind":{"type":"string"},"bark":{"type":"string"}}},\
      "OtherPet":{"type":"object","required":["name"],"properties":{"kind":{"type":"string"},"name":{"type":"string"}}},\
      "airport":{"type":"string","pattern":"^[A-Z]{3}$"}\
    },\
    "securitySchemes":{\
      "oauth":{"type":"oauth2"}\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes = JSON.parse(
  '[\
  {\
    "name":"findFlights",\
    "method":"GET",\
    "secured":true,\
    "security":[[{"scheme":"oauth","scopes":["flights:read"]}]],\
    "params":{\
      "path":[],\
      "query":[],\
      "querystring":{\
        "required":true,\
        "contentType":"application/x-www-form-urlencoded",\
        "schema":{"type":"object","required":["from"],"properties":{"from":{"$ref":"#/components/schemas/Airport"},"maxPrice":{"type":"number"},"carriers":{"type":"array","items":{"type":"string"}},"when":{"type":"object","properties":{"after":{"type":"string"},"before":{"type":"string"}}}}},\
        "encoding":{"when":{"style":"deepObject","explode":true}}\
      },\
      "header":[]\
    },\
    "responses":{"200":{"content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Flight"}}}}}},\
    "validationErrorStatus":400,\
    "path":"/flights/search"\
  },\
  {\
    "name":"searchFlights",\
    "method":"QUERY",\
    "secured":true,\
    "security":[[{"scheme":"oauth","scopes":["flights:read"]}]],\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{"required":true,"content":{"application/json":{"schema":{"type":"object","required":["from"],"properties":{"from":{"$ref":"#/components/schemas/Airport"},"to":{"$ref":"#/components/schemas/Airport"},"nonStop":{"type":"boolean"}}}}}},\
    "responses":{"200":{"content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Flight"}},"example":[{"id":"F1","from":"LHR","to":"ATL"}]}}}},\
    "validationErrorStatus":400,\
    "path":"/flights/search"\
  },\
  {\
    "name":"lookupFlights",\
    "method":"GET",\
    "secured":true,\
    "security":[[{"scheme":"oauth","scopes":["flights:read"]}]],\
    "params":{"path":[],"query":[],"querystring":{"required":false,"contentType":"application/json","schema":{"type":"object","properties":{"ids":{"type":"array","items":{"type":"string"}},"flag":{"type":["boolean","null"]}}}},"header":[]},\
    "responses":{"200":{"content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/Flight"}}}}}},\
    "validationErrorStatus":400,\
    "path":"/flights/lookup"\
  },\
  {"name":"selectFlights","method":"GET","secured":true,"security":[[{"scheme":"oauth","scopes":["flights:read"]}]],"params":{"path":[],"query":[],"querystring":{"required":true,"contentType":"application/jsonpath","schema":{"type":"string"}},"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/flights/select"},\
  {"name":"getFlight","method":"GET","secured":true,"security":[[{"scheme":"oauth","scopes":["flights:read"]}]],"params":{"path":[{"name":"id","required":true,"schema":{"type":"string"}}],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Flight"}}}}},"validationErrorStatus":400,"path":"/flights/{id}"},\
  {\
    "name":"copyFlight",\
    "method":"COPY",\
    "secured":true,\
    "security":[[{"scheme":"oauth","scopes":["flights:read"]}]],\
    "params":{"path":[{"name":"id","required":true,"schema":{"type":"string"}}],"query":[],"header":[{"name":"Destination","required":true,"schema":{"type":"string"}}]},\
    "responses":{"201":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Flight"}}}}},\
    "validationErrorStatus":400,\
    "path":"/flights/{id}"\
  },\
  {\
    "name":"linkFlightsById",\
    "method":"LINK",\
    "secured":true,\
    "security":[[{"scheme":"oauth","scopes":["flights:read"]}]],\
    "params":{"path":[{"name":"id","required":true,"schema":{"type":"string"}}],"query":[],"header":[]},\
    "body":{"required":true,"content":{"application/json":{"schema":{"type":"object","required":["target"],"properties":{"target":{"type":"string"}}}}}},\
    "responses":{"204":{}},\
    "validationErrorStatus":400,\
    "path":"/flights/{id}"\
  },\
  {\
    "name":"uploadPhotos",\
    "method":"POST",\
    "secured":true,\
    "security":[[{"scheme":"oauth","scopes":["flights:read"]}]],\
    "params":{"path":[{"name":"id","required":true,"schema":{"type":"string"}}],"query":[],"header":[]},\
    "body":{"required":true,"content":{"multipart/mixed":{"schema":{"type":"array","minItems":1,"prefixItems":[{"type":"object","required":["count"],"properties":{"count":{"type":"integer"},"camera":{"type":"string"}}}],"items":{"type":"string","format":"binary"}}}}},\
    "responses":{"204":{}},\
    "validationErrorStatus":400,\
    "path":"/flights/{id}/photos"\
  },\
  {"name":"addPet","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}}},"validationErrorStatus":400,"path":"/pets"},\
  {\
    "name":"getPrefs",\
    "method":"GET",\
    "secured":false,\
    "params":{\
      "path":[],\
      "query":[],\
      "header":[],\
      "cookie":[\
        {"name":"color","required":false,"schema":{"type":"string"},"style":"cookie"},\
        {"name":"colors","required":false,"schema":{"type":"array","items":{"type":"string"}},"style":"cookie"},\
        {"name":"list","required":false,"schema":{"type":"array","items":{"type":"integer"}},"style":"cookie","explode":false},\
        {"name":"rgb","required":false,"schema":{"type":"object","properties":{"R":{"type":"integer"},"G":{"type":"integer"},"B":{"type":"integer"}}},"style":"cookie"},\
        {"name":"box","required":false,"schema":{"type":"object","properties":{"w":{"type":"integer"},"h":{"type":"integer"}}},"style":"cookie","explode":false},\
        {"name":"legacy","required":false,"schema":{"type":"string"}}\
      ]\
    },\
    "responses":{"200":{"content":{"application/json":{"schema":{"type":"object"}}}}},\
    "validationErrorStatus":400,\
    "path":"/prefs"\
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
