import type { paths } from "./schema.js";
import type {
  ClientOptions as RuntimeClientOptions,
  Operation,
  OperationRow,
  PaginatedOperation,
  SecuritySchemeSpec,
  ServerSpec,
  StreamingOperation,
} from "./runtime/client/types.js";
import {
  createRuntime,
  type RuntimeFeatures,
} from "./runtime/client/runtime.js";
import { streamsFeature } from "./runtime/client/records.js";
export {
  ApiError,
  ConnectionError,
  ResponseTooLargeError,
  TimeoutError,
} from "./runtime/client/errors.js";
export type {
  ApiErrorOf,
  ApiResponse,
  CredentialContext,
  RequestOptions,
} from "./runtime/client/types.js";
export { Stream } from "./runtime/client/sse.js";
/** What the operations need beyond JSON bodies and OpenAPI's default parameter styles. */
const features: RuntimeFeatures[] = [streamsFeature];
/** The spec's servers; each operation names one by index. */
const servers: ServerSpec[] = JSON.parse(
  '[\
  {"url":"{url}","variables":{"url":{"option":"baseUrl","default":""}}}\
]',
);
/** The spec's security schemes, by key: where each credential goes and which client options hold it. */
const securitySchemes: Record<string, SecuritySchemeSpec> = JSON.parse("{}");

/** Options of `createClient`: the runtime's options plus one per server variable. The spec declares no security scheme: send credentials with `headers`. */
export interface ClientOptions extends RuntimeClientOptions {
  /** Base URL of the API (the spec declares no server). */
  baseUrl: string;
}

/** One method per operation of Streams 1. */
export interface Client {
  /**
   * Ticks as JSON events, notes as text events (the specification's SSE example, reduced)
   *
   * `GET /events` (operationId `streamEvents`)
   */
  streamEvents: Operation<paths["/events"]["get"]>;
  /**
   * Scalar Galaxy's shape, an itemSchema without `data` (it describes each event's JSON data)
   *
   * `GET /planet-events` (operationId `streamPlanetEvents`)
   */
  streamPlanetEvents: Operation<paths["/planet-events"]["get"]>;
  /** `GET /ticks.jsonl` (operationId `streamTicksJsonl`) */
  streamTicksJsonl: Operation<paths["/ticks.jsonl"]["get"]>;
  /** `GET /ticks.ndjson` (operationId `streamTicksNdjson`) */
  streamTicksNdjson: Operation<paths["/ticks.ndjson"]["get"]>;
  /** `GET /ticks.seq` (operationId `streamTicksSeq`) */
  streamTicksSeq: Operation<paths["/ticks.seq"]["get"]>;
  /**
   * A JSON answer, or (with `stream`) a stream of events whose data is a chunk
   *
   * `POST /chat` (operationId `createChat`)
   */
  createChat: StreamingOperation<
    paths["/chat"]["post"],
    "application/json",
    "text/event-stream",
    "stream"
  >;
}

/** Values several operations share, by key; `operations` holds their keys. */
const shared: Record<number, unknown> = JSON.parse("{}");
/** How each method sends its request: `[name, method, path, { parameters, body, declared errors, … }]`. */
const operations: OperationRow[] = JSON.parse(
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
export function createClient(options: ClientOptions): Client {
  const runtime = createRuntime(servers, options, securitySchemes, features);
  return Object.fromEntries(
    operations.map((row) => [
      row.at(0) as string,
      runtime.operation(row, shared),
    ]),
  ) as unknown as Client;
}
