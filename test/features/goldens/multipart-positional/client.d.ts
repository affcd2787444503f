import type { paths } from "./schema.js";
import type {
  ClientOptions as RuntimeClientOptions,
  Operation,
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
export { formPart, type FormPart } from "./runtime/client/serialize.js";

/** Options of `createClient`: the runtime's options plus one per server variable. The spec declares no security scheme: send credentials with `headers`. */
export interface ClientOptions extends RuntimeClientOptions {
  /** Base URL of the API (the spec declares no server). */
  baseUrl: string;
}

/** One method per operation of Multipart part headers by position 1. */
export interface Client {
  /**
   * A JSON manifest, then any number of blobs, each with its checksum
   *
   * `POST /batches` (operationId `uploadBatch`)
   */
  uploadBatch: Operation<paths["/batches"]["post"], "multipart/mixed">;
  /**
   * The same upload as a form or as parts by position, each with its own part headers
   *
   * `POST /notes` (operationId `addNote`)
   */
  addNote: Operation<paths["/notes"]["post"], "multipart/form-data">;
}

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export declare function createClient(options: ClientOptions): Client;
