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
      "Error":{"type":"object","required":["code","message"],"properties":{"code":{"type":"integer"},"message":{"type":"string"}}}\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes = JSON.parse(
  '[\
  {\
    "name":"submitForm",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{"required":true,"content":{"application/x-www-form-urlencoded":{"schema":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"age":{"type":"integer"},"agree":{"type":"boolean"},"tags":{"type":"array","items":{"type":"string"}}}}}}},\
    "responses":{"200":{"content":{"application/json":{"schema":{"type":"object","additionalProperties":true}}}}},\
    "validationErrorStatus":400,\
    "path":"/forms"\
  },\
  {\
    "name":"upload",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{"required":true,"content":{"multipart/form-data":{"schema":{"type":"object","required":["file","description"],"properties":{"file":{"type":"string","format":"binary"},"description":{"type":"string"},"count":{"type":"integer"},"labels":{"type":"array","items":{"type":"string"}},"meta":{"type":"object","properties":{"a":{"type":"integer"}}}}}}}},\
    "responses":{"201":{"content":{"application/json":{"schema":{"type":"object","properties":{"fileName":{"type":"string"},"fileText":{"type":"string"},"description":{"type":"string"},"count":{"type":"integer"},"labels":{"type":"array","items":{"type":"string"}},"meta":{"type":"object","properties":{"a":{"type":"integer"}}}}}}}}},\
    "validationErrorStatus":400,\
    "path":"/uploads"\
  },\
  {"name":"getBlob","method":"GET","secured":false,"params":{"path":[{"name":"id","required":true,"schema":{"type":"string"}}],"query":[],"header":[]},"responses":{"200":{"content":{"application/octet-stream":{"schema":{"type":"string","format":"binary"}}}}},"validationErrorStatus":400,"path":"/blobs/{id}"},\
  {\
    "name":"putBlob",\
    "method":"PUT",\
    "secured":false,\
    "params":{"path":[{"name":"id","required":true,"schema":{"type":"string"}}],"query":[],"header":[]},\
    "body":{"required":true,"content":{"application/octet-stream":{"schema":{"type":"string","format":"binary"}}}},\
    "responses":{"200":{"content":{"application/json":{"schema":{"type":"object","required":["size","first"],"properties":{"size":{"type":"integer"},"first":{"type":"integer"}}}}}}},\
    "validationErrorStatus":400,\
    "path":"/blobs/{id}"\
  },\
  {"name":"postNote","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"text/plain":{"schema":{"type":"string"}}}},"responses":{"200":{"content":{"text/plain":{"schema":{"type":"string"}}}}},"validationErrorStatus":400,"path":"/notes"},\
  {"name":"maybe","method":"GET","secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{"type":"object","required":["ok"],"properties":{"ok":{"type":"boolean"}}}}}},"default":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Error"}}}}},"validationErrorStatus":400,"path":"/maybe"},\
  {"name":"onlyDefault","method":"GET","secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"default":{"content":{"application/json":{"schema":{"type":"object","required":["status"],"properties":{"status":{"type":"string"}}}}}}},"validationErrorStatus":400,"path":"/only-default"},\
  {"name":"getNoOperationIdByPetId","method":"GET","secured":false,"params":{"path":[{"name":"petId","required":true,"schema":{"type":"string"}}],"query":[],"header":[]},"responses":{"204":{}},"validationErrorStatus":400,"path":"/no-operation-id/{petId}"},\
  {"name":"postNoOperationIdByPetId","method":"POST","secured":false,"params":{"path":[{"name":"petId","required":true,"schema":{"type":"string"}}],"query":[],"header":[]},"responses":{"204":{}},"validationErrorStatus":400,"path":"/no-operation-id/{petId}"}\
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
