import { existsSync, lstatSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";

/**
 * The files prettier 3 (the pinned 3.10.1: `CONFIG_FILES` of its config searcher) takes for a config when it looks
 * for one from a file's folder up to the file system's root. `package.json` and `package.yaml` count only when they
 * have a `prettier` key.
 */
export const PRETTIER_CONFIG_FILES = [
  ".prettierrc",
  ".prettierrc.json",
  ".prettierrc.yml",
  ".prettierrc.yaml",
  ".prettierrc.json5",
  ".prettierrc.js",
  "prettier.config.js",
  ".prettierrc.ts",
  "prettier.config.ts",
  ".prettierrc.mjs",
  "prettier.config.mjs",
  ".prettierrc.mts",
  "prettier.config.mts",
  ".prettierrc.cjs",
  "prettier.config.cjs",
  ".prettierrc.cts",
  "prettier.config.cts",
  ".prettierrc.toml",
] as const;

/**
 * True when prettier can be shown to find no settings for any of these files (absolute paths) without loading it:
 * no config file and no `.editorconfig` in any of their folders or above. Then `prettier.resolveConfig` gives
 * nothing (null, or `{}` from an empty .editorconfig reading) for each, so every file is formatted with prettier's
 * defaults. False whenever anything that might be a config is found (a `package.json` that cannot be read, a
 * `package.yaml`, an `.editorconfig` above the project root that prettier would ignore): the caller asks prettier.
 *
 * Loading prettier is a tenth of a second, most of `check`'s time on an up-to-date folder; a project without a
 * prettier config or `.editorconfig` never needs it.
 */
export function withoutPrettierSettings(files: readonly string[]): boolean {
  const seen = new Set<string>();
  for (const file of files) {
    let directory = dirname(resolve(file));
    for (;;) {
      if (seen.has(directory)) break;
      seen.add(directory);
      if (existsSync(join(directory, ".editorconfig")) || existsSync(join(directory, "package.yaml"))) return false;
      for (const name of PRETTIER_CONFIG_FILES) if (existsSync(join(directory, name))) return false;
      const packageJson = join(directory, "package.json");
      if (existsSync(packageJson) && !withoutPrettierKey(packageJson)) return false;
      const parent = dirname(directory);
      if (parent === directory) break;
      directory = parent;
    }
  }
  return true;
}

/**
 * The entries inside the output folder, in the folders of `relativePaths`, whose names prettier (its config files,
 * `package.json`, `package.yaml`) or EditorConfig read settings from, when they are not regular files: a link to
 * `/dev/zero` or to a secret, a FIFO. prettier would open them while it looks for the output files' settings, so
 * they are refused before prettier is asked (a regular file there is read as prettier reads it). Relative paths.
 */
export function settingsEntriesNotFiles(outDir: string, relativePaths: readonly string[]): string[] {
  const folders = new Set(relativePaths.map((path) => dirname(path)));
  const found: string[] = [];
  for (const folder of [...folders].sort()) {
    for (const name of [...PRETTIER_CONFIG_FILES, ".editorconfig", "package.json", "package.yaml"]) {
      const path = folder === "." ? name : `${folder}/${name}`;
      try {
        if (!lstatSync(join(outDir, path)).isFile()) found.push(path);
      } catch {
        // absent (or a folder above it is): nothing for prettier to read there
      }
    }
  }
  return found;
}

/** A package.json prettier would not take for a config: readable JSON without a (truthy) `prettier` key. */
function withoutPrettierKey(file: string): boolean {
  try {
    const json = JSON.parse(readFileSync(file, "utf8")) as unknown;
    return !(json && typeof json === "object" && (json as Record<string, unknown>).prettier);
  } catch {
    return false;
  }
}

/** The version of the prettier that formats (read from its package.json, without loading prettier). */
export function prettierVersion(): string {
  const require = createRequire(import.meta.url);
  return (JSON.parse(readFileSync(require.resolve("prettier/package.json"), "utf8")) as { version: string }).version;
}
