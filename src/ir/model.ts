/**
 * The normalised model of an API that every emitter works from. By the time it exists, `$ref`s to parameters,
 * request bodies and responses are resolved, path-level and operation-level parameters are merged, the effective
 * security and server of each operation are decided and every name is final. Schemas stay as they are in the
 * bundled document (emitters refer to openapi-typescript's types for them).
 */

import type { SpecWarning } from "../errors.js";
import type { ItemView, SequenceFormat, SseItems } from "../load/sequential.js";
import type { WebhookSchemeName } from "../../templates/webhooks/types.js";

export type { HttpMethod, ParameterLocation } from "../openapi/vocabulary.js";
import type { HttpMethod, ParameterLocation } from "../openapi/vocabulary.js";

export type { ItemView, SequenceFormat, SseItems };

export type JsonSchema = Record<string, unknown> | boolean;

export interface ApiModel {
  title: string;
  /** `info.version` of the spec. */
  version: string;
  openapi: "3.0" | "3.1" | "3.2";
  /** Every distinct server any operation uses, root servers first. Operations refer to them by index. */
  servers: Server[];
  operations: Operation[];
  webhooks: Webhook[];
  /** Root-level webhook settings from the `x-webhook-*` and `x-payload-variables` extensions. */
  webhookSettings: WebhookSettings;
  /**
   * Every scheme of `components.securitySchemes`, in spec order, with the client option that carries its credential.
   * Operations name them in `Security.requirements`.
   */
  securitySchemes: SecurityScheme[];
  /** The bundled document, for emitters that need raw schemas (validation, mock values). */
  document: Record<string, unknown>;
  /**
   * JSON pointers outside `components.schemas` that schema `$ref`s point at (`#/components/parameters/P`): emitters
   * that ship a subset of the document as the target of `$ref`s must include them.
   */
  foreignSchemaRefs: string[][];
  /** What the model builder accepted but cannot honour everywhere (a mutualTLS scheme, say); printed like load warnings. */
  warnings: SpecWarning[];
  /** The document's `tags`, in order, with OpenAPI 3.2's `summary`, `parent` and `kind` (operations name them). */
  tags: Tag[];
}

/** A Tag Object. OpenAPI 3.2 nests tags (`parent`) and classifies them (`kind`: `nav`, `badge`, `audience`, …). */
export interface Tag {
  name: string;
  /** A short title (3.2), e.g. for navigation. */
  summary?: string;
  description?: string;
  /** The name of the tag this one is nested under (3.2); it is declared in `tags`. */
  parent?: string;
  /** What the tag is for (3.2): `nav`, `badge`, `audience` or anything else. */
  kind?: string;
  externalDocs?: { url: string; description?: string };
}

export interface Server {
  /** URL template as written, e.g. `{base_url}` or `https://api.example.com/v1`. */
  url: string;
  /** The server's `name` (OpenAPI 3.2): a short unique label, which also names its client option. */
  name?: string;
  /** For a server without variables: the client option that replaces its whole URL (`baseUrl` for the first). */
  urlOption?: string;
  description?: string;
  variables: ServerVariable[];
}

export interface ServerVariable {
  name: string;
  /** camelCase client option name, unique across all servers. */
  option: string;
  default: string;
  enum?: string[];
  description?: string;
}

export interface Parameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  /** Serialisation style, defaulted per location (form for query and cookie, simple for path and header). */
  style: string;
  explode: boolean;
  allowReserved: boolean;
  /** The media type when the parameter is described with `content` instead of `schema` (always, for `querystring`). */
  contentType?: string;
  /** A form-urlencoded `querystring` parameter: the Encoding Objects of its media type, by property name. */
  encoding?: Record<string, Encoding>;
  schema: JsonSchema;
  description?: string;
  deprecated: boolean;
}

export interface MediaType {
  /** e.g. `application/json`, as written in the spec. */
  type: string;
  schema: JsonSchema | undefined;
  /** OpenAPI 3.2 `itemSchema`, as written: one item of a sequential body. */
  itemSchema?: JsonSchema;
  /**
   * For the sequential media types specforge streams (SSE, JSON Lines, JSON Text Sequences): what one item is
   * (see load/sequential.ts). The client yields, and a handler returns, items of `sequence.schema`.
   */
  sequence?: ItemView;
  /** The first example: `example`, else the first Example Object's `dataValue` (3.2) or `value`. */
  example?: unknown;
  /**
   * The Media Type Object's `encoding`: how each property of a form (`application/x-www-form-urlencoded`) or
   * multipart body is serialised, by property name. Only present for those media types, and only for properties the
   * spec lists.
   */
  encoding?: Record<string, Encoding>;
  /**
   * A multipart request body's parts by position (OpenAPI 3.2 `prefixEncoding` and `itemEncoding`): the body is an
   * array, part `i` is encoded by `prefix[i]`, every later one by `items`.
   */
  positional?: { prefix: Encoding[]; items?: Encoding };
}

/**
 * One entry of a Media Type Object's `encoding` (OpenAPI 3.x Encoding Object). When any of `style`, `explode` or
 * `allowReserved` is set, the property is serialised like a query parameter with those settings (RFC 6570 style);
 * otherwise by `contentType` (JSON for objects, text for scalars when it is absent).
 */
export interface Encoding {
  /** The part's or value's media type as written (may be a list, `image/png, image/jpeg`, or a wildcard). */
  contentType?: string;
  /** As written in the spec; absent when not given (the default then depends on whether style-based serialisation applies). */
  style?: string;
  explode?: boolean;
  allowReserved?: boolean;
  /**
   * Multipart only: the part headers the spec declares (`Content-Type` excluded), with the value that can be sent
   * without asking the caller (the header schema's `const`, single `enum` value or `default`), if any.
   */
  headers: EncodingHeader[];
}

export interface EncodingHeader {
  name: string;
  required: boolean;
  /** The value the schema pins (`const`, a one-value `enum`) or defaults to, as text; absent when the caller must give it. */
  value?: string;
  /** The Header Object's `schema` as written (`$ref`s unresolved), which the router validates the part header against. */
  schema?: JsonSchema;
}

export interface RequestBody {
  required: boolean;
  content: MediaType[];
  /** The media type the client sends (JSON preferred, then form, multipart, binary, text, first). */
  preferred: string;
}

export interface Response {
  /** `200`, `4XX` or `default`. */
  status: string;
  description?: string;
  content: MediaType[];
  headers: string[];
}

/**
 * The security of one operation, from its `security` (or the root `security` when it has none).
 *
 * `requirements` are the alternatives in spec order: a request must satisfy one of them, and satisfies one by
 * presenting the credentials of every scheme it lists (a combination). An alternative with no scheme (`{}`) lets a
 * request without credentials through. `security: []` (or no security anywhere) gives no requirement at all.
 */
export interface Security {
  requirements: SecurityRequirement[];
  /** True when a request without credentials is allowed (no requirement, or an empty `{}` alternative). */
  anonymous: boolean;
  /** The keys of the schemes the operation accepts, in spec order, each once. */
  schemes: string[];
  /**
   * True when the spec never says which operations need credentials (it declares `securitySchemes` but no `security`
   * anywhere, like Kubernetes): every declared scheme is then offered as an optional alternative, so that a client
   * configured with a credential sends it.
   */
  implied: boolean;
  /** Operations whose security accepts an HTTP bearer token (or OAuth2/OpenID Connect access token). */
  bearer: boolean;
}

/** One alternative of an operation's security: every scheme listed must be satisfied (a combination). */
export type SecurityRequirement = { scheme: string; scopes: string[] }[];

/**
 * A scheme of `components.securitySchemes`. `key` is the name requirements use; `option` is the client option
 * (unique camelCase name) that carries its credential.
 */
export type SecurityScheme = SecuritySchemeBase &
  (
    | { type: "http"; /** As the spec writes it (`bearer`, `Basic`, `Token`, …); compare case-insensitively. */ scheme: string; bearerFormat?: string }
    | { type: "apiKey"; in: "header" | "query" | "cookie"; /** The header, query parameter or cookie name. */ name: string }
    | {
        type: "oauth2";
        /** The flows the scheme declares, with their endpoints (OpenAPI 3.2 adds the device authorization flow). */
        flows: OAuthFlows;
        /** The authorization server's metadata document (RFC 8414), OpenAPI 3.2 `oauth2MetadataUrl`. */
        metadataUrl?: string;
      }
    | { type: "openIdConnect" }
    /** Kinds neither the client nor the router can apply (`mutualTLS`, or an unknown or incomplete scheme): warned about. */
    | { type: "unsupported"; declaredType: string }
  );

interface SecuritySchemeBase {
  key: string;
  option: string;
  /**
   * A second client option for the same credential: `apiKey`, when this is the spec's only applicable scheme and it
   * takes a single token (the name most SDKs use, and the v1 client's option before schemes had their own).
   */
  alias?: string;
  description?: string;
  /** OpenAPI 3.2: the scheme is deprecated (its client option is marked so). */
  deprecated?: boolean;
  /** JSON pointer segments of the scheme in the bundled document. */
  pointer: string[];
}

/** The OAuth 2 flows of a scheme (only the endpoints and scopes; the client runs the device flow itself). */
export interface OAuthFlows {
  deviceAuthorization?: { deviceAuthorizationUrl: string; tokenUrl: string; scopes: string[] };
  clientCredentials?: { tokenUrl: string; scopes: string[] };
  authorizationCode?: { authorizationUrl: string; tokenUrl: string; scopes: string[] };
  implicit?: { authorizationUrl: string; scopes: string[] };
  password?: { tokenUrl: string; scopes: string[] };
}

export interface Operation {
  /** Unique camelCase name: client method and server handler. */
  name: string;
  operationId?: string;
  /** The path item's key for the operation (`get`, `query`, or an `additionalOperations` key such as `COPY`). */
  method: HttpMethod;
  /** The method as sent: `GET`, `QUERY`, `COPY`. */
  wireMethod: string;
  /** The path the client calls (the one without a trailing slash when both exist). */
  path: string;
  /** Every path served for this operation, `path` first (e.g. `/v1/chat/completions` and `/v1/chat/completions/`). */
  paths: string[];
  /** JSON pointer segments of the operation in the bundled document. */
  pointer: string[];
  tags: string[];
  summary?: string;
  description?: string;
  deprecated: boolean;
  parameters: Parameter[];
  requestBody?: RequestBody;
  responses: Response[];
  security: Security;
  /** Index into ApiModel.servers, or -1 when the spec declares no server. */
  server: number;
  /** Present when a success response is a stream the client reads item by item (SSE, JSON Lines, JSON Text Sequences). */
  stream?: StreamInfo;
  /** True when the operation declares FastAPI's 422 `{detail: [...]}` validation error body. */
  fastApiValidationError: boolean;
  /** Present for list operations that return a cursor envelope (`data`, `has_more`, `last_id`, `after`). */
  pagination?: PaginationInfo;
  /**
   * The name, as the spec spells it, of an `Idempotency-Key` header parameter the operation declares: the client then
   * sends a generated key by default (the same one on every retry of a call).
   */
  idempotencyKey?: string;
}

export interface StreamInfo {
  status: string;
  /** The sequential media type the client asks for (`Accept`): SSE, else JSON Lines, else JSON Text Sequences. */
  mediaType: string;
  format: SequenceFormat;
  /** Event streams: how events are read (see SseItems). */
  sse?: SseItems;
  /**
   * Where the request asks to stream, e.g. body property `stream` (only `body` is detected today). Without it the
   * operation always streams when the response declares no JSON body besides the stream.
   */
  when?: { in: "body"; name: string };
}

export interface PaginationInfo {
  items: string;
  hasMore: string;
  cursor: string;
  param: string;
}

export interface Webhook {
  /** The key under `webhooks:`, e.g. `ADD_ARTIFACT_ALIAS`. */
  key: string;
  /** Identifier-safe name, unique among webhooks. */
  name: string;
  method: HttpMethod;
  /** The event type value on the wire (`x-event-type`, else the key). */
  eventType: string;
  /**
   * Every value that identifies this event in a delivery: the event type, plus `x-sdk-event-type`, plus what its
   * deliveries carry where the spec's deliveries name their event (OpenAI's `type` `batch.cancelled` for
   * `batch_cancelled`; see src/ir/webhook-events.ts).
   */
  wireValues: string[];
  /**
   * The value of the provider's event header for this webhook when the spec gives it: GitHub's
   * `x-github.subcategory`, the `X-GitHub-Event` of its deliveries (`issues` for `issues-opened`).
   */
  eventHeader?: string;
  /**
   * The value this webhook's deliveries carry where the spec's deliveries name their event (`WebhookSettings.eventType`),
   * when that tells it from the others: what `specforge webhook test` puts there.
   */
  eventValue?: string;
  /**
   * Body properties that tell this event from others with the same event type: the body's `action` when the schema
   * pins it to one value and requires it (GitHub's `issues` deliveries: `opened` is `issues-opened`).
   */
  conditions: Record<string, string>;
  operationId?: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  parameters: Parameter[];
  requestBody?: RequestBody;
  /** The documented default payload template (`x-payload-template`). */
  payloadTemplate?: string;
  /** Body example of the request (first found). */
  example?: unknown;
}

/** The signature schemes the webhooks runtime has presets for. */
export type { WebhookSchemeName };

export interface WebhookSettings {
  /**
   * The scheme preset the spec names (`x-webhook-signature: { scheme }`) or implies (the signature header its
   * webhooks declare: `webhook-signature`, `Stripe-Signature`, `X-Hub-Signature-256`, `x-zm-signature`, …).
   */
  scheme?: WebhookSchemeName;
  /** The HMAC of the raw body `x-webhook-signature` describes with a `header`. */
  signature?: {
    header: string;
    algorithm: string;
    encoding: string;
    acceptEncodings: string[];
    prefix?: string;
  };
  /** Where deliveries name their event: the spec's `x-webhook-event-type`, else what tells its webhooks apart. */
  eventType?: { in: "body" | "header"; name: string };
  auth?: { scheme: string; header: string; optional: boolean };
  payloadVariables: PayloadVariable[];
}

export interface PayloadVariable {
  name: string;
  kind: "value" | "map" | "secret" | "named-secret";
  description?: string;
  example?: unknown;
  events?: string[];
}
