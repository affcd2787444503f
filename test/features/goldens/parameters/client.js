// @ts-self-types="./client.d.ts"
import { createRuntime } from "./runtime/client/runtime.js";
import {
  cookiesFeature,
  headerParamsFeature,
} from "./runtime/client/headers.js";
import { stylesFeature } from "./runtime/client/serialize.js";

export {
  ApiError,
  ConnectionError,
  TimeoutError,
} from "./runtime/client/errors.js";

/** What the operations need beyond JSON bodies and OpenAPI's default parameter styles. */
const features = [stylesFeature, headerParamsFeature, cookiesFeature];

/** The spec's servers; each operation names one by index. */
const servers = JSON.parse(
  '[{"url":"{url}","variables":{"url":{"option":"baseUrl","default":"http://localhost/api"}}}]',
);

/** The spec's security schemes, by key: where each credential goes and which client options hold it. */
const securitySchemes = JSON.parse("{}");

/** Values several operations share; `operations` holds their indexes here. */
const shared = JSON.parse("[]");

/** How each method sends its request: method, path, parameters, body and declared errors. */
const operations = JSON.parse(
  '[{"name":"getItem","method":"GET","path":"/items/{id}","params":{"path":[{"name":"id"}],"query":[{"name":"verbose"}]}},{"name":"deleteItem","method":"DELETE","path":"/items/{id}","params":{"path":[{"name":"id"}],"query":[{"name":"verbose"},{"name":"limit"}]}},{"name":"search","method":"GET","path":"/search","params":{"query":[{"name":"ids"},{"name":"idsCsv","explode":false},{"name":"idsSpace","style":"spaceDelimited"},{"name":"idsPipe","style":"pipeDelimited"},{"name":"filter"},{"name":"point","explode":false},{"name":"where","style":"deepObject"},{"name":"bar","style":"pipeDelimited"},{"name":"limit"}],"header":[{"name":"X-Trace"},{"name":"X-Coords","explode":true},{"name":"X-Tags"}],"cookie":[{"name":"session"}]}},{"name":"pathStyles","method":"GET","path":"/styles/{simple}/{label}/{matrix}/{labelExplode}/{matrixExplode}/{simpleObject}/{simpleExplode}","params":{"path":[{"name":"simple"},{"name":"label","style":"label"},{"name":"matrix","style":"matrix"},{"name":"labelExplode","style":"label","explode":true},{"name":"matrixExplode","style":"matrix","explode":true},{"name":"simpleObject"},{"name":"simpleExplode","explode":true}]}},{"name":"pathScalars","method":"GET","path":"/scalars/{label}/{matrix}","params":{"path":[{"name":"label","style":"label"},{"name":"matrix","style":"matrix"}]}}]',
);

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export function createClient(options = {}) {
  const runtime = createRuntime(servers, options, securitySchemes, features);
  return Object.fromEntries(
    operations.map((row) => [row.name, runtime.operation(row, shared)]),
  );
}
