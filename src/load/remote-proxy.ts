import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type Socket } from "node:net";
import { Readable } from "node:stream";
import { connect as tlsConnect } from "node:tls";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { TunnelRefused, type Proxy } from "./remote-proxy-env.js";

/**
 * Requests for spec URLs through an HTTP(S) proxy (which one: remote-proxy-env.ts). An https URL goes through a
 * CONNECT tunnel, and TLS runs inside it to the origin (its certificate checked for the origin's name, with Node's
 * CAs and NODE_EXTRA_CA_CERTS): the proxy sees only the host and port.
 * An http URL is an absolute-form request to the proxy, which sees it whole, as it sees any plain http.
 *
 * Written on node:http / node:tls rather than undici's ProxyAgent: undici 6 (the fetch of Node 20) tunnels plain
 * http through CONNECT too, which proxies commonly allow only to port 443, and a newer undici's agents are not made
 * for Node 20's built-in fetch; a dependency for ~150 lines was not worth it. The proxied path hands back a web `Response`, so the rules of `fetchDocument`
 * (redirects, limits, validators, headers per origin) are the same code with or without a proxy.
 */

/** The proxy's own credentials (`http://user:pass@proxy`), as RFC 7617 Basic: sent to the proxy only. */
function proxyAuthorization(proxy: URL): string | undefined {
  if (proxy.username === "" && proxy.password === "") return undefined;
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return `Basic ${Buffer.from(credentials, "utf8").toString("base64")}`;
}

/** Kept-alive connections to http proxies, for absolute-form requests (one pool per proxy host). */
const plainAgent = new HttpAgent({ keepAlive: true, maxSockets: 16 });

/**
 * A GET of `target` through `proxy`, answered as a web Response (the body decoded by its Content-Encoding, as
 * fetch does). Failures reject as fetch's do (`TypeError` with the network error as `cause`), and a refused
 * tunnel as a TunnelRefused cause, so the caller tells them apart by cause.
 */
export function fetchThroughProxy(target: string, proxy: Proxy, headers: Headers, signal: AbortSignal): Promise<Response> {
  const url = new URL(target);
  url.hash = "";
  const outgoing: Record<string, string> = {};
  headers.forEach((value, name) => (outgoing[name] = value));
  outgoing["accept-encoding"] = "gzip, deflate, br";
  const authorization = proxyAuthorization(proxy.url);
  const proxyPort = Number(proxy.url.port || (proxy.url.protocol === "https:" ? 443 : 80));
  const proxyHost = unbracket(proxy.url.hostname);
  const toProxy = proxy.url.protocol === "https:" ? httpsRequest : httpRequest;

  return new Promise<Response>((resolve, reject) => {
    const failed = (error: unknown) => reject(new TypeError("fetch failed", { cause: error }));
    if (signal.aborted) return failed(signal.reason);
    let request: ClientRequest;
    if (url.protocol === "http:") {
      const options: RequestOptions = {
        host: proxyHost,
        port: proxyPort,
        method: "GET",
        path: url.href,
        headers: { ...outgoing, host: url.host, ...(authorization ? { "proxy-authorization": authorization } : {}) },
        signal,
        ...(proxy.url.protocol === "http:" ? { agent: plainAgent } : {}),
      };
      request = toProxy(options);
    } else {
      const port = Number(url.port || 443);
      const host = unbracket(url.hostname);
      const authority = `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
      // The CONNECT carries only what the proxy needs: never the origin's headers, which travel inside the tunnel.
      const connect = toProxy({
        host: proxyHost,
        port: proxyPort,
        method: "CONNECT",
        path: authority,
        headers: { host: authority, ...(authorization ? { "proxy-authorization": authorization } : {}) },
        agent: false,
        signal,
      });
      connect.once("error", failed);
      connect.once("response", (answer: IncomingMessage) => {
        // A proxy that answers CONNECT with anything but 2xx sends an ordinary response (407, 403, 502).
        answer.resume();
        failed(new TunnelRefused(answer.statusCode ?? 0, answer.statusMessage ?? ""));
      });
      connect.once("connect", (answer: IncomingMessage, socket: Socket, head: Buffer) => {
        if ((answer.statusCode ?? 0) < 200 || (answer.statusCode ?? 0) > 299) {
          socket.destroy();
          return failed(new TunnelRefused(answer.statusCode ?? 0, answer.statusMessage ?? ""));
        }
        if (head.length > 0) socket.unshift(head);
        const tls = tlsConnect({ socket, host, ...(isIP(host) === 0 ? { servername: host } : {}), ALPNProtocols: ["http/1.1"] });
        // A refused certificate fails the handshake before the request owns the socket.
        tls.once("error", failed);
        const inner = httpsRequest({ host, port, method: "GET", path: `${url.pathname}${url.search}`, headers: { ...outgoing, host: url.host }, signal, agent: false, createConnection: () => tls });
        inner.once("error", (error) => {
          tls.destroy();
          failed(error);
        });
        inner.once("response", (response) => settle(response, () => tls.destroy()));
        inner.end();
      });
      connect.end();
      return;
    }
    request.once("error", failed);
    request.once("response", (response) => settle(response));
    request.end();

    function settle(response: IncomingMessage, done?: () => void): void {
      try {
        resolve(toWebResponse(response, done));
      } catch (error) {
        response.destroy();
        failed(error);
      }
    }
  });
}

const NULL_BODY = new Set([204, 205, 304]);

function toWebResponse(response: IncomingMessage, done?: () => void): Response {
  const status = response.statusCode ?? 0;
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  if (done) response.once("close", done);
  if (status < 200 || status > 599) throw new Error(`the proxy relayed an invalid status ${status}`);
  if (NULL_BODY.has(status)) {
    response.resume();
    return new Response(null, { status, statusText: response.statusMessage ?? "", headers });
  }
  const encoding = (headers.get("content-encoding") ?? "").trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip" ? createGunzip() : encoding === "deflate" ? createInflate() : encoding === "br" ? createBrotliDecompress() : undefined;
  let body: Readable = response;
  if (decoder) {
    response.once("error", (error) => decoder.destroy(error));
    body = response.pipe(decoder);
    // Cancelling the decoded stream (a body over the size cap) closes the connection too.
    decoder.once("close", () => response.destroy());
  }
  return new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, { status, statusText: response.statusMessage ?? "", headers });
}

function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
