import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { hashTree, sha256 } from "./hash.js";
import { BUILD_DIR, PACKAGE_ROOT, packageVersion } from "./root.js";
import { templateFolderHash } from "./template-files.js";

/** Written by the build (src/package/build.ts): the hash of src/, so a built CLI fingerprints itself like the source. */
export const BUILD_INFO = join(BUILD_DIR, "build-info.json");

/** Hash of the generator's source. Computed from src/ when it runs from source, read from dist/build-info.json when built. */
function sourceCodeHash(): string {
  const runningFromSource = fileURLToPath(import.meta.url).endsWith(".ts");
  if (!runningFromSource && existsSync(BUILD_INFO)) {
    return (JSON.parse(readFileSync(BUILD_INFO, "utf8")) as { codeHash: string }).codeHash;
  }
  return hashTree(join(PACKAGE_ROOT, "src"), (name) => name.endsWith(".ts"));
}

function dependencyVersion(name: string): string {
  const require = createRequire(import.meta.url);
  // The package folder `require` finds first on its search path, read directly: resolving each package's entry point
  // (exports, main, realpath) cost ~20 M instructions for the four, on every generate. The walk up from the entry
  // point below is for resolutions that do not go through node_modules folders (Yarn PnP).
  for (const nodeModules of require.resolve.paths(name) ?? []) {
    const version = versionIn(join(nodeModules, name, "package.json"), name);
    if (version !== undefined) return version;
  }
  let dir = dirname(require.resolve(name));
  for (let i = 0; i < 6; i++, dir = dirname(dir)) {
    const version = versionIn(join(dir, "package.json"), name);
    if (version !== undefined) return version;
  }
  return "?";
}

/** The version in the package.json at `manifest` when it is package `name`'s ("?" when it has none). */
function versionIn(manifest: string, name: string): string | undefined {
  if (!existsSync(manifest)) return undefined;
  const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version?: string };
  return pkg.name === name ? (pkg.version ?? "?") : undefined;
}

let cached: string | undefined;

/**
 * Everything about the generator itself that can change its output: its code, its version, the versions of the
 * libraries that print and format the code, and the file templates (templates/files/) every output is filled from.
 * (The runtime copied into the output is hashed per output kind, see `templatesFingerprint`.) A change to any of them
 * makes `check` regenerate.
 */
export function generatorFingerprint(): string {
  cached ??= sha256(
    JSON.stringify({
      specforge: packageVersion(),
      code: sourceCodeHash(),
      fileTemplates: templateFolderHash("files"),
      deps: ["openapi-typescript", "typescript", "ts-morph", "prettier"].map((d) => `${d}@${dependencyVersion(d)}`),
    }),
  );
  return cached;
}

/** Output kinds whose runtime is copied from `templates/<kind>/` (`adapters`: the server's, each only when listed). */
export const RUNTIME_KINDS = ["client", "server", "webhooks", "adapters", "queries", "msw", "schemas"] as const;
export type RuntimeKind = (typeof RUNTIME_KINDS)[number];

/**
 * The runtime folders an output copies modules from besides its own: the MSW handlers make their answers with the
 * server's mock, and the schemas validate with the server's engine.
 */
const RUNTIME_USED: Partial<Record<RuntimeKind, readonly RuntimeKind[]>> = { msw: ["server"], schemas: ["server"] };

/** The runtime kinds whose templates can change the output of these outputs. */
export function runtimeKindsFor(outputs: Readonly<Record<string, boolean>>, adapters: readonly string[] = []): RuntimeKind[] {
  const on = (kind: RuntimeKind) => (kind === "adapters" ? adapters.length > 0 : outputs[kind] === true);
  return RUNTIME_KINDS.filter((kind) => on(kind) || RUNTIME_KINDS.some((other) => on(other) && RUNTIME_USED[other]?.includes(kind)));
}

/** Hash of the runtime templates of the given output kinds (only those can change the output). */
export function templatesFingerprint(kinds: readonly string[]): string {
  return sha256(kinds.map((kind) => `${kind}:${templateFolderHash(kind)}`).join("\n"));
}
