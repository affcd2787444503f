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
   * @default "http://localhost/api"
   */
  baseUrl?: string | undefined;
}

/** One method per operation of Parameters 1.0.0. */
export interface Client {
  /** `GET /items/{id}` (operationId `getItem`) */
  getItem: Operation<paths["/items/{id}"]["get"]>;
  /** `DELETE /items/{id}` (operationId `deleteItem`) */
  deleteItem: Operation<paths["/items/{id}"]["delete"]>;
  /** `GET /search` (operationId `search`) */
  search: Operation<paths["/search"]["get"]>;
  /** `GET /styles/{simple}/{label}/{matrix}/{labelExplode}/{matrixExplode}/{simpleObject}/{simpleExplode}` (operationId `pathStyles`) */
  pathStyles: Operation<
    paths["/styles/{simple}/{label}/{matrix}/{labelExplode}/{matrixExplode}/{simpleObject}/{simpleExplode}"]["get"]
  >;
  /** `GET /scalars/{label}/{matrix}` (operationId `pathScalars`) */
  pathScalars: Operation<paths["/scalars/{label}/{matrix}"]["get"]>;
}

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export declare function createClient(options?: ClientOptions): Client;
