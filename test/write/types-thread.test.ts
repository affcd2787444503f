import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { emitTypes } from "../../src/emit/types.js";
import { deserializeError, serializeError, UserError } from "../../src/errors.js";
import { documentForTypes } from "../../src/load/index.js";
import { DEFAULT_MAX_SPEC_FILE_BYTES } from "../../src/load/read.js";
import { loadSpecSource, type SpecSource } from "../../src/load/remote-documents.js";
import { startTypesThread, TYPES_THREAD_MIN_SPEC_BYTES, TYPES_THREAD_YOUNG_GENERATION_MB } from "../../src/types-thread.js";
import { cleanupTempDirs, FIXTURES, ROOT, runBin, snapshotTree, tempDir, V1_SPEC, writeFiles } from "../helpers.js";

afterAll(cleanupTempDirs);

/**
 * schema.ts emitted in a worker thread (src/types-thread.ts) against the main thread. The built bin runs as a real
 * process: `SPECFORGE_THREADS=2` forces the worker whatever the spec's size, `SPECFORGE_THREADS=1` turns it off.
 */
const THREAD = { SPECFORGE_THREADS: "2" };
const SEQUENTIAL = { SPECFORGE_THREADS: "1" };

/** The spec file `spec` of `dir` as the loader reads it (what the pipeline hands the worker: its config's fields). */
const sourceOf = (dir: string, spec: string): SpecSource => ({
  spec: join(dir, spec),
  cwd: dir,
  refRoots: [],
  maxSpecFileBytes: DEFAULT_MAX_SPEC_FILE_BYTES,
  fetch: { origins: [], timeoutMs: 1000, cacheDir: join(dir, ".cache") },
});

function contents(dir: string): Map<string, string> {
  return new Map([...snapshotTree(dir)].map(([path, state]) => [path, state.content]));
}

describe("schema.ts in a worker thread", () => {
  it.each([
    ["the v1 spec", V1_SPEC],
    ["an OpenAPI 3.2 spec (moved operations, querystring parameters)", join(FIXTURES, "features", "oas32.yaml")],
    ["the v1 spec in OpenAPI 3.2", join(FIXTURES, "training-api-3.2", "training-api.v1.3.2.yaml")],
    ["a multi-file spec", join(FIXTURES, "multi-file", "openapi.yaml")],
  ])("%s: every output file byte-identical to the sequential run", async (_name, spec) => {
    const dir = tempDir();
    const thread = await runBin(["generate", "--spec", spec, "--out", join(dir, "thread")], dir, THREAD);
    const sequential = await runBin(["generate", "--spec", spec, "--out", join(dir, "sequential")], dir, SEQUENTIAL);
    expect(thread.code, thread.stderr).toBe(0);
    expect(sequential.code, sequential.stderr).toBe(0);
    expect(thread.stderr).toBe(sequential.stderr); // the same warnings
    const a = contents(join(dir, "thread"));
    const b = contents(join(dir, "sequential"));
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [path, content] of a) expect(content, path).toBe(b.get(path));
  });

  it("openapi-typescript failing in the worker: the same message, hint and exit 2 as in the main thread, nothing written", async () => {
    const dir = tempDir();
    writeFiles(dir, { "bad.yaml": 'openapi: 3.1.0\ninfo: { title: x, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n    A:\n      type: array\n      items: 5\n' });
    const thread = await runBin(["generate", "--spec", "bad.yaml", "--out", "out"], dir, THREAD);
    const sequential = await runBin(["generate", "--spec", "bad.yaml", "--out", "out"], dir, SEQUENTIAL);
    expect(sequential.code).toBe(2);
    expect(sequential.stderr).toContain("openapi-typescript could not build the types: Expected SchemaObject, received number at #/components/schemas/A");
    expect(thread).toEqual(sequential);
    expect(existsSync(join(dir, "out"))).toBe(false);
  });

  it("a bug in the worker: exit 3, reported as an internal error with the worker's stack, nothing written", async () => {
    const dir = tempDir();
    const result = await runBin(["generate", "--spec", V1_SPEC, "--out", "out"], dir, { ...THREAD, SPECFORGE_TEST_TYPES_THREAD_BUG: "1" });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/internal error \(a bug in specforge; please report it\): TypeError: a bug in the types thread[^\n]*\n\s+at .*types-thread\.js/);
    expect(existsSync(join(dir, "out"))).toBe(false);
    // The same hook without the worker does nothing: the injected bug is the worker's.
    expect((await runBin(["generate", "--spec", V1_SPEC, "--out", "out"], dir, { ...SEQUENTIAL, SPECFORGE_TEST_TYPES_THREAD_BUG: "1" })).code).toBe(0);
  });

  it("a bad spec is reported by the main thread's loader as before (file:line:column), and the worker is stopped", async () => {
    const dir = tempDir();
    writeFiles(dir, { "broken.yaml": "openapi: 3.1.0\ninfo: [unclosed\n" });
    const thread = await runBin(["generate", "--spec", "broken.yaml", "--out", "out"], dir, THREAD);
    expect(thread.code).toBe(2);
    expect(thread.stderr).toMatch(/broken\.yaml:\d+:\d+/);
    expect(thread).toEqual(await runBin(["generate", "--spec", "broken.yaml", "--out", "out"], dir, SEQUENTIAL));
  });

  it("errors keep their kind across the thread: a UserError's parts, a bug's message and stack", () => {
    const user = deserializeError(serializeError(new UserError("bad", { location: "a.yaml:1:2", hint: "fix it" })));
    expect(user).toBeInstanceOf(UserError);
    expect((user as UserError).format()).toBe("a.yaml:1:2: bad\n  hint: fix it");
    const thrown = new TypeError("oops");
    const bug = deserializeError(serializeError(thrown));
    expect(bug).not.toBeInstanceOf(UserError);
    expect(bug.message).toBe("oops");
    expect(bug.stack).toBe(thrown.stack);
  });

  it("off by default, even on a spec of 1 MiB and more (its memory: docs/performance.md, the worker thread section); `auto` uses it from 1 MiB, `2` always", () => {
    const dir = tempDir();
    writeFiles(dir, { "big.json": " ".repeat(TYPES_THREAD_MIN_SPEC_BYTES), "small.json": "{}" });
    const started = (spec: string, env: NodeJS.ProcessEnv) => {
      const thread = startTypesThread(sourceOf(dir, spec), env);
      thread?.stop();
      return thread !== undefined;
    };
    expect(started("big.json", {})).toBe(false);
    expect(started("big.json", { SPECFORGE_THREADS: "1" })).toBe(false);
    expect(started("big.json", { SPECFORGE_THREADS: "auto" })).toBe(true);
    expect(started("small.json", { SPECFORGE_THREADS: "auto" })).toBe(false);
    expect(started("small.json", { SPECFORGE_THREADS: "2" })).toBe(true);
  });

  it("the worker loads the spec itself and answers only for the bytes the main thread read; otherwise the caller emits schema.ts", async () => {
    const dir = tempDir();
    writeFiles(dir, { "api.yaml": readFileSync(V1_SPEC, "utf8") });
    const source = sourceOf(dir, "api.yaml");
    const loaded = await loadSpecSource(source, { mode: "offline" });
    const same = startTypesThread(source, THREAD)!;
    expect(await same.emit(loaded.files)).toEqual(emitTypes(documentForTypes(loaded.document)));
    // The file changed between the two reads (or the worker could not read it): no answer of its own.
    const changed = startTypesThread(source, THREAD)!;
    expect(await changed.emit([{ ...loaded.files[0]!, sha256: "0".repeat(64) }])).toBeUndefined();
    const more = startTypesThread(source, THREAD)!;
    expect(await more.emit([...loaded.files, { ...loaded.files[0]!, path: join(dir, "other.yaml") }])).toBeUndefined();
  });

  it("a spec the worker cannot load: no answer of its own", async () => {
    const dir = tempDir();
    writeFiles(dir, { "api.yaml": readFileSync(V1_SPEC, "utf8") });
    const source = sourceOf(dir, "api.yaml");
    const loaded = await loadSpecSource(source, { mode: "offline" });
    const thread = startTypesThread({ ...source, spec: join(dir, "missing.yaml") }, THREAD)!;
    expect(await thread.emit(loaded.files)).toBeUndefined();
  });

  it("a $ref to a URL (which the worker reads from the cache only): every file as the sequential run's", async () => {
    const pet = { type: "object", required: ["id"], properties: { id: { type: "integer" }, name: { type: "string" } } };
    const server = createServer((request, response) => {
      if (request.url !== "/pet.json") return void response.writeHead(404).end();
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(pet));
    });
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const spec = {
        openapi: "3.1.0",
        info: { title: "pets", version: "1" },
        paths: { "/pets/{id}": { get: { operationId: "getPet", parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }], responses: { "200": { description: "a pet", content: { "application/json": { schema: { $ref: `${origin}/pet.json` } } } } } } } },
      };
      const runs = [];
      for (const [name, env] of [["thread", THREAD], ["sequential", SEQUENTIAL]] as const) {
        const dir = tempDir();
        writeFiles(dir, { "api.json": JSON.stringify(spec), "specforge.config.json": JSON.stringify({ spec: "api.json", out: "out", fetch: { origins: { [origin]: {} } } }) });
        const result = await runBin(["generate"], dir, { ...env, SPECFORGE_CACHE_DIR: join(dir, "cache") });
        expect(result.code, `${name}: ${result.stderr}`).toBe(0);
        runs.push(contents(join(dir, "out")));
      }
      const [thread, sequential] = runs as [Map<string, string>, Map<string, string>];
      expect(thread.get("schema.ts")).toContain("name?: string;");
      expect([...thread.keys()]).toEqual([...sequential.keys()]);
      for (const [path, content] of thread) expect(content, path).toBe(sequential.get(path));
    } finally {
      server.close();
    }
  });

  it("SPECFORGE_TRACE_TIME=1: both threads' timelines on stderr, in milliseconds since the process started; the output unchanged", async () => {
    const dir = tempDir();
    const traced = await runBin(["generate", "--spec", V1_SPEC, "--out", join(dir, "traced")], dir, { ...THREAD, SPECFORGE_TRACE_TIME: "1" });
    const plain = await runBin(["generate", "--spec", V1_SPEC, "--out", join(dir, "plain")], dir, THREAD);
    expect(traced.code, traced.stderr).toBe(0);
    const at = (thread: string, label: string) => {
      const line = new RegExp(`^\\[time ${thread}\\] (\\d+\\.\\d) ms ${label}$`, "m").exec(traced.stderr);
      expect(line, `${thread}: ${label}`).not.toBeNull();
      return Number(line![1]);
    };
    expect(at("main", "phase load")).toBeLessThan(at("main", "phase model"));
    // The worker's young generation is bounded (its peak memory: docs/performance.md, "schema.ts on a worker thread"), as V8 reports it inside.
    expect(at("worker \\d+", `types thread running \\(young generation ≤ ${TYPES_THREAD_YOUNG_GENERATION_MB} MiB\\)`)).toBeLessThan(at("worker \\d+", "types emitted"));
    expect(at("worker \\d+", "types thread's spec loaded")).toBeLessThan(at("worker \\d+", "types emitted"));
    expect(at("main", "written")).toBeGreaterThan(at("worker \\d+", "types emitted"));
    expect(plain.stderr).not.toContain("[time ");
    expect(contents(join(dir, "traced"))).toEqual(contents(join(dir, "plain")));
  });

  it("the worker is the build's (dist/src/types-thread.js), which the tests' global setup has just built", () => {
    expect(readFileSync(join(ROOT, "dist", "src", "types-thread.js"), "utf8")).toContain("specforge:types-thread");
  });
});
