/**
 * The request engine behind every emitted client: builds the request an `OperationSpec` describes, sends it with
 * timeout, abort and retries, and turns the response into data or an error.
 */
import { ApiError, ConnectionError, TimeoutError, responseTooLarge } from "./errors.js";
import { MAX_REDIRECTS, isRedirect, nextHop, type Hop } from "./redirect.js";
import { MAX_RETRY_AFTER_MS, backoffDelay, certainlyNotSent, isIdempotent, isRetryableStatus, retryAfterDelay, sleep } from "./retry.js";
import { encodeUnreserved, entriesOf, isJsonMediaType, isPresent, isRecord, mediaTypeEssence, pair, paramSpec, pathSerializer, presentEntries, simple, text, type EncodedBody, type ParamValues } from "./values.js";
import type {
  ApiResponse,
  AppliedCredentials,
  BodySpec,
  ClientOptions,
  HeaderValues,
  OperationRow,
  OperationSpec,
  ParamSerializers,
  ParamSpec,
  RequestOptions,
  SecurityRequirementItem,
  SecuritySchemeSpec,
  ServerSpec,
} from "./types.js";

/**
 * What a client's spec needs beyond JSON bodies and OpenAPI's default parameter styles, each from its own module so
 * that a spec without it neither ships nor copies that code: the generated client passes only what its operations use.
 */
export interface RuntimeFeatures {
  /**
   * The client's credentials (token.ts, auth.ts; oauth.ts runs device flows first), made once per client from the
   * spec's schemes and the client options; without it no credential is sent.
   */
  authorize?: ((schemes: Readonly<Record<string, SecuritySchemeSpec>>, options: ClientOptions) => Authorizer) | undefined;
  /**
   * Chooses the credentials of a call (token.ts, auth.ts `credentialsFor`): what the feature's `authorize` applies.
   * The request engine does not read it.
   */
  credentials?: (
    operation: string,
    requirements: readonly (readonly SecurityRequirementItem[])[],
    schemes: Readonly<Record<string, SecuritySchemeSpec>>,
    values: Readonly<Record<string, unknown>>,
  ) => AppliedCredentials | undefined | Promise<AppliedCredentials | undefined>;
  /** The whole OpenAPI style table (serialize.ts `styles`) instead of the defaults only. */
  params?: ParamSerializers | undefined;
  /**
   * The whole query string of a call to an operation with an `in: querystring` parameter, when the call gives it, as
   * a list of one (serialize.ts `wholeQueryString`); without it, or when it answers `undefined`, query parameters one by one.
   */
  querystring?: ((spec: OperationSpec, params: RequestParams) => [string] | undefined) | undefined;
  /** Bodies besides JSON: text and bytes (plain.ts `plainBody`), forms, multipart and media ranges (serialize.ts `encodeBody`). */
  body?: ((mediaType: string, value: unknown, spec: BodySpec) => EncodedBody) | undefined;
  /**
   * Streamed responses: a response of the media types it reads becomes an async iterable (sse.ts `readStream`, records.ts
   * `readRecords`, or both: records.ts `streamsFeature`), which calls `close` once done with; else `undefined`.
   */
  stream?:
    | ((response: Response, contentType: string, signal: AbortSignal | undefined, close: () => void, options: ClientOptions, spec: OperationSpec) => AsyncIterable<unknown> | undefined)
    | undefined;
  /**
   * The `Accept` header of a call that asks a streaming operation to stream (sse.ts `streamAccept`, also the records
   * feature's); without it no call asks for a stream.
   */
  accept?: ((spec: OperationSpec, params: RequestParams) => string | undefined) | undefined;
  /** Sets the call's header parameters (headers.ts `headerParamsFeature`); without it none are sent. */
  headerParams?: HeaderWriter | undefined;
  /** Sets the `Cookie` header from cookie parameters and cookie API keys (headers.ts `cookiesFeature`); without it none is sent. */
  cookies?: HeaderWriter | undefined;
  /**
   * Splits a path that carries a query of its own (OpenAI's `/responses?beta=true`) into its template and that query,
   * percent-encoded (pathquery.ts); without it a path is all template.
   */
  splitPath?: ((path: string) => [template: string, query: string]) | undefined;
  /** Sets `op.paginate` of an operation that declares pagination (pagination.ts). */
  paginate?: ((operation: RuntimeOperation, spec: OperationSpec, send: (params: RequestParams, call?: RequestOptions) => Promise<unknown>) => void) | undefined;
}

/**
 * Writes one kind of parameter of a call into its request headers (`RuntimeFeatures.headerParams`, `cookies`), in
 * OpenAPI's default style unless the spec has the whole style table (`serializers`, serialize.ts `styles`).
 */
export type HeaderWriter = (
  headers: Headers,
  spec: OperationSpec,
  params: RequestParams,
  credentials: AppliedCredentials | undefined,
  serializers: ParamSerializers | undefined,
) => void;

/**
 * Applies the credentials of an attempt of a call to `spec` (`RuntimeFeatures.authorize`): sets their headers on
 * `headers` and answers the query with their query pairs after `query`, and the credentials themselves (`renew`: ask
 * again before a retry; cookie API keys for the `cookies` writer). `undefined` for an operation without security. A
 * promise only when a credential function returned one.
 */
export type Authorizer = (spec: OperationSpec, headers: Headers, query: string) => AuthorizedAttempt | undefined | Promise<AuthorizedAttempt | undefined>;

/** What an `Authorizer` answers: the attempt's query with the credentials' pairs, and the credentials chosen. */
export type AuthorizedAttempt = [query: string, credentials: AppliedCredentials | undefined];

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
  /**
   * The successful response itself, its body unread (the caller reads it; the call's timeout has stopped, its signal
   * still applies). A failed call throws as the operation does.
   */
  asResponse(params?: RequestParams, options?: RequestOptions): Promise<Response>;
  /** Present when the spec has `pagination` (and the client pagination.ts). */
  paginate?(params?: RequestParams, options?: RequestOptions): AsyncIterable<unknown>;
  /** True for an `ApiError` this operation threw with a status its spec declares (`OperationSpec.errors`). */
  isError(error: unknown): boolean;
  readonly spec: OperationSpec;
}

/** What `createRuntime` returns: a factory of operations sharing the client's options. */
export interface Runtime {
  /** An operation of the generated client's table, whose shared values are keys of `shared`. */
  operation(row: OperationRow, shared: Readonly<Record<number, unknown>>): RuntimeOperation;
  // (Last: `Parameters<Runtime["operation"]>` reads the last signature.)
  operation(spec: OperationSpec): RuntimeOperation;
}

/** setTimeout fires at once for delays above 2^31 - 1 ms, so longer limits mean "none". */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** `init` of `new Request`, taken from whichever declaration of `Request` is in scope (DOM or @types/node). */
type RequestInitLike = NonNullable<ConstructorParameters<typeof Request>[1]>;
/** The `init` the runtime builds: `body` and `duplex` may be undefined, which fetch and `new Request` read as absent. */
type SendInit = { [K in keyof RequestInitLike]?: RequestInitLike[K] | undefined } & { duplex?: "half" | undefined };

/**
 * The headers a browser may follow a redirect with (`redirect: "follow"`): what the runtime sets from the spec, and
 * what browsers keep to its origin themselves (`Authorization`) or never let a page set (`Cookie`,
 * `Proxy-Authorization`). Any other header is the caller's (an API key, a `PRIVATE-TOKEN`, a header parameter).
 */
const BROWSER_FOLLOWS = ["accept", "content-type", "authorization", "cookie", "proxy-authorization"];

/** OpenAPI's default styles of paths (`simple`) and queries (`form` exploded); headers.ts has those of headers and cookies. */
const DEFAULT_STYLES: Pick<ParamSerializers, "path" | "query"> = {
  path: (_, value) => simple(value, encodeUnreserved),
  // Each property of an object is a field of its own; a list repeats its field.
  query: (spec, value) =>
    (isRecord(value) ? presentEntries(value) : [[spec.name, value] as const]).flatMap(([name, v]) => (Array.isArray(v) ? v.filter(isPresent) : [v]).map((item) => pair(name, text(item)))),
};

/**
 * The operation spec of a row of the generated client's table (see `OperationRow`): name, method and path, then the
 * row's other fields in their order, each key of `shared` (a number: `server` is the only field whose value is one)
 * replaced by that value, and each parameter written as its name alone made `{ name }` again. A new object
 * (its parameter lists are the table's, decoded in place).
 */
function operationSpecOf([name, method, path, rest]: OperationRow, shared: Readonly<Record<number, unknown>>): OperationSpec {
  const spec: Record<string, unknown> = { name, method, path, ...rest };
  for (const key in spec) if (key !== "server" && typeof spec[key] === "number") spec[key] = shared[spec[key] as number];
  // (In place: the table's own objects, and a list decoded once is left as it is when another operation shares it.)
  const params = (spec["params"] ?? {}) as Record<string, (ParamSpec | string)[]>;
  // (`querystring` is the one entry that is not a list.)
  for (const where in params) if (where !== "querystring") params[where] = params[where]!.map((param) => (typeof param === "string" ? { name: param } : param));
  return spec as unknown as OperationSpec;
}

/**
 * Creates the runtime for one client.
 * @param servers - the spec's servers; `OperationSpec.server` indexes this list.
 * @param options - client options, including one option per server variable (read by name from `ServerSpec.variables`)
 *   and one per security scheme (read by name from `securitySchemes`).
 * @param securitySchemes - the spec's security schemes by key; `OperationSpec.security` names them.
 * @param features - what the spec needs beyond JSON bodies and default parameter styles (see `RuntimeFeatures`),
 *   as the feature modules export it (`authFeature`, `sseFeature`, …).
 */
export function createRuntime(
  servers: readonly ServerSpec[],
  options: ClientOptions = {},
  securitySchemes: Readonly<Record<string, SecuritySchemeSpec>> = {},
  featureList: readonly RuntimeFeatures[] = [],
): Runtime {
  const features: RuntimeFeatures = Object.assign({}, ...featureList);
  const authorize = features.authorize?.(securitySchemes, options);
  const styles = features.params ?? DEFAULT_STYLES;
  // (JSON unless the spec declares another kind of body: plain.ts, serialize.ts.)
  const encodeBody = features.body ?? ((mediaType: string, value: unknown): EncodedBody => ({ body: JSON.stringify(value), contentType: mediaType }));
  // Browsers hide where a redirect points (`redirect: "manual"` gives an opaque response); they drop Authorization
  // across origins themselves and manage cookies, so there a request is followed by hand only when it carries a
  // header of the caller's (and a redirect of it is an error rather than a leak).
  const inBrowser = typeof (globalThis as { document?: unknown }).document !== "undefined";
  const baseUrls: (string | undefined)[] = [];
  const baseUrl = (index: number): string => (baseUrls[index] ??= resolveServerUrl(servers[index], options));
  // Nothing asks for a Request object (no custom fetch, no hooks): call fetch(url, init). Node's fetch copies a
  // Request argument, piping its body through a TransformStream, which made the request cost a third more. The
  // standard fetch also honours the signal while the body is read, so the race against it (`untilAborted`, for
  // custom fetches that ignore it) is left out.
  const direct = !options.fetch && !options.onRequest && !options.onResponse;
  const guard = <T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> => (direct || !signal ? promise : untilAborted(promise, signal));
  // (64 MiB by default; written in place, a minifier keeps a module constant as a variable.)
  const maxBytes = options.maxResponseBytes ?? 2 ** 26;

  return {
    operation(row: OperationSpec | OperationRow, shared?: Readonly<Record<number, unknown>>) {
      const spec = shared ? operationSpecOf(row as OperationRow, shared) : (row as OperationSpec);
      const { name, method } = spec;
      // Whether `new Request` has accepted this operation's base URL and method (see assertRequestable).
      let requestable = false;
      // A path with a query of its own sends that query first, then the call's.
      const [template, fixedQuery] = features.splitPath?.(spec.path) ?? [spec.path, ""];
      const path = pathSerializer(template, spec.params?.path, styles.path);
      // Errors this operation threw, so that isError can tell them from another operation's.
      const thrown = new WeakSet<ApiError>();

      const operation: RuntimeOperation = Object.assign((params?: RequestParams, call?: RequestOptions) => send(params, call), {
        withResponse: (params?: RequestParams, call?: RequestOptions) => send(params, call, true) as Promise<ApiResponse<unknown>>,
        asResponse: (params?: RequestParams, call?: RequestOptions) => send(params, call, "raw") as Promise<Response>,
        isError: (error: unknown) =>
          error instanceof ApiError &&
          thrown.has(error) &&
          !!spec.errors?.some((key) => key === error.status || key === "default" || key === `${(error.status / 100) | 0}XX`),
        spec,
      });

      features.paginate?.(operation, spec, send);
      return operation;

      /**
       * One call: build the request (its URL and headers again only for credentials a function renews), then send it
       * until it succeeds, fails for good or runs out of retries. Resolves to the data, or with `full` to the data with
       * the response it came from (no further promise to unwrap it), or with `"raw"` to that response, unread.
       */
      async function send(params: RequestParams = {}, call: RequestOptions = {}, full?: boolean | "raw"): Promise<unknown> {
        const { signal, idempotencyKey } = call;
        const base = baseUrl(spec.server ?? 0);
        signal?.throwIfAborted();
        // The path, then its own query and the query parameters in the order the caller gave them (or the whole
        // querystring); the API keys of the query come last, per attempt. (Most calls have no query values: no arrays.)
        const paramQuery =
          params.query || params.querystring !== undefined
            ? [fixedQuery, ...(features.querystring?.(spec, params) ?? entriesOf(params.query).flatMap(([name, value]) => styles.query(paramSpec(spec.params?.query, name), value)))].filter(Boolean).join("&")
            : fixedQuery;
        const target = `${base}${path(params.path)}`;

        let body: EncodedBody["body"] | undefined;
        let contentType: string | undefined;
        if (spec.body && params.body !== undefined) ({ body, contentType } = encodeBody(spec.body.mediaType, params.body, spec.body));
        const accept = features.accept?.(spec, params);
        const keyName = spec.idempotencyKey ?? "Idempotency-Key";
        const idempotent = isIdempotent(method);
        // Generated once per call: every attempt repeats the same key.
        let generatedKey: string | undefined;
        // (A stream can be sent once only, and Node's fetch requires `duplex` for it.)
        const resendable = !(body instanceof ReadableStream);

        // (Defaults: 10 minutes, 2 retries; written in place, a minifier keeps a module constant as a variable.)
        const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? 600_000;
        const timed = timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS;
        const maxRetries = resendable ? (call.maxRetries ?? options.maxRetries ?? 2) : 0;
        let url = "";
        let init: SendInit = {};
        let credentials: AppliedCredentials | undefined;
        let repeatable = false;

        for (let attempt = 0; ; attempt++) {
          // The credentials, before the first attempt and, when a function gave them (a token that may have expired
          // meanwhile), before each retry; only then are the URL and headers built (again).
          if (!attempt || credentials?.renew) {
            const headers = new Headers();
            if (contentType) headers.set("Content-Type", contentType);
            if (accept) headers.set("Accept", accept);
            let query = paramQuery;
            let authorized = authorize?.(spec, headers, query);
            // (Awaited only when a credential function returned a promise: a plain value costs no extra tick.)
            if (authorized instanceof Promise) {
              authorized = await authorized;
              signal?.throwIfAborted();
            }
            if (authorized) [query, credentials] = authorized;
            url = `${target}${query ? `?${query}` : ""}`;
            mergeHeaders(headers, options.headers);
            features.headerParams?.(headers, spec, params, credentials, features.params);
            features.cookies?.(headers, spec, params, credentials, features.params);
            mergeHeaders(headers, call.headers);
            // A string from the call is sent as it is; otherwise POST and PATCH get a random UUID when the call asks
            // for it, or the client does (`idempotencyKeys`), or the operation declares the header; one the caller set
            // (as a header parameter or header) is kept.
            if (typeof idempotencyKey === "string") headers.set(keyName, idempotencyKey);
            else if (!idempotent && (idempotencyKey ?? (options.idempotencyKeys || spec.idempotencyKey !== undefined)) && !headers.has(keyName)) {
              headers.set(keyName, (generatedKey ??= crypto.randomUUID()));
            }
            init = {
              method,
              headers,
              body: body as SendInit["body"],
              duplex: resendable ? undefined : "half",
              redirect: inBrowser && [...headers.keys()].every((name) => BROWSER_FOLLOWS.includes(name)) ? "follow" : "manual",
            };
            // Whether a response (or a timeout, or a connection that broke after the request was written) may be
            // answered by sending again: the server may have acted on a POST already, unless an Idempotency-Key lets it
            // tell a repeat (asked after the method: a header lookup on every GET costs).
            repeatable = idempotent || (idempotencyKey !== false && headers.has(keyName)) || (call.retryNonIdempotent ?? options.retryNonIdempotent ?? false);
          }
          const retriesLeft = attempt < maxRetries;
          // The attempt's signal, timer and error mapping. An own controller is needed only to end the attempt on a
          // timeout or to close an asked-for stream. Without one, fetch follows the caller's signal or none: a signal
          // costs every request (Node 20 builds an AbortSignal in ~10 µs, and its fetch registers a listener, a WeakRef
          // and a finalizer for each signal it follows).
          const controller = timed || accept !== undefined ? new AbortController() : undefined;
          const attemptSignal = controller ? controller.signal : signal;
          let timedOut = false;
          let timer: ReturnType<typeof setTimeout> | undefined;
          let onAbort: (() => void) | undefined;
          if (controller && signal) {
            onAbort = () => controller.abort(signal.reason);
            // The caller may abort while an onRequest hook runs, before this attempt listens.
            if (signal.aborted) onAbort();
            signal.addEventListener("abort", onAbort, { once: true });
          }
          if (controller && timed) {
            timer = setTimeout(() => {
              timedOut = true;
              controller.abort(new TimeoutError(`${name}: no complete response within ${timeoutMs} ms`));
            }, timeoutMs);
          }
          /** Stops the timer and stops following the caller's signal. */
          const release = () => {
            clearTimeout(timer);
            if (onAbort) signal?.removeEventListener("abort", onAbort);
          };
          /** What to throw for an error raised while the attempt was in flight. */
          const failure = (error: unknown): unknown => {
            if (signal?.aborted) return signal.reason;
            if (timedOut) return controller!.signal.reason;
            if (error instanceof ConnectionError) return error;
            // Node's fetch reports "fetch failed" and puts the reason (ECONNREFUSED, …) in `cause`.
            const cause = (error as Error | undefined)?.cause;
            const message = error instanceof Error ? `${error.message}${cause instanceof Error ? `: ${cause.message}` : ""}` : String(error);
            return new ConnectionError(`${name}: ${message}`, { cause: error });
          };
          /** Waits before the next attempt; `false` when there is none (the error is thrown). */
          const retry = async (when: boolean, delay = backoffDelay(attempt)) => {
            if (when && retriesLeft) await sleep(delay, signal);
            return when && retriesLeft;
          };

          // (Set in place: a `{ ...init, signal }` copy per attempt got a hidden class made anew each time, and fetch's
          // reads of it missed their inline caches. A Request built for hooks follows the signal too.)
          init.signal = attemptSignal;
          // What fetch would refuse (and the onRequest hook's own errors) are the call's errors, not connection errors.
          const prepared = prepare(requestable, url, init);
          requestable = true;
          let request = prepared instanceof Promise ? await prepared : prepared;
          let response!: Response;
          try {
            // Redirects are followed by hand (see redirect.ts); `hop` is made only for the first redirect.
            let hop: Hop | undefined;
            let hopInit = init;
            for (let hops = 0; ; hops++) {
              // The Request when one was built (custom fetch, hooks), else the URL and init (the global fetch).
              response = await guard(((options.fetch ?? globalThis.fetch) as typeof fetch)(request ?? hop?.url ?? url, (request ? { signal: attemptSignal } : hopInit) as RequestInitLike), attemptSignal);
              const opaque = response.type === "opaqueredirect";
              const next = opaque || !isRedirect(response) ? undefined : nextHop(response, (hop ??= { url, method, headers: init.headers as Headers, body: init.body }));
              if (!opaque && !next) break;
              await discard(response);
              if (opaque || hops >= MAX_REDIRECTS) {
                const why = opaque ? "redirected to where this environment hides: not followed (the request's headers must stay on its origin)" : `more than ${MAX_REDIRECTS} redirects`;
                throw new ConnectionError(`${name}: ${why}`, { cause: undefined });
              }
              hop = next!;
              hopInit = { ...init, method: hop.method, headers: hop.headers, body: hop.body as SendInit["body"] };
              // (A redirect target is checked every time: a server could name endless origins.)
              request = await prepare(false, hop.url, hopInit);
            }
          } catch (error) {
            release();
            const failed = failure(error);
            // A connection error before the request left (refused, no such host) is safe to repeat for any method.
            if (await retry((failed instanceof ConnectionError && (repeatable || certainlyNotSent(failed))) || (failed instanceof TimeoutError && repeatable))) continue;
            throw failed;
          }

          try {
            if (options.onResponse) response = (await options.onResponse(response, request!)) ?? response;
            if (!response.ok) {
              // What the server asks for (a Retry-After of over a minute: no retry), else backoff.
              const asked = retryAfterDelay(response.headers);
              if (repeatable && isRetryableStatus(response.status) && (asked ?? 0) <= MAX_RETRY_AFTER_MS && retriesLeft) {
                // Free the connection: an unread body keeps it busy.
                await discard(response);
                release();
                await retry(true, asked);
                continue;
              }
              const data = await readBody(response, attemptSignal, failure, true);
              const error = new ApiError({ status: response.status, headers: response.headers, statusText: response.statusText, body: data, operation: name, method, url });
              thrown.add(error);
              throw error;
            }
            if (full === "raw") {
              // The caller reads the body: like a stream, only their signal applies from here on.
              clearTimeout(timer);
              return response;
            }
            const contentType = response.headers.get("content-type") ?? "";
            // From here on the caller holds the connection open for as long as they read; only their signal applies.
            // (Cancelling the body closes the connection in Node; aborting makes sure with any fetch.)
            // (JSON is never streamed: no reader is asked, no closure made.)
            let data: unknown = contentType === "application/json" ? undefined : features.stream?.(response, contentType, signal, () => (release(), controller?.abort()), options, spec);
            if (data) clearTimeout(timer);
            else {
              data = await readBody(response, attemptSignal, failure, false, contentType);
              release();
            }
            return full ? { data, status: response.status, headers: response.headers, response } : data;
          } catch (error) {
            release();
            // The body broke off or took too long: the server has acted already, so only a repeatable request is retried.
            if (await retry((error instanceof ConnectionError || error instanceof TimeoutError) && !signal?.aborted && repeatable)) continue;
            throw error;
          }
        }
      }

      /**
       * Parses a response body by its content type: JSON, text, or `Blob` for anything else; `undefined` when there is no
       * body. An error body that is not valid JSON is kept as text rather than hiding the error behind a parse failure.
       * A body larger than `maxResponseBytes` (as decoded) is a ResponseTooLargeError, its connection closed.
       * (One async function, each read raced against the attempt's signal: a custom fetch may ignore it.)
       */
      async function readBody(
        response: Response,
        signal: AbortSignal | undefined,
        failure: (error: unknown) => unknown,
        isError: boolean,
        contentType = response.headers.get("content-type") ?? ""): Promise<unknown> {
        const status = response.status;
        const json = isJsonMediaType(contentType);
        let blob: Blob | undefined;
        try {
          if (method === "HEAD" || status === 204 || status === 205 || status === 304 || (!json && response.headers.get("content-length") === "0")) {
            if (response.body) await guard(response.body.cancel(), signal);
            return undefined;
          }
          blob = await guard(readWithin(response, maxBytes, contentType), signal);
        } catch (error) {
          throw failure(error);
        }
        if (!blob) throw responseTooLarge(`${name}: the ${status} response`, maxBytes);
        if (!json) return mediaTypeEssence(contentType).startsWith("text/") ? blob.text() : blob.size === 0 && contentType === "" ? undefined : blob;
        const text = await blob.text();
        if (text === "") return undefined; // (also Content-Length: 0)
        let data: unknown;
        try {
          data = JSON.parse(text);
        } catch (error) {
          if (isError) return text;
          throw new SyntaxError(`${name}: the ${status} response is not valid JSON: ${text.slice(0, 200)}`, { cause: error });
        }
        // (The check brings its own code: a client that does not ask for it ships none.)
        return options.validateResponses?.(name, status, data) ?? data;
      }
    },
  };

  /**
   * Checks (direct fetch) or builds (custom fetch, hooks) the request for `url`; throws what `new Request` would.
   * Returns the Request when one is built.
   */
  function prepare(requestable: boolean, url: string, init: SendInit): Request | undefined | Promise<Request | undefined> {
    if (direct) {
      assertRequestable(requestable, url, init);
      return undefined;
    }
    const request = new Request(url, init as RequestInitLike);
    const hooked = options.onRequest?.(request);
    return hooked instanceof Promise ? hooked.then((replacement) => replacement ?? request) : (hooked ?? request);
  }

}

/**
 * The body as a `Blob` of `type`, or `undefined` when it has more than `max` bytes: then it is cancelled there, which
 * closes the connection. Bytes are counted as fetch hands them over, decoded (a small gzip body can inflate to GBs).
 */
async function readWithin(response: Response, max: number, type: string): Promise<Blob | undefined> {
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  for (let size = 0; reader; ) {
    const { done, value } = await reader.read();
    if (done) break;
    if ((size += value.byteLength) > max) return void reader.cancel().catch(() => {});
    chunks.push(value);
  }
  // (Typed through Blob's own parameter: `Uint8Array<ArrayBuffer>` is TypeScript 5.7+, and BlobPart is DOM-only.)
  return new Blob(chunks as NonNullable<ConstructorParameters<typeof Blob>[0]>, { type });
}

/** Cancels a body that will not be read (an unread body keeps the connection busy). */
const discard = (response: Response): Promise<void> | undefined => response.body?.cancel().catch(() => {});

function resolveServerUrl(server: ServerSpec | undefined, options: ClientOptions): string {
  if (!server) throw new TypeError("The operation refers to a server the client does not have");
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const variable = server.variables?.[name];
    const value = (variable?.option === undefined ? undefined : (options as Readonly<Record<string, unknown>>)[variable.option]) ?? variable?.default;
    if (typeof value !== "string" || value === "") {
      throw new TypeError(`No value for server variable "${name}" of ${server.url}: set the client option "${variable?.option ?? name}"`);
    }
    return value;
  });
  return url.replace(/\/+$/, "");
}

function mergeHeaders(headers: Headers, values: HeaderValues | undefined): void {
  if (values) for (const [name, value] of Object.entries(values)) {
    if (isPresent(value)) headers.set(name, value!);
    else headers.delete(name);
  }
}

/**
 * Throws what `new Request(url, init)` would throw, so that these stay programming errors thrown by the call (not
 * connection errors, not retried) when the request is sent without building a Request. The URL can only be
 * unusable through its base (the path and query are percent-encoded), so a Request is built only until one with the
 * operation's base URL and method was (`requestable`; the same URL parser, and the same base for relative URLs in
 * browsers).
 */
function assertRequestable(requestable: boolean, url: string, init: SendInit): void {
  const method = init.method!;
  if (!requestable) new Request(url, { method });
  if (isPresent(init.body)) {
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
    promise.finally(() => signal.removeEventListener("abort", onAbort)).then(resolve, reject);
  });
}
