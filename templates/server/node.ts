/**
 * `node:http` adapter: converts IncomingMessage/ServerResponse to and from web `Request`/`Response`.
 * Kept in its own file so Workers/Deno/Bun users (who call `router.fetch` directly) never import `node:*`.
 *
 * - For routers made by `createRouterRuntime`, requests are served without building web objects on the hot
 *   path (see `incoming.ts`): the body is read straight from the socket (stopping at the size limit), the
 *   web `Request` is built only when `authenticate`, a handler (`ctx.request`) or `onError` asks for it, and
 *   JSON answers are written with one `res.end(text)`. Any other `{ fetch }` router goes through `fetch`.
 * - Request bodies are read on demand (the socket is paused until the router asks), so a 413 stops reading
 *   the upload instead of buffering it.
 * - Response bodies are written chunk by chunk honouring `write()` backpressure (`drain`).
 * - When the client disconnects, the Request's `signal` aborts and the response stream is cancelled (which
 *   closes SSE iterators).
 * - Routing reads the request target only, as sent: the Host header never becomes part of the path (it is
 *   checked to be a host, else 400), and neither dot segments nor `%2F` are resolved.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { bodyTooLarge, concatBytes, readLimited } from "./body.js";
import { isThenable, isValidHost, lazyRequest, mountPrefixOf, pathBelow, serveIncomingOf, type Answer, type Incoming, type Reply, type RequestSource } from "./incoming.js";
import type { Router } from "./types.js";

/** Options of `toNodeListener`. */
export interface NodeListenerOptions {
  /**
   * Called if the router itself throws or writing the response fails (the router reports handler errors itself).
   * Without it such a failure is logged with `console.error`.
   */
  onError?: (error: unknown) => void;
}

/** The adapter's own answers (when the router cannot answer at all): RFC 9457 problem details. */
function problemText(status: number, title: string, detail: string): string {
  return JSON.stringify({ type: "about:blank", title, status, detail });
}

/** A `node:http` request listener: `http.createServer(toNodeListener(router)).listen(3000)`. */
export function toNodeListener(router: Pick<Router, "fetch">, options: NodeListenerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const serveIncoming = serveIncomingOf(router);
  const fail = (error: unknown, res: ServerResponse) => failed(error, res, options);
  return (req, res) => {
    try {
      if (serveIncoming) {
        let incoming: NodeIncoming;
        try {
          incoming = new NodeIncoming(req, res);
        } catch {
          badRequest(res);
          return;
        }
        settle(serveIncoming(incoming), (answer) => writeAnswer(answer, incoming, req, res, fail), (error) => fail(error, res));
      } else handle(router, req, res).then(undefined, (error: unknown) => fail(error, res));
    } catch (error) {
      fail(error, res);
    }
  };
}

/**
 * `then(answer)` with the router's answer: synchronous (no promise at all) when the router answered at once, else one
 * `then` whose callbacks handle their own failures (no second promise just to catch).
 */
export function settle(answer: Answer | Promise<Answer>, then: (answer: Answer) => void, fail: (error: unknown) => void): void {
  if (!isThenable(answer)) {
    then(answer);
    return;
  }
  answer.then((settled) => {
    try {
      then(settled);
    } catch (error) {
      fail(error);
    }
  }, fail);
}

/** The router itself threw, or writing the answer failed: `onError` (else the log), then a 500 or a cut connection. */
function failed(error: unknown, res: ServerResponse, options: NodeListenerOptions): void {
  if (options.onError) options.onError(error);
  else console.error("specforge node adapter: answering or writing a response failed:", error);
  if (!res.headersSent) {
    res.writeHead(500, { "content-type": "application/problem+json", connection: "close" });
    res.end(problemText(500, "Internal Server Error", "Internal Server Error"));
  } else {
    res.destroy();
  }
}

/** Writes the router's answer to `res`; `fail` is told when writing a streamed one fails. */
export function writeAnswer(answer: Answer, incoming: NodeIncoming, req: IncomingMessage, res: ServerResponse, fail: (error: unknown, res: ServerResponse) => void): void {
  if (answer instanceof Response) writeResponse(answer, req, res).then(undefined, (error: unknown) => fail(error, res));
  else writeReply(answer, incoming.bodyUnread(), req, res);
}

/** Serves any other `{ fetch }` router through web Request/Response. */
async function handle(router: Pick<Router, "fetch">, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const controller = new AbortController();
  // "close" before the response finished means the client went away.
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  let request: Request;
  try {
    request = toRequest(req, controller.signal);
  } catch {
    return badRequest(res);
  }
  const response = await router.fetch(request);
  await writeResponse(response, req, res);
}

function badRequest(res: ServerResponse): void {
  res.writeHead(400, { "content-type": "application/problem+json", connection: "close" });
  res.end(problemText(400, "Bad Request", "Bad Request"));
}

/** Methods `new Request` refuses (they would have been a 400 from `toRequest`). */
const FORBIDDEN_METHODS = /^(?:CONNECT|TRACE|TRACK)$/i;

/** A request target split into what routing reads. */
interface Target {
  /** The path, raw. */
  path: string;
  /** The query string after "?", raw. */
  search: string;
  /** The authority of an absolute-form target (`GET http://host/path`), which replaces Host for it. */
  authority: string | undefined;
}

/**
 * Splits a request target (RFC 9112 §3.2) without interpreting it: origin-form `/path?query` or absolute-form
 * `http://authority/path?query`. Anything else (`*`, authority-form) is undefined. A fragment is cut off, as a URL
 * parser would.
 */
function splitTarget(target: string): Target | undefined {
  let authority: string | undefined;
  let rest = target;
  if (target.charCodeAt(0) !== 47) {
    const scheme = /^https?:\/\//i.exec(target);
    if (!scheme) return undefined;
    const after = scheme[0].length;
    let end = after;
    while (end < target.length && !"/?#".includes(target[end]!)) end++;
    authority = target.slice(after, end);
    rest = target.charCodeAt(end) === 47 ? target.slice(end) : `/${target.slice(end)}`;
  }
  const hash = rest.indexOf("#");
  if (hash >= 0) rest = rest.slice(0, hash);
  const query = rest.indexOf("?");
  return query < 0 ? { path: rest, search: "", authority } : { path: rest.slice(0, query), search: rest.slice(query + 1), authority };
}

/**
 * How a framework hands a node:http request to the router (the Express and Fastify adapters): where it mounts it,
 * and a body it has already read.
 */
export interface NodeMount {
  /** The request target as the client sent it. @default req.url */
  target?: string;
  /** The path the framework serves the router under (Express's `req.baseUrl`, a Fastify prefix): stripped before routing. */
  prefix?: string;
  /** The body, when something before the router read it from the socket (an Express body parser). */
  body?: ReadBody;
}

/** A request body read before the router: its bytes as the client could have sent them, and their Content-Type. */
export interface ReadBody {
  /** Called at most once, when the router (or the handler's Request) reads the body. */
  bytes(): Uint8Array;
  /** Replaces the request's Content-Type header (text re-encoded as UTF-8, say). */
  contentType?: string;
}

/**
 * An IncomingMessage as the router reads it: headers straight from `rawHeaders`, the body straight from the
 * socket, the web Request only on demand.
 */
export class NodeIncoming implements Incoming, RequestSource {
  readonly method: string;
  /** The path the router routes: below the mount prefix, if any. */
  readonly pathname: string;
  /** False when the path is not below the mount prefix: such a request is not the router's. */
  readonly mounted: boolean = true;
  /** The path as sent (for error bodies, logs and the URL of the web Request). */
  readonly requestPath: string;
  private readonly prefix: string | undefined;
  readonly malformed: string | undefined;
  readonly hasBody: boolean;
  /** Whether the request declares a body (Transfer-Encoding, or a Content-Length other than 0), whatever its method. */
  readonly mayHaveBody: boolean;
  /** The first Content-Length header, as sent (Node has refused the request if several disagree). */
  private readonly contentLength: string | undefined;
  /** The query string after "?". */
  readonly search: string;
  /** The authority a URL is built with: an absolute-form target's, else the Host header's. */
  private readonly authority: string | undefined;
  private query: URLSearchParams | undefined;
  /** "unread" until the router reads the body or the Request takes it as a stream. */
  private body: "unread" | "read" | "discarded" | "stream" = "unread";
  private controller: AbortController | undefined;
  private lazy: Request | undefined;
  /** Whether the lazy Request carries the body stream (the first `request(withBody)` call decides). */
  private lazyWithBody = false;
  private built: Request | undefined;
  private readonly req: IncomingMessage;
  private readonly res: ServerResponse;

  private readonly read: ReadBody | undefined;
  private readBytes: Uint8Array | undefined;

  /** The mount prefix without its trailing slashes (read only by a 404's hint, so not computed per request). */
  get mountPrefix(): string | undefined {
    return mountPrefixOf(this.prefix);
  }

  constructor(req: IncomingMessage, res: ServerResponse, mount?: NodeMount) {
    this.req = req;
    this.res = res;
    this.read = mount?.body;
    this.prefix = mount?.prefix;
    const method = (this.method = req.method ?? "GET");
    // The three headers every request needs, in one pass over rawHeaders (the first value of each, as
    // `req.headers` keeps them).
    const raw = req.rawHeaders;
    let host: string | undefined;
    let length: string | undefined;
    let chunked = false;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const key = raw[i];
      if (key.length === 4) {
        if (host === undefined && (key === "Host" || key.toLowerCase() === "host")) host = raw[i + 1];
      } else if (key.length === 14) {
        if (length === undefined && key.toLowerCase() === "content-length") length = raw[i + 1];
      } else if (key.length === 17 && key.toLowerCase() === "transfer-encoding") chunked = true;
    }
    this.contentLength = length;
    this.mayHaveBody = chunked || (length !== undefined && length !== "0");
    this.hasBody = method !== "GET" && method !== "HEAD" && this.mayHaveBody;
    const url = mount?.target ?? req.url ?? "/";
    // The usual origin-form target without a fragment is split in place; anything else by `splitTarget`.
    if (url.charCodeAt(0) === 47 && !url.includes("#")) {
      const query = url.indexOf("?");
      this.pathname = this.requestPath = query < 0 ? url : url.slice(0, query);
      this.search = query < 0 ? "" : url.slice(query + 1);
      this.authority = host;
      if (mount?.prefix) [this.pathname, this.mounted] = below(this.requestPath, mount.prefix);
      if (method !== "GET" && method !== "POST" && FORBIDDEN_METHODS.test(method)) this.malformed = `Method ${method} is not supported`;
      else if (host !== undefined && !isValidHost(host)) this.malformed = "Invalid Host header";
      return;
    }
    const target = splitTarget(url);
    this.pathname = this.requestPath = target?.path ?? "/";
    if (mount?.prefix) [this.pathname, this.mounted] = below(this.requestPath, mount.prefix);
    this.search = target?.search ?? "";
    this.authority = target?.authority ?? host;
    if (FORBIDDEN_METHODS.test(method)) this.malformed = `Method ${method} is not supported`;
    else if (!target) this.malformed = "Unsupported request target";
    else if (host !== undefined && !isValidHost(host)) this.malformed = "Invalid Host header";
    else if (target.authority !== undefined && !isValidHost(target.authority)) this.malformed = "Invalid request target";
  }

  get searchParams(): URLSearchParams {
    return (this.query ??= new URLSearchParams(this.search));
  }

  /** Made on first use (most requests never need one): aborts when the client goes away before the answer is out. */
  get signal(): AbortSignal {
    if (this.controller) return this.controller.signal;
    const controller = (this.controller = new AbortController());
    const res = this.res;
    // "close" before the response finished means the client went away.
    if (res.closed) {
      if (!res.writableFinished) controller.abort();
    } else {
      res.once("close", () => {
        if (!res.writableFinished) controller.abort();
      });
    }
    return controller.signal;
  }

  /** Whether part of the request body may still be on its way (see `bodyUnread`). */
  bodyUnread(): boolean {
    return !this.req.complete && this.mayHaveBody && this.read === undefined;
  }

  header(name: string): string | null {
    if (this.read?.contentType !== undefined && name === "content-type") return this.read.contentType;
    // `req.headers` would do, but Node keeps only the first of some repeated headers (Authorization,
    // Content-Type, …) where web `Headers` join them all: read rawHeaders to answer exactly like Headers.get.
    const raw = this.req.rawHeaders;
    let value: string | null = null;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const key = raw[i];
      if (key.length === name.length && (key === name || key.toLowerCase() === name)) value = value === null ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
    }
    return value;
  }

  readBody(maxBytes: number): Promise<Uint8Array> {
    // (Only if the Request was built with the body stream first; the router never asks for both.)
    if (this.body === "stream") return readLimited(this.built!, maxBytes);
    if (this.body !== "unread") return Promise.reject(new TypeError("The request body was already read"));
    const declared = this.contentLength;
    if (declared !== undefined && Number(declared) > maxBytes) {
      this.body = "discarded";
      if (this.read === undefined) this.req.pause();
      return Promise.reject(bodyTooLarge(maxBytes));
    }
    this.body = "read";
    if (!this.hasBody) return Promise.resolve(new Uint8Array(0));
    if (this.read !== undefined) {
      // A body read before the router is held to the same limit, as the bytes it stands for.
      const bytes = this.parsedBytes();
      return bytes.byteLength > maxBytes ? Promise.reject(bodyTooLarge(maxBytes)) : Promise.resolve(bytes);
    }
    const req = this.req;
    return new Promise((resolve, reject) => {
      const chunks: Uint8Array[] = [];
      let total = 0;
      const done = () => {
        req.off("data", onData);
        req.off("end", onEnd);
        req.off("error", onError);
        req.off("close", onClose);
      };
      const onData = (chunk: Buffer) => {
        total += chunk.byteLength;
        if (total > maxBytes) {
          // Stop reading here: the rest is discarded with the connection (see writeReply).
          done();
          req.pause();
          reject(bodyTooLarge(maxBytes));
          return;
        }
        chunks.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      };
      const onEnd = () => {
        done();
        resolve(concatBytes(chunks, total));
      };
      const onError = (error: Error) => {
        done();
        reject(error);
      };
      const onClose = () => {
        done();
        reject(new Error("Client closed the connection before the request body was complete"));
      };
      req.on("data", onData);
      req.on("end", onEnd);
      req.on("error", onError);
      req.on("close", onClose);
      req.resume();
    });
  }

  async discardBody(): Promise<void> {
    if (this.body === "stream") await this.built!.body?.cancel().catch(() => undefined);
    else if (this.body === "unread") {
      this.body = "discarded";
      if (this.read === undefined) this.req.pause();
    }
  }

  private parsedBytes(): Uint8Array {
    return (this.readBytes ??= this.read!.bytes());
  }

  request(withBody: boolean): Request {
    // One object for authenticate, ctx.request and onError; the real Request is made when first looked at.
    if (this.lazy === undefined) {
      this.lazyWithBody = withBody;
      this.lazy = lazyRequest(this);
    }
    return this.lazy;
  }

  /** Builds the Request behind `request()`'s proxy, on its first use. */
  buildRequest(): Request {
    return (this.built = this.build(this.lazyWithBody));
  }

  private build(withBody: boolean): Request {
    const headers = new Headers();
    const raw = this.req.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
    if (this.read?.contentType !== undefined) headers.set("content-type", this.read.contentType);
    const init: RequestInit & { duplex?: "half" } = { method: this.method, headers, signal: this.signal };
    if (withBody && this.hasBody && this.body === "unread") {
      if (this.read !== undefined) {
        this.body = "read";
        init.body = this.parsedBytes() as Uint8Array<ArrayBuffer>;
      } else {
        this.body = "stream";
        init.body = bodyStream(this.req);
        init.duplex = "half"; // required by fetch implementations for streaming request bodies
      }
    }
    const query = this.search === "" ? "" : `?${this.search}`;
    return new Request(requestUrl(this.req, this.authority, `${this.requestPath}${query}`), init);
  }
}

/** The path below a mount prefix, and whether it is below it (else the path as it is). */
function below(path: string, prefix: string): [string, boolean] {
  const rest = pathBelow(path, prefix);
  return rest === undefined ? [path, false] : [rest, true];
}

/**
 * The URL of the web Request handed to handlers: the routed path and query under the validated authority. Never
 * resolves the target relative to a base: "//evil.example/x" stays a path, not a host. (`new URL` resolves dot
 * segments in `request.url`; routing and `ctx.path` saw the path as sent.)
 */
function requestUrl(req: IncomingMessage, authority: string | undefined, pathAndQuery: string): URL {
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  return new URL(`${protocol}://${authority ?? "localhost"}${pathAndQuery}`);
}

/**
 * Whether part of the request body may still be on its way. (Not just `!req.complete`: a request answered
 * synchronously from the "request" event is not marked complete yet even when it has no body at all.)
 */
function bodyUnread(req: IncomingMessage): boolean {
  if (req.complete) return false;
  if (rawHeader(req.rawHeaders, "transfer-encoding") !== undefined) return true;
  const length = rawHeader(req.rawHeaders, "content-length");
  return length !== undefined && length !== "0";
}

function hasBody(raw: string[], method: string): boolean {
  if (method === "GET" || method === "HEAD") return false;
  if (rawHeader(raw, "transfer-encoding") !== undefined) return true;
  const length = rawHeader(raw, "content-length");
  return length !== undefined && length !== "0";
}

/** A header straight from `rawHeaders`: the first value (as `req.headers` keeps for Host, Content-Length), or undefined. */
function rawHeader(raw: string[], name: string): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i];
    if (key.length === name.length && key.toLowerCase() === name) return raw[i + 1];
  }
  return undefined;
}

/**
 * Writes a Reply in one go: with a string body, headers and body leave as one string in one write. `bodyUnread`:
 * whether part of the request body may still be on its way (see `bodyUnread`).
 */
function writeReply(reply: Reply, bodyUnread: boolean, req: IncomingMessage, res: ServerResponse): void {
  const headers: OutgoingHttpHeaders = reply.headers;
  const { body } = reply;
  if (body !== null) headers["content-length"] = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  // An unread request body (413, 415, 401, ...) would otherwise be drained by Node after the response: close instead.
  if (bodyUnread) headers.connection = "close";
  res.writeHead(reply.status, headers);
  if (body === null || req.method === "HEAD") res.end();
  else res.end(body);
}

/** Builds a web Request from an IncomingMessage (streaming body, abort signal). */
export function toRequest(req: IncomingMessage, signal?: AbortSignal): Request {
  const target = splitTarget(req.url ?? "/");
  const host = rawHeader(req.rawHeaders, "host");
  if (!target || (host !== undefined && !isValidHost(host)) || (target.authority !== undefined && !isValidHost(target.authority))) {
    throw new TypeError("Bad request target or Host header");
  }
  const url = requestUrl(req, target.authority ?? host, `${target.path}${target.search === "" ? "" : `?${target.search}`}`);
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const method = req.method ?? "GET";
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal };
  if (hasBody(req.rawHeaders, method)) {
    init.body = bodyStream(req);
    init.duplex = "half"; // required by fetch implementations for streaming request bodies
  }
  return new Request(url, init);
}

/** A pull-based stream over the request: data flows only while the consumer reads. */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let finished = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on("data", (chunk: Buffer) => {
          if (finished) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once("end", () => {
          if (finished) return;
          finished = true;
          controller.close();
        });
        req.once("error", (error) => {
          if (finished) return;
          finished = true;
          controller.error(error);
        });
        req.once("close", () => {
          if (finished) return;
          finished = true;
          controller.error(new Error("Client closed the connection before the request body was complete"));
        });
        req.pause();
      },
      pull() {
        req.resume();
      },
      cancel() {
        // Stop reading but keep the socket: the router still has to send its 413/415. The unread rest is
        // discarded by closing the connection after the response (see writeResponse).
        finished = true;
        req.pause();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/** The media types of bodies sent item by item. */
const STREAMED_TYPES = /^\s*(?:text\/event-stream|application\/(?:x-)?(?:jsonl|jsonlines|ndjson)|application\/(?:[\w.+-]+\+)?json-seq)\s*(?:;|$)/i;

/** Writes a web Response to a ServerResponse, chunk by chunk with backpressure. */
export async function writeResponse(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers: OutgoingHttpHeaders = {};
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") headers[key] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  // An unread request body (413, 415, 401, ...) would otherwise be drained by Node after the response: close instead.
  if (bodyUnread(req)) headers.connection = "close";
  res.writeHead(response.status, response.statusText || undefined, headers);

  if (response.body === null || req.method === "HEAD") {
    await response.body?.cancel().catch(() => undefined);
    res.end();
    return;
  }
  // Streams (SSE, JSON Lines, JSON Text Sequences) must reach the client before the first item is ready.
  if (STREAMED_TYPES.test(String(headers["content-type"] ?? ""))) res.flushHeaders();

  const reader = response.body.getReader();
  const onClose = () => {
    reader.cancel().catch(() => undefined);
  };
  res.once("close", onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) await drained(res);
    }
    res.end();
  } catch {
    // The body stream failed mid-way: the status is already sent, so cut the connection.
    res.destroy();
  } finally {
    res.off("close", onClose);
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}
