import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, runCli, tempDir, writeFiles } from "../helpers.js";
import { Recorder, json } from "./recorder.js";

/**
 * A credential given as a function is asked for again before every attempt of a call, so that a retry carries the
 * token the function hands out now, not the one of the first attempt (which may have expired while the client
 * waited); a credential given as a value is read once per call. Against a real server on 127.0.0.1 that answers
 * 503 to the first request and 200 to the next.
 */
const server = new Recorder();
beforeAll(() => server.start());
afterAll(async () => {
  await server.stop();
  cleanupTempDirs();
});

type AnyClient = Record<string, (params?: unknown, options?: Record<string, unknown>) => Promise<unknown>>;
let createClient: (options: Record<string, unknown>) => AnyClient;

const OK = "responses: { '200': { description: ok, content: { application/json: { schema: { type: object } } } } }";

beforeAll(async () => {
  const dir = tempDir();
  writeFiles(dir, {
    "api.yaml": [
      "openapi: 3.1.0",
      "info: { title: Tokens, version: '1' }",
      "servers: [{ url: 'https://tokens.example' }]",
      "components:",
      "  securitySchemes:",
      "    bearer: { type: http, scheme: bearer }",
      "    queryKey: { type: apiKey, in: query, name: key }",
      "    cookieKey: { type: apiKey, in: cookie, name: session }",
      "paths:",
      "  /jobs:",
      "    post:",
      "      operationId: createJob",
      "      security: [{ bearer: [] }]",
      "      requestBody: { required: true, content: { application/json: { schema: { type: object } } } }",
      `      ${OK}`,
      "  /items:",
      "    get:",
      "      operationId: listItems",
      "      security: [{ queryKey: [] }]",
      "      parameters: [{ name: limit, in: query, schema: { type: integer } }]",
      `      ${OK}`,
      "  /session:",
      "    get:",
      "      operationId: getSession",
      "      security: [{ cookieKey: [] }]",
      "      parameters: [{ name: theme, in: cookie, schema: { type: string } }]",
      `      ${OK}`,
      "  /maybe:",
      "    get:",
      "      operationId: maybeSigned",
      "      security: [{}, { bearer: [] }]",
      `      ${OK}`,
    ].join("\n"),
  });
  const result = await runCli(["generate", "--spec", "api.yaml", "--out", "out", "--outputs", "client", "--no-format"], dir);
  expect(result.stderr).toBe("");
  const module = (await import(pathToFileURL(join(dir, "out", "client.ts")).href)) as { createClient: typeof createClient };
  createClient = (options) => module.createClient({ baseUrl: server.url, maxRetries: 2, ...options });
});

/** The first request of each test gets 503 with `Retry-After: 0`, every later one 200. */
function unavailableOnce(): void {
  let seen = 0;
  server.reset((_req, res) => (seen++ === 0 ? json(res, 503, { error: "busy" }, { "retry-after": "0" }) : json(res, 200, { ok: true })));
}

/** A token function that hands out `prefix1`, `prefix2`, …, asynchronously. */
function tokens(prefix: string): { next: () => Promise<string>; calls: () => number } {
  let calls = 0;
  return { next: async () => `${prefix}${++calls}`, calls: () => calls };
}

describe("a credential function is called once per attempt", () => {
  it("a bearer token: the retry carries the second token; body and Idempotency-Key stay those of the first attempt", async () => {
    unavailableOnce();
    const token = tokens("t");
    await expect(createClient({ bearer: token.next, idempotencyKeys: true }).createJob!({ body: { name: "a" } })).resolves.toEqual({ ok: true });
    expect(token.calls()).toBe(2);
    const [first, second] = server.received;
    expect(server.received).toHaveLength(2);
    expect(first!.headers.authorization).toBe("Bearer t1");
    expect(second!.headers.authorization).toBe("Bearer t2");
    expect(second!.body).toBe(first!.body);
    expect(second!.headers["content-type"]).toBe("application/json");
    expect(first!.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(second!.headers["idempotency-key"]).toBe(first!.headers["idempotency-key"]);
  });

  it("an API key in the query: the retry's URL has the second key, after the call's own query parameters", async () => {
    unavailableOnce();
    const key = tokens("k");
    await createClient({ queryKey: key.next }).listItems!({ query: { limit: 3 } });
    expect(server.received.map((request) => request.url)).toEqual(["/items?limit=3&key=k1", "/items?limit=3&key=k2"]);
  });

  it("an API key in a cookie: the retry's Cookie header has the second key, after the call's own cookies", async () => {
    unavailableOnce();
    const key = tokens("c");
    await createClient({ cookieKey: key.next }).getSession!({ cookies: { theme: "dark" } });
    expect(server.received.map((request) => request.headers.cookie)).toEqual(["theme=dark; session=c1", "theme=dark; session=c2"]);
  });

  it("a function that has no token for the first attempt is asked again for the retry", async () => {
    unavailableOnce();
    let calls = 0;
    await createClient({ bearer: () => (++calls === 1 ? undefined : "late") }).maybeSigned!();
    expect(server.received.map((request) => request.headers.authorization)).toEqual([undefined, "Bearer late"]);
  });

  it("a token given as a value is read once per call, not again for the retry", async () => {
    let reads = 0;
    const options = {
      get bearer() {
        reads++;
        return "static";
      },
    };
    server.reset((_req, res) => json(res, 200, { ok: true }));
    await createClient(options).createJob!({ body: {} });
    const readsForOneAttempt = reads;
    expect(readsForOneAttempt).toBeGreaterThan(0);

    reads = 0;
    unavailableOnce();
    await createClient(options).createJob!({ body: {} }, { retryNonIdempotent: true });
    expect(server.received.map((request) => request.headers.authorization)).toEqual(["Bearer static", "Bearer static"]);
    expect(reads).toBe(readsForOneAttempt);
  });
});
