/**
 * `node:http` adapter: converts IncomingMessage/ServerResponse to and from web `Request`/`Response`.
 * Kept in its own file so Workers/Deno/Bun users (who call `router.fetch` directly) never import `node:*`.
 *
 * - Request bodies are streamed (pull-based: the socket is paused until the router asks for more), so a 413
 *   stops reading the upload instead of buffering it.
 * - Response bodies are written chunk by chunk honouring `write()` backpressure (`drain`).
 * - When the client disconnects, the Request's `signal` aborts and the response stream is cancelled (which
 *   closes SSE iterators).
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Router } from "./types.js";

/** Options of `toNodeListener`. */
export interface NodeListenerOptions {
  /** Called if the router itself throws or writing the response fails (the router reports handler errors itself). */
  onError?: (error: unknown) => void;
}

/** A `node:http` request listener: `http.createServer(toNodeListener(router)).listen(3000)`. */
export function toNodeListener(router: Pick<Router, "fetch">, options: NodeListenerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(router, req, res).catch((error: unknown) => {
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
    res.writeHead(400, { "content-type": "application/json", connection: "close" });
    res.end(JSON.stringify({ error: { message: "Bad Request", type: "bad_request" } }));
    return;
  }
  const response = await router.fetch(request);
  await writeResponse(response, req, res);
}

/** Builds a web Request from an IncomingMessage (streaming body, abort signal). */
export function toRequest(req: IncomingMessage, signal?: AbortSignal): Request {
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  const target = req.url ?? "/";
  // Never resolve the target relative to a base: "//evil.example/x" must stay a path, not become a host.
  const url = /^https?:\/\//i.test(target) ? new URL(target) : new URL(`${protocol}://${req.headers.host ?? "localhost"}${target.startsWith("/") ? target : `/${target}`}`);
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const method = req.method ?? "GET";
  const hasBody =
    method !== "GET" && method !== "HEAD" && (req.headers["transfer-encoding"] !== undefined || (req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0"));
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal };
  if (hasBody) {
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
