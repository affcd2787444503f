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
import { sseFeature } from "./runtime/client/sse.js";
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
const features: RuntimeFeatures[] = [sseFeature];
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

/** One method per operation of Streaming 1. */
export interface Client {
  /** `POST /chat/completions` (operationId `createChatCompletion`) */
  createChatCompletion: StreamingOperation<
    paths["/chat/completions"]["post"],
    "application/json",
    "text/event-stream",
    "stream"
  >;
  /** `POST /completions` (operationId `createCompletion`) */
  createCompletion: StreamingOperation<
    paths["/completions"]["post"],
    "application/json",
    "text/event-stream",
    "stream"
  >;
}

/** Values several operations share, by key; `operations` holds their keys. */
const shared: Record<number, unknown> = JSON.parse(
  '{\
  "51":{"mediaType":"application/json","required":true},\
  "62":{"mediaType":"text/event-stream","when":{"in":"body","name":"stream"}}\
}',
);
/** How each method sends its request: `[name, method, path, { parameters, body, declared errors, … }]`. */
const operations: OperationRow[] = JSON.parse(
  '[\
  ["createChatCompletion","POST","/chat/completions",{"body":51,"stream":62}],\
  ["createCompletion","POST","/completions",{"body":51,"stream":62}]\
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
