// @ts-self-types="./client.d.ts"
import { createRuntime } from "./runtime/client/runtime.js";
import { authFeature } from "./runtime/client/auth.js";
import {
  cookiesFeature,
  headerParamsFeature,
} from "./runtime/client/headers.js";
import { bodiesFeature, stylesFeature } from "./runtime/client/serialize.js";
import { deviceFlowFeature } from "./runtime/client/oauth.js";

export {
  ApiError,
  ConnectionError,
  ResponseTooLargeError,
  TimeoutError,
} from "./runtime/client/errors.js";
export { formPart } from "./runtime/client/serialize.js";
export { OAuth2Error } from "./runtime/client/oauth.js";

/** What the operations need beyond JSON bodies and OpenAPI's default parameter styles. */
const features = [
  authFeature,
  deviceFlowFeature,
  stylesFeature,
  headerParamsFeature,
  cookiesFeature,
  bodiesFeature,
];

/** The spec's servers; each operation names one by index. */
const servers = JSON.parse(
  '[\
  {"url":"{url}","variables":{"url":{"option":"baseUrl","default":"https://api.example.com"}}},\
  {"url":"{url}","variables":{"url":{"option":"euCentralUrl","default":"https://eu.api.example.com"}}}\
]',
);

/** The spec's security schemes, by key: where each credential goes and which client options hold it. */
const securitySchemes = JSON.parse(
  '{\
  "oauth":{"type":"bearer","options":["oauth","apiKey"],"oauth2":{"deviceAuthorizationUrl":"https://auth.example.com/device","tokenUrl":"https://auth.example.com/token","scopes":["flights:read","flights:write"],"metadataUrl":"https://auth.example.com/.well-known/oauth-authorization-server"}}\
}',
);

/** Values several operations share, by key; `operations` holds their keys. */
const shared = JSON.parse(
  '{\
  "29":{"path":["id"]},\
  "39":[[{"scheme":"oauth","scopes":["flights:read"]}]],\
  "51":{"mediaType":"application/json","required":true}\
}',
);

/** How each method sends its request: `[name, method, path, { parameters, body, declared errors, … }]`. */
const operations = JSON.parse(
  '[\
  ["findFlights","GET","/flights/search",{"security":39,"params":{"querystring":{"content":"application/x-www-form-urlencoded","encoding":{"when":{"style":"deepObject","explode":true}}}}}],\
  ["searchFlights","QUERY","/flights/search",{"security":39,"body":51}],\
  ["lookupFlights","GET","/flights/lookup",{"security":39,"params":{"querystring":{"content":"application/json"}}}],\
  ["selectFlights","GET","/flights/select",{"security":39,"params":{"querystring":{"content":"application/jsonpath"}}}],\
  ["getFlight","GET","/flights/{id}",{"security":39,"params":29}],\
  ["copyFlight","COPY","/flights/{id}",{"security":39,"params":{"path":["id"],"header":["Destination"]}}],\
  ["linkFlightsById","LINK","/flights/{id}",{"security":39,"params":29,"body":51}],\
  ["uploadPhotos","POST","/flights/{id}/photos",{"security":39,"params":29,"body":{"mediaType":"multipart/mixed","required":true,"positional":{"prefix":[{"contentType":"application/json"}],"items":{"contentType":"image/png"}}}}],\
  ["addPet","POST","/pets",{"server":1,"body":51}],\
  ["getPrefs","GET","/prefs",{"params":{"cookie":[{"name":"color","style":"cookie"},{"name":"colors","style":"cookie"},{"name":"list","style":"cookie","explode":false},{"name":"rgb","style":"cookie"},{"name":"box","style":"cookie","explode":false},"legacy"]}}]\
]',
);

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export function createClient(options = {}) {
  const runtime = createRuntime(servers, options, securitySchemes, features);
  return Object.fromEntries(
    operations.map((row) => [row.at(0), runtime.operation(row, shared)]),
  );
}
