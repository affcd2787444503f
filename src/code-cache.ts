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

/**
 * `require(id)` for one large CommonJS file (TypeScript's 9 MB), compiled with V8's code cache. Node 20 compiles
 * such a file from scratch in every process (`module.enableCompileCache` came with Node 22), which is a third of a
 * small spec's generation. The cache lives in `node_modules/.cache/specforge/`, keyed by the file, its size and
 * mtime, and Node's and V8's versions; V8 checks it again and ignores one that does not fit. Any failure to read or
 * write it just means compiling as usual. `SPECFORGE_CODE_CACHE=0` turns it off.
 */
export function requireWithCodeCache<T>(require: NodeJS.Require, id: string): T {
  if (process.env.SPECFORGE_CODE_CACHE === "0") return require(id) as T;
  const filename = require.resolve(id);
  const cacheFile = cacheFileFor(filename);
  if (cacheFile === undefined) return require(id) as T;
  const compile = moduleProto._compile;
  moduleProto._compile = function (content, file) {
    if (file !== filename) return compile.call(this, content, file);
    moduleProto._compile = compile;
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
