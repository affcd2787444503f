import type { paths } from "./schema.js";
/** @slot the credential types only where a scheme's option uses them (`emitClient`) */
import type {
  BasicCredentials,
  ClientOptions as RuntimeClientOptions,
  Credential,
  Operation,
  OperationRow,
  PaginatedOperation,
  SecuritySchemeSpec,
  ServerSpec,
  StreamingOperation,
} from "../client/types.js";
import { createRuntime, type RuntimeFeatures } from "../client/runtime.js";
/** @slot only where every security scheme sends a token and every requirement asks for one at a time (`emitClient`) */
import { tokenFeature } from "../client/token.js";
/** @slot only where the spec has security schemes the token alone does not cover (`emitClient`) */
import { authFeature } from "../client/auth.js";
/** @slot only where an operation answers with server-sent events (`emitClient`) */
import { sseFeature } from "../client/sse.js";
/** @slot only where an operation answers with JSON Lines or a JSON Text Sequence (`emitClient`) */
import { recordsFeature } from "../client/records.js";
/** @slot only where an operation sends text or bytes, and no form or multipart body (`emitClient`) */
import { plainBodiesFeature } from "../client/plain.js";
/** @slot only where an operation's path carries a query of its own (`emitClient`) */
import { pathQueryFeature } from "../client/pathquery.js";
/** @slot only where an operation has header parameters, or cookie parameters or a scheme sends an API key as a cookie (`emitClient`) */
import { cookiesFeature, headerParamsFeature } from "../client/headers.js";
/** @slot only where an operation declares pagination (`emitClient`) */
import { paginationFeature } from "../client/pagination.js";
/** @slot only where a parameter needs more than OpenAPI's default styles, or a body more than JSON, text and bytes (`emitClient`) */
import { bodiesFeature, stylesFeature } from "../client/serialize.js";
/** @slot only where a scheme runs the OAuth 2 device flow (`emitClient`) */
import { deviceFlowFeature, type OAuth2DeviceFlow } from "../client/oauth.js";

export { ApiError, ConnectionError, ResponseTooLargeError, TimeoutError } from "../client/errors.js";
export type { ApiErrorOf, ApiResponse, CredentialContext, RequestOptions } from "../client/types.js";
/** @slot only where an operation streams (`emitClient`) */
export { Stream } from "../client/sse.js";
/** @slot only where an operation has a multipart body (`emitClient`) */
export { formPart, type FormPart } from "../client/serialize.js";
/** @slot only where a scheme runs the OAuth 2 device flow (`emitClient`) */
export { OAuth2Error, type DeviceCodePrompt } from "../client/oauth.js";

/** @slot the features the spec's operations need, from the imports above (`emitClient`) */
/** What the operations need beyond JSON bodies and OpenAPI's default parameter styles. */
const features: RuntimeFeatures[] = [tokenFeature, authFeature, deviceFlowFeature, pathQueryFeature, stylesFeature, headerParamsFeature, cookiesFeature, plainBodiesFeature, bodiesFeature, sseFeature, recordsFeature, paginationFeature];

/** @slot data: the spec's servers (`clientServers` in src/emit/client.ts) */
/** The spec's servers; each operation names one by index. */
const servers: ServerSpec[] = [
  {
    url: "{url}",
    variables: { url: { option: "baseUrl", default: "https://petstore.example/v1" } },
  },
];

/** @slot data: the spec's security schemes (`schemeSpec`), none when it declares none */
/** The spec's security schemes, by key: where each credential goes and which client options hold it. */
const securitySchemes: Record<string, SecuritySchemeSpec> = {
  bearerAuth: { type: "bearer", options: ["bearerAuth", "apiKey"] },
  basicAuth: { type: "basic", options: ["basicAuth"] },
  petstoreAuth: {
    type: "bearer",
    options: ["petstoreAuth"],
    oauth2: {
      deviceAuthorizationUrl: "https://petstore.example/oauth/device",
      tokenUrl: "https://petstore.example/oauth/token",
      scopes: ["pets:read"],
    },
  },
};

/** @slot members: one option per server URL or variable and per security scheme (`clientOptionMembers`) */
/** Options of `createClient`: the runtime's options plus one per server variable and one per security scheme. */
export interface ClientOptions extends RuntimeClientOptions {
  /**
   * Overrides the server URL.
   * @default "https://petstore.example/v1"
   */
  baseUrl?: string | undefined;
  /** The token of security scheme `bearerAuth` (HTTP bearer), sent as `Authorization: Bearer <token>`. */
  bearerAuth?: Credential<string> | undefined;
  /** The same credential as `bearerAuth`, under the name most SDKs use. */
  apiKey?: Credential<string> | undefined;
  /** The `{ username, password }` of security scheme `basicAuth` (HTTP basic). */
  basicAuth?: Credential<BasicCredentials> | undefined;
  /**
   * An access token of security scheme `petstoreAuth` (OAuth 2). Or `{ deviceFlow: { clientId, onUserCode } }`: the
   * client runs the OAuth 2 device authorization flow (RFC 8628) against the spec's endpoints.
   */
  petstoreAuth?: Credential<string> | OAuth2DeviceFlow | undefined;
}

/** @slot members: one method per operation (`operationMember`); the API's title and version in this comment */
/** One method per operation of Pet Store 1.0.0. */
export interface Client {
  /**
   * List pets
   *
   * `GET /pets` (operationId `listPets`)
   */
  listPets: PaginatedOperation<paths["/pets"]["get"], "data">;
  /**
   * Create a pet
   *
   * `POST /pets` (operationId `createPet`)
   */
  createPet: Operation<paths["/pets"]["post"]>;
  /**
   * Find a pet
   *
   * `GET /pets/{petId}` (operationId `getPet`)
   */
  getPet: Operation<paths["/pets/{petId}"]["get"]>;
}

/** @slot data: the values several operations share, each once (`operationTable`) */
/** Values several operations share, by key; `operations` holds their keys. */
const shared: Record<number, unknown> = { 17: [[{ scheme: "bearerAuth" }]] };

/** @slot data: one entry per operation (`operationSpec`, shared values by key: `operationTable`) */
/** How each method sends its request: `[name, method, path, { parameters, body, declared errors, … }]`. */
const operations: OperationRow[] = [
  [
    "listPets",
    "GET",
    "/pets",
    { security: 17, params: { query: ["after", "limit"] }, pagination: { items: "data", hasMore: "has_more", cursor: "last_id", param: "after" } },
  ],
  ["createPet", "POST", "/pets", { security: 17, body: { mediaType: "application/json", required: true }, errors: [422] }],
  ["getPet", "GET", "/pets/{petId}", { security: 17, params: { path: ["petId"] }, errors: [404] }],
];

/** @slot signature: `options` is required (no `= {}`) when an option is (the spec declares no server) */
/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export function createClient(options: ClientOptions = {}): Client {
  const runtime = createRuntime(servers, options, securitySchemes, features);
  return Object.fromEntries(
    operations.map((row) => [row.at(0) as string, runtime.operation(row, shared)]),
  ) as unknown as Client;
}
