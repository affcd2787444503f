/**
 * Types shared by the runtime and the emitted client.
 *
 * Two kinds live here:
 * - descriptions the generator emits for every operation (`ServerSpec`, `OperationSpec`, `ParamSpec`, …), which the
 *   runtime reads to build requests, and the options a user passes (`ClientOptions`, `RequestOptions`);
 * - type helpers that turn an openapi-typescript 7 operation type (`paths["/x"]["get"]`) into a call signature
 *   (`Operation`, `StreamingOperation`, `PaginatedOperation`, `ParamsOf`, `SuccessBody`, `ApiErrorOf`).
 *
 * The helpers are deliberately shallow (one level of conditional types, no recursion) because a client for a large
 * spec instantiates them for every one of its operations.
 */
import type { ApiError } from "./errors.js";
import type { Stream } from "./sse.js";
import type { FormPart } from "./values.js";

// ---------------------------------------------------------------------------------------------------------------
// Descriptions emitted by the generator
// ---------------------------------------------------------------------------------------------------------------

/**
 * An operation's method as sent on the wire: `GET` … `TRACE`, OpenAPI 3.2's `QUERY`, or any other method a path item
 * lists under `additionalOperations`, spelled as the spec writes it (`COPY`, `LINK`).
 */
export type HttpMethod = string;

/** One `{variable}` of a server URL template. */
export interface ServerVariableSpec {
  /** Name of the client option that sets this variable, e.g. `"baseUrl"`. */
  option?: string;
  /** Value used when the option is not given (the spec's `default`). */
  default?: string;
}

/**
 * A server from the spec's `servers` list. Each `{name}` in `url` is replaced by the client option named in
 * `variables[name].option`, else by its default. An option may hold a whole URL (`{ baseUrl: "http://localhost:8080/" }`
 * for `url: "{base_url}"`); a trailing slash is removed.
 */
export interface ServerSpec {
  url: string;
  variables?: Record<string, ServerVariableSpec>;
}

/** Parameter styles of OpenAPI 3.x (`parameter.style`). */
export type ParamStyle = "form" | "spaceDelimited" | "pipeDelimited" | "deepObject" | "simple" | "label" | "matrix" | "cookie";

/**
 * How one parameter is serialised. Defaults follow OpenAPI: `simple` for path and header parameters, `form` for query
 * and cookie parameters, and `explode` is true only for `form` and `cookie` (OpenAPI 3.2).
 */
export interface ParamSpec {
  /** Name on the wire (and key in the `path`/`query`/`headers`/`cookies` object of the call). */
  name: string;
  style?: ParamStyle;
  explode?: boolean;
  /** Query only: leave RFC 3986 reserved characters (except `#`, `&`, `=`) unencoded. */
  allowReserved?: boolean;
  /** Set when the parameter uses `content` instead of `schema`, e.g. `"application/json"`: the value is serialised as that media type. */
  content?: string;
}

/**
 * An `in: querystring` parameter (OpenAPI 3.2): the whole query string is one value of media type `content`.
 * `application/x-www-form-urlencoded` is written as a form (with its `encoding`), anything else is serialised as
 * that media type and percent-encoded.
 */
export interface QuerystringSpec {
  content: string;
  encoding?: Record<string, EncodingSpec>;
}

/** The request body of an operation. */
export interface BodySpec {
  /** Media type sent as `Content-Type`, e.g. `"application/json"` or `"multipart/form-data"`. */
  mediaType: string;
  /** Whether the spec requires a body (`requestBody.required`). */
  required?: boolean;
  /** Form and multipart bodies: how each listed property is serialised (the spec's `encoding`), by property name. */
  encoding?: Record<string, EncodingSpec>;
  /**
   * Multipart bodies by position (OpenAPI 3.2 `prefixEncoding`, `itemEncoding`): an array body is sent as one part per
   * item, in order, part `i` encoded by `prefix[i]`, every later one by `items`.
   */
  positional?: { prefix?: EncodingSpec[]; items?: EncodingSpec };
}

/**
 * One property's Encoding Object. With `style`, `explode` or `allowReserved` the property is written like a query
 * parameter with those settings (in multipart: one text part per `name=value` pair); otherwise by `contentType`.
 */
export interface EncodingSpec {
  style?: ParamStyle;
  explode?: boolean;
  allowReserved?: boolean;
  /** The value's media type (a list or wildcard is matched against a Blob's own type). */
  contentType?: string;
  /** Multipart: part headers with the values the spec pins (a caller adds others with `formPart`). */
  headers?: Record<string, string>;
}

/**
 * How the client applies one of the spec's security schemes. `options` are the client options that may hold its
 * credential (the first one set wins).
 * - `bearer`: `Authorization: Bearer <token>` (http bearer, OAuth 2, OpenID Connect);
 * - `basic`: `Authorization: Basic base64(username:password)`;
 * - `http`: `Authorization: <scheme> <credentials>` for any other HTTP scheme;
 * - `apiKey`: the value as it is, in the header, query parameter or cookie `name`.
 */
export type SecuritySchemeSpec =
  | {
      type: "bearer" | "basic";
      options: string[];
      /** An OAuth 2 scheme with a device authorization flow or metadata (OpenAPI 3.2): its option may run the flow. */
      oauth2?: OAuth2Endpoints;
    }
  | { type: "http"; scheme: string; options: string[] }
  | { type: "apiKey"; in: "header" | "query" | "cookie"; name: string; options: string[] };

/** The endpoints of an OAuth 2 scheme's device authorization flow, or where its metadata document is. */
export interface OAuth2Endpoints {
  deviceAuthorizationUrl?: string;
  tokenUrl?: string;
  metadataUrl?: string;
  scopes?: string[];
}

/** What the satisfied security requirement adds to a request (auth.ts). */
export interface AppliedCredentials {
  headers: [string, string][];
  query: [string, string][];
  cookies: [string, string][];
  /** Set when a credential came from a function: the runtime asks for the credentials again before each retry. */
  renew?: boolean;
}

/**
 * Parameter serialisation by location (`ParamSpec` → wire text). The request engine's own covers OpenAPI's defaults
 * (path and header `simple`, query `form` exploded, cookie `form`); serialize.ts `styles` covers the whole style table.
 */
export interface ParamSerializers {
  /** The value as it replaces `{name}` in the path, percent-encoded. */
  path(spec: ParamSpec, value: unknown): string;
  /** The `name=value` pairs of one query parameter, percent-encoded. */
  query(spec: ParamSpec, value: unknown): string[];
  header(spec: ParamSpec, value: unknown): string;
  /** The `name=value` pairs of one cookie parameter (several for an exploded `style: cookie`), encoded as its style says. */
  cookie(spec: ParamSpec, value: unknown): string[];
  /** The whole query string from an `in: querystring` parameter, without the `?`. */
  querystring?(spec: QuerystringSpec, value: unknown): string;
}

/** One scheme of a security requirement, with the OAuth scopes it asks for. */
export interface SecurityRequirementItem {
  scheme: string;
  scopes?: string[];
}

/**
 * A streamed response: server-sent events, JSON Lines or JSON Text Sequences. Without `when` the operation always
 * streams; with it, it streams only when the call sets that flag to `true` (OpenAI-style `{ "stream": true }`).
 */
export interface StreamSpec {
  /** Media type of the stream, sent as `Accept` when the call streams, e.g. `"text/event-stream"`. */
  mediaType: string;
  when?: { in: "body" | "query"; name: string };
  /** How the items of an event stream are read (default: each event's `data` as JSON). */
  sse?: SseItemsSpec;
}

/**
 * How a client reads the items of an event stream. `events: true` (an OpenAPI 3.2 `itemSchema` with a `data` field):
 * an item is the whole event, `{ event?, data, id?, retry? }` with the fields it was sent with; otherwise an item is
 * one event's `data`. `json` says whether `data` is JSON: for every event, for none, or by event name (`message` for
 * events without an `event` field).
 */
export interface SseItemsSpec {
  events?: boolean;
  json: boolean | { byEvent: Record<string, boolean>; otherwise: boolean };
}

/** Cursor pagination: a page carries an `items` array and a cursor to pass as query parameter `param` for the next page. */
export interface PaginationSpec {
  /** Property of the page holding the items, e.g. `"data"`. */
  items: string;
  /** Property of the page telling whether another page exists, e.g. `"has_more"`. Without it, pages are fetched until one is empty or has no cursor. */
  hasMore?: string;
  /** Property of the page holding the cursor for the next page, e.g. `"last_id"`. */
  cursor: string;
  /** Query parameter that takes the cursor, e.g. `"after"`. */
  param: string;
}

/** Status keys of the spec's `responses` that are errors: a status code, a range or `default`. */
export type ErrorStatusKey = number | "1XX" | "3XX" | "4XX" | "5XX" | "default";

/** Everything the runtime needs to know about one operation; the generator emits one per operation. */
export interface OperationSpec {
  /** The operation's name in the client (used in error messages and by `isError`). */
  name: string;
  method: HttpMethod;
  /** Path template relative to the server URL, e.g. `"/v1/models/{model_id}"`. */
  path: string;
  /** Index into the `servers` given to `createRuntime`; default 0. */
  server?: number;
  /**
   * The operation's security requirements: alternatives, each a combination of schemes that must all be applied.
   * The first alternative whose credentials the client has is applied; an empty alternative means none is needed.
   * Omitted (or empty): no credentials are sent.
   */
  security?: SecurityRequirementItem[][];
  /**
   * The name of an `Idempotency-Key` header parameter the operation declares: POST and PATCH calls then send a
   * generated key unless the caller gives one.
   */
  idempotencyKey?: string;
  params?: { path?: ParamSpec[]; query?: ParamSpec[]; querystring?: QuerystringSpec; header?: ParamSpec[]; cookie?: ParamSpec[] };
  body?: BodySpec;
  stream?: StreamSpec;
  pagination?: PaginationSpec;
  /**
   * The non-2xx keys of the spec's `responses` (e.g. `[422]`, `[404, "default"]`). `op.isError(e)` is true only for
   * errors whose status the operation declares, so that its type guard never promises a body shape the spec did not
   * describe. Omitted: none.
   */
  errors?: ErrorStatusKey[];
}

/**
 * An operation as the generated client's table writes it, in fewer bytes than its `OperationSpec` (`operationSpecOf`
 * reads it back): name, method and path by position, then the other fields, if any; a value several operations share
 * (the same security, errors, body, parameters, stream or pagination) is written once in a table beside it, and
 * each of them holds its key there instead; a parameter with nothing but a name is that name.
 */
export type OperationRow = [name: string, method: HttpMethod, path: string, rest?: OperationRowRest];

/** The fields of an `OperationRow` after name, method and path. */
export type OperationRowRest = {
  [K in Exclude<keyof OperationSpec, "name" | "method" | "path">]?: K extends "server" | "idempotencyKey" ? OperationSpec[K] : K extends "params" ? ParamsRow | number : OperationSpec[K] | number;
};

/** `OperationSpec.params` in a row: each parameter with nothing but a name written as that name. */
export type ParamsRow = { [K in keyof NonNullable<OperationSpec["params"]>]?: K extends "querystring" ? QuerystringSpec : (ParamSpec | string)[] };

// ---------------------------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------------------------

/** Extra headers; `null` or `undefined` removes a header set by a lower layer (client → call). */
export type HeaderValues = Record<string, string | null | undefined>;

/** The subset of `fetch` the runtime calls. `globalThis.fetch` and most wrappers fit. */
export type FetchLike = (request: Request, init?: { signal?: AbortSignal }) => Promise<Response>;

/** What a credential function is told: the call it is asked for. */
export interface CredentialContext {
  /** The client method, e.g. `"createCustomer"`. */
  operation: string;
  /** The security scheme's key in the spec, e.g. `"bearerAuth"`. */
  scheme: string;
  /** The OAuth 2 / OpenID Connect scopes the operation asks for (empty for other schemes). */
  scopes: readonly string[];
}

/**
 * A credential: the value itself, or a function called before each attempt of a call (the first, and every retry)
 * that returns it, for tokens that expire. A function returning `undefined` leaves the scheme unsatisfied for that call.
 */
export type Credential<T> = T | ((context: CredentialContext) => T | undefined | Promise<T | undefined>);

/** The credentials of an HTTP basic scheme. */
export interface BasicCredentials {
  username: string;
  password: string;
}

/** Options of a client. The emitted client adds one option per server variable (e.g. `baseUrl`) and per security scheme. */
export interface ClientOptions {
  /** Headers sent with every request. */
  headers?: HeaderValues | undefined;
  /** A `fetch` to use instead of `globalThis.fetch` (proxies, tests, instrumentation). */
  fetch?: FetchLike | undefined;
  /**
   * Time limit of one attempt in milliseconds, from sending the request to reading the whole body (for a stream: to
   * receiving the response headers). Each retry gets a fresh limit. `0` or `Infinity` disables it.
   * @default 600000 (10 minutes: model calls can be slow)
   */
  timeoutMs?: number | undefined;
  /**
   * How many times a failed attempt is repeated: after a connection error (any method), and after a 408, 409, 429 or
   * 5xx response or a timeout (POST and PATCH only with `retryNonIdempotent`). The wait is what `retry-after-ms` or
   * `Retry-After` asks for, up to 60 s (a longer one is not waited out: the error is thrown), else 0.5 s, 1 s, 2 s, …
   * up to 8 s, ±25 %. A `ReadableStream` body cannot be sent twice, so such a call is never repeated.
   * @default 2
   */
  maxRetries?: number | undefined;
  /**
   * Retry POST and PATCH after a retryable response or a timeout too. Off by default because the server may have
   * acted on the first request (creating, say, a second training job).
   * @default false
   */
  retryNonIdempotent?: boolean | undefined;
  /**
   * Send a generated `Idempotency-Key` header (a random UUID, the same on every retry of a call) with every POST and
   * PATCH that has none, so that such calls may be retried. By default only operations that declare an
   * `Idempotency-Key` header parameter get one.
   */
  idempotencyKeys?: boolean | undefined;
  /**
   * Largest server-sent event a stream accepts, in characters (data lines, the line breaks between them and any one
   * line); a larger one ends the stream with a `RangeError`.
   * @default 16777216 (16 Mi)
   */
  maxStreamEventSize?: number | undefined;
  /**
   * Largest response body read, in bytes as decoded (after any `Content-Encoding`: a small gzip body can inflate to
   * gigabytes), error bodies included; a streamed body counts on its own, over the whole stream. Past it the read ends
   * with a `ResponseTooLargeError` and the connection is closed. Raise it for large downloads or long-lived streams
   * (`Infinity` turns it off).
   * @default 67108864 (64 MiB)
   */
  maxResponseBytes?: number | undefined;
  /**
   * Called before each attempt with the request about to be sent; may return a replacement. Reading the body
   * consumes it: use `request.clone()`.
   */
  onRequest?: ((request: Request) => Request | void | Promise<Request | void>) | undefined;
  /** Called with each response (before any retry decision); may return a replacement. */
  onResponse?: ((response: Response, request: Request) => Response | void | Promise<Response | void>) | undefined;
  /**
   * Checks every JSON response body, success or error, against the schema its operation declares for its status
   * before the call settles: pass `schemas.validateResponse` of the `schemas` output (or a function of your own). A
   * body that does not match rejects the call with the `ResponseValidationError` it throws, carrying the issues. Off
   * by default, and a client without it bundles no validator.
   */
  validateResponses?: ResponseValidator | undefined;
}

/**
 * Checks the parsed JSON body of a response of `operation` (the client's method name) with status `status`: throws
 * (or rejects) to reject the call; else answers the body the call settles with (nothing: the body as parsed).
 */
export type ResponseValidator = (operation: string, status: number, body: unknown) => unknown;

/** Options of one call; they override the client's. */
export interface RequestOptions {
  /** Aborting rejects the call with `signal.reason`, also while waiting to retry or reading a stream. */
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  retryNonIdempotent?: boolean | undefined;
  /**
   * This call's `Idempotency-Key` (POST and PATCH): a string is sent as it is, `true` sends a generated one, `false`
   * none. With a key, the call is retried like an idempotent one.
   */
  idempotencyKey?: string | boolean | undefined;
  /** Headers for this call only; they win over every other header. */
  headers?: HeaderValues | undefined;
}

/** What `op.withResponse()` resolves to: the parsed body plus the response it came from (its body already read). */
export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
  response: Response;
}

// ---------------------------------------------------------------------------------------------------------------
// Type helpers over openapi-typescript 7 operation types
// ---------------------------------------------------------------------------------------------------------------

/** Media types the runtime parses as JSON (mirrors `isJsonMediaType`). */
type JsonMediaType = "application/json" | `application/json;${string}` | `${string}+json` | `${string}+json;${string}`;

/** Body types accepted for binary media types (`application/octet-stream`, `image/png`, …). */
export type BinaryBody = Blob | ArrayBuffer | Uint8Array | ReadableStream<Uint8Array> | string;

/**
 * Multipart fields may be files wherever the schema says string (openapi-typescript types `format: binary` as
 * string), and any field may be wrapped in `formPart()` to set its file name, Content-Type or headers.
 */
type FormField<V> = V extends string
  ? V | Blob | FormPart
  : V extends readonly (infer E)[]
    ? (E extends string ? E | Blob | FormPart : E | FormPart)[]
    : V extends undefined
      ? V
      : V | FormPart;
type MultipartBody<T> = { [K in keyof T]: FormField<T[K]> } | FormData;

type IfEquals<X, Y, A, B> = (<G>() => G extends X ? 1 : 2) extends (<G>() => G extends Y ? 1 : 2) ? A : B;
/** `T`'s keys with their modifiers and a placeholder type: comparing these never compares property types (cheap). */
type KeyFlags<T> = { [K in keyof T]: 0 };
type Mutable<X> = { -readonly [K in keyof X]: X[K] };
type IsReadonlyKey<F, K extends keyof F> = IfEquals<Pick<F, K>, Mutable<Pick<F, K>>, false, true>;
/**
 * `T` without its `readonly` properties: openapi-typescript declares `readOnly: true` properties `readonly`, and a
 * request does not send them. Top level only (a nested object keeps its readOnly properties).
 */
export type WithoutReadOnly<T> = T extends readonly unknown[] | Blob | FormData | URLSearchParams
  ? T
  : T extends object
    ? // One comparison settles the usual case (no readonly property) and keeps `T` itself.
      IfEquals<KeyFlags<T>, Mutable<KeyFlags<T>>, T, { [K in keyof T as IsReadonlyKey<KeyFlags<T>, K> extends true ? never : K]: T[K] }>
    : T;

/** The body a caller passes for schema type `T` sent as media type `M`. */
type RequestBodyAs<T, M extends string> = M extends JsonMediaType
  ? WithoutReadOnly<T>
  : M extends `multipart/${string}`
    ? MultipartBody<WithoutReadOnly<T>>
    : M extends "application/x-www-form-urlencoded"
      ? WithoutReadOnly<T> | URLSearchParams
      : M extends `text/${string}`
        ? string
        : BinaryBody;

export type RequestBodyOf<RB, M extends string> = RB extends { content: infer C }
  ? RequestBodyAs<M extends keyof C ? C[M] : C[keyof C], M>
  : never;

/** `{ body: B }` when the body is required, `{ body?: B }` when optional, `{}` when there is none. */
type BodySlot<Op, M extends string> = Op extends { requestBody: infer RB }
  ? { body: RequestBodyOf<RB, M> }
  : Op extends { requestBody?: infer RB }
    ? [NonNullable<RB>] extends [never]
      ? {}
      : unknown extends RB
        ? {}
        : { body?: RequestBodyOf<NonNullable<RB>, M> | undefined }
    : {};

type ParamGroup<P, K extends string> = K extends keyof P ? NonNullable<P[K]> : never;

/** `{ [Name]: T }` when `T` has a required key, `{ [Name]?: T }` when all are optional, `{}` when there are none. */
type ParamSlot<T, Name extends string> = [T] extends [never]
  ? {}
  : {} extends T
    ? { [_ in Name]?: T | undefined }
    : { [_ in Name]: T };

type Flatten<T> = { [K in keyof T]: T[K] };

/** `{ querystring: Q }` for an operation with an `in: querystring` parameter (optional when the parameter is). */
type QuerystringSlot<P> = "querystring" extends keyof P
  ? P extends { querystring: infer Q }
    ? { querystring: Q }
    : { querystring?: P["querystring" & keyof P] | undefined }
  : {};

type ParamsFrom<P, Op, M extends string> = Flatten<
  ParamSlot<ParamGroup<P, "path">, "path"> &
    ParamSlot<ParamGroup<P, "query">, "query"> &
    QuerystringSlot<P> &
    ParamSlot<ParamGroup<P, "header">, "headers"> &
    ParamSlot<ParamGroup<P, "cookie">, "cookies"> &
    BodySlot<Op, M>
>;

/**
 * The first argument of an operation: `{ path?, query?, headers?, cookies?, body? }`, each key present only when the
 * operation has such parameters and required exactly when one of them (or the body) is required.
 */
export type ParamsOf<Op, ReqMedia extends string = "application/json"> = ParamsFrom<
  Op extends { parameters: infer P } ? P : {},
  Op,
  ReqMedia
>;

/** Arguments of a call: `params` may be left out when nothing in it is required. */
export type CallArgs<P> = {} extends P ? [params?: P, options?: RequestOptions] : [params: P, options?: RequestOptions];

type ResponsesOf<Op> = Op extends { responses: infer R } ? R : {};

/** The 2xx keys of a `responses` object (`200`, `201`, `"2XX"`, …). */
type OkKey<K> = K extends number ? (`${K}` extends `2${string}` ? K : never) : K extends "2XX" ? K : never;

/** Keys describing success: the 2xx ones, or `default` when the operation declares no 2xx response. */
type SuccessKey<R> = [OkKey<keyof R>] extends [never] ? Extract<keyof R, "default"> : OkKey<keyof R>;

/** The JSON Lines media types in use (mirrors `recordFormat` in records.ts). */
type JsonLinesMediaType = "application/jsonl" | "application/x-jsonl" | "application/jsonlines" | "application/x-jsonlines" | "application/x-ndjson" | "application/ndjson";
/** JSON Text Sequences (RFC 7464), and structured `+json-seq` types. */
type JsonSeqMediaType = "application/json-seq" | `${string}+json-seq`;

/**
 * The stream of a content map with sequential media types, in the order the client asks for them: SSE, then JSON
 * Lines, then JSON Text Sequences; `never` without one.
 */
type SequenceBody<C> = "text/event-stream" extends keyof C
  ? Stream<C["text/event-stream" & keyof C]>
  : [Extract<keyof C, JsonLinesMediaType>] extends [never]
    ? [Extract<keyof C, JsonSeqMediaType>] extends [never]
      ? never
      : Stream<C[Extract<keyof C, JsonSeqMediaType>]>
    : Stream<C[Extract<keyof C, JsonLinesMediaType>]>;

/** The parsed body for a response `content` map, mirroring how the runtime reads a response by its content type. */
type ContentBody<C> = [Extract<keyof C, JsonMediaType>] extends [never]
  ? [Extract<keyof C, `${string}*${string}`>] extends [never]
    ? [SequenceBody<C>] extends [never]
      ? [Extract<keyof C, `text/${string}`>] extends [never]
        ? [keyof C] extends [never]
          ? undefined
          : Blob
        : string
      : SequenceBody<C>
    : unknown
  : C[Extract<keyof C, JsonMediaType>];

/** Distributes over a union of response objects; `content?: never` means no body. */
type ResponseBody<X, Empty> = X extends { content: infer C } ? ContentBody<C> : Empty;

/** What a call resolves to: the union of the bodies of the operation's 2xx responses (`undefined` for no content). */
export type SuccessBody<Op> = ResponseBody<NonNullable<ResponsesOf<Op>[SuccessKey<ResponsesOf<Op>> & keyof ResponsesOf<Op>]>, undefined>;

type ErrorOf<R, K> = K extends keyof R
  ? ApiError<K extends number ? K : number, ResponseBody<NonNullable<R[K]>, unknown>>
  : never;

/**
 * The errors an operation declares (every non-2xx response and `default`) as `ApiError`s discriminated by `status`:
 * `if (op.isError(e) && e.status === 422) e.body.detail`. Ranges (`4XX`) and `default` have `status: number`, so they
 * stay in the union after narrowing on a literal status.
 */
export type ApiErrorOf<Op> = ErrorOf<ResponsesOf<Op>, Exclude<keyof ResponsesOf<Op>, OkKey<keyof ResponsesOf<Op>>>>;

/** The event type of a streaming operation: the `StreamMedia` content of its 2xx responses. */
export type StreamEventOf<Op, StreamMedia extends string = "text/event-stream"> = EventOf<
  NonNullable<ResponsesOf<Op>[OkKey<keyof ResponsesOf<Op>> & keyof ResponsesOf<Op>]>,
  StreamMedia
>;
type EventOf<X, M extends string> = X extends { content: infer C } ? (M extends keyof C ? C[M] : never) : never;

/** Members every operation has besides being callable. */
export interface OperationBase<Op> {
  /** True when `error` is an `ApiError` this operation threw with a status its spec declares; narrows to `ApiErrorOf<Op>`. */
  isError(error: unknown): error is ApiErrorOf<Op>;
  /** The description the operation was built from. */
  readonly spec: OperationSpec;
}

/**
 * A typed operation: `op(params?, options?)` resolves to the success body and throws an `ApiError` for any other
 * status; `op.withResponse(...)` also gives status and headers.
 * @typeParam Op - openapi-typescript operation type, e.g. `paths["/v1/models"]["post"]`.
 * @typeParam ReqMedia - media type of the request body the client sends.
 */
export interface Operation<Op, ReqMedia extends string = "application/json"> extends OperationBase<Op> {
  (...args: CallArgs<ParamsOf<Op, ReqMedia>>): Promise<SuccessBody<Op>>;
  withResponse(...args: CallArgs<ParamsOf<Op, ReqMedia>>): Promise<ApiResponse<SuccessBody<Op>>>;
  /** The successful response, its body unread; any other status throws as the call does. */
  asResponse(...args: CallArgs<ParamsOf<Op, ReqMedia>>): Promise<Response>;
}

/**
 * An operation with cursor pagination: `op.paginate(params?)` yields every item of every page.
 * @typeParam ItemsKey - property of the page holding the items (`PaginationSpec.items`).
 */
export interface PaginatedOperation<Op, ItemsKey extends string = "data", ReqMedia extends string = "application/json">
  extends Operation<Op, ReqMedia> {
  paginate(...args: CallArgs<ParamsOf<Op, ReqMedia>>): AsyncIterable<ItemOf<SuccessBody<Op>, ItemsKey>>;
}
/** The items of a page: the elements of its `K` array. */
export type ItemOf<Page, K extends string> = Page extends { [_ in K]?: infer A } ? (NonNullable<A> extends readonly (infer E)[] ? E : never) : never;

/** Params of a call that asks to stream: the flag is `true`. */
type StreamOn<P, Flag extends string> = P & { body: { [_ in Flag]: true } };
/** Params of a call that does not ask to stream. */
type StreamOff<P, Flag extends string> = P & { body?: { [_ in Flag]?: false | null | undefined } | undefined };

/**
 * An operation that streams server-sent events when the body's `Flag` property is `true`: then it resolves to a
 * `Stream` of `StreamMedia` events, otherwise to the JSON success body.
 */
export interface StreamingOperation<
  Op,
  ReqMedia extends string = "application/json",
  StreamMedia extends string = "text/event-stream",
  Flag extends string = "stream",
> extends OperationBase<Op> {
  (params: StreamOn<ParamsOf<Op, ReqMedia>, Flag>, options?: RequestOptions): Promise<Stream<StreamEventOf<Op, StreamMedia>>>;
  (...args: CallArgs<StreamOff<ParamsOf<Op, ReqMedia>, Flag>>): Promise<SuccessBody<Op>>;
  (...args: CallArgs<ParamsOf<Op, ReqMedia>>): Promise<Stream<StreamEventOf<Op, StreamMedia>> | SuccessBody<Op>>;
  withResponse(
    params: StreamOn<ParamsOf<Op, ReqMedia>, Flag>,
    options?: RequestOptions,
  ): Promise<ApiResponse<Stream<StreamEventOf<Op, StreamMedia>>>>;
  withResponse(...args: CallArgs<StreamOff<ParamsOf<Op, ReqMedia>, Flag>>): Promise<ApiResponse<SuccessBody<Op>>>;
  withResponse(
    ...args: CallArgs<ParamsOf<Op, ReqMedia>>
  ): Promise<ApiResponse<Stream<StreamEventOf<Op, StreamMedia>> | SuccessBody<Op>>>;
}
