import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { join, normalize } from "node:path";

/** A request the vendor's server saw. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export type Route = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * A vendor's web server on 127.0.0.1 (a port of its own: its own origin) that publishes spec documents. Routes are
 * exact paths, or a prefix ending in `/`; anything else is 404. Every request is recorded; `close` ends every
 * connection, also the ones a route left hanging.
 */
export class VendorServer {
  readonly requests: SeenRequest[] = [];
  readonly routes = new Map<string, Route>();
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {
    server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
  }

  static async start(routes: Record<string, Route> = {}): Promise<VendorServer> {
    let vendor: VendorServer | undefined;
    const server = createServer((request, response) => vendor!.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    vendor = new VendorServer(server, `http://127.0.0.1:${port}`);
    for (const [path, route] of Object.entries(routes)) vendor.routes.set(path, route);
    return vendor;
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  /** The requests for one path. */
  seen(path: string): SeenRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const path = request.url ?? "/";
    this.requests.push({ method: request.method ?? "", path, headers: request.headers });
    const route = this.routes.get(path) ?? [...this.routes].find(([prefix]) => prefix.endsWith("/") && path.startsWith(prefix))?.[1];
    if (!route) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    route(request, response);
  }
}

/**
 * A published document: `body()` is read on every request, served with an ETag (a hash of the bytes) and a fixed
 * Last-Modified, and a request whose If-None-Match names the current ETag gets 304, as web servers and CDNs answer.
 */
export function document(body: () => string | Buffer, options: { contentType?: string; lastModified?: string } = {}): Route {
  return (request, response) => {
    const bytes = Buffer.from(body());
    const etag = `"${createHash("sha1").update(bytes).digest("hex").slice(0, 16)}"`;
    const headers = { etag, "last-modified": options.lastModified ?? "Wed, 01 Jul 2026 10:00:00 GMT" };
    const matches = (request.headers["if-none-match"] ?? "").split(",").map((tag) => tag.trim());
    if (matches.includes(etag)) {
      response.writeHead(304, headers).end();
      return;
    }
    response.writeHead(200, { ...headers, "content-type": options.contentType ?? "application/yaml", "content-length": bytes.length }).end(bytes);
  };
}

/** Serves the files of a folder under a path prefix (`/api/` → `folder/…`), each as a `document`. */
export function folder(prefix: string, dir: string): Route {
  return (request, response) => {
    const relative = normalize(decodeURIComponent((request.url ?? "").slice(prefix.length).split("?")[0]!));
    if (relative.startsWith("..")) return void response.writeHead(403).end();
    let text: string;
    try {
      text = readFileSync(join(dir, relative), "utf8");
    } catch {
      return void response.writeHead(404).end("not found");
    }
    document(() => text)(request, response);
  };
}
