// @ts-self-types="./client.d.ts"
import { createRuntime } from "./runtime/client/runtime.js";
import { authFeature } from "./runtime/client/auth.js";
import { cookiesFeature } from "./runtime/client/headers.js";

export {
  ApiError,
  ConnectionError,
  TimeoutError,
} from "./runtime/client/errors.js";

/** What the operations need beyond JSON bodies and OpenAPI's default parameter styles. */
const features = [authFeature, cookiesFeature];

/** The spec's servers; each operation names one by index. */
const servers = JSON.parse(
  '[{"url":"{url}","variables":{"url":{"option":"baseUrl","default":"http://localhost/api"}}}]',
);

/** The spec's security schemes, by key: where each credential goes and which client options hold it. */
const securitySchemes = JSON.parse(
  '{"bearerAuth":{"type":"bearer","options":["bearerAuth"]},"basicAuth":{"type":"basic","options":["basicAuth"]},"tokenAuth":{"type":"http","scheme":"Token","options":["tokenAuth"]},"headerKey":{"type":"apiKey","in":"header","name":"X-API-Key","options":["headerKey"]},"queryKey":{"type":"apiKey","in":"query","name":"api_key","options":["queryKey"]},"cookieKey":{"type":"apiKey","in":"cookie","name":"session_id","options":["cookieKey"]},"botToken":{"type":"apiKey","in":"header","name":"Authorization","options":["botToken"]},"oauth":{"type":"bearer","options":["oauth"]},"oidc":{"type":"bearer","options":["oidc"]}}',
);

/** Values several operations share; `operations` holds their indexes here. */
const shared = JSON.parse("[]");

/** How each method sends its request: method, path, parameters, body and declared errors. */
const operations = JSON.parse(
  '[{"name":"rootDefault","method":"GET","path":"/default","security":[[{"scheme":"bearerAuth"}]]},{"name":"basic","method":"GET","path":"/basic","security":[[{"scheme":"basicAuth"}]]},{"name":"token","method":"GET","path":"/token","security":[[{"scheme":"tokenAuth"}]]},{"name":"headerKey","method":"GET","path":"/header-key","security":[[{"scheme":"headerKey"}]]},{"name":"queryKey","method":"GET","path":"/query-key","security":[[{"scheme":"queryKey"}]],"params":{"query":[{"name":"q"}]}},{"name":"cookieKey","method":"GET","path":"/cookie-key","security":[[{"scheme":"cookieKey"}]],"params":{"cookie":[{"name":"theme"}]}},{"name":"bot","method":"GET","path":"/bot","security":[[{"scheme":"botToken"}]]},{"name":"oauth","method":"GET","path":"/oauth","security":[[{"scheme":"oauth","scopes":["read","write"]}]]},{"name":"oidc","method":"GET","path":"/oidc","security":[[{"scheme":"oidc"}]]},{"name":"either","method":"GET","path":"/either","security":[[{"scheme":"basicAuth"}],[{"scheme":"bearerAuth"}]]},{"name":"both","method":"GET","path":"/both","security":[[{"scheme":"headerKey"},{"scheme":"queryKey"}]]},{"name":"optional","method":"GET","path":"/optional","security":[[],[{"scheme":"botToken"}]]},{"name":"noAuth","method":"GET","path":"/public"},{"name":"mtls","method":"GET","path":"/mtls","security":[[{"scheme":"mtls"}]]}]',
);

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export function createClient(options = {}) {
  const runtime = createRuntime(servers, options, securitySchemes, features);
  return Object.fromEntries(
    operations.map((row) => [row.name, runtime.operation(row, shared)]),
  );
}
