// @ts-self-types="./server.d.ts"
import { createRouterRuntime, documentMocker } from "./runtime/server/index.js";
import { requestValidators } from "./server-validators.js";
export { toNodeListener } from "./runtime/server/node.js";
export { HttpError } from "./runtime/server/index.js";
/** The spec's component schemas that route schemas `$ref`. */
const document = JSON.parse(
  '{\
  "components":{\
    "schemas":{},\
    "securitySchemes":{\
      "bearerAuth":{"type":"http","scheme":"bearer"},\
      "basicAuth":{"type":"http","scheme":"basic"},\
      "tokenAuth":{"type":"http","scheme":"Token"},\
      "headerKey":{"type":"apiKey","in":"header","name":"X-API-Key"},\
      "queryKey":{"type":"apiKey","in":"query","name":"api_key"},\
      "cookieKey":{"type":"apiKey","in":"cookie","name":"session_id"},\
      "botToken":{"type":"apiKey","in":"header","name":"Authorization"},\
      "oauth":{"type":"oauth2"},\
      "oidc":{"type":"openIdConnect"},\
      "mtls":{"type":"mutualTLS"}\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes = JSON.parse(
  '[\
  {"name":"rootDefault","method":"GET","secured":true,"security":[[{"scheme":"bearerAuth"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/default"},\
  {"name":"basic","method":"GET","secured":true,"security":[[{"scheme":"basicAuth"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/basic"},\
  {"name":"token","method":"GET","secured":true,"security":[[{"scheme":"tokenAuth"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/token"},\
  {"name":"headerKey","method":"GET","secured":true,"security":[[{"scheme":"headerKey"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/header-key"},\
  {"name":"queryKey","method":"GET","secured":true,"security":[[{"scheme":"queryKey"}]],"params":{"path":[],"query":[{"name":"q","required":false,"schema":{"type":"string"}}],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/query-key"},\
  {"name":"cookieKey","method":"GET","secured":true,"security":[[{"scheme":"cookieKey"}]],"params":{"path":[],"query":[],"header":[],"cookie":[{"name":"theme","required":false,"schema":{"type":"string"}}]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/cookie-key"},\
  {"name":"bot","method":"GET","secured":true,"security":[[{"scheme":"botToken"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/bot"},\
  {"name":"oauth","method":"GET","secured":true,"security":[[{"scheme":"oauth","scopes":["read","write"]}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/oauth"},\
  {"name":"oidc","method":"GET","secured":true,"security":[[{"scheme":"oidc"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/oidc"},\
  {"name":"either","method":"GET","secured":true,"security":[[{"scheme":"basicAuth"}],[{"scheme":"bearerAuth"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/either"},\
  {"name":"both","method":"GET","secured":true,"security":[[{"scheme":"headerKey"},{"scheme":"queryKey"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/both"},\
  {"name":"optional","method":"GET","secured":false,"security":[[],[{"scheme":"botToken"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/optional"},\
  {"name":"noAuth","method":"GET","secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/public"},\
  {"name":"mtls","method":"GET","secured":true,"security":[[{"scheme":"mtls"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/mtls"}\
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
