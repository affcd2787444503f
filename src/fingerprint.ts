import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256 } from "./write/manifest.js";

/** The specforge package root (the folder with package.json and templates/), from `src/` or `dist/src/`. */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "templates"))) return dir;
    if (dirname(dir) === dir) throw new Error(`specforge: cannot find its package root above ${start}`);
  }
}
export const TEMPLATES_DIR = join(PACKAGE_ROOT, "templates");
const BUILD_INFO = join(PACKAGE_ROOT, "dist", "build-info.json");

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/** Hash of every file below `dir` whose name passes `keep`, in sorted path order. */
export function hashTree(dir: string, keep: (name: string) => boolean = () => true): string {
  const parts: string[] = [];
  const walk = (relative: string) => {
    const entries = readdirSync(join(dir, relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else if (keep(entry.name)) parts.push(`${rel}\n${sha256(readFileSync(join(dir, rel)))}`);
    }
  };
  if (existsSync(dir)) walk("");
  return sha256(parts.join("\n"));
}

/** Hash of the generator's source. Computed from src/ when it runs from source, read from dist/build-info.json when built. */
export function sourceCodeHash(): string {
  const runningFromSource = fileURLToPath(import.meta.url).endsWith(".ts");
  if (!runningFromSource && existsSync(BUILD_INFO)) {
    return (JSON.parse(readFileSync(BUILD_INFO, "utf8")) as { codeHash: string }).codeHash;
  }
  return hashTree(join(PACKAGE_ROOT, "src"), (name) => name.endsWith(".ts"));
}

function dependencyVersion(name: string): string {
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve(name));
  for (let i = 0; i < 6; i++, dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version?: string };
      if (pkg.name === name) return pkg.version ?? "?";
    }
  }
  return "?";
}

let cached: string | undefined;

/**
 * Everything about the generator itself that can change its output: its code, its version and the versions of the
 * libraries that print and format the code. (Templates are hashed per output kind, see `templatesFingerprint`.)
 * A change to any of them makes `check` regenerate.
 */
export function generatorFingerprint(): string {
  cached ??= sha256(
    JSON.stringify({
      specforge: packageVersion(),
      code: sourceCodeHash(),
      deps: ["openapi-typescript", "typescript", "ts-morph", "prettier"].map((d) => `${d}@${dependencyVersion(d)}`),
    }),
  );
  return cached;
}

/** Output kinds whose runtime is copied from `templates/<kind>/`. */
export const RUNTIME_KINDS = ["client", "server", "webhooks"] as const;

/** Hash of the runtime templates of the given output kinds (only those can change the output). */
export function templatesFingerprint(kinds: readonly string[]): string {
  return sha256(kinds.map((kind) => `${kind}:${hashTree(join(TEMPLATES_DIR, kind))}`).join("\n"));
}
