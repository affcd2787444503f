import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import { connect, type Socket } from "node:net";

/** What passed through the proxy: a CONNECT (`target` is `host:port`) or an absolute-form request (`target` is the URL). */
export interface ProxiedRequest {
  method: string;
  target: string;
  headers: IncomingHttpHeaders;
}

/**
 * A forward proxy on 127.0.0.1, as a company's: absolute-form requests are forwarded (without the proxy's own
 * Proxy-Authorization), CONNECT opens a tunnel to the host and port asked for. With `credentials`, both need
 * `Proxy-Authorization: Basic base64(credentials)`, else 407. With `refuseTunnels`, CONNECT gets that status.
 */
export class ForwardProxy {
  readonly seen: ProxiedRequest[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(options: { credentials?: string; refuseTunnels?: number } = {}): Promise<ForwardProxy> {
    const expected = options.credentials === undefined ? undefined : `Basic ${Buffer.from(options.credentials).toString("base64")}`;
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const proxy = new ForwardProxy(server, (server.address() as { port: number }).port);
    server.on("connection", (socket) => {
      proxy.sockets.add(socket);
      socket.on("close", () => proxy.sockets.delete(socket));
    });

    server.on("request", (request, response) => {
      proxy.seen.push({ method: request.method ?? "", target: request.url ?? "", headers: request.headers });
      if (expected !== undefined && request.headers["proxy-authorization"] !== expected) {
        response.writeHead(407, { "proxy-authenticate": 'Basic realm="corp"', "content-length": 0 }).end();
        return;
      }
      let target: URL;
      try {
        target = new URL(request.url ?? "");
      } catch {
        response.writeHead(400).end();
        return;
      }
      const headers = { ...request.headers };
      delete headers["proxy-authorization"];
      delete headers["proxy-connection"];
      const upstream = httpRequest({ host: target.hostname, port: target.port, method: request.method, path: `${target.pathname}${target.search}`, headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      upstream.on("error", () => response.writeHead(502).end());
      request.pipe(upstream);
    });

    server.on("connect", (request, client: Socket) => {
      proxy.sockets.add(client);
      proxy.seen.push({ method: "CONNECT", target: request.url ?? "", headers: request.headers });
      const refuse = (status: string, extra = "") => client.end(`HTTP/1.1 ${status}\r\n${extra}Content-Length: 0\r\n\r\n`);
      if (expected !== undefined && request.headers["proxy-authorization"] !== expected) return refuse("407 Proxy Authentication Required", 'Proxy-Authenticate: Basic realm="corp"\r\n');
      if (options.refuseTunnels !== undefined) return refuse(`${options.refuseTunnels} Refused`);
      const [host, port] = (request.url ?? "").split(":");
      const upstream = connect(Number(port), host!, () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.pipe(client);
        client.pipe(upstream);
      });
      proxy.sockets.add(upstream);
      upstream.on("error", () => refuse("502 Bad Gateway"));
      client.on("error", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
      client.on("close", () => upstream.destroy());
    });
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
