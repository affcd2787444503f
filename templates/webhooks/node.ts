/**
 * `node:http` adapter of the webhook receiver: `http.createServer(createWebhookNodeListener({ secret, on }))`.
 * The body is read straight from the socket: not at all when the signature headers already fail, never past the
 * size limit (Content-Length first, then counted), and never longer than the time limit. Type-only imports of
 * `node:http`: nothing of Node is loaded where the web handler is used alone.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { bodyTimeout, bodyTooLarge, concatChunks, declaredTooLarge } from "./parse.js";
import type { DeliverySource } from "./parse.js";
import { json } from "./handler.js";
import type { DeliveryReceiver } from "./handler.js";

/** Headers exactly as `Headers.get` joins them (Node's `req.headers` keeps only the first of some repeated ones). */
function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A header Headers refuses cannot be one the verifier reads.
    }
  }
  return headers;
}

/** Whether part of the request body may still be on its way. */
function bodyUnread(req: IncomingMessage): boolean {
  return !req.complete && (req.headers["transfer-encoding"] !== undefined || (req.headers["content-length"] ?? "0") !== "0");
}

function readNodeBody(req: IncomingMessage, max: number, timeoutMs: number): Promise<Uint8Array> {
  if (declaredTooLarge(req.headers["content-length"] ?? null, max)) return Promise.reject(bodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    const timer = timeoutMs > 0 ? setTimeout(() => stop(bodyTimeout()), timeoutMs) : undefined;
    const cleanup = () => {
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", stop);
      req.off("close", onClose);
    };
    // Stops reading: the rest of the body goes with the connection (the answer says `connection: close`).
    function stop(error: Error): void {
      cleanup();
      req.pause();
      reject(error);
    }
    function onData(chunk: Buffer): void {
      total += chunk.byteLength;
      if (total > max) return stop(bodyTooLarge());
      chunks.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    }
    function onEnd(): void {
      cleanup();
      resolve(concatChunks(chunks, total));
    }
    function onClose(): void {
      stop(new Error("The sender closed the connection before the body was complete"));
    }
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", stop);
    req.on("close", onClose);
    req.resume();
  });
}

/**
 * The URL the sender called, as this server sees it (Twilio and `{url}` sign it): its Host header and the request
 * target, on https when the socket is TLS. Undefined for a target that is not a path or a missing Host.
 */
function targetUrl(req: IncomingMessage): string | undefined {
  const target = req.url ?? "";
  const host = req.headers.host;
  if (!target.startsWith("/") || target.startsWith("//") || !host) return undefined;
  const secure = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  try {
    return new URL(target, `${secure ? "https" : "http"}://${host}`).href;
  } catch {
    return undefined;
  }
}

/** The web Request the callbacks (`onError`, `onReject`) see: method, headers and path, without the body. */
function requestOf(req: IncomingMessage, headers: Headers): Request {
  const target = req.url ?? "/";
  // Never resolve the target against a base: "//evil.example/x" must stay a path.
  const path = target.startsWith("/") && !target.startsWith("//") ? target : "/";
  let url: URL;
  try {
    url = new URL(path, "http://localhost");
  } catch {
    url = new URL("http://localhost/");
  }
  return new Request(url, { method: req.method === "POST" ? "POST" : "GET", headers });
}

async function writeResponse(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = new Uint8Array(await response.arrayBuffer());
  const headers: OutgoingHttpHeaders = {};
  response.headers.forEach((value, name) => {
    const previous = headers[name];
    headers[name] = previous === undefined ? value : ([] as string[]).concat(previous as string | string[], value);
  });
  headers["content-length"] = body.byteLength;
  // An unread request body (401, 408, 413) would otherwise be drained by Node after the answer: close instead.
  if (bodyUnread(req)) headers.connection = "close";
  res.writeHead(response.status, headers);
  res.end(body);
}

/** A `node:http` request listener for a receiver. */
export function createNodeListener(receive: DeliveryReceiver): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const answer = async (): Promise<Response> => {
      if (req.method !== "POST") return json(405, { ok: false, error: "method_not_allowed" }, { allow: "POST" });
      const headers = headersOf(req);
      let request: Request | undefined;
      const source: DeliverySource = { headers, url: targetUrl(req), readBody: (max, timeoutMs) => readNodeBody(req, max, timeoutMs) };
      return receive(source, () => (request ??= requestOf(req, headers)));
    };
    answer()
      .then((response) => writeResponse(response, req, res))
      .catch(() => {
        if (res.headersSent) res.destroy();
        else writeResponse(json(500, { ok: false, error: "internal_error" }), req, res).catch(() => res.destroy());
      });
  };
}
