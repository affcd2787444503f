import type { paths } from "./schema.js";
import type {
  ClientOptions as RuntimeClientOptions,
  Credential,
  Operation,
  OperationRow,
  PaginatedOperation,
  SecuritySchemeSpec,
  ServerSpec,
  StreamingOperation,
} from "./runtime/client/types.js";
import {
  createRuntime,
  type RuntimeFeatures,
} from "./runtime/client/runtime.js";
import { authFeature } from "./runtime/client/auth.js";
import {
  cookiesFeature,
  headerParamsFeature,
} from "./runtime/client/headers.js";
import { bodiesFeature, stylesFeature } from "./runtime/client/serialize.js";
import {
  deviceFlowFeature,
  type OAuth2DeviceFlow,
} from "./runtime/client/oauth.js";
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
/** What the operations need beyond JSON bodies and OpenAPI's default parameter styles. */
const features: RuntimeFeatures[] = [
  authFeature,
  deviceFlowFeature,
  stylesFeature,
  headerParamsFeature,
  cookiesFeature,
  bodiesFeature,
];
/** The spec's servers; each operation names one by index. */
const servers: ServerSpec[] = JSON.parse(
  '[\
  {"url":"{url}","variables":{"url":{"option":"baseUrl","default":"https://api.example.com"}}},\
  {"url":"{url}","variables":{"url":{"option":"euCentralUrl","default":"https://eu.api.example.com"}}}\
]',
);
/** The spec's security schemes, by key: where each credential goes and which client options hold it. */
const securitySchemes: Record<string, SecuritySchemeSpec> = JSON.parse(
  '{\
  "oauth":{"type":"bearer","options":["oauth","apiKey"],"oauth2":{"deviceAuthorizationUrl":"https://auth.example.com/device","tokenUrl":"https://auth.example.com/token","scopes":["flights:read","flights:write"],"metadataUrl":"https://auth.example.com/.well-known/oauth-authorization-server"}}\
}',
);

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

/** Values several operations share, by key; `operations` holds their keys. */
const shared: Record<number, unknown> = JSON.parse(
  '{\
  "29":{"path":["id"]},\
  "39":[[{"scheme":"oauth","scopes":["flights:read"]}]],\
  "51":{"mediaType":"application/json","required":true}\
}',
);
/** How each method sends its request: `[name, method, path, { parameters, body, declared errors, … }]`. */
const operations: OperationRow[] = JSON.parse(
  '[\
  ["findFlights","GET","/flights/search",{"security":39,"params":{"querystring":{"content":"application/x-www-form-urlencoded","encoding":{"when":{"style":"deepObject","explode":true}}}}}],\
  ["searchFlights","QUERY","/flights/search",{"security":39,"body":51}],\
  ["lookupFlights","GET","/flights/lookup",{"security":39,"params":{"querystring":{"content":"application/json"}}}],\
  ["selectFlights","GET","/flights/select",{"security":39,"params":{"querystring":{"content":"application/jsonpath"}}}],\
  ["getFlight","GET","/flights/{id}",{"security":39,"params":29}],\
  ["copyFlight","COPY","/flights/{id}",{"security":39,"params":{"path":["id"],"header":["Destination"]}}],\
  ["linkFlightsById","LINK","/flights/{id}",{"security":39,"params":29,"body":51}],\
  ["uploadPhotos","POST","/flights/{id}/photos",{"security":39,"params":29,"body":{"mediaType":"multipart/mixed","required":true,"positional":{"prefix":[{"contentType":"application/json"}],"items":{"contentType":"image/png"}}}}],\
  ["addPet","POST","/pets",{"server":1,"body":51}],\
  ["getPrefs","GET","/prefs",{"params":{"cookie":[{"name":"color","style":"cookie"},{"name":"colors","style":"cookie"},{"name":"list","style":"cookie","explode":false},{"name":"rgb","style":"cookie"},{"name":"box","style":"cookie","explode":false},"legacy"]}}]\
]',
);
/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export function createClient(options: ClientOptions = {}): Client {
  const runtime = createRuntime(servers, options, securitySchemes, features);
  return Object.fromEntries(
    operations.map((row) => [
      row.at(0) as string,
      runtime.operation(row, shared),
    ]),
  ) as unknown as Client;
}
