import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The specforge package root (the folder with package.json and templates/), from `src/` or `dist/src/`. */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "templates"))) return dir;
    if (dirname(dir) === dir) throw new Error(`specforge: cannot find its package root above ${start}`);
  }
}

/** The hand-written TypeScript copied into (runtime/) or filled into (client.ts, …) every output folder. */
export const TEMPLATES_DIR = join(PACKAGE_ROOT, "templates");

/** What the build writes next to the compiled code (dist/): the source hash and the formatted runtime. */
export const BUILD_DIR = join(PACKAGE_ROOT, "dist");

let version: string | undefined;

/** specforge's version, from its package.json. */
export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }).version;
  return version;
}
