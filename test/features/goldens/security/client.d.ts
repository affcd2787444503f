import type { paths } from "./schema.js";
import type {
  BasicCredentials,
  ClientOptions as RuntimeClientOptions,
  Credential,
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

/** Options of `createClient`: the runtime's options plus one per server variable and one per security scheme. */
export interface ClientOptions extends RuntimeClientOptions {
  /**
   * Overrides the server URL.
   * @default "http://localhost/api"
   */
  baseUrl?: string | undefined;
  /** The token of security scheme `bearerAuth` (HTTP bearer, JWT), sent as `Authorization: Bearer <token>`, on the operations that accept it. A function is called before each attempt, the first and every retry (refresh tokens there). */
  bearerAuth?: Credential<string> | undefined;
  /** The `{ username, password }` of security scheme `basicAuth` (HTTP basic), sent as `Authorization: Basic <base64>`, on the operations that accept it. A function is called before each attempt, the first and every retry (refresh tokens there). */
  basicAuth?: Credential<BasicCredentials> | undefined;
  /**
   * The credentials of security scheme `tokenAuth` (HTTP `Token`), sent as `Authorization: Token <credentials>`, on the operations that accept it. A function is called before each attempt, the first and every retry (refresh tokens there).
   *
   * GitHub-style `Authorization: Token <value>`.
   */
  tokenAuth?: Credential<string> | undefined;
  /** The API key of security scheme `headerKey`, sent as it is in the header `X-API-Key`, on the operations that accept it. A function is called before each attempt, the first and every retry (refresh tokens there). */
  headerKey?: Credential<string> | undefined;
  /** The API key of security scheme `queryKey`, sent as it is in the query parameter `api_key`, on the operations that accept it. A function is called before each attempt, the first and every retry (refresh tokens there). */
  queryKey?: Credential<string> | undefined;
  /** The API key of security scheme `cookieKey`, sent as it is in the cookie `session_id`, on the operations that accept it. A function is called before each attempt, the first and every retry (refresh tokens there). */
  cookieKey?: Credential<string> | undefined;
  /**
   * The API key of security scheme `botToken`, sent as it is in the header `Authorization`: include the prefix the API expects, e.g. `Bot <token>` or `Bearer <token>`, on the operations that accept it. A function is called before each attempt, the first and every retry (refresh tokens there).
   *
   * Discord bot token
   */
  botToken?: Credential<string> | undefined;
  /** An access token of security scheme `oauth` (OAuth 2), sent as `Authorization: Bearer <token>`; a function is told the scopes the operation asks for, on the operations that accept it. A function is called before each attempt, the first and every retry (refresh tokens there). */
  oauth?: Credential<string> | undefined;
  /** An access token of security scheme `oidc` (OpenID Connect), sent as `Authorization: Bearer <token>`; a function is told the scopes the operation asks for, on the operations that accept it. A function is called before each attempt, the first and every retry (refresh tokens there). */
  oidc?: Credential<string> | undefined;
}

/** One method per operation of Security 1.0.0. */
export interface Client {
  /** `GET /default` (operationId `rootDefault`) */
  rootDefault: Operation<paths["/default"]["get"]>;
  /** `GET /basic` (operationId `basic`) */
  basic: Operation<paths["/basic"]["get"]>;
  /** `GET /token` (operationId `token`) */
  token: Operation<paths["/token"]["get"]>;
  /** `GET /header-key` (operationId `headerKey`) */
  headerKey: Operation<paths["/header-key"]["get"]>;
  /** `GET /query-key` (operationId `queryKey`) */
  queryKey: Operation<paths["/query-key"]["get"]>;
  /** `GET /cookie-key` (operationId `cookieKey`) */
  cookieKey: Operation<paths["/cookie-key"]["get"]>;
  /** `GET /bot` (operationId `bot`) */
  bot: Operation<paths["/bot"]["get"]>;
  /** `GET /oauth` (operationId `oauth`) */
  oauth: Operation<paths["/oauth"]["get"]>;
  /** `GET /oidc` (operationId `oidc`) */
  oidc: Operation<paths["/oidc"]["get"]>;
  /**
   * Stripe's shape — basic or bearer.
   *
   * `GET /either` (operationId `either`)
   */
  either: Operation<paths["/either"]["get"]>;
  /**
   * a combination — the header key and the query key together.
   *
   * `GET /both` (operationId `both`)
   */
  both: Operation<paths["/both"]["get"]>;
  /**
   * Discord's shape — anonymous, or with the bot token.
   *
   * `GET /optional` (operationId `optional`)
   */
  optional: Operation<paths["/optional"]["get"]>;
  /** `GET /public` (operationId `noAuth`) */
  noAuth: Operation<paths["/public"]["get"]>;
  /** `GET /mtls` (operationId `mtls`) */
  mtls: Operation<paths["/mtls"]["get"]>;
}

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export declare function createClient(options?: ClientOptions): Client;
