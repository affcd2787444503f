// @ts-self-types="./client.d.ts"
import { createRuntime } from "./runtime/client/runtime.js";
import { bodiesFeature } from "./runtime/client/serialize.js";

export {
  ApiError,
  ConnectionError,
  ResponseTooLargeError,
  TimeoutError,
} from "./runtime/client/errors.js";
export { formPart } from "./runtime/client/serialize.js";

/** What the operations need beyond JSON bodies and OpenAPI's default parameter styles. */
const features = [bodiesFeature];

/** The spec's servers; each operation names one by index. */
const servers = JSON.parse(
  '[\
  {"url":"{url}","variables":{"url":{"option":"baseUrl","default":""}}}\
]',
);

/** The spec's security schemes, by key: where each credential goes and which client options hold it. */
const securitySchemes = JSON.parse("{}");

/** Values several operations share, by key; `operations` holds their keys. */
const shared = JSON.parse(
  '{\
  "0":["default"],\
  "29":{"path":["id"]},\
  "46":{"path":["petId"]}\
}',
);

/** How each method sends its request: `[name, method, path, { parameters, body, declared errors, … }]`. */
const operations = JSON.parse(
  '[\
  ["submitForm","POST","/forms",{"body":{"mediaType":"application/x-www-form-urlencoded","required":true}}],\
  ["upload","POST","/uploads",{"body":{"mediaType":"multipart/form-data","required":true}}],\
  ["getBlob","GET","/blobs/{id}",{"params":29}],\
  ["putBlob","PUT","/blobs/{id}",{"params":29,"body":{"mediaType":"application/octet-stream","required":true}}],\
  ["postNote","POST","/notes",{"body":{"mediaType":"text/plain","required":true}}],\
  ["maybe","GET","/maybe",{"errors":0}],\
  ["onlyDefault","GET","/only-default",{"errors":0}],\
  ["getNoOperationIdByPetId","GET","/no-operation-id/{petId}",{"params":46}],\
  ["postNoOperationIdByPetId","POST","/no-operation-id/{petId}",{"params":46}]\
]',
);

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export function createClient(options) {
  const runtime = createRuntime(servers, options, securitySchemes, features);
  return Object.fromEntries(
    operations.map((row) => [row.at(0), runtime.operation(row, shared)]),
  );
}
