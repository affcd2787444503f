import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../../src/index.js";
import { MAX_BODY_BYTES, handlers, routerOptions, type Observed } from "./handlers.js";

export type { Observed } from "./handlers.js";

/**
 * The conformance suite every framework adapter passes (test/e2e/adapters/<framework>.test.ts): the spec of
 * pets.yaml is generated with all four adapters, then each request below is sent over real HTTP on 127.0.0.1 to the
 * framework's server and to the plain `toNodeListener` server of the same router, and the two answers must agree in
 * status, the headers that matter and the body. Beside that: SSE with a client that goes away (the handler's
 * `request.signal` aborts), and paths the spec does not have, which the app's own routes answer.
 */

const HERE = dirname(fileURLToPath(import.meta.url));
export const SPEC = join(HERE, "pets.yaml");

export type AnyRouter = { fetch(request: Request): Promise<Response>; handle(request: Request, options?: { prefix?: string }): Promise<Response | undefined> };
/** What the generated index.ts exports (untyped here: test/e2e/adapters/types.test.ts type-checks it). */
export interface Generated {
  createRouter(handlers: Record<string, unknown>, options?: Record<string, unknown>): AnyRouter;
  toNodeListener(router: AnyRouter): (req: IncomingMessage, res: ServerResponse) => void;
  toExpress(router: AnyRouter): any;
  toFastify(router: AnyRouter): any;
  toHono(router: AnyRouter, options?: { prefix?: string }): any;
  toNextHandlers(router: AnyRouter, options?: { prefix?: string }): Record<string, (request: Request, context?: unknown) => Promise<Response>>;
}

/** Generates pets.yaml with every adapter into test/e2e/adapters/.out/<name> (each test file its own) and imports it. */
export async function generateAdapters(name: string): Promise<Generated> {
  const out = join(HERE, ".out", name);
  await generate({ cwd: HERE, spec: SPEC, out, adapters: ["express", "fastify", "hono", "next"], format: false, write: true });
  return (await import(join(out, "index.ts"))) as Generated;
}

/** The router every server serves (the spec's base path `/v1`, below the mount prefix for the reference). */
export function createRouter(gen: Generated, observed: Observed, basePath: string): AnyRouter {
  return gen.createRouter(handlers(observed), routerOptions(observed, basePath));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A listening node:http server on 127.0.0.1 and its origin. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** One request of the suite, sent to both servers. `path` is below the spec's base path (`/v1`). */
export interface Case {
  name: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | FormData | URLSearchParams | (() => BodyInit);
  /** The status both must answer (so the case proves what it says). */
  status: number;
}

const auth = { authorization: "Bearer good" };
const json = { ...auth, "content-type": "application/json" };

function multipart(caption?: string, withFile = true): FormData {
  const form = new FormData();
  if (withFile) form.append("file", new File([new Uint8Array([1, 2, 3, 4, 5])], "rex.png", { type: "image/png" }));
  if (caption !== undefined) form.append("caption", caption);
  return form;
}

/** A body sent with Transfer-Encoding: chunked (no Content-Length), in 512-byte chunks. */
function chunked(text: string): () => BodyInit {
  return () => {
    const bytes = new TextEncoder().encode(text);
    let at = 0;
    return new ReadableStream({
      pull(controller) {
        if (at >= bytes.length) controller.close();
        else controller.enqueue(bytes.slice(at, (at += 512)));
      },
    });
  };
}

export const CASES: Case[] = [
  { name: "an open operation", path: "/health", status: 200 },
  { name: "HEAD of a GET operation", method: "HEAD", path: "/health", status: 200 },
  { name: "query parameters", path: "/pets?limit=1", headers: auth, status: 200 },
  { name: "an invalid query parameter: 400 in the spec's error shape", path: "/pets?limit=0", headers: auth, status: 400 },
  { name: "a repeated scalar query parameter", path: "/pets?limit=1&limit=2", headers: auth, status: 400 },
  { name: "missing credentials: 401 with its challenge", path: "/pets", status: 401 },
  { name: "rejected credentials", path: "/pets", headers: { authorization: "Bearer bad" }, status: 401 },
  { name: "a JSON body", method: "POST", path: "/pets", headers: json, body: JSON.stringify({ name: "Rex", tag: "dog" }), status: 201 },
  { name: "an invalid JSON body: 422 with FastAPI's detail", method: "POST", path: "/pets", headers: json, body: JSON.stringify({ name: "", extra: { a: [1, 2] } }), status: 422 },
  { name: "a JSON body with a wrong type", method: "POST", path: "/pets", headers: json, body: JSON.stringify({ name: 5 }), status: 422 },
  { name: "an empty body where one is required", method: "POST", path: "/pets", headers: { ...json, "content-length": "0" }, status: 422 },
  { name: "a JSON body with a charset and prototype keys", method: "POST", path: "/pets", headers: { ...json, "content-type": "application/json; charset=utf-8" }, body: '{"name":"Rex","__proto__":{"admin":true}}', status: 201 },
  { name: "an undeclared media type: 415", method: "POST", path: "/pets", headers: { ...auth, "content-type": "text/plain" }, body: "name=Rex", status: 415 },
  { name: "no Content-Type: 415", method: "POST", path: "/pets", headers: auth, body: new Uint8Array([123, 125]), status: 415 },
  { name: "a body over the limit: 413", method: "POST", path: "/pets", headers: json, body: JSON.stringify({ name: "x".repeat(MAX_BODY_BYTES) }), status: 413 },
  { name: "a chunked body over the limit: 413", method: "POST", path: "/pets", headers: json, body: chunked(JSON.stringify({ name: "x".repeat(3 * MAX_BODY_BYTES) })), status: 413 },
  { name: "a chunked body under the limit", method: "POST", path: "/pets", headers: json, body: chunked(JSON.stringify({ name: "Rex", tag: "y".repeat(600) })), status: 201 },
  { name: "credentials come before the body", method: "POST", path: "/pets", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Rex" }), status: 401 },
  { name: "a path parameter", path: "/pets/1", headers: auth, status: 200 },
  { name: "a declared 404 of the handler", path: "/pets/2", headers: auth, status: 404 },
  { name: "an invalid path parameter", path: "/pets/abc", headers: auth, status: 400 },
  { name: "a method the path does not have: 405 with Allow", method: "DELETE", path: "/pets/1", headers: auth, status: 405 },
  { name: "OPTIONS of a path", method: "OPTIONS", path: "/pets", headers: auth, status: 405 },
  { name: "multipart/form-data with a file", method: "POST", path: "/pets/1/photo", headers: auth, body: multipart("at the beach"), status: 201 },
  { name: "multipart/form-data without the required file", method: "POST", path: "/pets/1/photo", headers: auth, body: multipart("no file", false), status: 400 },
  { name: "multipart/form-data with an invalid field", method: "POST", path: "/pets/1/photo", headers: auth, body: multipart("x".repeat(41)), status: 400 },
  { name: "multipart/form-data without a boundary", method: "POST", path: "/pets/1/photo", headers: { ...auth, "content-type": "multipart/form-data" }, body: "--x--", status: 400 },
  { name: "a text body", method: "POST", path: "/notes", headers: { ...auth, "content-type": "text/plain" }, body: "héllo", status: 200 },
  { name: "an invalid text body", method: "POST", path: "/notes", headers: { ...auth, "content-type": "text/plain; charset=utf-8" }, body: "x".repeat(21), status: 400 },
  { name: "a form body", method: "POST", path: "/forms", headers: auth, body: new URLSearchParams([["name", "Rex"], ["count", "3"], ["tags", "a"], ["tags", "b c"]]), status: 200 },
  { name: "a form body with one value of an array", method: "POST", path: "/forms", headers: auth, body: new URLSearchParams([["name", "Rex"], ["tags", "a"]]), status: 200 },
  { name: "an invalid form body", method: "POST", path: "/forms", headers: auth, body: new URLSearchParams([["name", ""], ["count", "many"]]), status: 400 },
  { name: "bytes", method: "PUT", path: "/blobs", headers: { ...auth, "content-type": "application/octet-stream" }, body: new Uint8Array(1000).fill(7), status: 200 },
  { name: "bytes over the limit", method: "PUT", path: "/blobs", headers: { ...auth, "content-type": "application/octet-stream" }, body: new Uint8Array(MAX_BODY_BYTES + 1), status: 413 },
  { name: "server-sent events", path: "/events?count=3", headers: { ...auth, accept: "text/event-stream" }, status: 200 },
];

/** The response headers whose values must agree (the rest are each server's own: date, keep-alive, …). */
const COMPARED_HEADERS = ["content-type", "www-authenticate", "allow", "location", "cache-control", "x-accel-buffering", "set-cookie"];

export interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: string;
}

/** Sends `c` to `origin + base + c.path` and reads the whole answer; `also`: more headers to read (into `other`). */
export async function send(origin: string, base: string, c: Case, also: string[] = []): Promise<{ answer: Answer; other: Record<string, string | null> }> {
  const body = typeof c.body === "function" ? c.body() : c.body;
  const response = await fetch(`${origin}${base}${c.path}`, { method: c.method ?? "GET", headers: c.headers, body, duplex: "half" } as RequestInit);
  const text = await response.text();
  const headers: Record<string, string | null> = {};
  for (const name of COMPARED_HEADERS) headers[name] = name === "set-cookie" ? response.headers.getSetCookie().join(" | ") || null : response.headers.get(name);
  // The length of a body that has one (an empty one may go out chunked or with a length of 0).
  headers["content-length"] = text === "" && c.method !== "HEAD" ? null : response.headers.get("content-length");
  return { answer: { status: response.status, headers, body: text }, other: Object.fromEntries(also.map((name) => [name, response.headers.get(name)])) };
}

/** How one framework serves the router for the suite. */
export interface Setup {
  /** The path the app mounts the router at ("" at the root); the router's own base path `/v1` is below it. */
  mount: string;
  /** Starts the framework's server with the router (whose basePath is `/v1`) and the app's own routes (see below). */
  start(gen: Generated, router: AnyRouter): Promise<{ origin: string; close(): Promise<void> }>;
  /**
   * The requests to paths the spec does not have that the app's own routes answer, with the answer expected from
   * them; the router's catch-all 404 for the others (Next.js: the route folder is the router's).
   */
  fallthrough: { path: string; status: number; body?: unknown }[];
  /** Cases whose answer is the framework's own by design (a body parser's refusal), by name. */
  skip?: string[];
  /** Cases of this framework only. */
  cases?: Case[];
  /** Compared headers this server sets its own way (a real Next.js server streams every body, without a length). */
  ownHeaders?: string[];
  /** Extra headers a framework answer must carry besides (its hooks ran), by name. */
  frameworkHeaders?: Record<string, string>;
  /** What the handlers observed, when they run in another process (a real Next.js server). */
  observe?: (origin: string) => Promise<Observed>;
  /** More tests of this framework's server (`origin()` once it listens). */
  also?: (origin: () => string) => void;
}

/**
 * The suite: one framework server and the reference (`toNodeListener`, the same router with the mount prefix in its
 * base path so that both are asked the same URLs), every case compared, then streaming and fall-through.
 */
export function describeConformance(name: string, setup: Setup): void {
  describe(`${name} conformance`, () => {
    let gen: Generated;
    const observed: Observed = { aborted: [], errors: [] };
    let framework: { origin: string; close(): Promise<void> };
    let reference: Server;
    let referenceOrigin = "";
    const base = `${setup.mount}/v1`;

    beforeAll(async () => {
      gen = await generateAdapters(name.replace(/\W+/g, "-").toLowerCase());
      framework = await setup.start(gen, createRouter(gen, observed, "/v1"));
      reference = createServer(gen.toNodeListener(createRouter(gen, observed, base)));
      referenceOrigin = await listen(reference);
    }, 120_000);
    afterAll(async () => {
      await framework?.close();
      if (reference) await close(reference);
    });

    for (const c of [...CASES.filter((c) => !setup.skip?.includes(c.name)), ...(setup.cases ?? [])]) {
      it(`${c.name} (${c.method ?? "GET"} ${c.path} → ${c.status})`, async () => {
        const expected = (await send(referenceOrigin, base, c)).answer;
        const actual = await send(framework.origin, base, c, Object.keys(setup.frameworkHeaders ?? {}));
        expect(expected.status, expected.body).toBe(c.status);
        for (const header of setup.ownHeaders ?? []) delete actual.answer.headers[header], delete expected.headers[header];
        expect(actual.answer).toEqual(expected);
        expect(actual.other).toEqual(setup.frameworkHeaders ?? {});
      });
    }

    it("SSE: events arrive as they are sent, and the handler's request.signal aborts when the client goes away", async () => {
      const id = `${name}-${Math.random()}`;
      const controller = new AbortController();
      const response = await fetch(`${framework.origin}${base}/events`, { headers: { ...auth, accept: "text/event-stream", "x-stream-id": id }, signal: controller.signal });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      const reader = response.body!.getReader();
      // The first event arrives while the stream is still open (the handler waits for the client to go away).
      const { value } = await reader.read();
      expect(new TextDecoder().decode(value)).toBe('data: {"n":1}\n\n');
      controller.abort();
      const seen = async () => (setup.observe ? await setup.observe(framework.origin) : observed);
      const deadline = Date.now() + 4000;
      while (!(await seen()).aborted.includes(id) && Date.now() < deadline) await sleep(20);
      expect((await seen()).aborted).toContain(id);
    });

    it("paths the spec does not have are the app's", async () => {
      for (const expected of setup.fallthrough) {
        const response = await fetch(`${framework.origin}${expected.path}`, { headers: auth });
        const body = expected.body === undefined ? undefined : await response.json();
        expect({ path: expected.path, status: response.status, ...(body === undefined ? {} : { body }) }).toEqual(expected);
      }
    });

    setup.also?.(() => framework.origin);

    it("nothing failed on the way", async () => {
      expect(observed.errors).toEqual([]);
      if (setup.observe) expect((await setup.observe(framework.origin)).errors).toEqual([]);
    });
  });
}
