// @ts-self-types="./client.d.ts"
import { createRuntime } from "./runtime/client/runtime.js";
import { authFeature } from "./runtime/client/auth.js";
import { cookiesFeature } from "./runtime/client/headers.js";

export {
  ApiError,
  ConnectionError,
  ResponseTooLargeError,
  TimeoutError,
} from "./runtime/client/errors.js";

/** What the operations need beyond JSON bodies and OpenAPI's default parameter styles. */
const features = [authFeature, cookiesFeature];

/** The spec's servers; each operation names one by index. */
const servers = JSON.parse(
  '[\
  {"url":"{url}","variables":{"url":{"option":"baseUrl","default":"http://localhost/api"}}}\
]',
);

/** The spec's security schemes, by key: where each credential goes and which client options hold it. */
const securitySchemes = JSON.parse(
  '{\
  "bearerAuth":{"type":"bearer","options":["bearerAuth"]},\
  "basicAuth":{"type":"basic","options":["basicAuth"]},\
  "tokenAuth":{"type":"http","scheme":"Token","options":["tokenAuth"]},\
  "headerKey":{"type":"apiKey","in":"header","name":"X-API-Key","options":["headerKey"]},\
  "queryKey":{"type":"apiKey","in":"query","name":"api_key","options":["queryKey"]},\
  "cookieKey":{"type":"apiKey","in":"cookie","name":"session_id","options":["cookieKey"]},\
  "botToken":{"type":"apiKey","in":"header","name":"Authorization","options":["botToken"]},\
  "oauth":{"type":"bearer","options":["oauth"]},\
  "oidc":{"type":"bearer","options":["oidc"]}\
}',
);

/** Values several operations share, by key; `operations` holds their keys. */
const shared = JSON.parse("{}");

/** How each method sends its request: `[name, method, path, { parameters, body, declared errors, … }]`. */
const operations = JSON.parse(
  '[\
  ["rootDefault","GET","/default",{"security":[[{"scheme":"bearerAuth"}]]}],\
  ["basic","GET","/basic",{"security":[[{"scheme":"basicAuth"}]]}],\
  ["token","GET","/token",{"security":[[{"scheme":"tokenAuth"}]]}],\
  ["headerKey","GET","/header-key",{"security":[[{"scheme":"headerKey"}]]}],\
  ["queryKey","GET","/query-key",{"security":[[{"scheme":"queryKey"}]],"params":{"query":["q"]}}],\
  ["cookieKey","GET","/cookie-key",{"security":[[{"scheme":"cookieKey"}]],"params":{"cookie":["theme"]}}],\
  ["bot","GET","/bot",{"security":[[{"scheme":"botToken"}]]}],\
  ["oauth","GET","/oauth",{"security":[[{"scheme":"oauth","scopes":["read","write"]}]]}],\
  ["oidc","GET","/oidc",{"security":[[{"scheme":"oidc"}]]}],\
  ["either","GET","/either",{"security":[[{"scheme":"basicAuth"}],[{"scheme":"bearerAuth"}]]}],\
  ["both","GET","/both",{"security":[[{"scheme":"headerKey"},{"scheme":"queryKey"}]]}],\
  ["optional","GET","/optional",{"security":[[],[{"scheme":"botToken"}]]}],\
  ["noAuth","GET","/public"],\
  ["mtls","GET","/mtls",{"security":[[{"scheme":"mtls"}]]}]\
]',
);

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export function createClient(options = {}) {
  const runtime = createRuntime(servers, options, securitySchemes, features);
  return Object.fromEntries(
    operations.map((row) => [row.at(0), runtime.operation(row, shared)]),
  );
}
