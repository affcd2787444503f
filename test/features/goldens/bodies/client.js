// @ts-self-types="./client.d.ts"
import { createRuntime } from "./runtime/client/runtime.js";
import { bodiesFeature } from "./runtime/client/serialize.js";

export {
  ApiError,
  ConnectionError,
  TimeoutError,
} from "./runtime/client/errors.js";
export { formPart } from "./runtime/client/serialize.js";

/** What the operations need beyond JSON bodies and OpenAPI's default parameter styles. */
const features = [bodiesFeature];

/** The spec's servers; each operation names one by index. */
const servers = JSON.parse(
  '[{"url":"{url}","variables":{"url":{"option":"baseUrl","default":""}}}]',
);

/** The spec's security schemes, by key: where each credential goes and which client options hold it. */
const securitySchemes = JSON.parse("{}");

/** Values several operations share; `operations` holds their indexes here. */
const shared = JSON.parse(
  '[{"path":[{"name":"id"}]},["default"],{"path":[{"name":"petId"}]}]',
);

/** How each method sends its request: method, path, parameters, body and declared errors. */
const operations = JSON.parse(
  '[{"name":"submitForm","method":"POST","path":"/forms","body":{"mediaType":"application/x-www-form-urlencoded","required":true}},{"name":"upload","method":"POST","path":"/uploads","body":{"mediaType":"multipart/form-data","required":true}},{"name":"getBlob","method":"GET","path":"/blobs/{id}","params":0},{"name":"putBlob","method":"PUT","path":"/blobs/{id}","params":0,"body":{"mediaType":"application/octet-stream","required":true}},{"name":"postNote","method":"POST","path":"/notes","body":{"mediaType":"text/plain","required":true}},{"name":"maybe","method":"GET","path":"/maybe","errors":1},{"name":"onlyDefault","method":"GET","path":"/only-default","errors":1},{"name":"getNoOperationIdByPetId","method":"GET","path":"/no-operation-id/{petId}","params":2},{"name":"postNoOperationIdByPetId","method":"POST","path":"/no-operation-id/{petId}","params":2}]',
);

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export function createClient(options) {
  const runtime = createRuntime(servers, options, securitySchemes, features);
  return Object.fromEntries(
    operations.map((row) => [row.name, runtime.operation(row, shared)]),
  );
}
