// @ts-self-types="./client.d.ts"
import { createRuntime } from "./runtime/client/runtime.js";

export {
  ApiError,
  ConnectionError,
  ResponseTooLargeError,
  TimeoutError,
} from "./runtime/client/errors.js";

/** What the operations need beyond JSON bodies and OpenAPI's default parameter styles. */
const features = [];

/** The spec's servers; each operation names one by index. */
const servers = JSON.parse(
  '[\
  {"url":"{url}","variables":{"url":{"option":"baseUrl","default":"https://api.shop.example/v1"}}},\
  {"url":"{url}","variables":{"url":{"option":"uploadsUrl","default":"https://uploads.shop.example"}}},\
  {"url":"{url}","variables":{"url":{"option":"euRegionUrl","default":"https://shop.example/reports"}}},\
  {"url":"{url}","variables":{"url":{"option":"v0Url","default":"/v0"}}},\
  {"url":"{url}","variables":{"url":{"option":"server5Url","default":""}}}\
]',
);

/** The spec's security schemes, by key: where each credential goes and which client options hold it. */
const securitySchemes = JSON.parse("{}");

/** Values several operations share, by key; `operations` holds their keys. */
const shared = JSON.parse("{}");

/** How each method sends its request: `[name, method, path, { parameters, body, declared errors, … }]`. */
const operations = JSON.parse(
  '[\
  ["listItems","GET","/items"],\
  ["upload","POST","/uploads",{"server":1}],\
  ["getReport","GET","/reports",{"server":2}],\
  ["getLegacy","GET","/legacy",{"server":3}],\
  ["uploadBatch","PUT","/batches/upload",{"server":4}]\
]',
);

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export function createClient(options = {}) {
  const runtime = createRuntime(servers, options, securitySchemes, features);
  return Object.fromEntries(
    operations.map((row) => [row.at(0), runtime.operation(row, shared)]),
  );
}
