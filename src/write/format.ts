import { join } from "node:path";
import { prettierVersion, withoutPrettierSettings } from "./prettier-config.js";

type Prettier = typeof import("prettier");
type Options = import("prettier").Options;
let prettierModule: Promise<Prettier> | undefined;
const loadPrettier = () => (prettierModule ??= import("prettier"));

/**
 * How the output folder is formatted: each file with the prettier settings that apply to its real path (the
 * project's config, its `overrides` and .editorconfig included). A file whose settings are prettier's defaults and
 * whose text is already in prettier's form (the runtime, formatted when specforge is built; the files specforge
 * prints itself) is taken as it is; every other file goes through prettier.
 */
export interface Formatter {
  /** True when prettier's settings for this file (relative to the output folder) are its defaults. */
  usesDefaults(relativePath: string): Promise<boolean>;
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

/** True when a resolved config only restates prettier's defaults (or is absent). */
function isDefault(config: Options | null): boolean {
  return config === null || Object.entries(config).every(([key, value]) => key in PRETTIER_DEFAULTS && PRETTIER_DEFAULTS[key] === value);
}

/**
 * The formatter of an output folder. `relativePaths` (the files about to be written) are looked over first: when
 * prettier can be shown to find no settings for any of them (src/write/prettier-config.ts), prettier is loaded only
 * if a file has to be formatted, not to learn that the settings are its defaults.
 */
export async function createFormatter(outDir: string, relativePaths: readonly string[] = []): Promise<Formatter> {
  const allDefaults = relativePaths.length > 0 && withoutPrettierSettings(relativePaths.map((path) => join(outDir, path)));
  const known = new Set(relativePaths);
  const resolved = new Map<string, Promise<Options | null>>();
  const settings = (relativePath: string) => {
    if (allDefaults && known.has(relativePath)) return Promise.resolve(null);
    let config = resolved.get(relativePath);
    if (!config) {
      config = loadPrettier().then((prettier) => prettier.resolveConfig(join(outDir, relativePath), { editorconfig: true }));
      resolved.set(relativePath, config);
    }
    return config;
  };
  return {
    usesDefaults: async (relativePath) => isDefault(await settings(relativePath)),
    async format(relativePath, content) {
      const filepath = join(outDir, relativePath);
      const options = (await settings(relativePath)) ?? {};
      return (await loadPrettier()).format(content, { ...options, filepath });
    },
  };
}

/**
 * Formats code with prettier's defaults, as prettier formats a file of that name (the build formats the runtime
 * with it: `.js` and `.d.ts` files).
 */
export async function formatWithDefaults(content: string, filepath = "runtime.ts"): Promise<string> {
  const prettier = await loadPrettier();
  return prettier.format(content, { filepath });
}

/**
 * The prettier settings that apply to each output file (by its path relative to the output folder), as a stable
 * string: part of the fingerprint that tells `check` whether a previous generation is still valid. Per file, so an
 * `overrides` entry for one generated file counts.
 */
export async function formattingFingerprint(outDir: string, relativePaths: readonly string[]): Promise<string> {
  // What prettier.resolveConfig gives when it finds no config (null, or {} from an empty .editorconfig reading), shown
  // without loading prettier: what `check` of an up-to-date folder in such a project costs is mostly loading it.
  if (withoutPrettierSettings(relativePaths.map((path) => join(outDir, path)))) {
    return JSON.stringify([prettierVersion(), [...relativePaths].sort().map((path) => [path, {}])]);
  }
  const prettier = await loadPrettier();
  // Each run sees the config files as they are now (prettier caches them per process: watch mode, the API, tests).
  await prettier.clearConfigCache();
  const settings = await Promise.all(
    [...relativePaths].sort().map(async (path) => [path, sortKeys((await prettier.resolveConfig(join(outDir, path), { editorconfig: true })) ?? {})]),
  );
  return JSON.stringify([prettier.version, settings]);
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

/** An import or re-export statement with a `from` clause, on one line or several (`import type { A, B } from "x";`). */
const FROM_STATEMENT = /^(?:import|export)(?:\s+type)?\s+(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\}|[\w$]+(?:\s*,\s*\{[^}]*\})?)\s*from\s*"([^"]*)";$/gm;

/**
 * Canonical text (prettier's form with its defaults) whose runtime specifiers were rewritten from `./runtime/…` to
 * `<base>/…` (a shared runtime folder): each statement importing from `base` keeps its layout where prettier would
 * keep it — one line that still fits in the default print width, or several lines whose specifier did not get
 * shorter (a longer one cannot make the one-line form fit) — and is formatted by `format` (prettier) otherwise.
 */
export async function layOutRetargetedImports(text: string, base: string, format: (statement: string) => Promise<string>): Promise<string> {
  const shorter = base.length < "./runtime".length;
  const parts: (string | Promise<string>)[] = [];
  let last = 0;
  for (const match of text.matchAll(FROM_STATEMENT)) {
    const [statement, specifier] = match;
    if (!specifier!.startsWith(`${base}/`)) continue;
    const oneLine = !statement.includes("\n");
    if (oneLine ? statement.length <= Number(PRETTIER_DEFAULTS.printWidth) : !shorter) continue;
    parts.push(text.slice(last, match.index), format(statement).then((formatted) => formatted.trimEnd()));
    last = match.index + statement.length;
  }
  if (last === 0) return text;
  parts.push(text.slice(last));
  return (await Promise.all(parts)).join("");
}
