import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { superLinearPatterns } from "../../src/emit/server-patterns.js";
import { startPatternThread } from "../../src/pattern-thread.js";
import { runBin, tempDir, writeFiles } from "../helpers.js";

/** The server's regex analysis on the second core: the same verdicts, warnings and server.ts as in the main thread. */

const schema = (pattern: string) => ({ type: "string", pattern });
// Catastrophic, undecided within the step limit, linear, and syntax the analyser does not know (a backreference:
// listed, undecided): each outcome once.
const PATTERNS = ["^(a+)+$", "^(b|bb)+$", "^[a-z]+$", "^([a-z0-9]+)*@example\\.com$", "^\\d{4}-\\d{2}$", "^(?<year>\\d+)-\\k<year>$", "^(c*)*d$"];
const document = {
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  paths: {},
  components: { schemas: Object.fromEntries(PATTERNS.map((pattern, i) => [`S${i}`, { type: "object", properties: { a: schema(pattern), b: schema(pattern) } }])) },
};

describe("the pattern thread", () => {
  it("gives the verdicts the main thread gives, without loading redos-detector in the main thread", () => {
    const redos = createRequire(import.meta.url).resolve("redos-detector");
    expect(createRequire(import.meta.url).cache[redos]).toBeUndefined();
    expect(startPatternThread(document, { SPECFORGE_PATTERN_THREAD_MIN: "1" })).toBe(true);
    const fromWorker = superLinearPatterns(document);
    expect(createRequire(import.meta.url).cache[redos]).toBeUndefined();
    expect(fromWorker.map((found) => found.pattern)).toEqual(["^(a+)+$", "^(b|bb)+$", "^([a-z0-9]+)*@example\\.com$", "^(?<year>\\d+)-\\k<year>$", "^(c*)*d$"]);
    expect(fromWorker.every((found) => found.occurrences === 2)).toBe(true);
  });

  it("is not started for a few patterns, on one core's worth of threads, or when every pattern is known", () => {
    expect(startPatternThread(document, { SPECFORGE_PATTERN_THREAD_MIN: "1" })).toBe(false); // all known from the test above
    expect(startPatternThread({ components: { schemas: { A: schema("^(x+)+$") } } }, {})).toBe(false);
    expect(startPatternThread({ components: { schemas: { A: schema("^(y+)+$") } } }, { SPECFORGE_PATTERN_THREAD_MIN: "1", SPECFORGE_THREADS: "1" })).toBe(false);
  });

  it("a worker that fails to load leaves its patterns to this thread, without waiting for it", async () => {
    const dir = tempDir();
    writeFiles(dir, { "broken-worker.mjs": "throw new Error('cannot load');\n" });
    const patterns = ["^(e+)+$", "^(f|ff)+$", "^(g*)*h$", "^(i+)+j$", "^(k+)+$"];
    const doc = { components: { schemas: Object.fromEntries(patterns.map((pattern, i) => [`P${i}`, schema(pattern)])) } };
    expect(startPatternThread(doc, {}, join(dir, "broken-worker.mjs"))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the worker's error reaches this thread, as during emission's awaits
    // Not waiting is not blocking on the worker's results at all (a duration would depend on the machine's load).
    const wait = vi.spyOn(Atomics, "wait");
    try {
      expect(superLinearPatterns(doc).map((found) => found.pattern)).toEqual(patterns);
      expect(wait).not.toHaveBeenCalled();
    } finally {
      wait.mockRestore();
    }
  });

  it("generate: the same warnings and server.ts whichever thread analysed", async () => {
    const dir = tempDir();
    writeFiles(dir, { "openapi.json": JSON.stringify(document) });
    const threaded = await runBin(["generate", "--spec", "openapi.json", "--out", "threaded", "--outputs", "server"], dir, { SPECFORGE_PATTERN_THREAD_MIN: "1" });
    const single = await runBin(["generate", "--spec", "openapi.json", "--out", "single", "--outputs", "server"], dir, { SPECFORGE_THREADS: "1" });
    expect([threaded.code, single.code]).toEqual([0, 0]);
    // (The spec's patterns' warnings; not the one that `--outputs server` has no operations to route.)
    const warnings = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("specforge: warning:") && !line.includes("has nothing to generate"));
    expect(warnings(threaded.stderr)).toHaveLength(5);
    expect(warnings(threaded.stderr)).toEqual(warnings(single.stderr));
    for (const file of ["server.ts", "server-validators.ts"]) expect(readFileSync(join(dir, "threaded", file), "utf8")).toBe(readFileSync(join(dir, "single", file), "utf8"));
  });
});
