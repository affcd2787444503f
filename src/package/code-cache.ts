import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join, sep } from "node:path";
import { Script } from "node:vm";

interface CompilingModule {
  exports: unknown;
}
type Compile = (this: CompilingModule, content: string, filename: string) => unknown;
const moduleProto = (Module as unknown as { prototype: { _compile: Compile } }).prototype;

/** Files at least this large that a cached `require` compiles are cached too (ts-morph's bundled TypeScript: 9 MB). */
const LARGE_FILE_BYTES = 1024 * 1024;

/**
 * `require(id)` for a large CommonJS package (TypeScript's 9 MB file; ts-morph and the TypeScript it bundles),
 * compiled with V8's code cache: the file `id` resolves to, and every other file of at least 1 MB compiled while it
 * loads. Node 20 compiles such files from scratch in every process (`module.enableCompileCache` came with Node 22),
 * which is a third of a small spec's generation. The cache lives in `node_modules/.cache/specforge/`, one file per
 * compiled file, keyed by the file, its size and mtime, and Node's and V8's versions; V8 checks it again and ignores
 * one that does not fit. Any failure to read or write it just means compiling as usual. `SPECFORGE_CODE_CACHE=0`
 * turns it off.
 */
export function requireWithCodeCache<T>(require: NodeJS.Require, id: string): T {
  if (process.env.SPECFORGE_CODE_CACHE === "0") return require(id) as T;
  const entry = require.resolve(id);
  const compile = moduleProto._compile;
  moduleProto._compile = function (content, file) {
    const cacheFile = file === entry || content.length >= LARGE_FILE_BYTES ? cacheFileFor(file) : undefined;
    if (cacheFile === undefined) return compile.call(this, content, file);
    let cached: Buffer | undefined;
    try {
      cached = readFileSync(cacheFile);
    } catch {
      // No cache yet.
    }
    const script = new Script(Module.wrap(content), { filename: file, cachedData: cached });
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
    wrapper.call(this.exports, this.exports, createRequire(file), this, file, dirname(file));
    // Written at exit, when the functions this run needed have been compiled too.
    if (cached === undefined || script.cachedDataRejected) process.once("exit", () => writeCache(cacheFile, script));
    return undefined;
  };
  try {
    return require(id) as T;
  } finally {
    moduleProto._compile = compile;
  }
}

function cacheFileFor(filename: string): string | undefined {
  const at = filename.lastIndexOf(`${sep}node_modules${sep}`);
  if (at < 0) return undefined;
  try {
    const { size, mtimeMs } = statSync(filename);
    const key = createHash("sha256")
      .update([filename, size, mtimeMs, process.version, process.versions.v8, process.arch].join("\0"))
      .digest("hex")
      .slice(0, 16);
    return join(filename.slice(0, at), "node_modules", ".cache", "specforge", `code-${key}.bin`);
  } catch {
    return undefined;
  }
}

function writeCache(cacheFile: string, script: Script): void {
  try {
    mkdirSync(dirname(cacheFile), { recursive: true });
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, cacheFile);
  } catch {
    // A read-only node_modules: compile as usual next time.
  }
}
