import type { paths } from "./schema.js";
import type {
  ClientOptions as RuntimeClientOptions,
  Operation,
  StreamingOperation,
} from "./runtime/client/types.js";

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

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export declare function createClient(options: ClientOptions): Client;
