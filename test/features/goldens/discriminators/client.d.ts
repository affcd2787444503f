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

/** One method per operation of Discriminators 1. */
export interface Client {
  /** `POST /chat` (operationId `chat`) */
  chat: Operation<paths["/chat"]["post"]>;
  /** `POST /events` (operationId `postEvent`) */
  postEvent: Operation<paths["/events"]["post"]>;
  /** `POST /configs` (operationId `postConfig`) */
  postConfig: Operation<paths["/configs"]["post"]>;
  /** `POST /kinds` (operationId `postKind`) */
  postKind: Operation<paths["/kinds"]["post"]>;
  /** `POST /pets` (operationId `createPet`) */
  createPet: Operation<paths["/pets"]["post"]>;
  /** `POST /vehicles` (operationId `createVehicle`) */
  createVehicle: Operation<paths["/vehicles"]["post"]>;
  /** `POST /shapes` (operationId `createShape`) */
  createShape: Operation<paths["/shapes"]["post"]>;
}

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export declare function createClient(options: ClientOptions): Client;
