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

/** One method per operation of Encodings 1.0.0. */
export interface Client {
  /** `GET /v1/customers` (operationId `GetCustomers`) */
  getCustomers: Operation<paths["/v1/customers"]["get"]>;
  /** `POST /v1/customers` (operationId `PostCustomers`) */
  postCustomers: Operation<
    paths["/v1/customers"]["post"],
    "application/x-www-form-urlencoded"
  >;
  /** `POST /v1/files` (operationId `PostFiles`) */
  postFiles: Operation<paths["/v1/files"]["post"], "multipart/form-data">;
}

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export declare function createClient(options: ClientOptions): Client;
