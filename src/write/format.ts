import { join } from "node:path";

type Prettier = typeof import("prettier");
let prettierModule: Promise<Prettier> | undefined;
const loadPrettier = () => (prettierModule ??= import("prettier"));

/**
 * Formats with prettier, using the downstream project's prettier configuration (and .editorconfig) as resolved for
 * the output folder, so generated files pass the project's own `prettier --check`. Defaults otherwise.
 */
export async function formatSource(outDir: string, relativePath: string, content: string): Promise<string> {
  const prettier = await loadPrettier();
  const filepath = join(outDir, relativePath);
  const config = (await prettier.resolveConfig(filepath, { editorconfig: true })) ?? {};
  return prettier.format(content, { ...config, filepath });
}

/**
 * The prettier settings that would apply in the output folder, as a stable string: part of the fingerprint that
 * tells `check` whether a previous generation is still valid.
 */
export async function formattingFingerprint(outDir: string): Promise<string> {
  const prettier = await loadPrettier();
  // Each run sees the config files as they are now (prettier caches them per process: watch mode, the API, tests).
  await prettier.clearConfigCache();
  const settings = await Promise.all(
    ["x.ts", "x.json"].map(async (name) => (await prettier.resolveConfig(join(outDir, name), { editorconfig: true })) ?? {}),
  );
  return JSON.stringify([prettier.version, ...settings.map(sortKeys)]);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
