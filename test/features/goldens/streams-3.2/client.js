// @ts-self-types="./client.d.ts"
import { createRuntime } from "./runtime/client/runtime.js";
import { sseFeature } from "./runtime/client/sse.js";
import { recordsFeature } from "./runtime/client/records.js";

export {
  ApiError,
  ConnectionError,
  TimeoutError,
} from "./runtime/client/errors.js";
export { Stream } from "./runtime/client/sse.js";

/** What the operations need beyond JSON bodies and OpenAPI's default parameter styles. */
const features = [sseFeature, recordsFeature];

/** The spec's servers; each operation names one by index. */
const servers = JSON.parse(
  '[{"url":"{url}","variables":{"url":{"option":"baseUrl","default":""}}}]',
);

/** The spec's security schemes, by key: where each credential goes and which client options hold it. */
const securitySchemes = JSON.parse("{}");

/** Values several operations share; `operations` holds their indexes here. */
const shared = JSON.parse("[]");

/** How each method sends its request: method, path, parameters, body and declared errors. */
const operations = JSON.parse(
  '[{"name":"streamEvents","method":"GET","path":"/events","stream":{"mediaType":"text/event-stream","sse":{"events":true,"json":{"byEvent":{"tick":true,"note":false},"otherwise":false}}}},{"name":"streamPlanetEvents","method":"GET","path":"/planet-events","stream":{"mediaType":"text/event-stream"}},{"name":"streamTicksJsonl","method":"GET","path":"/ticks.jsonl","params":{"query":[{"name":"count"}]},"stream":{"mediaType":"application/jsonl"}},{"name":"streamTicksNdjson","method":"GET","path":"/ticks.ndjson","stream":{"mediaType":"application/x-ndjson"}},{"name":"streamTicksSeq","method":"GET","path":"/ticks.seq","stream":{"mediaType":"application/json-seq"}},{"name":"createChat","method":"POST","path":"/chat","body":{"mediaType":"application/json","required":true},"stream":{"mediaType":"text/event-stream","when":{"in":"body","name":"stream"},"sse":{"events":true,"json":true}}}]',
);

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export function createClient(options) {
  const runtime = createRuntime(servers, options, securitySchemes, features);
  return Object.fromEntries(
    operations.map((row) => [row.name, runtime.operation(row, shared)]),
  );
}
