/**
 * The request engine behind every emitted client: builds the request an `OperationSpec` describes, sends it with
 * timeout, abort and retries, and turns the response into data or an error.
 */
import { credentialsFor, type AppliedCredentials } from "./auth.js";
import { deviceFlowCredential, isDeviceFlow } from "./oauth.js";
import { ApiError, ConnectionError, TimeoutError } from "./errors.js";
import { MAX_REDIRECTS, isRedirect, nextHop, type Hop } from "./redirect.js";
import { MAX_RETRY_AFTER_MS, backoffDelay, certainlyNotSent, isIdempotent, isRetryableStatus, retryAfterDelay, sleep } from "./retry.js";
import {
  encodeUnreserved,
  isJsonMediaType,
  mediaTypeEssence,
  serializeBody,
  serializeCookies,
  serializeHeaders,
  pathSerializer,
  serializeQuery,
  serializeQuerystring,
  type ParamValues,
  type SerializedBody,
} from "./serialize.js";
import { DEFAULT_MAX_EVENT_SIZE, Stream, sequenceFormat } from "./sse.js";
import type { ApiResponse, ClientOptions, HeaderValues, OperationSpec, ParamSpec, RequestOptions, SecuritySchemeSpec, ServerSpec } from "./types.js";

/** Untyped call parameters; the emitted client types them per operation with `ParamsOf`. */
export interface RequestParams {
  path?: ParamValues | undefined;
  query?: ParamValues | undefined;
  /** The value of an `in: querystring` parameter: the whole query string. */
  querystring?: unknown;
  headers?: ParamValues | undefined;
  cookies?: ParamValues | undefined;
  body?: unknown;
}

/** An operation as the runtime builds it; the emitted client casts it to `Operation<…>` and friends. */
export interface RuntimeOperation {
  // `params` is a `RequestParams`, typed `any` so that an emitter may write `{ …operations } as Client`: a cast needs
  // each call signature comparable to the typed one, and call signature parameters are compared strictly.
  (params?: any, options?: RequestOptions): Promise<unknown>;
  withResponse(params?: RequestParams, options?: RequestOptions): Promise<ApiResponse<unknown>>;
  /** Present when the spec has `pagination`. */
  paginate?(params?: RequestParams, options?: RequestOptions): AsyncIterable<unknown>;
  /** True for an `ApiError` this operation threw with a status its spec declares (`OperationSpec.errors`). */
  isError(error: unknown): boolean;
  readonly spec: OperationSpec;
}

/** What `createRuntime` returns: a factory of operations sharing the client's options. */
export interface Runtime {
  operation(spec: OperationSpec): RuntimeOperation;
}

const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
const DEFAULT_MAX_RETRIES = 2;
/** setTimeout fires at once for delays above 2^31 - 1 ms, so longer limits mean "none". */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** `init` of `new Request`, taken from whichever declaration of `Request` is in scope (DOM or @types/node). */
type RequestInitLike = NonNullable<ConstructorParameters<typeof Request>[1]>;

/** Headers that carry credentials whatever the spec says; never sent to another origin after a redirect. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/**
 * Creates the runtime for one client.
 * @param servers - the spec's servers; `OperationSpec.server` indexes this list.
 * @param options - client options, including one option per server variable (read by name from `ServerSpec.variables`)
 *   and one per security scheme (read by name from `securitySchemes`).
 * @param securitySchemes - the spec's security schemes by key; `OperationSpec.security` names them.
 */
export function createRuntime(servers: readonly ServerSpec[], options: ClientOptions = {}, securitySchemes: Readonly<Record<string, SecuritySchemeSpec>> = {}): Runtime {
  const optionValues = withDeviceFlows(options, securitySchemes);
  // Dropped on a redirect to another origin: the standard credential headers and every API-key header of the spec.
  const sensitiveHeaders = [
    ...CREDENTIAL_HEADERS,
    ...Object.values(securitySchemes).flatMap((scheme) => (scheme.type === "apiKey" && scheme.in === "header" ? [scheme.name.toLowerCase()] : [])),
  ];
  // (An API key in Authorization, as Discord's, is one browsers already keep to its origin.)
  const apiKeyHeaders = sensitiveHeaders.slice(CREDENTIAL_HEADERS.length).filter((name) => !CREDENTIAL_HEADERS.includes(name));
  // Browsers hide where a redirect points (`redirect: "manual"` gives an opaque response); they drop Authorization
  // across origins themselves and manage cookies, so there only requests with an API-key header are followed by hand
  // (and a redirect of theirs is an error rather than a leak).
  const inBrowser = typeof (globalThis as { document?: unknown }).document !== "undefined";
  const maxEventSize = options.maxStreamEventSize ?? DEFAULT_MAX_EVENT_SIZE;
  const baseUrls: (string | undefined)[] = [];
  const baseUrl = (index: number): string => (baseUrls[index] ??= resolveServerUrl(servers[index], options));
  const fetchImpl = options.fetch ?? ((request, init) => globalThis.fetch(request, init));
  // Nothing asks for a Request object (no custom fetch, no hooks): call fetch(url, init). Node's fetch copies a
  // Request argument, piping its body through a TransformStream, which made the request cost a third more. The
  // standard fetch also honours the signal while the body is read, so the race against it (`untilAborted`, for
  // custom fetches that ignore it) is left out.
  const direct = !options.fetch && !options.onRequest && !options.onResponse;
  /** Base URLs and methods `new Request` has accepted (see assertRequestable). */
  const requestable = { bases: new Set<string>(), methods: new Set<string>() };
  const guard = <T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> => (direct || !signal ? promise : untilAborted(promise, signal));

  return {
    operation(spec) {
      const specs = {
        path: byName(spec.params?.path),
        query: byName(spec.params?.query),
        header: byName(spec.params?.header),
        cookie: byName(spec.params?.cookie),
      };
      // A path with a query of its own (OpenAI's `/responses?beta=true`) sends that query first, then the call's.
      const [template, fixedQuery] = splitFixedQuery(spec.path);
      const path = pathSerializer(template, specs.path);
      // Errors this operation threw, so that isError can tell them from another operation's.
      const thrown = new WeakSet<ApiError>();

      const send = (params: RequestParams = {}, call: RequestOptions = {}): Promise<ApiResponse<unknown>> => execute(spec, specs, path, fixedQuery, thrown, params, call);

      const operation: RuntimeOperation = Object.assign((params?: RequestParams, call?: RequestOptions) => send(params, call).then(dataOf), {
        withResponse: send,
        isError: (error: unknown) => error instanceof ApiError && thrown.has(error) && declaresStatus(spec, error.status),
        spec,
      });

      const pagination = spec.pagination;
      if (pagination) {
        operation.paginate = async function* (params: RequestParams = {}, call?: RequestOptions) {
          let previous: unknown;
          for (;;) {
            const page = (await send(params, call)).data as Record<string, unknown> | undefined;
            const items = page?.[pagination.items];
            if (!Array.isArray(items)) throw new TypeError(`${spec.name}: the response has no "${pagination.items}" array`);
            yield* items;
            const cursor = page?.[pagination.cursor];
            const more = pagination.hasMore === undefined || Boolean(page?.[pagination.hasMore]);
            // An unchanged cursor would fetch the same page forever.
            if (!more || items.length === 0 || cursor === undefined || cursor === null || cursor === previous) return;
            previous = cursor;
            params = { ...params, query: { ...params.query, [pagination.param]: cursor } };
          }
        };
      }
      return operation;
    },
  };

  /** One call: build the request once, then send it until it succeeds, fails for good or runs out of retries. */
  async function execute(
    spec: OperationSpec,
    specs: Record<"path" | "query" | "header" | "cookie", ReadonlyMap<string, ParamSpec>>,
    path: (values?: ParamValues) => string,
    fixedQuery: string,
    thrown: WeakSet<ApiError>,
    params: RequestParams,
    call: RequestOptions,
  ): Promise<ApiResponse<unknown>> {
    const base = baseUrl(spec.server ?? 0);
    const signal = call.signal;
    signal?.throwIfAborted();
    const found = spec.security && spec.security.length > 0 ? credentialsFor(spec.name, spec.security, securitySchemes, optionValues) : undefined;
    // (Awaited only when a credential function returned a promise: a plain value costs no extra tick.)
    const credentials = found instanceof Promise ? await found : found;
    if (found instanceof Promise) signal?.throwIfAborted();
    // (Each serialiser is skipped when the call has nothing for it: most calls set one or two of them.)
    let query = params.query ? serializeQuery(specs.query, params.query) : "";
    const querystring = spec.params?.querystring;
    if (querystring && params.querystring !== undefined && params.querystring !== null) query = serializeQuerystring(querystring.content, params.querystring, querystring.encoding);
    if (fixedQuery) query = query ? `${fixedQuery}&${query}` : fixedQuery;
    if (credentials && credentials.query.length > 0) {
      const pairs = credentials.query.map(([name, value]) => `${encodeUnreserved(name)}=${encodeUnreserved(value)}`).join("&");
      query = query ? `${query}&${pairs}` : pairs;
    }
    const url = `${base}${path(params.path)}${query ? `?${query}` : ""}`;

    const headers = new Headers();
    let body: SerializedBody | undefined;
    if (spec.body && params.body !== undefined) {
      const serialized = serializeBody(spec.body.mediaType, params.body, spec.body.encoding, spec.body.positional);
      body = serialized.body;
      if (serialized.contentType) headers.set("Content-Type", serialized.contentType);
    }
    const accept = streamAccept(spec, params);
    if (accept) headers.set("Accept", accept);
    if (credentials) for (const [name, value] of credentials.headers) headers.set(name, value);
    if (options.headers) mergeHeaders(headers, options.headers);
    if (params.headers) serializeHeaders(specs.header, params.headers, headers);
    const cookie = cookieHeader(params.cookies ? serializeCookies(specs.cookie, params.cookies) : undefined, credentials);
    if (cookie) headers.set("Cookie", cookie);
    if (call.headers) mergeHeaders(headers, call.headers);
    const keyed = idempotencyKey(spec, options, call, headers);

    const init: RequestInitLike & { duplex?: "half" } = { method: spec.method, headers };
    if (body !== undefined) init.body = body as NonNullable<RequestInitLike["body"]>;
    // A stream can be sent once only, and Node's fetch requires this flag for it.
    const resendable = !(body instanceof ReadableStream);
    if (!resendable) init.duplex = "half";
    init.redirect = inBrowser && !apiKeyHeaders.some((name) => headers.has(name)) ? "follow" : "manual";

    const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxRetries = resendable ? (call.maxRetries ?? options.maxRetries ?? DEFAULT_MAX_RETRIES) : 0;
    // Whether a response (or a timeout, or a connection that broke after the request was written) may be answered by
    // sending again: the server may have acted on a POST already, unless an Idempotency-Key lets it tell a repeat.
    const repeatable = isIdempotent(spec.method) || keyed || (call.retryNonIdempotent ?? options.retryNonIdempotent ?? false);

    for (let attempt = 0; ; attempt++) {
      const retriesLeft = attempt < maxRetries;
      const scope = new AttemptScope(signal, timeoutMs, spec.name, accept !== undefined);

      // What fetch would refuse (and the onRequest hook's own errors) are the call's errors, not connection errors.
      const prepared = prepare(base, url, init);
      let request = prepared instanceof Promise ? await prepared : prepared;
      let response: Response;
      try {
        ({ response, request } = await sendFollowingRedirects(spec, url, init, request, scope));
      } catch (error) {
        scope.release();
        const failure = scope.failure(error);
        // A connection error before the request left (refused, no such host) is safe to repeat for any method.
        const retryable =
          (failure instanceof ConnectionError && (repeatable || certainlyNotSent(failure))) || (failure instanceof TimeoutError && repeatable);
        if (!retryable || !retriesLeft) throw failure;
        await sleep(backoffDelay(attempt), signal);
        continue;
      }

      try {
        if (options.onResponse) response = (await options.onResponse(response, request!)) ?? response;
        if (!response.ok) {
          const wait = retriesLeft && repeatable && isRetryableStatus(response.status) ? retryDelay(response, attempt) : undefined;
          if (wait !== undefined) {
            // Free the connection: an unread body keeps it busy.
            await response.body?.cancel().catch(() => {});
            scope.release();
            await sleep(wait, signal);
            continue;
          }
          const data = await readBody(response, spec, scope, true);
          const error = new ApiError({ status: response.status, statusText: response.statusText, body: data, headers: response.headers, operation: spec.name, method: spec.method, url });
          // Errors this operation threw, so that isError can tell them from another operation's.
          thrown.add(error);
          throw error;
        }
        const contentType = response.headers.get("content-type") ?? "";
        const format = contentType === "application/json" ? undefined : sequenceFormat(contentType);
        if (format) {
          // From here on the caller holds the connection open for as long as they read; only their signal applies.
          scope.stopTimer();
          const stream = new Stream(
            response,
            signal,
            () => {
              scope.release();
              // Cancelling the body (parseSSE does) closes the connection in Node; aborting makes sure with any fetch.
              scope.abort();
            },
            { maxEventSize, format, sse: spec.stream?.sse },
          );
          return { data: stream, status: response.status, headers: response.headers, response };
        }
        const data = await readBody(response, spec, scope, false, contentType);
        scope.release();
        return { data, status: response.status, headers: response.headers, response };
      } catch (error) {
        scope.release();
        // The body broke off or took too long: the server has acted already, so only a repeatable request is retried.
        const retryable = (error instanceof ConnectionError || error instanceof TimeoutError) && !signal?.aborted;
        if (retryable && repeatable && retriesLeft) {
          await sleep(backoffDelay(attempt), signal);
          continue;
        }
        throw error;
      }
    }
  }

  /**
   * Sends one attempt, following redirects by hand (see redirect.ts). Returns the final response and, when hooks or
   * a custom fetch are in use, the Request it answers.
   */
  async function sendFollowingRedirects(
    spec: OperationSpec,
    url: string,
    init: RequestInitLike & { duplex?: "half" },
    first: Request | undefined,
    scope: AttemptScope,
  ): Promise<{ response: Response; request: Request | undefined }> {
    let hop: Hop = { url, method: init.method ?? "GET", headers: init.headers as Headers, body: init.body };
    let hopInit = init;
    for (let hops = 0; ; hops++) {
      const request = hops === 0 ? first : await prepare(undefined, hop.url, hopInit);
      const sent = request ? fetchImpl(request, scope.signal ? { signal: scope.signal } : {}) : globalThis.fetch(hop.url, scope.signal ? { ...hopInit, signal: scope.signal } : hopInit);
      const response = await guard(sent, scope.signal);
      if (response.type === "opaqueredirect") {
        await response.body?.cancel().catch(() => {});
        throw new ConnectionError(`${spec.name}: the server redirected, and this environment hides where to; not followed, so that the request's API key cannot reach another origin`, { cause: undefined });
      }
      if (!isRedirect(response)) return { response, request };
      const next = nextHop(response, hop, sensitiveHeaders);
      if (!next) return { response, request };
      if (hops >= MAX_REDIRECTS) {
        await response.body?.cancel().catch(() => {});
        throw new ConnectionError(`${spec.name}: more than ${MAX_REDIRECTS} redirects`, { cause: undefined });
      }
      await response.body?.cancel().catch(() => {});
      hop = next;
      hopInit = { ...init, method: next.method, headers: next.headers };
      if (next.body === undefined) delete hopInit.body;
    }
  }

  /**
   * Checks (direct fetch) or builds (custom fetch, hooks) the request for `url`; throws what `new Request` would.
   * Returns the Request when one is built.
   */
  function prepare(base: string | undefined, url: string, init: RequestInitLike): Request | undefined | Promise<Request | undefined> {
    if (direct) {
      assertRequestable(requestable, base, url, init);
      return undefined;
    }
    const request = new Request(url, init);
    const hooked = options.onRequest?.(request);
    return hooked instanceof Promise ? hooked.then((replacement) => replacement ?? request) : (hooked ?? request);
  }

  function readBody(response: Response, spec: OperationSpec, scope: AttemptScope, isError: boolean, contentType?: string): Promise<unknown> {
    return guard(parseBody(response, spec, isError, contentType), scope.signal).catch((error: unknown) => {
      throw error instanceof SyntaxError ? error : scope.failure(error);
    });
  }
}

/**
 * Parses a response body by its content type: JSON, text, or `Blob` for anything else; `undefined` when there is no
 * body. An error body that is not valid JSON is kept as text rather than hiding the error behind a parse failure.
 */
async function parseBody(response: Response, spec: OperationSpec, isError: boolean, contentType = response.headers.get("content-type") ?? ""): Promise<unknown> {
  const status = response.status;
  if (spec.method === "HEAD" || status === 204 || status === 205 || status === 304) {
    await response.body?.cancel();
    return undefined;
  }
  if (contentType === "application/json" || isJsonMediaType(contentType)) {
    const text = await response.text();
    if (text === "") return undefined; // (also Content-Length: 0)
    try {
      return JSON.parse(text);
    } catch (error) {
      if (isError) return text;
      throw new SyntaxError(`${spec.name}: the ${status} response is not valid JSON: ${text.slice(0, 200)}`, { cause: error });
    }
  }
  if (response.headers.get("content-length") === "0") {
    await response.body?.cancel();
    return undefined;
  }
  if (mediaTypeEssence(contentType).startsWith("text/")) return response.text();
  const blob = await response.blob();
  return blob.size === 0 && contentType === "" ? undefined : blob;
}

/**
 * Splits a path template at its `?`: some specs write a fixed query into the path (OpenAI's `/responses?beta=true`
 * is an operation of its own). The query comes back percent-encoded as the client encodes names and values.
 */
export function splitFixedQuery(template: string): [path: string, query: string] {
  const at = template.indexOf("?");
  if (at < 0) return [template, ""];
  const pairs = [...new URLSearchParams(template.slice(at + 1))].map(([name, value]) => `${encodeUnreserved(name)}=${encodeUnreserved(value)}`);
  return [template.slice(0, at), pairs.join("&")];
}

/** The stream's media type when this call asks a streaming operation to stream (sent as `Accept`). */
function streamAccept(spec: OperationSpec, params: RequestParams): string | undefined {
  const when = spec.stream?.when;
  if (!when) return spec.stream?.mediaType;
  const source = when.in === "body" ? params.body : params.query;
  const asked = typeof source === "object" && source !== null && (source as Record<string, unknown>)[when.name] === true;
  return asked ? spec.stream?.mediaType : undefined;
}

/** The wait before retrying after `response`: what the server asks for, else backoff. `undefined`: do not retry. */
function retryDelay(response: Response, attempt: number): number | undefined {
  const asked = retryAfterDelay(response.headers);
  if (asked === undefined) return backoffDelay(attempt);
  return asked <= MAX_RETRY_AFTER_MS ? asked : undefined;
}

function dataOf(response: ApiResponse<unknown>): unknown {
  return response.data;
}

/** Whether the operation's spec declares a response for `status` (see `OperationSpec.errors`). */
function declaresStatus(spec: OperationSpec, status: number): boolean {
  return (spec.errors ?? []).some((key) => key === status || key === "default" || key === `${Math.floor(status / 100)}XX`);
}

function resolveServerUrl(server: ServerSpec | undefined, options: ClientOptions): string {
  if (!server) throw new TypeError("The operation refers to a server the client does not have");
  const values = options as Readonly<Record<string, unknown>>;
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const variable = server.variables?.[name];
    const value = (variable?.option === undefined ? undefined : values[variable.option]) ?? variable?.default;
    if (typeof value !== "string" || value === "") {
      throw new TypeError(`No value for server variable "${name}" of ${server.url}: set the client option "${variable?.option ?? name}"`);
    }
    return value;
  });
  return url.replace(/\/+$/, "");
}

/**
 * The client options with every OAuth 2 device flow configuration (`{ deviceFlow: { clientId, onUserCode } }`)
 * replaced by the credential function that runs it, made once per client so its token is shared by every call.
 */
function withDeviceFlows(options: ClientOptions, schemes: Readonly<Record<string, SecuritySchemeSpec>>): Readonly<Record<string, unknown>> {
  const values = options as Readonly<Record<string, unknown>>;
  let copy: Record<string, unknown> | undefined;
  for (const scheme of Object.values(schemes)) {
    if (scheme.type !== "bearer" || !scheme.oauth2) continue;
    for (const option of scheme.options) {
      const value = values[option];
      if (isDeviceFlow(value)) (copy ??= { ...values })[option] = deviceFlowCredential(value.deviceFlow, scheme.oauth2, options.fetch);
    }
  }
  return copy ?? values;
}

/** The Cookie header: cookie parameters, then cookie API keys. */
function cookieHeader(fromParams: string | undefined, credentials: AppliedCredentials | undefined): string | undefined {
  const pairs = credentials?.cookies.map(([name, value]) => `${name}=${encodeURIComponent(value)}`) ?? [];
  if (fromParams) pairs.unshift(fromParams);
  return pairs.length > 0 ? pairs.join("; ") : undefined;
}

/**
 * Sets the call's `Idempotency-Key` when it should have one, and tells whether the request carries one. A string
 * from the call is sent as it is; otherwise POST and PATCH get a random UUID (the same on every retry, since the
 * headers are built once per call) when the call asks for it, or the client does (`idempotencyKeys`), or the
 * operation declares the header; one the caller set (as a header parameter or header) is kept.
 */
function idempotencyKey(spec: OperationSpec, options: ClientOptions, call: RequestOptions, headers: Headers): boolean {
  const name = spec.idempotencyKey ?? "Idempotency-Key";
  if (typeof call.idempotencyKey === "string") headers.set(name, call.idempotencyKey);
  else if (!headers.has(name) && !isIdempotent(spec.method) && (call.idempotencyKey ?? (options.idempotencyKeys || spec.idempotencyKey !== undefined))) {
    headers.set(name, crypto.randomUUID());
  }
  return call.idempotencyKey !== false && headers.has(name);
}

function byName(specs: readonly ParamSpec[] = []): ReadonlyMap<string, ParamSpec> {
  return new Map(specs.map((spec) => [spec.name, spec]));
}

function mergeHeaders(headers: Headers, values: HeaderValues | undefined): void {
  for (const [name, value] of Object.entries(values ?? {})) {
    if (value === undefined || value === null) headers.delete(name);
    else headers.set(name, value);
  }
}

/** The signal, timer and error mapping of one attempt. */
class AttemptScope {
  /** Aborts when the caller aborts or the attempt times out; `undefined` when nothing can end the attempt early. */
  readonly signal: AbortSignal | undefined;
  private readonly controller: AbortController | undefined;
  private timedOut = false;
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onAbort: (() => void) | undefined;

  constructor(
    private readonly callerSignal: AbortSignal | undefined,
    timeoutMs: number,
    private readonly operation: string,
    streaming: boolean,
  ) {
    const timed = timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS;
    // An own controller is needed only to end the attempt on a timeout or to close an asked-for stream. Without one,
    // fetch follows the caller's signal or none: a signal costs every request (Node 20 builds an AbortSignal in
    // ~10 µs, and its fetch registers a listener, a WeakRef and a finalizer for each signal it follows).
    if (!timed && !streaming) {
      this.signal = callerSignal;
      return;
    }
    const controller = (this.controller = new AbortController());
    this.signal = controller.signal;
    if (callerSignal) {
      const onAbort = (this.onAbort = () => controller.abort(callerSignal.reason));
      // The caller may abort while an onRequest hook runs, before this attempt listens.
      if (callerSignal.aborted) onAbort();
      callerSignal.addEventListener("abort", onAbort, { once: true });
    }
    if (timed) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        controller.abort(new TimeoutError(`${operation}: no complete response within ${timeoutMs} ms`));
      }, timeoutMs);
    }
  }

  /** What to throw for an error raised while the attempt was in flight. */
  failure(error: unknown): unknown {
    if (this.callerSignal?.aborted) return this.callerSignal.reason;
    if (this.timedOut) return this.controller?.signal.reason;
    return error instanceof ConnectionError ? error : new ConnectionError(`${this.operation}: ${errorMessage(error)}`, { cause: error });
  }

  stopTimer(): void {
    clearTimeout(this.timer);
  }

  /** Stops the timer and stops following the caller's signal. */
  release(): void {
    clearTimeout(this.timer);
    if (this.onAbort) this.callerSignal?.removeEventListener("abort", this.onAbort);
  }

  /** Ends the attempt's fetch, when it has a signal of its own (cancelling the body ends it with any standard fetch). */
  abort(): void {
    this.controller?.abort();
  }
}

/**
 * Throws what `new Request(url, init)` would throw, so that these stay programming errors thrown by the call (not
 * connection errors, not retried) when the request is sent without building a Request. The URL can only be
 * unusable through its base (the path and query are percent-encoded), so a Request is built once per new base URL
 * or method (with the same URL parser, and the same base for relative URLs in browsers).
 */
function assertRequestable(checked: { bases: Set<string>; methods: Set<string> }, base: string | undefined, url: string, init: RequestInitLike): void {
  const method = init.method ?? "GET";
  if (base === undefined) {
    // A redirect target: checked every time (a server could name endless origins; none is remembered).
    new Request(url, { method });
  } else if (!checked.bases.has(base) || !checked.methods.has(method)) {
    new Request(url, { method });
    checked.bases.add(base);
    checked.methods.add(method);
  }
  if (init.body !== undefined && init.body !== null) {
    if (method === "GET" || method === "HEAD") throw new TypeError("Request with GET/HEAD method cannot have body.");
    if (init.body instanceof ReadableStream && init.body.locked) throw new TypeError("Response body object should not be disturbed or locked");
  }
}

/** Settles with `promise`, or rejects as soon as `signal` aborts: a custom fetch may ignore the signal. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Node's fetch reports "fetch failed" and puts the reason (ECONNREFUSED, …) in `cause`. */
function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}
