import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, runCli, typecheck } from "../helpers.js";
import { Recorder, json } from "./recorder.js";

/**
 * A spec full of hostile strings (comment terminators, backticks, `${`, U+2028, quotes and backslashes in enums,
 * `__proto__` keys, reserved-word operationIds, odd server URLs and header names) generates code that compiles and
 * means exactly what the spec says: proven by running it.
 */
const OUT = join(FIXTURES, "hostile", ".out");

describe("hostile spec", () => {
  const server = new Recorder();
  beforeAll(async () => {
    const result = await runCli(["generate", "--spec", join(FIXTURES, "hostile", "openapi.yaml"), "--out", OUT], process.cwd());
    expect(result.stderr).toBe("");
    await server.start();
  }, 120_000);
  afterAll(() => server.stop());

  it("type-checks under tsc --strict", async () => {
    const tsc = await typecheck(OUT);
    expect(tsc.output).toBe("");
  }, 120_000);

  it("no spec text closes a comment or opens a template literal in the generated code", () => {
    for (const file of ["client.ts", "server.ts", "server-validators.ts", "index.ts"]) {
      const source = readFileSync(join(OUT, file), "utf8");
      // Every `*/` in the file must end a comment that started with `/**` or `/*` on our own terms: strip comments
      // and strings, and nothing of the spec's texts may be left as code.
      const code = source.replace(/\/\*[^]*?\*\//g, "").replace(/"(?:[^"\\\n]|\\.)*"/g, '""').replace(/'(?:[^'\\\n]|\\.)*'/g, "''");
      expect(code, file).not.toMatch(/alert\(1\)|console\.log\('pwned'\)|process\.exit/);
      expect(code, file).not.toContain("`");
    }
  });

  it("the client calls exactly the routes, names and values of the spec", async () => {
    // The output is type-checked by the test above; here it is run (its module exists only after generation).
    const { createClient } = (await import(join(OUT, "index.ts"))) as { createClient: (options: object) => Record<string, (...args: unknown[]) => Promise<unknown>> };
    const client = createClient({ host: server.url.replace("http://", ""), maxRetries: 0 });
    server.reset((_req, res) => json(res, 200, { kind: 'a"b' }));
    const weird = await client.delete_!({ path: { id: "a/b c" }, query: { id: "q&x", ["__proto__"]: "p" }, headers: { 'x-odd"header': undefined } });
    expect(weird).toEqual({ kind: 'a"b' });
    const got = server.last();
    expect(got.method).toBe("GET");
    expect(got.url).toBe("/base%20path/x'y%22z/items/a%2Fb%20c/x*/y?id=q%26x&__proto__=p");
    server.reset((_req, res) => json(res, 200, { kind: "c\\d" }));
    await client.class_!({ body: { kind: "\u2028" } });
    expect(JSON.parse(server.last().body)).toEqual({ kind: "\u2028" });
    server.reset((_req, res) => {
      res.statusCode = 204;
      res.end();
    });
    await expect(client.constructor_!()).resolves.toBeUndefined();
    expect(Object.keys(client).sort()).toEqual(["class_", "constructor_", "delete_", "findPet", "findPet_2", "getNoOperationIdByAb"].sort());
  });

  it("the server validates the quoted and backslashed enum values exactly", async () => {
    const { createRouter } = (await import(join(OUT, "index.ts"))) as {
      createRouter: (handlers: object, options: object) => { fetch(request: Request): Promise<Response> };
    };
    const router = createRouter({ class_: ({ body }: { body: unknown }) => ({ status: 200, body }) }, { insecureNoAuth: true });
    const post = (kind: string) => router.fetch(new Request("http://x/class", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ kind }) }));
    for (const kind of ['a"b', "c\\d", "e'f", "*/", "${x}", "`", "\u2028"]) expect((await post(kind)).status, kind).toBe(200);
    expect((await post("c\\\\d")).status).toBe(400);
    expect((await post("zzz")).status).toBe(400);
  });
});
