/**
 * The code cache for TypeScript's compiler (src/package/code-cache.ts), on a stand-in CommonJS package in a temporary
 * node_modules: each step is its own Node process, as with `specforge generate` runs.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, ROOT, tempDir, writeFiles } from "./helpers.js";

afterAll(cleanupTempDirs);

const codeCache = pathToFileURL(join(ROOT, "dist", "src", "package", "code-cache.js")).href;

function project() {
  const dir = tempDir();
  writeFiles(dir, {
    "node_modules/big/package.json": JSON.stringify({ name: "big", version: "1.0.0", main: "index.js" }),
    // Uses what a CommonJS wrapper provides, and a built-in through its own require.
    "node_modules/big/index.js": `const path = require("node:path");
module.exports = { answer: 42, self: path.basename(__filename), dir: path.basename(__dirname), same: module.exports === exports };
module.exports.nested = require("./nested.js");`,
    "node_modules/big/nested.js": "module.exports = 'nested';",
    "run.mjs": `import { createRequire } from "node:module";
import { requireWithCodeCache } from ${JSON.stringify(codeCache)};
const require = createRequire(import.meta.url);
const big = requireWithCodeCache(require, "big");
console.log(JSON.stringify({ ...big, cachedInRequire: require("big") === big }));`,
  });
  return dir;
}

const run = (dir: string, env: NodeJS.ProcessEnv = {}) =>
  JSON.parse(execFileSync(process.execPath, ["run.mjs"], { cwd: dir, env: { ...process.env, ...env }, encoding: "utf8" })) as unknown;
const cacheFiles = (dir: string) => {
  const at = join(dir, "node_modules", ".cache", "specforge");
  return existsSync(at) ? readdirSync(at) : [];
};

describe("requireWithCodeCache", () => {
  const expected = { answer: 42, self: "index.js", dir: "big", same: true, nested: "nested", cachedInRequire: true };

  it("loads the module as require does, writes the cache at exit, and loads from it next time", () => {
    const dir = project();
    expect(run(dir)).toEqual(expected);
    const files = cacheFiles(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^code-[0-9a-f]{16}\.bin$/);
    const written = readFileSync(join(dir, "node_modules", ".cache", "specforge", files[0]!));
    expect(written.length).toBeGreaterThan(0);
    expect(run(dir)).toEqual(expected);
    expect(cacheFiles(dir)).toEqual(files);
  });

  it("survives a corrupt cache (V8 rejects it; it is written again)", () => {
    const dir = project();
    run(dir);
    const file = join(dir, "node_modules", ".cache", "specforge", cacheFiles(dir)[0]!);
    writeFileSync(file, "not a code cache");
    expect(run(dir)).toEqual(expected);
    expect(readFileSync(file, "utf8")).not.toBe("not a code cache");
  });

  it("is off with SPECFORGE_CODE_CACHE=0", () => {
    const dir = project();
    expect(run(dir, { SPECFORGE_CODE_CACHE: "0" })).toEqual(expected);
    expect(cacheFiles(dir)).toEqual([]);
  });
});
