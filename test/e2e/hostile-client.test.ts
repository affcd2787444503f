import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ApiError, ConnectionError, createRuntime, parseSSE, type ClientOptions, type OperationSpec, type SecuritySchemeSpec } from "../../templates/client/index.js";

/**
 * The client against hostile or broken servers on 127.0.0.1 (docs/client.md, "Retries, redirects and streams"): a request is never sent twice
 * unless that is safe, credentials never follow a redirect to another origin, and an endless server-sent event
 * cannot exhaust memory or time. Every loop here is bounded.
 */
interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}
type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void;

class TestServer {
  server!: Server;
  seen: Seen[] = [];
  handler: Handler = (_req, res) => res.end();
  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const seen = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() };
        this.seen.push(seen);
        this.handler(req, res, seen);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
  }
  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const api = new TestServer();
const other = new TestServer();
beforeAll(() => Promise.all([api.start(), other.start()]));
afterAll(() => Promise.all([api.stop(), other.stop()]));
afterEach(() => {
  api.seen = [];
  other.seen = [];
});

const schemes: Record<string, SecuritySchemeSpec> = {
  bearer: { type: "bearer", options: ["token"] },
  key: { type: "apiKey", in: "header", name: "X-API-Key", options: ["key"] },
};
const json = { mediaType: "application/json", required: true };
const createModel: OperationSpec = { name: "createModel", method: "POST", path: "/models", security: [[{ scheme: "bearer" }, { scheme: "key" }]], body: json };
const getModel: OperationSpec = { name: "getModel", method: "GET", path: "/models/{id}", params: { path: [{ name: "id" }] }, security: [[{ scheme: "bearer" }, { scheme: "key" }]] };
const createPayment: OperationSpec = { name: "createPayment", method: "POST", path: "/payments", idempotencyKey: "Idempotency-Key", params: { header: [{ name: "Idempotency-Key" }] }, body: json };

function runtime(base: string, options: Record<string, unknown> = {}) {
  // (`token` and `key` are the options the schemes read, as an emitted client declares them.)
  return createRuntime([{ url: base }], { token: "tok", key: "k-1", maxRetries: 2, ...options } as ClientOptions, schemes);
}

/** Reads the whole request, then drops the connection without answering: the server may have acted. */
const dropAfterReading: Handler = (req) => req.socket.destroy();

describe("retries never duplicate work", () => {
  it("a POST whose connection dropped after the request was written is not re-sent", async () => {
    api.handler = dropAfterReading;
    const error = await runtime(api.origin).operation(createModel)({ body: { name: "m" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(api.seen).toHaveLength(1);
  });

  it("…while a GET is (it is idempotent), and so is a POST the caller opted in for", async () => {
    api.handler = dropAfterReading;
    await runtime(api.origin, { maxRetries: 1 }).operation(getModel)({ path: { id: "m" } }).catch(() => undefined);
    expect(api.seen).toHaveLength(2);
    api.seen = [];
    await runtime(api.origin, { maxRetries: 1, retryNonIdempotent: true }).operation(createModel)({ body: {} }).catch(() => undefined);
    expect(api.seen).toHaveLength(2);
  });

  it("with an Idempotency-Key a POST is retried, carrying the same generated key on every attempt", async () => {
    let attempts = 0;
    api.handler = (req, res) => (++attempts < 3 ? req.socket.destroy() : res.writeHead(201, { "content-type": "application/json" }).end("{}"));
    await runtime(api.origin).operation(createModel)({ body: {} }, { idempotencyKey: true });
    const keys = api.seen.map((s) => s.headers["idempotency-key"]);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("an operation that declares an Idempotency-Key header gets one by default (new per call); the caller's own is kept", async () => {
    api.handler = (_req, res) => res.writeHead(503).end();
    const pay = runtime(api.origin, { maxRetries: 1 }).operation(createPayment);
    await pay({ body: { amount: 1 } }).catch(() => undefined);
    await pay({ body: { amount: 1 } }).catch(() => undefined);
    const keys = api.seen.map((s) => s.headers["idempotency-key"]);
    // Two calls, each retried once after the 503 (safe: the key lets the server tell a repeat).
    expect(keys).toHaveLength(4);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).toBe(keys[3]);
    expect(keys[0]).not.toBe(keys[2]);
    api.seen = [];
    await pay({ headers: { "Idempotency-Key": "order-42" }, body: { amount: 1 } }).catch(() => undefined);
    expect(api.seen.map((s) => s.headers["idempotency-key"])).toEqual(["order-42", "order-42"]);
    api.seen = [];
    await pay({ body: { amount: 1 } }, { idempotencyKey: false }).catch(() => undefined);
    expect(api.seen.map((s) => s.headers["idempotency-key"])).toEqual([undefined]);
  });

  it("a POST that certainly never reached the server (connection refused) is retried", async () => {
    const closed = new TestServer();
    await closed.start();
    const origin = closed.origin;
    await closed.stop();
    let attempts = 0;
    const op = createRuntime([{ url: origin }], { maxRetries: 1, onRequest: () => void attempts++ }).operation(createModel);
    await expect(op({ body: {} })).rejects.toBeInstanceOf(ConnectionError);
    expect(attempts).toBe(2);
  });
});

describe("redirects to another origin drop credentials and bodies", () => {
  const redirectTo = (location: () => string, status = 307): Handler => (_req, res) => res.writeHead(status, { location: location() }).end();
  const ok: Handler = (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');

  it("a GET redirected to another origin arrives there without Authorization, Cookie or the spec's API-key header", async () => {
    api.handler = redirectTo(() => `${other.origin}/elsewhere`);
    other.handler = ok;
    const data = await runtime(api.origin, { headers: { Cookie: "sid=1", "X-Trace": "t" } }).operation(getModel)({ path: { id: "m" } });
    expect(data).toEqual({ ok: true });
    expect(api.seen[0]!.headers).toMatchObject({ authorization: "Bearer tok", "x-api-key": "k-1", cookie: "sid=1" });
    const arrived = other.seen[0]!.headers;
    expect([arrived.authorization, arrived["x-api-key"], arrived.cookie, arrived["x-trace"]]).toEqual([undefined, undefined, undefined, "t"]);
  });

  it("a redirect within the origin keeps them", async () => {
    api.handler = (req, res) => (req.url === "/models/m" ? res.writeHead(301, { location: "/models/m2" }).end() : ok(req, res, api.seen[0]!));
    await runtime(api.origin).operation(getModel)({ path: { id: "m" } });
    expect(api.seen.map((s) => [s.url, s.headers.authorization, s.headers["x-api-key"]])).toEqual([
      ["/models/m", "Bearer tok", "k-1"],
      ["/models/m2", "Bearer tok", "k-1"],
    ]);
  });

  it("a 307 of a POST to another origin is not followed (the body would go there): it is the answer", async () => {
    api.handler = redirectTo(() => `${other.origin}/steal`);
    const error = await runtime(api.origin).operation(createModel)({ body: { secret: "s" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(307);
    expect((error as ApiError).headers.get("location")).toBe(`${other.origin}/steal`);
    expect(other.seen).toHaveLength(0);
  });

  it("a 303 (and a 302 of a POST) becomes a GET without body, as fetch does", async () => {
    api.handler = redirectTo(() => `${other.origin}/result`, 303);
    other.handler = ok;
    await runtime(api.origin).operation(createModel)({ body: { secret: "s" } });
    expect(other.seen.map((s) => [s.method, s.body, s.headers["content-type"], s.headers.authorization])).toEqual([["GET", "", undefined, undefined]]);
  });

  it("a redirect loop ends after 20 hops", async () => {
    api.handler = redirectTo(() => `${api.origin}/models/loop`, 302);
    const error = await runtime(api.origin, { maxRetries: 0 }).operation(getModel)({ path: { id: "loop" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(String(error)).toMatch(/more than 20 redirects/);
    expect(api.seen).toHaveLength(21);
  });
});

describe("server-sent events are bounded", () => {
  const streamOp: OperationSpec = { name: "events", method: "GET", path: "/events", stream: { mediaType: "text/event-stream" } };

  it("a line that never ends stops the stream with a RangeError at the cap, and the connection is closed", async () => {
    let written = 0;
    let closed = false;
    api.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: ");
      const chunk = "x".repeat(16 * 1024);
      const pump = () => {
        // Bounded: 4 MiB at most, far past the 256 KiB cap.
        while (!res.destroyed && written < 256 && res.write(chunk)) written++;
        if (!res.destroyed && written < 256) res.once("drain", pump);
      };
      res.on("close", () => (closed = true));
      pump();
    };
    const stream = (await runtime(api.origin, { maxStreamEventSize: 256 * 1024 }).operation(streamOp)()) as AsyncIterable<unknown>;
    const events: unknown[] = [];
    const error = await (async () => {
      for await (const event of stream) events.push(event);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RangeError);
    expect(String(error)).toMatch(/longer than 262144 characters/);
    expect(events).toEqual([]);
    await expect.poll(() => closed, { timeout: 2000 }).toBe(true);
    expect(written).toBeLessThan(256);
  });

  it("an event of many short data lines is capped as a whole", async () => {
    api.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`${"data: 0123456789\n".repeat(2000)}\n`);
    };
    const stream = (await runtime(api.origin, { maxStreamEventSize: 10_000 }).operation(streamOp)()) as AsyncIterable<unknown>;
    const error = await (async () => {
      for await (const _ of stream) void _;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RangeError);
  });

  it("a long line arriving in small chunks is scanned once (no quadratic rescans): 8 MiB in 1 KiB chunks, in well under a second", async () => {
    const piece = new TextEncoder().encode("y".repeat(1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent < 8192) {
          sent++;
          controller.enqueue(sent === 1 ? new TextEncoder().encode("data: ") : piece);
        } else {
          controller.enqueue(new TextEncoder().encode("\n\n"));
          controller.close();
        }
      },
    });
    const started = performance.now();
    const events = [];
    for await (const event of parseSSE(body, { maxEventSize: 16 * 1024 * 1024 })) events.push(event);
    const elapsed = performance.now() - started;
    expect(events).toHaveLength(1);
    expect(events[0]!.data.length).toBe(8191 * 1024);
    expect(elapsed).toBeLessThan(1500);
  });
});
