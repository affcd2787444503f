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

/** Options of `createClient`: the runtime's options plus one per server variable. The spec declares no security scheme: send credentials with `headers`. */
export interface ClientOptions extends RuntimeClientOptions {
  /**
   * Overrides the server URL.
   * @default "/api"
   */
  baseUrl?: string | undefined;
}

/** One method per operation of Path templates 1. */
export interface Client {
  /** `GET /v{api-version}/items/{id}` (operationId `getItem`) */
  getItem: Operation<paths["/v{api-version}/items/{id}"]["get"]>;
  /** `DELETE /v{api-version}/items/{id}` (operationId `deleteItem`) */
  deleteItem: Operation<paths["/v{api-version}/items/{id}"]["delete"]>;
}

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export declare function createClient(options?: ClientOptions): Client;
