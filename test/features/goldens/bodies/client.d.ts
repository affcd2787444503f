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

/** One method per operation of Bodies and responses 1.0.0. */
export interface Client {
  /** `POST /forms` (operationId `submitForm`) */
  submitForm: Operation<
    paths["/forms"]["post"],
    "application/x-www-form-urlencoded"
  >;
  /** `POST /uploads` (operationId `upload`) */
  upload: Operation<paths["/uploads"]["post"], "multipart/form-data">;
  /** `GET /blobs/{id}` (operationId `getBlob`) */
  getBlob: Operation<paths["/blobs/{id}"]["get"]>;
  /** `PUT /blobs/{id}` (operationId `putBlob`) */
  putBlob: Operation<paths["/blobs/{id}"]["put"], "application/octet-stream">;
  /** `POST /notes` (operationId `postNote`) */
  postNote: Operation<paths["/notes"]["post"], "text/plain">;
  /** `GET /maybe` (operationId `maybe`) */
  maybe: Operation<paths["/maybe"]["get"]>;
  /** `GET /only-default` (operationId `onlyDefault`) */
  onlyDefault: Operation<paths["/only-default"]["get"]>;
  /** `GET /no-operation-id/{petId}` */
  getNoOperationIdByPetId: Operation<paths["/no-operation-id/{petId}"]["get"]>;
  /** `POST /no-operation-id/{petId}` */
  postNoOperationIdByPetId: Operation<
    paths["/no-operation-id/{petId}"]["post"]
  >;
}

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export declare function createClient(options: ClientOptions): Client;
