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

/** One method per operation of allOf / oneOf / anyOf, discriminators, recursion, additionalProperties 1.0.0. */
export interface Client {
  /** `POST /pets` (operationId `createPet`) */
  createPet: Operation<paths["/pets"]["post"]>;
  /** `POST /shapes` (operationId `createShape`) */
  createShape: Operation<paths["/shapes"]["post"]>;
  /** `POST /animals` (operationId `createAnimal`) */
  createAnimal: Operation<paths["/animals"]["post"]>;
  /** `POST /contacts` (operationId `addContact`) */
  addContact: Operation<paths["/contacts"]["post"]>;
  /** `POST /trees` (operationId `plantTree`) */
  plantTree: Operation<paths["/trees"]["post"]>;
  /** `POST /maps` (operationId `postMaps`) */
  postMaps: Operation<paths["/maps"]["post"]>;
}

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export declare function createClient(options: ClientOptions): Client;
