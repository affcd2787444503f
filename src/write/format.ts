import { join } from "node:path";

type Prettier = typeof import("prettier");
let prettierModule: Promise<Prettier> | undefined;
const loadPrettier = () => (prettierModule ??= import("prettier"));

/**
 * How the output folder is formatted. With prettier's default settings (no prettier config, or one that only
 * restates defaults) files whose text is already in prettier's canonical form are taken as they are: the runtime
 * templates (formatted once, when specforge is built) and the files specforge prints itself in that form. Any
 * other setting sends every file through prettier with the project's configuration.
 */
export interface Formatter {
  /** True when the project uses prettier's defaults, so canonical text needs no formatting pass. */
  readonly defaults: boolean;
  format(relativePath: string, content: string): Promise<string>;
}

/** The settings prettier applies when a project says nothing (prettier 3). */
const PRETTIER_DEFAULTS: Record<string, unknown> = {
  printWidth: 80,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: false,
  quoteProps: "as-needed",
  trailingComma: "all",
  bracketSpacing: true,
  arrowParens: "always",
  endOfLine: "lf",
  bracketSameLine: false,
  objectWrap: "preserve",
  experimentalTernaries: false,
  experimentalOperatorPosition: "end",
  embeddedLanguageFormatting: "auto",
  singleAttributePerLine: false,
  jsxSingleQuote: false,
};

export async function createFormatter(outDir: string): Promise<Formatter> {
  const prettier = await loadPrettier();
  const settings = await Promise.all(
    ["x.ts", "runtime/client/x.ts", "runtime/server/x.ts", "runtime/webhooks/x.ts"].map((name) =>
      prettier.resolveConfig(join(outDir, name), { editorconfig: true }),
    ),
  );
  const defaults = settings.every(
    (config) => config === null || Object.entries(config).every(([key, value]) => key in PRETTIER_DEFAULTS && PRETTIER_DEFAULTS[key] === value),
  );
  return {
    defaults,
    async format(relativePath, content) {
      const filepath = join(outDir, relativePath);
      const config = (await prettier.resolveConfig(filepath, { editorconfig: true })) ?? {};
      return prettier.format(content, { ...config, filepath });
    },
  };
}

/** Formats TypeScript with prettier's defaults (the build formats the runtime templates with it). */
export async function formatWithDefaults(content: string): Promise<string> {
  const prettier = await loadPrettier();
  return prettier.format(content, { parser: "typescript", filepath: "runtime.ts" });
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
