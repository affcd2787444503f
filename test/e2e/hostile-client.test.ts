import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ApiError, ConnectionError, ResponseTooLargeError, createRuntime, parseSSE, type ClientOptions, type OperationSpec, type SecuritySchemeSpec } from "../../templates/client/index.js";
import { ROOT, cleanupTempDirs, tempDir } from "../helpers.js";

const execFileAsync = promisify(execFile);

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
afterAll(cleanupTempDirs);
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
    expect([arrived.authorization, arrived["x-api-key"], arrived.cookie, arrived["x-trace"]]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("every header the caller set stays on its origin: a custom credential in `headers` (GitLab's PRIVATE-TOKEN), a per-call header and a header parameter", async () => {
    const listIssues: OperationSpec = { name: "listIssues", method: "GET", path: "/issues", params: { header: [{ name: "X-Tenant-Key" }] } };
    api.handler = (req, res) => (req.url === "/issues" ? res.writeHead(302, { location: "/issues/2" }).end() : res.writeHead(302, { location: `${other.origin}/mirror` }).end());
    other.handler = ok;
    const client = createRuntime([{ url: api.origin }], { headers: { "PRIVATE-TOKEN": "glpat-secret" } });
    const data = await client.operation(listIssues)({ headers: { "X-Tenant-Key": "tenant-secret" } }, { headers: { "X-Call-Secret": "call-secret" } });
    expect(data).toEqual({ ok: true });
    // Within the origin every header follows.
    for (const seen of api.seen) expect(seen.headers).toMatchObject({ "private-token": "glpat-secret", "x-tenant-key": "tenant-secret", "x-call-secret": "call-secret" });
    expect(api.seen).toHaveLength(2);
    // At the other origin (another port of 127.0.0.1): none of the caller's, only what fetch sets.
    const arrived = other.seen[0]!.headers;
    expect(JSON.stringify(arrived)).not.toMatch(/secret/);
    expect(Object.keys(arrived).sort()).toEqual(expect.arrayContaining(["accept", "host"]));
    expect(Object.keys(arrived).filter((name) => !["accept", "accept-encoding", "accept-language", "connection", "host", "sec-fetch-mode", "user-agent"].includes(name))).toEqual([]);
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

describe("path parameters cannot name another resource", () => {
  const removeMember: OperationSpec = { name: "removeMember", method: "DELETE", path: "/orgs/{org}/members/{user}", params: { path: [{ name: "org" }, { name: "user" }] } };

  it.each([
    ["an empty string", ""],
    ["an empty list", []],
  ])("%s as a path parameter is a TypeError before any request (`/members/` is the collection to many servers)", async (_what, user) => {
    const error = await runtime(api.origin).operation(removeMember)({ path: { org: "acme", user } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(String(error)).toMatch(/Missing or empty path parameter "user"/);
    expect(api.seen).toHaveLength(0);
  });
});

describe("error messages carry the server's text escaped", () => {
  it("control characters of the body and the status text (escape sequences, line breaks, bidi overrides) are escaped in ApiError.message; the body is kept as sent", async () => {
    const body = "denied\u001b[2J\u001b[31m\n::error::forged\r\nline\u202eevil\u0007";
    api.handler = (_req, res) => res.writeHead(400, "Bad\tRequest", { "content-type": "text/plain; charset=utf-8" }).end(body);
    const error = (await runtime(api.origin, { maxRetries: 0 }).operation(getModel)({ path: { id: "m" } }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.body).toBe(body);
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect(error.message).toBe("getModel: GET " + `${api.origin}/models/m` + " failed with 400 Bad\\u0009Request: denied\\u001b[2J\\u001b[31m\\u000a::error::forged\\u000d\\u000aline\\u202eevil\\u0007");
  });
});

describe("response bodies are bounded (maxResponseBytes)", () => {
  const download: OperationSpec = { name: "download", method: "GET", path: "/download" };
  /** Streams `total` bytes of `piece` (JSON text) with backpressure; `written` counts what went out before the client hung up. */
  const flood = (status: number, total: number, contentType = "application/json") => {
    const state = { written: 0, closed: false };
    api.handler = (_req, res) => {
      res.writeHead(status, { "content-type": contentType });
      res.on("close", () => (state.closed = true));
      const piece = Buffer.from(`"${"x".repeat(64 * 1024 - 2)}"`.slice(0, 64 * 1024));
      const pump = () => {
        let drained = true;
        while (!res.destroyed && state.written < total && drained) {
          drained = res.write(piece);
          state.written += piece.length;
        }
        if (res.destroyed) return;
        if (state.written >= total) res.end();
        else res.once("drain", pump);
      };
      pump();
    };
    return state;
  };

  it("a success body past the limit ends the read with a ResponseTooLargeError and closes the connection (not retried)", async () => {
    const sent = flood(200, 64 * 1024 * 1024);
    const error = await runtime(api.origin, { maxResponseBytes: 1024 * 1024 }).operation(download)().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(String(error)).toMatch(/^ResponseTooLargeError: download: the 200 response is larger than 1048576 bytes \(maxResponseBytes\)/);
    await expect.poll(() => sent.closed, { timeout: 5000 }).toBe(true);
    expect(sent.written).toBeLessThan(32 * 1024 * 1024);
    expect(api.seen).toHaveLength(1);
  });

  it("an error body counts too: an endless 500 is a ResponseTooLargeError, not an ApiError holding it all", async () => {
    const sent = flood(500, 64 * 1024 * 1024);
    const error = await runtime(api.origin, { maxResponseBytes: 1024 * 1024, maxRetries: 0 }).operation(download)().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(String(error)).toMatch(/the 500 response is larger than 1048576 bytes/);
    await expect.poll(() => sent.closed, { timeout: 5000 }).toBe(true);
  });

  it("a body at the limit is read; a streamed body counts over the whole stream", async () => {
    flood(200, 1024 * 1024, "text/plain");
    expect(((await runtime(api.origin, { maxResponseBytes: 1024 * 1024 }).operation(download)()) as string).length).toBe(1024 * 1024);
    api.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      // Small events, 2 MiB in all: each is far below maxStreamEventSize.
      res.end(`data: ${"1".repeat(1000)}\n\n`.repeat(2048));
    };
    const events: OperationSpec = { name: "events", method: "GET", path: "/events", stream: { mediaType: "text/event-stream" } };
    const stream = (await runtime(api.origin, { maxResponseBytes: 1024 * 1024 }).operation(events)()) as AsyncIterable<unknown>;
    let count = 0;
    const error = await (async () => {
      for await (const _ of stream) count++;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(count).toBeGreaterThan(500);
    expect(count).toBeLessThan(1100);
  });

  it("a gzip bomb (2 MB on the wire, 2 GiB inflated) ends at the default 64 MiB in bounded memory, in a process of its own", async () => {
    // Gzip members of 64 MiB of zeros (~65 KB each), one after another: the decoder inflates each in turn.
    const member = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    let membersSent = 0;
    let closed = false; // by the client: the server never ends the response
    api.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      res.on("close", () => (closed = true));
      const pump = () => {
        let drained = true;
        while (!res.destroyed && membersSent < 32 && drained) {
          drained = res.write(member);
          membersSent++;
        }
        // After the last member the response is left open: only the client can close the connection.
        if (!res.destroyed && membersSent < 32) res.once("drain", pump);
      };
      pump();
    };
    const dir = tempDir();
    await build({ entryPoints: [join(ROOT, "templates", "client", "index.ts")], bundle: true, format: "esm", platform: "node", outfile: join(dir, "client.mjs"), logLevel: "silent" });
    writeFileSync(
      join(dir, "bomb.mjs"),
      `import { createRuntime } from "./client.mjs";
const op = createRuntime([{ url: process.argv[2] }], { maxRetries: 0 }).operation({ name: "bomb", method: "GET", path: "/bomb" });
const error = await op().then(() => undefined, (e) => e);
process.stdout.write(JSON.stringify({ error: String(error), maxRss: process.resourceUsage().maxRSS * 1024 }));
`,
    );
    const { stdout } = await execFileAsync(process.execPath, [join(dir, "bomb.mjs"), api.origin], { timeout: 240_000 });
    const result = JSON.parse(stdout) as { error: string; maxRss: number };
    expect(result.error).toMatch(/^ResponseTooLargeError: bomb: the 200 response is larger than 67108864 bytes/);
    // 64 MiB of body and the process itself; without the limit the body grows past 2 GiB.
    expect(result.maxRss).toBeLessThan(400 * 1024 * 1024);
    await expect.poll(() => closed, { timeout: 5000 }).toBe(true);
  }, 300_000);
});
