/**
 * The normalised model of an API that every emitter works from. By the time it exists, `$ref`s to parameters,
 * request bodies and responses are resolved, path-level and operation-level parameters are merged, the effective
 * security and server of each operation are decided and every name is final. Schemas stay as they are in the
 * bundled document (emitters refer to openapi-typescript's types for them).
 */

import type { WebhookSchemeName } from "../../templates/webhooks/types.js";

export type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";

export const HTTP_METHODS: readonly HttpMethod[] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

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
  /** The bundled document, for emitters that need raw schemas (validation, mock values). */
  document: Record<string, unknown>;
  /**
   * JSON pointers outside `components.schemas` that schema `$ref`s point at (`#/components/parameters/P`): emitters
   * that ship a subset of the document as the target of `$ref`s must include them.
   */
  foreignSchemaRefs: string[][];
}

export interface Server {
  /** URL template as written, e.g. `{base_url}` or `https://api.example.com/v1`. */
  url: string;
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

export type ParameterLocation = "path" | "query" | "header" | "cookie";

export interface Parameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  /** Serialisation style, defaulted per location (form for query and cookie, simple for path and header). */
  style: string;
  explode: boolean;
  allowReserved: boolean;
  /** The media type when the parameter is described with `content` instead of `schema`. */
  contentType?: string;
  schema: JsonSchema;
  description?: string;
  deprecated: boolean;
}

export interface MediaType {
  /** e.g. `application/json`, as written in the spec. */
  type: string;
  schema: JsonSchema | undefined;
  example?: unknown;
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

export interface Security {
  /** Operations whose security asks for an HTTP bearer token (or OAuth2/OpenID Connect access token). */
  bearer: boolean;
  /** True when a request without credentials is allowed (no requirement, or an empty `{}` alternative). */
  anonymous: boolean;
  /** The names of the schemes the operation accepts, in spec order. */
  schemes: string[];
}

export interface Operation {
  /** Unique camelCase name: client method and server handler. */
  name: string;
  operationId?: string;
  method: HttpMethod;
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
  /** Present when a success response declares `text/event-stream`. */
  stream?: StreamInfo;
  /** True when the operation declares FastAPI's 422 `{detail: [...]}` validation error body. */
  fastApiValidationError: boolean;
  /** Present for list operations that return a cursor envelope (`data`, `has_more`, `last_id`, `after`). */
  pagination?: PaginationInfo;
}

export interface StreamInfo {
  status: string;
  mediaType: string;
  /** Where the request asks to stream, e.g. body property `stream` (only `body` is detected today). */
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
   * Every value that identifies this event in a delivery: the event type, plus `x-sdk-event-type`, plus the single
   * value of the body's `type` property when the schema pins one (OpenAI's `batch.cancelled` for `batch_cancelled`).
   */
  wireValues: string[];
  /**
   * The value of the provider's event header for this webhook when the spec gives it: GitHub's
   * `x-github.subcategory`, the `X-GitHub-Event` of its deliveries (`issues` for `issues-opened`).
   */
  eventHeader?: string;
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
   * webhooks declare: `webhook-signature`, `Stripe-Signature`, `X-Hub-Signature-256`).
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
