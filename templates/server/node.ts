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
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { bodyTooLarge, concatBytes, readLimited } from "./body.js";
import { lazyRequest, SERVE_INCOMING, type Incoming, type Reply, type ServeIncoming } from "./incoming.js";
import type { Router } from "./types.js";

/** Options of `toNodeListener`. */
export interface NodeListenerOptions {
  /** Called if the router itself throws or writing the response fails (the router reports handler errors itself). */
  onError?: (error: unknown) => void;
}

/** A `node:http` request listener: `http.createServer(toNodeListener(router)).listen(3000)`. */
export function toNodeListener(router: Pick<Router, "fetch">, options: NodeListenerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const serveIncoming = (router as { [SERVE_INCOMING]?: ServeIncoming })[SERVE_INCOMING];
  return (req, res) => {
    handle(router, serveIncoming, req, res).catch((error: unknown) => {
      options.onError?.(error);
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json", connection: "close" });
        res.end(JSON.stringify({ error: { message: "Internal Server Error", type: "internal_error" } }));
      } else {
        res.destroy();
      }
    });
  };
}

async function handle(router: Pick<Router, "fetch">, serveIncoming: ServeIncoming | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (serveIncoming) {
    let incoming: NodeIncoming;
    try {
      incoming = new NodeIncoming(req, res);
    } catch {
      return badRequest(res);
    }
    const answer = await serveIncoming.call(router, incoming);
    if (answer instanceof Response) await writeResponse(answer, req, res);
    else writeReply(answer, req, res);
    return;
  }
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
  res.writeHead(400, { "content-type": "application/json", connection: "close" });
  res.end(JSON.stringify({ error: { message: "Bad Request", type: "bad_request" } }));
}

/** Methods `new Request` refuses (they would have been a 400 from `toRequest`). */
const FORBIDDEN_METHODS = /^(?:CONNECT|TRACE|TRACK)$/i;

/**
 * An IncomingMessage as the router reads it: headers straight from `rawHeaders`, the body straight from the
 * socket, the web Request only on demand.
 */
class NodeIncoming implements Incoming {
  readonly method: string;
  readonly pathname: string;
  readonly hasBody: boolean;
  private readonly target: RequestTarget;
  private query: URLSearchParams | undefined;
  /** "unread" until the router reads the body or the Request takes it as a stream. */
  private body: "unread" | "read" | "discarded" | "stream" = "unread";
  private controller: AbortController | undefined;
  private lazy: Request | undefined;
  private built: Request | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    this.method = req.method ?? "GET";
    if (FORBIDDEN_METHODS.test(this.method)) throw new TypeError(`${this.method} is not supported`);
    this.target = requestTarget(req);
    this.pathname = this.target.pathname;
    this.hasBody = hasBody(req.rawHeaders, this.method);
  }

  get searchParams(): URLSearchParams {
    return (this.query ??= this.target.url ? this.target.url.searchParams : new URLSearchParams(this.target.search));
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

  header(name: string): string | null {
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
    const declared = this.header("content-length");
    if (declared !== null && Number(declared) > maxBytes) {
      this.body = "discarded";
      this.req.pause();
      return Promise.reject(bodyTooLarge(maxBytes));
    }
    this.body = "read";
    if (!this.hasBody) return Promise.resolve(new Uint8Array(0));
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
      this.req.pause();
    }
  }

  request(withBody: boolean): Request {
    // One object for authenticate, ctx.request and onError; the real Request is made when first looked at.
    return (this.lazy ??= lazyRequest(() => (this.built = this.build(withBody))));
  }

  private build(withBody: boolean): Request {
    const headers = new Headers();
    const raw = this.req.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
    const init: RequestInit & { duplex?: "half" } = { method: this.method, headers, signal: this.signal };
    if (withBody && this.hasBody && this.body === "unread") {
      this.body = "stream";
      init.body = bodyStream(this.req);
      init.duplex = "half"; // required by fetch implementations for streaming request bodies
    }
    return new Request(this.target.url ?? requestUrl(this.req), init);
  }
}

/** The request URL. Never resolves the target relative to a base: "//evil.example/x" must stay a path, not become a host. */
function requestUrl(req: IncomingMessage): URL {
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  const target = req.url ?? "/";
  return /^https?:\/\//i.test(target) ? new URL(target) : new URL(`${protocol}://${rawHeader(req.rawHeaders, "host") ?? "localhost"}${target.startsWith("/") ? target : `/${target}`}`);
}

/** The path and query of a request: parsed by `new URL` unless the target is plain enough to split as it is. */
interface RequestTarget {
  pathname: string;
  search: string;
  /** Set when the target went through `new URL` (which also validated the Host header). */
  url: URL | undefined;
}

/**
 * A target whose path and query WHATWG URL parsing leaves exactly as they are: only characters it does not
 * percent-encode, no dot segments (not even "%2e"), no backslash, no fragment, not "//…".
 */
const PLAIN_TARGET = /^\/(?!\/)[\w\-.~!$&'()*+,;=:@%/]*(?:\?[\w\-.~!$&'()*+,;=:@%/?]*)?$/;
const DOT_SEGMENT = /\/\.|%2e/i;
/** Host headers already known to parse (`new URL` throws for a bad one, which is a 400), by value. */
const validHosts = new Set<string>();

function requestTarget(req: IncomingMessage): RequestTarget {
  const target = req.url ?? "/";
  const host = rawHeader(req.rawHeaders, "host") ?? "localhost";
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  if (PLAIN_TARGET.test(target) && !DOT_SEGMENT.test(path) && plainHost(host)) {
    return { pathname: path, search: q < 0 ? "" : target.slice(q + 1), url: undefined };
  }
  const url = requestUrl(req);
  return { pathname: url.pathname, search: url.search, url };
}

/** A Host header that ends the authority (no "/", "\\", "?", "#", "@") and parses. */
function plainHost(host: string): boolean {
  if (validHosts.has(host)) return true;
  if (/[/\\?#@]/.test(host) || !URL.canParse(`http://${host}/`)) return false;
  if (validHosts.size >= 256) validHosts.clear(); // bounded: Host is client-controlled
  validHosts.add(host);
  return true;
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

/** Writes a Reply in one go: with a string body, headers and body leave as one string in one write. */
function writeReply(reply: Reply, req: IncomingMessage, res: ServerResponse): void {
  const headers: OutgoingHttpHeaders = reply.headers;
  const { body } = reply;
  if (body !== null) headers["content-length"] = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  // An unread request body (413, 415, 401, ...) would otherwise be drained by Node after the response: close instead.
  if (!req.complete) headers.connection = "close";
  res.writeHead(reply.status, headers);
  if (body === null || req.method === "HEAD") res.end();
  else res.end(body);
}

/** Builds a web Request from an IncomingMessage (streaming body, abort signal). */
export function toRequest(req: IncomingMessage, signal?: AbortSignal): Request {
  const url = requestUrl(req);
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

/** Writes a web Response to a ServerResponse, chunk by chunk with backpressure. */
export async function writeResponse(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers: OutgoingHttpHeaders = {};
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") headers[key] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  // An unread request body (413, 415, 401, ...) would otherwise be drained by Node after the response: close instead.
  if (!req.complete) headers.connection = "close";
  res.writeHead(response.status, response.statusText || undefined, headers);

  if (response.body === null || req.method === "HEAD") {
    await response.body?.cancel().catch(() => undefined);
    res.end();
    return;
  }
  // Streams (SSE) must reach the client before the first event is ready.
  if (String(headers["content-type"] ?? "").startsWith("text/event-stream")) res.flushHeaders();

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
