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
  ResponseTooLargeError,
  TimeoutError,
} from "./runtime/client/errors.js";

/** What the operations need beyond JSON bodies and OpenAPI's default parameter styles. */
const features = [stylesFeature, headerParamsFeature, cookiesFeature];

/** The spec's servers; each operation names one by index. */
const servers = JSON.parse(
  '[\
  {"url":"{url}","variables":{"url":{"option":"baseUrl","default":"http://localhost/api"}}}\
]',
);

/** The spec's security schemes, by key: where each credential goes and which client options hold it. */
const securitySchemes = JSON.parse("{}");

/** Values several operations share, by key; `operations` holds their keys. */
const shared = JSON.parse("{}");

/** How each method sends its request: `[name, method, path, { parameters, body, declared errors, … }]`. */
const operations = JSON.parse(
  '[\
  ["getItem","GET","/items/{id}",{"params":{"path":["id"],"query":["verbose"]}}],\
  ["deleteItem","DELETE","/items/{id}",{"params":{"path":["id"],"query":["verbose","limit"]}}],\
  ["search","GET","/search",{"params":{"query":["ids",{"name":"idsCsv","explode":false},{"name":"idsSpace","style":"spaceDelimited"},{"name":"idsPipe","style":"pipeDelimited"},"filter",{"name":"point","explode":false},{"name":"where","style":"deepObject"},{"name":"bar","style":"pipeDelimited"},"limit"],"header":["X-Trace",{"name":"X-Coords","explode":true},"X-Tags"],"cookie":["session"]}}],\
  ["pathStyles","GET","/styles/{simple}/{label}/{matrix}/{labelExplode}/{matrixExplode}/{simpleObject}/{simpleExplode}",{"params":{"path":["simple",{"name":"label","style":"label"},{"name":"matrix","style":"matrix"},{"name":"labelExplode","style":"label","explode":true},{"name":"matrixExplode","style":"matrix","explode":true},"simpleObject",{"name":"simpleExplode","explode":true}]}}],\
  ["pathScalars","GET","/scalars/{label}/{matrix}",{"params":{"path":[{"name":"label","style":"label"},{"name":"matrix","style":"matrix"}]}}]\
]',
);

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export function createClient(options = {}) {
  const runtime = createRuntime(servers, options, securitySchemes, features);
  return Object.fromEntries(
    operations.map((row) => [row.at(0), runtime.operation(row, shared)]),
  );
}
