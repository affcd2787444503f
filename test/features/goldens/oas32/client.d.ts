import type { paths } from "./schema.js";
import type {
  ClientOptions as RuntimeClientOptions,
  Credential,
  Operation,
} from "./runtime/client/types.js";
import type { OAuth2DeviceFlow } from "./runtime/client/oauth.js";

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
export { OAuth2Error, type DeviceCodePrompt } from "./runtime/client/oauth.js";

/** Options of `createClient`: the runtime's options plus one per server variable and one per security scheme. */
export interface ClientOptions extends RuntimeClientOptions {
  /**
   * Overrides the server URL.
   * @default "https://api.example.com"
   */
  baseUrl?: string | undefined;
  /**
   * Overrides the server URL.
   * @default "https://eu.api.example.com"
   */
  euCentralUrl?: string | undefined;
  /** An access token of security scheme `oauth` (OAuth 2), sent as `Authorization: Bearer <token>`; a function is told the scopes the operation asks for. Or `{ deviceFlow: { clientId, onUserCode } }`: the client runs the OAuth 2 device authorization flow (RFC 8628) against the spec's endpoints, shows you the user code, and renews the token, on the operations that accept it. A function is called before each attempt, the first and every retry (refresh tokens there). */
  oauth?: Credential<string> | OAuth2DeviceFlow | undefined;
  /** The same credential as `oauth` (the spec's only scheme), under the name most SDKs use; `oauth` wins when both are set. */
  apiKey?: Credential<string> | OAuth2DeviceFlow | undefined;
}

/** One method per operation of OpenAPI 3.2 features 1. */
export interface Client {
  /**
   * The same search as a form in the query string
   *
   * `GET /flights/search` (operationId `findFlights`)
   *
   * Tags: Flights
   */
  findFlights: Operation<paths["/flights/search"]["get"]>;
  /**
   * Search flights with a QUERY body (safe and idempotent, unlike POST)
   *
   * `QUERY /flights/search` (operationId `searchFlights`)
   *
   * Tags: Flights › International; Beta (badge)
   */
  searchFlights: Operation<paths["/flights/search"]["query"]>;
  /** `GET /flights/lookup` (operationId `lookupFlights`) */
  lookupFlights: Operation<paths["/flights/lookup"]["get"]>;
  /** `GET /flights/select` (operationId `selectFlights`) */
  selectFlights: Operation<paths["/flights/select"]["get"]>;
  /** `GET /flights/{id}` (operationId `getFlight`) */
  getFlight: Operation<paths["/flights/{id}"]["get"]>;
  /**
   * Copy a flight to the Destination
   *
   * `COPY /flights/{id}` (operationId `copyFlight`)
   *
   * Tags: Beta (badge)
   */
  copyFlight: Operation<paths["/flights/{id}"]["COPY"]>;
  /**
   * Link two flights (no operationId)
   *
   * `LINK /flights/{id}`
   */
  linkFlightsById: Operation<paths["/flights/{id}"]["LINK"]>;
  /**
   * A manifest, then any number of photos (parts by position)
   *
   * `POST /flights/{id}/photos` (operationId `uploadPhotos`)
   */
  uploadPhotos: Operation<
    paths["/flights/{id}/photos"]["post"],
    "multipart/mixed"
  >;
  /** `POST /pets` (operationId `addPet`) */
  addPet: Operation<paths["/pets"]["post"]>;
  /** `GET /prefs` (operationId `getPrefs`) */
  getPrefs: Operation<paths["/prefs"]["get"]>;
}

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export declare function createClient(options?: ClientOptions): Client;
