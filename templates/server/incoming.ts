/**
 * The router's view of one request (`Incoming`) and of the answers it builds itself (`Reply`), independent of
 * where they come from and go to:
 *
 * - `router.fetch(request)` wraps a web `Request` (`fromRequest`) and turns a `Reply` into a `Response`
 *   (`toWebResponse`): Workers, Deno, Bun, tests.
 * - `toNodeListener` (node.ts) implements `Incoming` over an `IncomingMessage` and writes a `Reply` with one
 *   `res.end(bytes)`. It builds the web `Request` only when something asks for it (`authenticate`,
 *   `ctx.request`, `onError`) and never puts web streams between the socket and the JSON parser: on Node 20 a
 *   `ReadableStream` and a `Response` cost more than routing, validating and serialising together.
 *
 * Answers that need a stream (SSE, a handler's own `Response`, Blob/stream bodies) stay web `Response`s.
 */
import { readLimited } from "./body.js";

/** One request as the router reads it. */
export interface Incoming {
  /** The request method as sent. */
  readonly method: string;
  /**
   * The path of the request target exactly as sent: never resolved against the Host header, dot segments (`..`)
   * and percent-encoding (`%2F`) left as they are. The router matches it segment by segment, as Fastify and
   * Express do, and decodes a parameter only after it is split out.
   */
  readonly pathname: string;
  /** The path as sent, when `pathname` is the part below the path an app mounts the router at (see `MountOptions`). */
  readonly requestPath?: string;
  /** The path an app mounts the router at (`/api`, no trailing slash), when there is one: a 404 names paths below it. */
  readonly mountPrefix?: string;
  /** Why the request cannot be served (an invalid Host header, an unusable target): answered 400, never routed. */
  readonly malformed?: string;
  /** The URL's query parameters. */
  readonly searchParams: URLSearchParams;
  /** The query string as sent, without `?` (an `in: querystring` parameter reads it whole). */
  readonly search: string;
  /** One header like `Headers.get`: `name` in lower case; repeated headers joined with ", "; null when absent. */
  header(name: string): string | null;
  /** Whether a body follows (a body stream, unless `Content-Length: 0`). */
  readonly hasBody: boolean;
  /**
   * Reads the whole body, refusing more than `maxBytes` with an `HttpError` 413: by `Content-Length` before
   * reading, then while reading (the rest is never read). Called at most once.
   */
  readBody(maxBytes: number): Promise<Uint8Array>;
  /** Stops reading the body (after a 415); the rest is discarded with the connection. */
  discardBody(): Promise<void>;
  /** Aborts when the client goes away. */
  readonly signal: AbortSignal;
  /**
   * The web `Request` (built on first use by the node adapter, then the same object). `withBody` says whether
   * it should carry the body stream: false for operations whose body the router reads itself, whose handlers
   * get the parsed `ctx.body`.
   */
  request(withBody: boolean): Request;
}

/** Response headers by lower-case name; `set-cookie` may repeat. */
export type ReplyHeaders = Record<string, string | string[]>;

/** An answer with its body at hand (JSON bodies, errors, bodyless statuses). */
export interface Reply {
  status: number;
  /**
   * Without `content-length`, which the writer adds from the body (a HEAD answer, whose body is null, carries
   * the one of the GET body instead).
   */
  headers: ReplyHeaders;
  /** Text (JSON included) as a string: the node adapter then writes headers and body as one string. */
  body: string | Uint8Array | null;
}

/** What the router answers: a `Reply`, or a web `Response` for streams and handlers' own responses. */
export type Answer = Reply | Response;

/**
 * The property under which a router built by `createRouterRuntime` exposes its `Incoming` entry point, used
 * by `toNodeListener`. A router without it (any `{ fetch }` object) is served through `fetch`.
 */
export const SERVE_INCOMING: unique symbol = Symbol.for("specforge.server.serveIncoming") as never;

/**
 * A router's `SERVE_INCOMING` entry point: an Answer, or a promise of one when something had to be awaited. With
 * `"pass"`, undefined for a request no route's path matches (see `Router.handle`).
 */
export interface ServeIncoming {
  (incoming: Incoming): Answer | Promise<Answer>;
  (incoming: Incoming, unmatched: "pass"): Answer | Promise<Answer> | undefined;
}

/** The Incoming entry point of a router made by `createRouterRuntime` (undefined for any other `{ fetch }` object). */
export function serveIncomingOf(router: object): ServeIncoming | undefined {
  const serve = (router as { [SERVE_INCOMING]?: ServeIncoming })[SERVE_INCOMING];
  return typeof serve === "function" ? serve : undefined;
}

/** Whether `value` is a promise (or another thenable), which `await` would wait for. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === "object" || typeof value === "function") && typeof (value as { then?: unknown }).then === "function";
}

/**
 * `Incoming` over a web Request (what `router.fetch` serves). With `prefix` (where an app mounts the router), the
 * path below it; undefined when the request's path is not below it.
 */
export function fromRequest(request: Request): Incoming;
export function fromRequest(request: Request, prefix: string | undefined): Incoming | undefined;
export function fromRequest(request: Request, prefix?: string): Incoming | undefined {
  const url = new URL(request.url);
  const pathname = prefix === undefined ? url.pathname : pathBelow(url.pathname, prefix);
  if (pathname === undefined) return undefined;
  // Runtimes that build `request.url` from the Host header (Deno, Bun, adapters) hand over a URL whose path a
  // Host such as `x/v1/admin?` has rewritten: a Host that is not a host name is refused, as with node:http.
  const host = request.headers.get("host");
  return {
    method: request.method,
    malformed: host === null || isValidHost(host) ? undefined : "Invalid Host header",
    pathname,
    requestPath: url.pathname,
    // Read only by a 404's hint: not trimmed per request.
    get mountPrefix() {
      return mountPrefixOf(prefix);
    },
    searchParams: url.searchParams,
    search: url.search.slice(1),
    header: (name) => request.headers.get(name),
    hasBody: request.body !== null && request.headers.get("content-length") !== "0",
    readBody: (maxBytes) => readLimited(request, maxBytes),
    discardBody: async () => {
      await request.body?.cancel().catch(() => undefined);
    },
    signal: request.signal,
    request: () => request,
  };
}

/** A mount prefix as a 404 names it: without its trailing slashes; undefined for none or the root. */
export function mountPrefixOf(prefix: string | undefined): string | undefined {
  return prefix?.replace(/\/+$/, "") || undefined;
}

/**
 * The part of a request path below a mount prefix (`/api` of `/api/v1/pets`: `/v1/pets`; of `/api`: `/`), compared
 * as sent; undefined when the path is not below it. A prefix's trailing slashes do not count.
 */
export function pathBelow(pathname: string, prefix: string): string | undefined {
  const base = prefix.replace(/\/+$/, "");
  if (base === "") return pathname;
  if (pathname !== base && !pathname.startsWith(`${base}/`)) return undefined;
  return pathname.slice(base.length) || "/";
}

/**
 * RFC 3986 `host [ ":" port ]`: an IP literal in brackets, or an IPv4 address or registered name (unreserved
 * characters, sub-delims, percent-encoded octets). Linear: no two alternatives can match the same text.
 */
const HOST = /^(?:\[(?:[0-9A-Fa-f:.]+|[vV][0-9A-Fa-f]+\.[\w\-.~!$&'()*+,;=:]+)\]|(?:[\w\-.~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+)(?::\d*)?$/;
/** Host headers already found valid (the usual one or two of a server), by value. */
const validHosts = new Set<string>();

/** Whether a Host header names a host (and a URL can be built from it): anything else gets 400. */
export function isValidHost(host: string): boolean {
  if (validHosts.has(host)) return true;
  if (!HOST.test(host) || !URL.canParse(`http://${host}/`)) return false;
  if (validHosts.size >= 256) validHosts.clear(); // bounded: Host is client-controlled
  validHosts.add(host);
  return true;
}

const encoder = new TextEncoder();

/** The web Response of a Reply, with `Content-Length` (so clients need not parse chunked encoding). */
export function toWebResponse(reply: Reply): Response {
  const headers = toWebHeaders(reply.headers);
  const bytes = typeof reply.body === "string" ? encoder.encode(reply.body) : reply.body;
  if (bytes !== null) headers.set("content-length", String(bytes.byteLength));
  // (TS 5.9 types BodyInit as ArrayBuffer-backed views only; any Uint8Array works at runtime.)
  return new Response(bytes as Uint8Array<ArrayBuffer> | null, { status: reply.status, headers });
}

/** The answer to a HEAD request: the GET answer's status and headers (with its length), no body. */
export function headAnswer(answer: Answer): Answer {
  if (answer instanceof Response) return new Response(null, { status: answer.status, headers: answer.headers });
  if (answer.body === null) return answer;
  const length = typeof answer.body === "string" ? encoder.encode(answer.body).byteLength : answer.body.byteLength;
  return { status: answer.status, headers: { ...answer.headers, "content-length": String(length) }, body: null };
}

const INSPECT = Symbol.for("nodejs.util.inspect.custom");
/** Read through the proxy: the real Request. */
const REAL = Symbol("real request");

/** Forwards every operation on the proxy to the real Request, built on first use. */
class LazyRequest implements ProxyHandler<object> {
  private real: Request | undefined;
  private methods: Map<PropertyKey, unknown> | undefined;
  private readonly source: RequestSource;

  constructor(source: RequestSource) {
    this.source = source;
  }

  request(): Request {
    return (this.real ??= this.source.buildRequest());
  }

  get(_target: object, key: PropertyKey): unknown {
    const request = this.request();
    if (key === REAL) return request;
    const value = Reflect.get(request, key, request) as unknown;
    if (typeof value !== "function") return value;
    // Methods (json(), clone(), …) check that `this` is a real Request; bind once per method.
    this.methods ??= new Map();
    let bound = this.methods.get(key);
    if (bound === undefined) this.methods.set(key, (bound = value.bind(request)));
    return bound;
  }
  set(_target: object, key: PropertyKey, value: unknown): boolean {
    return Reflect.set(this.request(), key, value);
  }
  has(_target: object, key: PropertyKey): boolean {
    return Reflect.has(this.request(), key);
  }
  ownKeys(): ArrayLike<string | symbol> {
    return Reflect.ownKeys(this.request());
  }
  getOwnPropertyDescriptor(_target: object, key: PropertyKey): PropertyDescriptor | undefined {
    return Reflect.getOwnPropertyDescriptor(this.request(), key);
  }
  defineProperty(_target: object, key: PropertyKey, descriptor: PropertyDescriptor): boolean {
    return Reflect.defineProperty(this.request(), key, descriptor);
  }
  deleteProperty(_target: object, key: PropertyKey): boolean {
    return Reflect.deleteProperty(this.request(), key);
  }
  getPrototypeOf(): object {
    return Request.prototype;
  }
}

/**
 * The target of every lazy Request proxy (a target only anchors the Proxy invariants, so one is shared: it
 * is extensible and has no non-configurable keys). util.inspect (console.log) looks at a proxy's target and
 * calls its `[INSPECT]` with the proxy as `this`: that shows the real Request.
 */
const LAZY_TARGET: object = Object.defineProperty({}, INSPECT, {
  configurable: true,
  value(this: { [REAL]: Request }, _depth: number, options: unknown, inspect: (value: unknown, options: unknown) => string) {
    return inspect(this[REAL], options);
  },
});

/** What a lazy Request is built from, when first used (an object rather than a closure made per request). */
export interface RequestSource {
  buildRequest(): Request;
}

/**
 * A `Request` built on first use. Routers call `authenticate(token, request)` for every secured request, and
 * most callbacks never look at `request`; building one (headers copied, an abort signal followed) costs more
 * than the rest of a small request. This is a Proxy that forwards every operation to the real Request, made
 * by `source` the first time anything is read, so it behaves as that Request (`instanceof Request`, methods,
 * and also when passed to `fetch` or `new Request`).
 */
export function lazyRequest(source: RequestSource): Request {
  return new Proxy(LAZY_TARGET, new LazyRequest(source)) as Request;
}

/** Web `Headers` of reply headers. */
export function toWebHeaders(record: ReplyHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(record)) {
    if (typeof value === "string") headers.set(name, value);
    else for (const item of value) headers.append(name, item);
  }
  return headers;
}

/** Plain headers of a web `Headers` (names lower-case, every `set-cookie` kept). */
export function headersRecord(headers: Headers): ReplyHeaders {
  const out: ReplyHeaders = {};
  headers.forEach((value, name) => {
    if (name !== "set-cookie") out[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  return out;
}
