/**
 * Public types of the server runtime: the route descriptors the emitter generates (`RouteSpec`), the router
 * options, and the handler types derived from openapi-typescript 7 operation types.
 *
 * The handler types are intentionally shallow (a few conditional/mapped types per operation, no recursion) so
 * that a 1,200-operation spec still type-checks quickly.
 */
import type { EncodingSpec, PartHeaderSpec } from "./form.js";
import type { Schema, SchemaDocument, ValidationIssue } from "./schema.js";
import type { PatternBudget, PatternTest } from "./validate.js";

export type { EncodingSpec, PartHeaderSpec } from "./form.js";

export type { Schema, SchemaDocument, SchemaObject, ValidationIssue, Loc } from "./schema.js";

// ---------------------------------------------------------------------------------------------------------
// Route descriptors (emitted from the spec)
// ---------------------------------------------------------------------------------------------------------

/** An OpenAPI parameter, as the emitter describes it. */
export interface ParamSpec {
  /** Name as declared in the spec (header names keep their spelling; matching is case-insensitive). */
  name: string;
  required: boolean;
  schema?: Schema;
  /** OpenAPI `style`. Defaults: query/cookie `form`, path/header `simple`. `cookie`: OpenAPI 3.2's, cookies as RFC 6265 sends them. */
  style?: "form" | "simple" | "label" | "matrix" | "spaceDelimited" | "pipeDelimited" | "deepObject" | "cookie";
  /** OpenAPI `explode`. Default: true for `form` and `cookie`, false otherwise. */
  explode?: boolean;
  /** For parameters declared with `content` instead of `schema` (e.g. "application/json"): the value is parsed as JSON. */
  contentType?: string;
}

/**
 * How items of a sequential body are framed: server-sent events, JSON Lines, JSON Text Sequences (RFC 7464). For an
 * event stream, `events: true` (an OpenAPI 3.2 `itemSchema` with a `data` field) makes an item a whole event
 * (`{ event?, data, id?, retry? }`), else an item is one event's `data`; `json` says whether `data` is JSON, for every
 * event, for none, or by event name (`message` for events without an `event` field).
 */
export interface SequenceSpec {
  format: "sse" | "jsonl" | "json-seq";
  sse?: { events?: boolean; json: boolean | { byEvent: Record<string, boolean>; otherwise: boolean } };
}

/** One entry of a `content` map. */
export interface MediaSpec {
  /** For a sequential media type (`sequence`), the schema of one item. */
  schema?: Schema;
  /** Present for the sequential media types the router streams. */
  sequence?: SequenceSpec;
  /**
   * Form and multipart request bodies: the spec's Encoding Objects by property name (`style`, `explode`,
   * `allowReserved`, `contentType`), which say how each property's fields are read.
   */
  encoding?: Record<string, EncodingSpec>;
  /**
   * Multipart parts by position (OpenAPI 3.2 `prefixEncoding`, `itemEncoding`): the part headers each position's
   * Encoding Object declares (`prefix[i]` for part `i`, `items` for every later one). Present only when one does.
   */
  positionalHeaders?: PositionalHeaderSpec;
  /** Media-level `example` (preferred by mock mode). */
  example?: unknown;
  /** Media-level `examples`: OpenAPI's map of Example Objects (`{ name: { value } }`, 3.2 `dataValue`) or a plain array. */
  examples?: Record<string, { value?: unknown; dataValue?: unknown; [key: string]: unknown }> | readonly unknown[];
}

/** The part headers of multipart parts by position (`MediaSpec.positionalHeaders`), by name as spelled in the spec. */
export interface PositionalHeaderSpec {
  prefix?: Record<string, PartHeaderSpec>[];
  items?: Record<string, PartHeaderSpec>;
}

/** The operation's `requestBody`. */
export interface RequestBodySpec {
  required: boolean;
  content: Record<string, MediaSpec>;
}

/** One entry of the operation's `responses` (key: "200", "4XX", "default", ...). */
export interface ResponseSpec {
  /** Omitted for responses without a body (e.g. 204). */
  content?: Record<string, MediaSpec>;
}

/** An `in: querystring` parameter (OpenAPI 3.2): the whole query string, one value of media type `contentType`. */
export interface QuerystringParamSpec {
  required: boolean;
  contentType: string;
  schema?: Schema;
  /** A form (`application/x-www-form-urlencoded`): how each property's fields are read. */
  encoding?: Record<string, EncodingSpec>;
}

/** Parameters of an operation, grouped by location (path-level parameters already merged in). */
export interface RouteParams {
  path: ParamSpec[];
  query: ParamSpec[];
  querystring?: QuerystringParamSpec;
  header: ParamSpec[];
  cookie?: ParamSpec[];
}

/** One route = one (method, path) of the spec. Several routes may share a `name` (e.g. `/x` and `/x/`). */
export interface RouteSpec {
  /** Handler name (the operation's name in `Handlers`). */
  name: string;
  /** Upper-case HTTP method. */
  method: string;
  /** Path template exactly as declared, e.g. `/v1/models/{model_id}` or `/repos/{o}/{r}/compare/{base}...{head}`. */
  path: string;
  /** Which of `GeneratedInfo.serverPaths` the route is served under (the operation's server); absent: the first. */
  server?: number;
  /** True when the operation requires credentials (no alternative of `security` lets a request without them through). */
  secured: boolean;
  /**
   * The operation's security requirements: alternatives, each a combination of schemes (keys of
   * `document.components.securitySchemes`) that must all be present; an empty alternative admits anonymous
   * requests. Omitted: `secured` means an HTTP bearer token (route tables written before schemes were read).
   */
  security?: { scheme: string; scopes?: string[] }[][];
  params: RouteParams;
  body?: RequestBodySpec | null;
  responses: Record<string, ResponseSpec>;
  /** 422 when the operation declares a FastAPI-style `HTTPValidationError` 422, else 400. */
  validationErrorStatus: number;
}

// ---------------------------------------------------------------------------------------------------------
// Router options
// ---------------------------------------------------------------------------------------------------------

/** What `onError` learns about the failing request. */
export interface ErrorContext {
  /** Handler name, or undefined for failures before routing. */
  operation: string | undefined;
  request: Request;
}

/** An HTTP bearer token (`Authorization: Bearer <token>`). */
export interface BearerCredentials {
  type: "bearer";
  token: string;
}

/** HTTP basic credentials, decoded (`Authorization: Basic base64(username:password)`). */
export interface BasicCredentials {
  type: "basic";
  username: string;
  password: string;
}

/** Another HTTP scheme: what follows `Authorization: <scheme> `. */
export interface HttpCredentials {
  type: "http";
  /** The scheme as the spec names it, e.g. `"Digest"`. */
  scheme: string;
  credentials: string;
}

/** An API key, as sent in its header, query parameter or cookie. */
export interface ApiKeyCredentials {
  type: "apiKey";
  in: "header" | "query" | "cookie";
  /** The header, query parameter or cookie name. */
  name: string;
  value: string;
}

/** An OAuth 2 or OpenID Connect access token (`Authorization: Bearer <token>`), with the scopes the operation asks for. */
export interface OAuth2Credentials {
  type: "oauth2" | "openIdConnect";
  token: string;
  /** The scopes the satisfied requirement lists: check the token grants them. */
  scopes: string[];
}

/** The credentials of one security scheme, as the router read them from a request. */
export type SchemeCredentials = BearerCredentials | BasicCredentials | HttpCredentials | ApiKeyCredentials | OAuth2Credentials;

/**
 * An error the router answers itself (401, 404, 405, 413, 415, validation, 501, 500, or an `HttpError` a handler
 * or `authenticate` threw), as `errorBody` sees it.
 */
export interface RouterError {
  status: number;
  /**
   * What went wrong, for programs: `bad_request`, `unauthorized`, `forbidden`, `not_found`, `method_not_allowed`,
   * `payload_too_large`, `unsupported_media_type`, `validation_error`, `not_implemented`, `internal_error`, or the
   * `type` of an `HttpError`.
   */
  type: string;
  /** The status's reason phrase, e.g. "Not Found". */
  title: string;
  /** One sentence for people, e.g. "Not authenticated". */
  detail: string;
  /** The validation problems (validation errors only), FastAPI style. */
  issues?: ValidationIssue[];
  /** The operation, when the request was routed. */
  operation?: string;
  /** The request's path, as sent. */
  instance: string;
  /** The body the router sends unless `errorBody` says otherwise: the shape the spec declares for this status. */
  body: unknown;
  /** Its media type; undefined when the declared response has no body. */
  contentType: string | undefined;
}

/** What `errorBody` returns: the body to send instead (JSON unless `contentType` says otherwise; undefined: none). */
export interface ErrorBody {
  body: unknown;
  contentType?: string;
}

/**
 * How the router matches `pattern` keywords (and `patternProperties` keys). By default patterns run on the
 * native engine, except those the generator found super-linear (`^(a+)+$`), which run on a linear-time matcher
 * whose work per event-loop turn is bounded by `budget`.
 */
export interface PatternOptions {
  /** Strings longer than this (UTF-16 code units) fail a pattern without being matched. Default: no limit. */
  maxInputLength?: number;
  /**
   * Work the linear-time matcher may do per event-loop turn, in steps (one instruction of a pattern's program at
   * one position of a string): once spent, strings fail their pattern unmatched until the next turn. Default
   * 250,000 (a few milliseconds).
   */
  budget?: number;
  /**
   * Your own matcher (e.g. RE2), called once per pattern when the router is created; return a test, or undefined
   * to keep the router's. `superLinear` says the generator found the pattern to backtrack catastrophically.
   */
  compile?: (pattern: string, info: { superLinear: boolean }) => ((value: string) => boolean) | undefined;
}

/** How much of a multipart body the router reads before refusing it (`RouterOptions.multipartLimits`). */
export interface MultipartLimits {
  /** Parts in one body (default 1,000). */
  parts: number;
  /** Header lines in one part (default 32: Content-Disposition, Content-Type and a few declared ones are what clients send). */
  headersPerPart: number;
  /** Bytes in one header line (default 8 KiB). */
  headerLineBytes: number;
  /** Bytes in one part's header block (default 16 KiB, as busboy's). */
  headerBlockBytes: number;
}

/** A part's headers: lower-case name and value, in the order sent (a repeated header appears each time). */
export type PartHeaders = readonly (readonly [string, string])[];

/** The fields of a `multipart/form-data` body: a `FormData` look-alike (`FormFields` in form.ts) plus part headers. */
export interface MultipartFields {
  /** Every value of field `name`, in the order sent: a string, or a `File` for a part with a filename. */
  getAll(name: string): (string | File)[];
  /** Field names in the order they first appear. */
  keys(): IterableIterator<string>;
  /** The headers of each part named `name`, in the order sent (parallel to `getAll(name)`). */
  headersOf(name: string): PartHeaders[];
}

/**
 * The router's optional parts, each exported by its own module and passed to `createRouterRuntime` by the generated
 * server.ts only when the spec needs it, so that a spec without multipart bodies or catastrophic patterns ships
 * none of their code.
 */
export interface RouterFeatures {
  /** multipart.ts `multipartFeature`: reads `multipart/*` bodies; without it a route that declares one cannot be built. */
  multipart?: MultipartReader;
  /**
   * pattern.ts `linearPatternsFeature`: the linear-time matcher of `GeneratedInfo.superLinearPatterns`; without it
   * those run on the native engine on strings of at most a few hundred characters (longer ones are UNCHECKED).
   */
  linearPatterns?: (source: string, unicode: boolean, budget: PatternBudget) => PatternTest | undefined;
}

/** What the body reader needs of multipart.ts (`RouterFeatures.multipart`). */
export interface MultipartReader {
  /** The default limits (`MULTIPART_LIMITS`). */
  limits: Readonly<MultipartLimits>;
  parseFormData(bytes: Uint8Array, contentType: string, errors: ValidationIssue[], limits?: Readonly<MultipartLimits>, keepCharsetField?: boolean): MultipartFields | undefined;
  parseMultipartParts(bytes: Uint8Array, contentType: string, maxDepth: number, errors: ValidationIssue[], limits?: Readonly<MultipartLimits>, headers?: PartHeaders[]): unknown[] | undefined;
}

/** What the generator knows about the spec that the router uses (emitted in server.ts). */
export interface GeneratedInfo {
  /** Patterns that backtrack catastrophically on the native engine. */
  superLinearPatterns?: readonly string[];
  /**
   * Where the routes are served when `RouterOptions.basePath` does not say: for each server of the spec (the index a
   * route's `server` names), the paths of its URL (`["/v1"]` for `https://api.example.com/v1`, one per value of an
   * enumerated server variable in the path, `[""]` for none). Absent: every route at the root.
   */
  serverPaths?: readonly (readonly string[])[];
}

/**
 * What `authenticate` answers: the principal (`ctx.auth`), or `null`/`undefined` to refuse the request (401). Only a
 * principal lets a request in — any other falsy answer (`false`, `0`, `""`, `NaN`) is refused as well — and a
 * `boolean` does not compile: `({ bearer }) => bearer.token === SECRET` names no one, and the principal types
 * `ctx.auth`. Return who the caller is (`{ user }`), or `null`.
 */
export type Principal<Auth> = Auth | null | undefined;
/** What a principal that is (or may be) `true` or `false` meets: a type no options object is assignable to. */
interface BooleanPrincipal {
  "authenticate returns a principal, such as { user }, or null to refuse: not a boolean": never;
}
/**
 * `unknown`, unless the principal `authenticate` answers may be a boolean (`createRouter`'s options meet it): kept
 * apart from `Principal` so that TypeScript still infers a union of the shapes `authenticate` returns.
 */
export type NotABoolean<Auth> = {} extends Auth ? unknown : true extends Auth ? BooleanPrincipal : false extends Auth ? BooleanPrincipal : unknown;

/** Options of `createRouterRuntime` / the emitted `createRouter`. */
export interface RouterOptions<Auth = unknown, Credentials = Record<string, SchemeCredentials>> {
  /**
   * Resolves a request's credentials to the principal passed as `ctx.auth`; return `null`/`undefined` to reject it
   * with 401 (any falsy answer is a refusal; a boolean answer does not compile, see `Principal`). `credentials` holds the first of the operation's security alternatives the request satisfies, keyed
   * by scheme (`{ bearerAuth: { type: "bearer", token } }`; a combination has several keys), so narrow with
   * `"bearerAuth" in credentials`. Called before the body is read: for every request to an operation that requires
   * credentials (one without them gets 401 first), and to one whose credentials are optional when it sends some.
   * `request` is the same object handlers get as `ctx.request` (with `toNodeListener`, built only if the callback
   * uses it).
   */
  authenticate?: (credentials: Credentials, request: Request, info: { operation: string }) => Principal<Auth> | Promise<Principal<Auth>>;
  /**
   * Development escape hatch: without `authenticate`, secured operations normally answer 401. With this flag
   * they run without any token check and `ctx.auth` is `undefined`. Never enable in production.
   */
  insecureNoAuth?: boolean;
  /**
   * Answer operations that have no handler from the spec: the first 2xx response's example, else a value
   * generated from its schema. Requests are still validated. Without `authenticate`, any credentials of the
   * operation's schemes are accepted (some must still be present, unless `insecureNoAuth`).
   */
  mock?: boolean | MockSettings;
  /** Validate handler results against the declared response schemas; a mismatch becomes 500 + `onError`. For development. */
  validateResponses?: boolean;
  /**
   * Copy JSON response bodies (and SSE events) down to their declared schema before sending, as FastAPI's
   * `response_model` does: properties the schema does not declare (a `password_hash` on a user record) and
   * `writeOnly` ones never reach the client. With `validateResponses`, the copy is what is validated.
   */
  stripResponses?: boolean;
  /**
   * How many `$ref` targets the validation of one value (a parameter, a body) may evaluate, not counting answers it
   * remembered (default 1,000,000): past that the request is refused as too costly to check (400 or 422, issue type
   * `too_costly`). Only schemas that re-check one value many times over (diamonds of `allOf`s) come near it.
   */
  maxValidationSteps?: number;
  /** Largest accepted request body in bytes (default 1 MiB). Larger bodies get 413 without being read. */
  maxBodyBytes?: number;
  /**
   * How much of a multipart body is read before it is refused with 400 (each field defaults as `MULTIPART_LIMITS`:
   * 1,000 parts, 32 header lines per part, 8 KiB a header line, 16 KiB a part's header block); within `maxBodyBytes`.
   */
  multipartLimits?: Partial<MultipartLimits>;
  /**
   * Deepest nesting of objects and arrays in a request value (default 128): deeper JSON is refused before it is
   * parsed, and deeper values fail validation, with the location.
   */
  maxDepth?: number;
  /** How `pattern` keywords are matched: input bounds, the work budget, your own matcher. */
  patterns?: PatternOptions;
  /**
   * Shapes the router's own error answers. By default each follows the response the operation declares for that
   * status (FastAPI `{detail}`, OpenAI `{error: {message, type, param, code}}`, `{message}`, … whichever validates
   * against the declared schema), else RFC 9457 `application/problem+json`. Return undefined to keep that.
   */
  errorBody?: (error: RouterError) => ErrorBody | undefined;
  /**
   * Called for handler exceptions, response validation failures and stream errors. Must not throw. Without it,
   * each such failure is logged once with `console.error` (the request's method and path, never its body).
   */
  onError?: (error: unknown, context: ErrorContext) => void;
  /**
   * The path every route is served under: "/api" serves `/pets` at `/api/pets`; "" serves the spec's paths at the
   * root. By default each operation is served under the path of its server in the spec, the server the generated
   * client sends it to (`https://api.example.com/v1` → `/v1`, "" for a server without a path). A request outside
   * every base path gets 404 saying which paths were expected.
   */
  basePath?: string | undefined;
  /** Final SSE message; default "[DONE]" (OpenAI framing). `null` ends streams without one. */
  sseTerminator?: string | null;
}

/** Mock mode with a listener: `mock: { onIssue }`. */
export interface MockSettings {
  /**
   * Told, when the router is created, about each operation whose mock answer cannot be valid and why (a size
   * clamped to `MOCK_LIMITS`, a pattern no string was found for, `oneOf` branches that overlap, …). Such an answer is
   * still sent, with an `x-specforge-mock-issue` header saying why.
   */
  onIssue?: (operation: string, issues: readonly { at: string; message: string }[]) => void;
}

/** A router: a web-standard fetch function (Workers, Deno, Bun, Hono `mount`, or Node via `toNodeListener`). */
export interface Router {
  /** Answers every request: one no route matches gets the router's 404 (or 405 for a path with other methods). */
  fetch(request: Request): Promise<Response>;
  /**
   * Like `fetch`, for a router mounted inside another app (what the Express, Fastify, Hono and Next.js adapters
   * call): resolves to undefined, having read nothing of the request, when no route's path matches it (outside
   * `prefix` and `basePath`, or a path the spec does not have), so the app answers it itself.
   */
  handle(request: Request, options?: MountOptions): Promise<Response | undefined>;
}

/** Where an app mounts a router (`router.handle`). */
export interface MountOptions {
  /**
   * The path the app serves the router under (`"/api"`), stripped before the router's own `basePath`: a route
   * `/pets` of a router with `basePath: "/v1"` mounted at `/api` is served at `/api/v1/pets`. The request's URL (as
   * handlers see it) keeps it.
   */
  prefix?: string;
}

// ---------------------------------------------------------------------------------------------------------
// Handler types, derived from openapi-typescript 7 operation types
// ---------------------------------------------------------------------------------------------------------

/** Used for parameter groups an operation does not declare. */
export type NoParams = Record<string, never>;

type OrNoParams<G> = [NonNullable<G>] extends [never] ? NoParams : NonNullable<G>;
// One plain conditional per location: cheaper for tsc than a mapped `{ [K in Where]?: infer G }` pattern.
type PathParams<Op> = Op extends { parameters: { path?: infer G } } ? OrNoParams<G> : NoParams;
type QueryParams<Op> = Op extends { parameters: { query?: infer G } } ? OrNoParams<G> : NoParams;
type HeaderParams<Op> = Op extends { parameters: { header?: infer G } } ? OrNoParams<G> : NoParams;
type CookieParams<Op> = Op extends { parameters: { cookie?: infer G } } ? OrNoParams<G> : NoParams;
/** The decoded value of an `in: querystring` parameter (`undefined` when it is optional and the query is empty). */
export type QuerystringParam<Op> = Op extends { parameters: { querystring: infer Q } }
  ? Q
  : Op extends { parameters: { querystring?: infer Q } }
    ? Q | undefined
    : undefined;
/** The object type of one parameter location (`path`, `query`, `header`, `cookie`), `NoParams` when undeclared. */
export type ParamGroup<Op, Where extends "path" | "query" | "header" | "cookie"> = {
  path: PathParams<Op>;
  query: QueryParams<Op>;
  header: HeaderParams<Op>;
  cookie: CookieParams<Op>;
}[Where];

// (`infer` from an optional property drops `undefined`, so optionality is tested separately.)
type RequestBodyOf<Op> = Op extends { requestBody?: infer B } ? B : undefined;
type OptionalBody<Op> = Op extends { requestBody: unknown } ? never : undefined;

type IfEquals<X, Y, A, B> = (<G>() => G extends X ? 1 : 2) extends (<G>() => G extends Y ? 1 : 2) ? A : B;
/** `T`'s keys with their modifiers and a placeholder type: comparing these never compares property types (cheap). */
type KeyFlags<T> = { [K in keyof T]: 0 };
type Mutable<X> = { -readonly [K in keyof X]: X[K] };
type IsReadonlyKey<F, K extends keyof F> = IfEquals<Pick<F, K>, Mutable<Pick<F, K>>, false, true>;
/**
 * `T` without its `readonly` properties: openapi-typescript declares `readOnly: true` properties `readonly`, and the
 * router neither requires nor validates them in a request. Top level only.
 */
export type WithoutReadOnly<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? // One comparison settles the usual case (no readonly property) and keeps `T` itself.
      IfEquals<KeyFlags<T>, Mutable<KeyFlags<T>>, T, { [K in keyof T as IsReadonlyKey<KeyFlags<T>, K> extends true ? never : K]: T[K] }>
    : T;

/** A multipart field: an uploaded file wherever the schema says string (openapi-typescript types `format: binary` as string). */
type FormField<V> = V extends string ? V | File : V extends readonly (infer E)[] ? (E extends string ? E | File : E)[] : V;

/** The parsed body of media type `M` whose schema type is `T`, as `body.ts` parses it. */
type BodyAs<T, M> = M extends `${string}*${string}`
  ? unknown
  : M extends "application/json" | `application/json;${string}` | `${string}+json` | `${string}+json;${string}` | `${string}/json`
    ? WithoutReadOnly<T>
    : M extends `application/x-www-form-urlencoded${string}`
      ? WithoutReadOnly<T>
      : M extends `multipart/form-data${string}`
        ? { [K in keyof WithoutReadOnly<T>]: FormField<WithoutReadOnly<T>[K]> }
        : M extends `multipart/${string}`
          ? PositionalParts<T>
          : M extends `text/${string}`
            ? string
            : Uint8Array;

/** A multipart body by position (`multipart/mixed`, OpenAPI 3.2): its parts in order; binary ones as bytes. */
type PositionalParts<T> = T extends readonly unknown[] ? { [K in keyof T]: T[K] extends string ? T[K] | Uint8Array : T[K] } : Uint8Array;

type MediaValue<Content, Media extends string> = [Media] extends [never]
  ? { [M in keyof Content]: BodyAs<Content[M], M> }[keyof Content]
  : Media extends keyof Content
    ? BodyAs<Content[Media], Media>
    : { [M in keyof Content]: BodyAs<Content[M], M> }[keyof Content];
/**
 * The parsed request body: `requestBody.content[Media]` (all media types when `Media` is omitted),
 * `| undefined` when the body is optional, `undefined` when there is none.
 */
export type RequestBody<Op, Media extends string = never> = [NonNullable<RequestBodyOf<Op>>] extends [never]
  ? undefined
  : (NonNullable<RequestBodyOf<Op>> extends { content: infer C } ? MediaValue<C, Media> : unknown) | OptionalBody<Op>;

/**
 * What a handler receives. `Parts`: the part headers a multipart body declares (`encoding.{property}.headers`,
 * `prefixEncoding`, `itemEncoding`), as the generated `Handlers` spell them out (openapi-typescript's types do not
 * carry them).
 */
export interface HandlerContext<Op, Auth = unknown, Media extends string = never, Parts = NoPartHeaders> {
  /** Path parameters, percent-decoded and coerced to their schema types. */
  path: PathParams<Op>;
  /** Declared query parameters, coerced (defaults applied); undeclared ones are left in `request.url`. */
  query: QueryParams<Op>;
  /** An `in: querystring` parameter (OpenAPI 3.2): the whole query string, decoded by its media type and validated. */
  querystring: QuerystringParam<Op>;
  /** Declared header parameters, keyed by their spec spelling. All headers: `request.headers`. */
  headers: HeaderParams<Op>;
  /** Declared cookie parameters. */
  cookies: CookieParams<Op>;
  /** Parsed and validated body (JSON; form-urlencoded/multipart as an object; text as a string; other media as bytes). */
  body: RequestBody<Op, Media>;
  /** The declared media type the body matched (e.g. "application/json"), undefined without body. */
  contentType: string | undefined;
  /**
   * The part headers the spec declares, validated and coerced like header parameters, keyed by their spec spelling.
   * `multipart/form-data`: by property and then one record per part of that property in the order sent
   * (`ctx.partHeaders.file?.[0]`; a property without parts is absent). Parts by position (3.2 `prefixEncoding`,
   * `itemEncoding`): an array parallel to `body`, one record per part. Empty for other bodies.
   */
  partHeaders: Parts;
  /** The principal returned by `authenticate` (undefined for unsecured operations or without authentication). */
  auth: Auth;
  /**
   * The raw request; `request.signal` aborts when the client disconnects. When the operation declares a
   * request body, the router has read it (use `body`): the node:http adapter then hands out a Request
   * without a body stream. The adapter builds the Request only when it is first used.
   */
  request: Request;
  /** Handler name of the operation. */
  operation: string;
}

/** `partHeaders` of an operation whose body declares none. */
export type NoPartHeaders = Record<string, never>;

/** Extra response headers a handler may set. */
export type ResultHeaders = Record<string, string> | Headers;

type StatusOf<Key> = Key extends number
  ? Key
  : Key extends "default" | `${number}XX` | `${number}xx`
    ? number
    : Key extends `${infer N extends number}`
      ? N
      : never;

/** Bytes a handler may answer with for a binary media type (openapi-typescript types `format: binary` as string). */
export type BinaryResult = Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array>;
type ResultBody<T, M> = M extends `text/${string}` | `${string}json${string}` ? T : T | BinaryResult;

/** The media types the router streams item by item (mirrors the generator's `sequenceFormat`). */
export type SequenceMediaType =
  | "text/event-stream"
  | "application/jsonl"
  | "application/x-jsonl"
  | "application/jsonlines"
  | "application/x-jsonlines"
  | "application/x-ndjson"
  | "application/ndjson"
  | "application/json-seq"
  | `${string}+json-seq`;

type ResultFor<Status extends number, Response> = Response extends { content: infer C }
  ? [C] extends [never]
    ? { status: Status; body?: undefined; headers?: ResultHeaders }
    : {
        [M in keyof C]: M extends SequenceMediaType
          ? { status: Status; stream: AsyncIterable<C[M]>; contentType?: M; headers?: ResultHeaders }
          : { status: Status; body: ResultBody<C[M], M>; contentType?: M; headers?: ResultHeaders };
      }[keyof C]
  : { status: Status; body?: undefined; headers?: ResultHeaders };

type ResponsesOf<Op> = Op extends { responses: infer R } ? R : never;

/**
 * The union of results an operation may produce: one member per declared status (and media type), with the
 * body typed by that status. `default` (and `4XX`-style ranges) allow any other status number. A streamed response
 * (`text/event-stream`, JSON Lines, `application/json-seq`) takes `{ status, stream: AsyncIterable<Item> }` instead of
 * `body`, and `contentType` picks one of several streamed media types (else the request's `Accept` does).
 */
export type HandlerResult<Op> = {
  [K in keyof ResponsesOf<Op>]: ResultFor<StatusOf<K>, ResponsesOf<Op>[K]>;
}[keyof ResponsesOf<Op>];

/**
 * No value has this type (its one required property is `never`): it is in a handler's result only so that TypeScript,
 * when a result matches none of the operation's declared responses, names the problem instead of listing what a
 * `Response` has that the result lacks.
 */
export interface UndeclaredResult {
  status: number;
  body?: unknown;
  "the status is not one the spec declares for this operation, or the body is not that status's type": never;
}

/**
 * A route handler for the openapi-typescript operation type `Op`. May also return a raw `Response` as an
 * escape hatch (sent as is, never validated).
 */
export type Handler<Op, Auth = unknown, Media extends string = never, Parts = NoPartHeaders> = (
  ctx: HandlerContext<Op, Auth, Media, Parts>,
) => HandlerResult<Op> | Response | UndeclaredResult | Promise<HandlerResult<Op> | Response | UndeclaredResult>;

/** Untyped view used by the runtime. */
export interface AnyHandlerResult {
  status: number;
  body?: unknown;
  stream?: AsyncIterable<unknown>;
  headers?: ResultHeaders;
  contentType?: string;
}
