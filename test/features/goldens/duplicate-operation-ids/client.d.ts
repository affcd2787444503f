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
  /** Base URL of the API (the spec declares no server). */
  baseUrl: string;
}

/** One method per operation of Duplicates 1. */
export interface Client {
  /** `GET /pets` (operationId `getPet`) */
  getPet: Operation<paths["/pets"]["get"]>;
  /** `GET /pets/{id}` (operationId `getPet`) */
  getPet3: Operation<paths["/pets/{id}"]["get"]>;
  /** `POST /pets/{id}` (operationId `getPet_2`) */
  getPet2: Operation<paths["/pets/{id}"]["post"]>;
  /** `DELETE /pets/{id}` (operationId `getPet`) */
  getPet4: Operation<paths["/pets/{id}"]["delete"]>;
}

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export declare function createClient(options: ClientOptions): Client;
