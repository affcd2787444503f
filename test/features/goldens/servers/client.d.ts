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
   * @default "https://api.shop.example/v1"
   */
  baseUrl?: string | undefined;
  /**
   * Overrides the server URL.
   * @default "https://uploads.shop.example"
   */
  uploadsUrl?: string | undefined;
  /**
   * Overrides the server URL (EU region).
   * @default "https://shop.example/reports"
   */
  euRegionUrl?: string | undefined;
  /**
   * Overrides the server URL (The old service, kept running until every customer has moved to the new one.).
   * @default "/v0"
   */
  v0Url?: string | undefined;
  /** The URL of the operations on the server `https://`, which names no host (Use the exact upload_url returned when the batch was created; do not construct it.): required before calling them. */
  server5Url?: string | undefined;
}

/** One method per operation of Servers 1.0.0. */
export interface Client {
  /** `GET /items` (operationId `listItems`) */
  listItems: Operation<paths["/items"]["get"]>;
  /** `POST /uploads` (operationId `upload`) */
  upload: Operation<paths["/uploads"]["post"]>;
  /** `GET /reports` (operationId `getReport`) */
  getReport: Operation<paths["/reports"]["get"]>;
  /** `GET /legacy` (operationId `getLegacy`) */
  getLegacy: Operation<paths["/legacy"]["get"]>;
  /** `PUT /batches/upload` (operationId `uploadBatch`) */
  uploadBatch: Operation<paths["/batches/upload"]["put"]>;
}

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export declare function createClient(options?: ClientOptions): Client;
