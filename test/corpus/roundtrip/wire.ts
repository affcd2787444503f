import { Agent, createServer, request, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request exactly as it arrived on a socket: method, request target, raw header lines and body bytes. */
export interface WireRequest {
  method: string;
  /** The request target as sent (`/v1/customers?limit=3`), nothing decoded or resolved. */
  target: string;
  /** Header names and values in the order sent, as node:http's `rawHeaders` (name, value, name, value, …). */
  rawHeaders: string[];
  body: Buffer;
}

/** The request header that ties a recorded request to the test case that sent it. */
export const CASE_HEADER = "x-roundtrip-case";

/** How long any one exchange on 127.0.0.1 may take before it counts as hung. */
const EXCHANGE_TIMEOUT_MS = 60_000;

/**
 * Starts `server` on an ephemeral port of 127.0.0.1 and returns its origin. Idle connections stay open (node:http
 * closes them after 5 s by default, and a keep-alive agent that picks one as it closes gets ECONNRESET: the
 * validator can be busy compiling for longer than that).
 */
export async function listen(server: Server): Promise<string> {
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * A transparent recording hop in front of the router: each request is read whole, kept as it arrived (by its
 * `x-roundtrip-case` header), and sent on unchanged (same method, target, header lines and bytes) to `upstream`,
 * whose answer is streamed back as it comes (so server-sent events stay incremental).
 */
export class WireRecorder {
  readonly seen = new Map<string, WireRequest>();
  private readonly server: Server;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 16 });
  origin = "";

  constructor(private readonly upstream: string) {
    this.server = createServer((req, res) => void this.forward(req, res));
  }

  async start(): Promise<this> {
    this.origin = await listen(this.server);
    return this;
  }

  async stop(): Promise<void> {
    this.agent.destroy();
    await close(this.server);
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readAll(req);
    const wire: WireRequest = { method: req.method ?? "", target: req.url ?? "", rawHeaders: req.rawHeaders, body };
    const id = header(wire, CASE_HEADER);
    if (id !== undefined) this.seen.set(id, wire);
    const url = new URL(this.upstream);
    const out = request(
      { host: url.hostname, port: url.port, method: wire.method, path: wire.target, headers: forwardedHeaders(wire, url.host), agent: this.agent, timeout: EXCHANGE_TIMEOUT_MS },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, pairs(answer.rawHeaders));
        answer.pipe(res);
      },
    );
    out.on("timeout", () => out.destroy(new Error("the router did not answer in time")));
    out.on("error", () => res.destroy());
    out.end(body);
  }
}

/** The first value of a header (case-insensitive), as `rawHeaders` has it. */
export function header(wire: WireRequest, name: string): string | undefined {
  for (let i = 0; i < wire.rawHeaders.length; i += 2) if (wire.rawHeaders[i]!.toLowerCase() === name) return wire.rawHeaders[i + 1];
  return undefined;
}

/** The header lines to send the recorded request on with: the same ones, with the body's length and the next hop's Host. */
export function forwardedHeaders(wire: WireRequest, host: string): OutgoingHttpHeaders {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of pairs(wire.rawHeaders)) {
    const lower = name.toLowerCase();
    if (lower === "host" || lower === "transfer-encoding" || lower === "content-length" || lower === "connection") continue;
    const known = headers[name];
    headers[name] = known === undefined ? value : [...(Array.isArray(known) ? known : [known]), value];
  }
  headers.host = host;
  if (wire.body.length > 0 || wire.method !== "GET") headers["content-length"] = String(wire.body.length);
  return headers;
}

function pairs(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}

/** Sends a recorded request to `origin` as it was recorded and returns the status and body of the answer. */
export function replay(origin: string, wire: WireRequest, agent: Agent): Promise<{ status: number; body: string }> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const out = request(
      { host: url.hostname, port: url.port, method: wire.method, path: wire.target, headers: forwardedHeaders(wire, url.host), agent, timeout: EXCHANGE_TIMEOUT_MS },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => resolve({ status: answer.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        answer.on("error", reject);
      },
    );
    out.on("timeout", () => out.destroy(new Error("the validator did not answer in time")));
    out.on("error", reject);
    out.end(wire.body);
  });
}
