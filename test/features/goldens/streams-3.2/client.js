// @ts-self-types="./client.d.ts"
import { createRuntime } from "./runtime/client/runtime.js";
import { streamsFeature } from "./runtime/client/records.js";

export {
  ApiError,
  ConnectionError,
  ResponseTooLargeError,
  TimeoutError,
} from "./runtime/client/errors.js";
export { Stream } from "./runtime/client/sse.js";

/** What the operations need beyond JSON bodies and OpenAPI's default parameter styles. */
const features = [streamsFeature];

/** The spec's servers; each operation names one by index. */
const servers = JSON.parse(
  '[\
  {"url":"{url}","variables":{"url":{"option":"baseUrl","default":""}}}\
]',
);

/** The spec's security schemes, by key: where each credential goes and which client options hold it. */
const securitySchemes = JSON.parse("{}");

/** Values several operations share, by key; `operations` holds their keys. */
const shared = JSON.parse("{}");

/** How each method sends its request: `[name, method, path, { parameters, body, declared errors, … }]`. */
const operations = JSON.parse(
  '[\
  ["streamEvents","GET","/events",{"stream":{"mediaType":"text/event-stream","sse":{"events":true,"json":{"byEvent":{"tick":true,"note":false},"otherwise":false}}}}],\
  ["streamPlanetEvents","GET","/planet-events",{"stream":{"mediaType":"text/event-stream"}}],\
  ["streamTicksJsonl","GET","/ticks.jsonl",{"params":{"query":["count"]},"stream":{"mediaType":"application/jsonl"}}],\
  ["streamTicksNdjson","GET","/ticks.ndjson",{"stream":{"mediaType":"application/x-ndjson"}}],\
  ["streamTicksSeq","GET","/ticks.seq",{"stream":{"mediaType":"application/json-seq"}}],\
  ["createChat","POST","/chat",{"body":{"mediaType":"application/json","required":true},"stream":{"mediaType":"text/event-stream","when":{"in":"body","name":"stream"},"sse":{"events":true,"json":true}}}]\
]',
);

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export function createClient(options) {
  const runtime = createRuntime(servers, options, securitySchemes, features);
  return Object.fromEntries(
    operations.map((row) => [row.at(0), runtime.operation(row, shared)]),
  );
}
