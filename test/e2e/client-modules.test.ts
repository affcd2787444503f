import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, runCli, tempDir, writeFiles } from "../helpers.js";
import { Recorder, json } from "./recorder.js";

/**
 * A generated client ships only the runtime modules its spec uses (src/emit/client.ts `clientFeatures`): for each
 * optional module, a spec that needs it gets it and one that does not gets none of it, in either output form, and both
 * work against a real server on 127.0.0.1.
 */
const server = new Recorder();
beforeAll(() => server.start());
afterAll(async () => {
  await server.stop();
  cleanupTempDirs();
});

type AnyClient = Record<string, ((params?: unknown) => Promise<unknown>) & { paginate?: (params?: unknown) => AsyncIterable<unknown> }>;

/**
 * Generates the client of a spec (YAML lines after `paths:`/`components:`) in both forms, returns the runtime modules
 * of the `js` form that hold code and its `createClient`. The `ts` form copies the same modules, and those whose
 * types alone the typed surface names (the `js` form's declarations without code).
 */
async function generate(lines: string[]): Promise<{ files: string[]; createClient: (options: Record<string, unknown>) => AnyClient }> {
  const dir = tempDir();
  writeFiles(dir, { "api.yaml": ["openapi: 3.1.0", "info: { title: Modules, version: '1' }", "servers: [{ url: 'https://modules.example' }]", ...lines].join("\n") });
  for (const form of ["js", "ts"]) {
    const result = await runCli(["generate", "--spec", "api.yaml", "--out", `out-${form}`, "--outputs", "client", "--no-format", "--form", form], dir);
    expect(result.stderr).toBe("");
  }
  const runtime = (form: string) => readdirSync(join(dir, `out-${form}`, "runtime", "client"));
  const files = runtime("js").filter((file) => file.endsWith(".js"));
  const modules = (names: string[]) => [...new Set(names.map((file) => file.replace(/\.(d\.ts|js|ts)$/, "")))].sort();
  expect(modules(runtime("ts"))).toEqual(modules(runtime("js")));
  const module = (await import(pathToFileURL(join(dir, "out-js", "client.js")).href)) as { createClient: (options: Record<string, unknown>) => AnyClient };
  return { files, createClient: (options) => module.createClient({ baseUrl: server.url, maxRetries: 0, ...options }) };
}

const OK = "responses: { '200': { description: ok, content: { application/json: { schema: { type: object } } } } }";
const CORE = ["errors.js", "redirect.js", "retry.js", "runtime.js", "values.js"];

describe("runtime modules by what the spec uses", () => {
  it("no security, JSON bodies, no pagination: the core alone, which sends JSON", async () => {
    const { files, createClient } = await generate(["paths:", "  /items:", "    post:", "      operationId: addItem", "      requestBody: { content: { application/json: { schema: {} } } }", `      ${OK}`]);
    expect(files.sort()).toEqual(CORE);
    server.reset((_req, res) => json(res, 200, { ok: true }));
    const client = createClient({});
    await expect(client.addItem!({ body: "a string" })).resolves.toEqual({ ok: true });
    expect(server.last()).toMatchObject({ method: "POST", url: "/items", body: '"a string"' });
    expect(server.last().headers["content-type"]).toBe("application/json");
    expect(client.addItem!.paginate).toBeUndefined();
  });

  it("token schemes asked for one at a time: token.js without auth.js, each alternative's credential as declared", async () => {
    const { files, createClient } = await generate([
      "security: [{}, { key: [] }]",
      "components:",
      "  securitySchemes:",
      "    key: { type: apiKey, in: header, name: X-Key }",
      "    token: { type: http, scheme: bearer }",
      "paths:",
      "  /a: { get: { operationId: a, " + OK + " } }",
      "  /b: { get: { operationId: b, security: [{ token: [] }, { key: [] }], " + OK + " } }",
    ]);
    expect(files.sort()).toEqual([...CORE, "token.js"].sort());
    server.reset((_req, res) => json(res, 200, {}));
    await createClient({}).a!();
    expect(server.last().headers["x-key"]).toBeUndefined();
    await createClient({ key: "k1" }).a!();
    expect(server.last().headers["x-key"]).toBe("k1");
    await createClient({ key: "k1", token: async () => "t1" }).b!();
    expect(server.last().headers).toMatchObject({ authorization: "Bearer t1" });
    expect(server.last().headers["x-key"]).toBeUndefined();
    await createClient({ key: "k2", token: () => undefined }).b!();
    expect(server.last().headers["x-key"]).toBe("k2");
  });

  it("HTTP basic, or two schemes at once: auth.js (on token.js)", async () => {
    const basic = await generate([
      "security: [{ basic: [] }]",
      "components: { securitySchemes: { basic: { type: http, scheme: basic } } }",
      "paths:",
      "  /a: { get: { operationId: a, " + OK + " } }",
    ]);
    expect(basic.files).toEqual(expect.arrayContaining(["auth.js", "token.js"]));
    server.reset((_req, res) => json(res, 200, {}));
    await basic.createClient({ basic: { username: "u", password: "p" } }).a!();
    expect(server.last().headers.authorization).toBe(`Basic ${btoa("u:p")}`);

    const both = await generate([
      "security: [{ key: [], token: [] }]",
      "components: { securitySchemes: { key: { type: apiKey, in: query, name: key }, token: { type: http, scheme: bearer } } }",
      "paths:",
      "  /a: { get: { operationId: a, " + OK + " } }",
    ]);
    expect(both.files).toEqual(expect.arrayContaining(["auth.js", "token.js"]));
    await both.createClient({ key: "k", token: "t" }).a!();
    expect(server.last()).toMatchObject({ url: "/a?key=k", headers: { authorization: "Bearer t" } });
    await both.createClient({ token: "t" }).a!();
    expect(server.last().headers.authorization).toBeUndefined();
  });

  it("declared pagination: pagination.js, and paginate walks the pages", async () => {
    const { files, createClient } = await generate([
      "paths:",
      "  /items:",
      "    get:",
      "      operationId: listItems",
      "      parameters: [{ name: after, in: query, schema: { type: string } }]",
      "      responses:",
      "        '200':",
      "          description: ok",
      "          content:",
      "            application/json:",
      "              schema:",
      "                type: object",
      "                properties: { data: { type: array, items: {} }, has_more: { type: boolean }, last_id: { type: string } }",
    ]);
    expect(files).toContain("pagination.js");
    server.reset((req, res) => (req.url === "/items" ? json(res, 200, { data: [1, 2], has_more: true, last_id: "b" }) : json(res, 200, { data: [3], has_more: false, last_id: "c" })));
    const items: unknown[] = [];
    for await (const item of createClient({}).listItems!.paginate!()) items.push(item);
    expect(items).toEqual([1, 2, 3]);
    expect(server.received.map((req) => req.url)).toEqual(["/items", "/items?after=b"]);
  });

  it("a text or byte body: plain.js (not serialize.js), which sends text as it is", async () => {
    const { files, createClient } = await generate([
      "paths:",
      "  /notes: { post: { operationId: addNote, requestBody: { content: { text/plain: { schema: { type: string } } } }, " + OK + " } }",
      "  /blobs: { post: { operationId: addBlob, requestBody: { content: { application/octet-stream: { schema: { type: string, format: binary } } } }, " + OK + " } }",
    ]);
    expect(files).toContain("plain.js");
    expect(files).not.toContain("serialize.js");
    server.reset((_req, res) => json(res, 200, {}));
    const client = createClient({});
    await client.addNote!({ body: "hello" });
    expect(server.last()).toMatchObject({ body: "hello", headers: { "content-type": "text/plain" } });
    await client.addBlob!({ body: new TextEncoder().encode("bytes") });
    expect(server.last()).toMatchObject({ body: "bytes", headers: { "content-type": "application/octet-stream" } });
  });

  it("header parameters: headers.js with the header writer only; cookie parameters and cookie API keys: the Cookie writer", async () => {
    const header = await generate([
      "paths:",
      "  /a: { get: { operationId: a, parameters: [{ name: X-Trace, in: header, schema: { type: array, items: { type: string } } }], " + OK + " } }",
    ]);
    expect(header.files.sort()).toEqual([...CORE, "headers.js"].sort());
    server.reset((_req, res) => json(res, 200, {}));
    await header.createClient({}).a!({ headers: { "X-Trace": ["t1", "t2"] } });
    expect(server.last().headers["x-trace"]).toBe("t1,t2");
    expect(server.last().headers.cookie).toBeUndefined();

    const cookie = await generate([
      "security: [{ session: [] }]",
      "components: { securitySchemes: { session: { type: apiKey, in: cookie, name: sid } } }",
      "paths:",
      "  /a: { get: { operationId: a, parameters: [{ name: theme, in: cookie, schema: { type: string } }], " + OK + " } }",
    ]);
    expect(cookie.files).toContain("headers.js");
    await cookie.createClient({ session: "s 1" }).a!({ cookies: { theme: "dark;x" } });
    expect(server.last().headers.cookie).toBe("theme=dark%3Bx; sid=s%201");
    // A cookie API key alone needs the Cookie writer too.
    const keyOnly = await generate([
      "security: [{ session: [] }]",
      "components: { securitySchemes: { session: { type: apiKey, in: cookie, name: sid } } }",
      "paths:",
      "  /a: { get: { operationId: a, " + OK + " } }",
    ]);
    expect(keyOnly.files).toContain("headers.js");
    await keyOnly.createClient({ session: "s2" }).a!();
    expect(server.last().headers.cookie).toBe("sid=s2");
  });

  it("a path with a query of its own: pathquery.js, which sends that query before the call's", async () => {
    const { files, createClient } = await generate([
      "paths:",
      "  /items?beta=true&mode=a b: { get: { operationId: a, parameters: [{ name: q, in: query, schema: { type: string } }], " + OK + " } }",
    ]);
    expect(files.sort()).toEqual([...CORE, "pathquery.js"].sort());
    server.reset((_req, res) => json(res, 200, {}));
    const client = createClient({});
    await client.a!();
    expect(server.last().url).toBe("/items?beta=true&mode=a%20b");
    await client.a!({ query: { q: "x" } });
    expect(server.last().url).toBe("/items?beta=true&mode=a%20b&q=x");
  });
});
