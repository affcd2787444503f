import { existsSync, readFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { UserError, formatPosition } from "../errors.js";
import { PACKAGE_ROOT } from "../fingerprint.js";
import { DEFAULT_MAX_SPEC_FILE_BYTES } from "../load/read.js";

/** The outputs specforge can emit. `types` (schema.ts) and `index.ts` are always emitted. */
export const OUTPUT_KINDS = ["types", "client", "server", "webhooks"] as const;
export type OutputKind = (typeof OUTPUT_KINDS)[number];

/**
 * What a user may write in a config file (`specforge.config.{json,ts,mjs,js}` or package.json's `specforge` key)
 * or pass as flags. Every field is optional; flags win over the file.
 */
export interface UserConfig {
  /** Path of the OpenAPI document (YAML or JSON), relative to the config file. Flag: `--spec`. @default "spec/training-api.v1.yaml" */
  spec?: string;
  /** Output folder, relative to the config file; specforge owns it. Flag: `--out`. @default "generated" */
  out?: string;
  /**
   * Which outputs to emit; `types` (schema.ts) and index.ts are always emitted. Flag: `--outputs client,server`.
   * @default ["types", "client", "server", "webhooks"]
   */
  outputs?: OutputKind[];
  /** Format every file with prettier (the project's prettier config applies). Flag: `--format` / `--no-format`. @default true */
  format?: boolean;
  /**
   * Folders besides the spec's own folder (and its subfolders) that `$ref`s may read files from, relative to the
   * config file. Flag: `--ref-root DIR` (repeatable). @default []
   */
  refRoots?: string[];
  /** Largest spec file specforge reads (the spec and every file it `$ref`s), in bytes. @default 134217728 (128 MiB) */
  maxSpecFileBytes?: number;
}

/**
 * Types a `specforge.config.ts` (or `.mjs` / `.js`) and returns it unchanged:
 *
 * ```ts
 * import { defineConfig } from "specforge";
 * export default defineConfig({ spec: "openapi.yaml", outputs: ["client"] });
 * ```
 */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}

/** The complete configuration of one run: every default filled in, every path absolute. */
export interface ResolvedConfig {
  cwd: string;
  spec: string;
  out: string;
  outputs: Record<OutputKind, boolean>;
  format: boolean;
  /** Absolute folders `$ref`s may read from besides the spec's own folder tree. */
  refRoots: string[];
  /** Largest spec file read, in bytes. */
  maxSpecFileBytes: number;
  /** The config file that was read (package.json when its `specforge` key was used); absent when there was none. */
  configFile?: string;
}

export const DEFAULT_SPEC = "spec/training-api.v1.yaml";
export const DEFAULT_OUT = "generated";
export { DEFAULT_MAX_SPEC_FILE_BYTES } from "../load/read.js";
/** The config file names looked for in the current folder. At most one may exist. */
export const CONFIG_FILES = ["specforge.config.json", "specforge.config.ts", "specforge.config.mjs", "specforge.config.js"];

export interface ConfigSources {
  cwd: string;
  /** Explicit --config path. */
  configFile?: string;
  /** Values from CLI flags (or the options of the programmatic API); they win over the config file. */
  flags?: UserConfig;
  /** Where `flags` came from, for error messages. @default "command line" */
  flagsFrom?: "command line" | typeof API_OPTIONS;
}

/** How errors name the options of `generate()` / `check()`. */
export const API_OPTIONS = "generate()/check() options";

/** Finds and reads the config (explicit file, a specforge.config.* in cwd, or a `specforge` key in package.json). */
export async function resolveConfig({ cwd, configFile, flags = {}, flagsFrom = "command line" }: ConfigSources): Promise<ResolvedConfig> {
  validateConfig(flags, flagsFrom);
  const found = configFile ? resolve(cwd, configFile) : findConfigFile(cwd);
  let fileConfig: UserConfig = {};
  let base = cwd;
  let shown = "";
  let source: string | undefined;
  if (found) {
    fileConfig = await readConfigFile(found);
    base = dirname(found);
    shown = found;
    source = found;
  } else {
    const pkgPath = resolve(cwd, "package.json");
    if (existsSync(pkgPath)) {
      const pkg = readPackageJson(pkgPath);
      if (pkg.specforge !== undefined) {
        fileConfig = pkg.specforge as UserConfig;
        shown = `${pkgPath}#/specforge`;
        source = pkgPath;
      }
    }
  }
  validateConfig(fileConfig, shown || "config");
  const fromFile = (p: string | undefined) => (p === undefined ? undefined : resolve(base, p));
  const fromFlag = (p: string | undefined) => (p === undefined ? undefined : resolve(cwd, p));
  const outputs = flags.outputs ?? fileConfig.outputs ?? [...OUTPUT_KINDS];
  return {
    cwd,
    spec: fromFlag(flags.spec) ?? fromFile(fileConfig.spec) ?? resolve(cwd, DEFAULT_SPEC),
    out: fromFlag(flags.out) ?? fromFile(fileConfig.out) ?? resolve(cwd, DEFAULT_OUT),
    outputs: Object.fromEntries(OUTPUT_KINDS.map((k) => [k, k === "types" || outputs.includes(k)])) as Record<OutputKind, boolean>,
    format: flags.format ?? fileConfig.format ?? true,
    refRoots: [...(fileConfig.refRoots ?? []).map((p) => resolve(base, p)), ...(flags.refRoots ?? []).map((p) => resolve(cwd, p))],
    maxSpecFileBytes: flags.maxSpecFileBytes ?? fileConfig.maxSpecFileBytes ?? DEFAULT_MAX_SPEC_FILE_BYTES,
    ...(source ? { configFile: source } : {}),
  };
}

/** The one specforge.config.* in `dir`, if any; more than one is an error (which would win is not obvious). */
export function findConfigFile(dir: string): string | undefined {
  const found = CONFIG_FILES.map((f) => resolve(dir, f)).filter((f) => existsSync(f));
  if (found.length > 1) {
    throw new UserError(`more than one config file: ${found.map((f) => basename(f)).join(", ")}`, {
      location: dir,
      hint: "keep one of them (or pass the one to use with --config FILE)",
    });
  }
  return found[0];
}

function readPackageJson(path: string): { specforge?: unknown } {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as { specforge?: unknown };
  } catch (error) {
    throw new UserError(`invalid JSON in package.json: ${(error as Error).message}`, { location: path });
  }
}

async function readConfigFile(path: string): Promise<UserConfig> {
  if (!existsSync(path)) throw new UserError("config file not found", { location: path });
  if (path.endsWith(".json")) {
    try {
      return JSON.parse(readFileSync(path, "utf8")) as UserConfig;
    } catch (error) {
      throw new UserError(`invalid JSON in config file: ${(error as Error).message}`, { location: path });
    }
  }
  const url = path.endsWith(".ts") ? await transpileConfig(path) : pathToFileURL(path).href;
  try {
    const mod = (await import(url)) as { default?: UserConfig };
    return mod.default ?? {};
  } catch (error) {
    // Node names the importing module; for a .ts config that is a long data: URL, so name the file instead.
    const message = ((error as Error)?.message ?? String(error)).split(url).join(basename(path));
    throw new UserError(`cannot load config file: ${message}`, {
      location: path,
      hint:
        path.endsWith(".ts") && /^ERR_(MODULE_NOT_FOUND|UNKNOWN_FILE_EXTENSION)$/.test((error as NodeJS.ErrnoException)?.code ?? "")
          ? "a .ts config may import packages and .js/.mjs files, not other .ts files"
          : undefined,
    });
  }
}

/**
 * Node 20 cannot import TypeScript, so a `specforge.config.ts` is transpiled (types stripped, nothing checked) to
 * an ES module and imported from a `data:` URL — nothing is written to disk. A `data:` module cannot resolve
 * relative or package specifiers itself, so they are rewritten to absolute URLs first: relative ones against the
 * config's folder, `specforge` to this very package, other packages as Node would find them from the config.
 */
async function transpileConfig(path: string): Promise<string> {
  const { default: ts } = await import("typescript");
  const source = readFileSync(path, "utf8");
  const { outputText, diagnostics = [] } = ts.transpileModule(source, {
    fileName: path,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
  });
  const syntaxError = diagnostics.find((d) => d.category === ts.DiagnosticCategory.Error);
  if (syntaxError) {
    const { line, character } = ts.getLineAndCharacterOfPosition(ts.createSourceFile(path, source, ts.ScriptTarget.ES2022), syntaxError.start ?? 0);
    throw new UserError(`invalid TypeScript in config file: ${ts.flattenDiagnosticMessageText(syntaxError.messageText, " ")}`, {
      location: formatPosition(path, line + 1, character + 1),
    });
  }
  const output = ts.createSourceFile("config.mjs", outputText, ts.ScriptTarget.ES2022, true);
  const edits: { start: number; end: number; text: string }[] = [];
  const visit = (node: import("typescript").Node) => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier
        ? node.moduleSpecifier
        : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
          ? node.arguments[0]
          : undefined;
    if (specifier && ts.isStringLiteral(specifier)) {
      const resolved = resolveConfigImport(specifier.text, path);
      if (resolved !== specifier.text) edits.push({ start: specifier.getStart(output), end: specifier.getEnd(), text: JSON.stringify(resolved) });
    }
    ts.forEachChild(node, visit);
  };
  visit(output);
  let code = outputText;
  for (const edit of edits.sort((a, b) => b.start - a.start)) code = code.slice(0, edit.start) + edit.text + code.slice(edit.end);
  return `data:text/javascript;base64,${Buffer.from(code).toString("base64")}`;
}

function resolveConfigImport(specifier: string, configPath: string): string {
  if (specifier.startsWith("./") || specifier.startsWith("../")) return pathToFileURL(resolve(dirname(configPath), specifier)).href;
  if (specifier === "specforge") return pathToFileURL(join(PACKAGE_ROOT, "dist", "src", "index.js")).href;
  if (isBuiltin(specifier) || /^[a-z][a-z0-9+.-]*:/i.test(specifier)) return specifier;
  try {
    return pathToFileURL(createRequire(configPath).resolve(specifier)).href;
  } catch {
    return specifier; // the import then fails with Node's own message, reported as a config error
  }
}

/** Flags whose name is not the config field's. */
const FLAG_NAMES: Record<string, string> = { refRoots: "ref-root", maxSpecFileBytes: "max-spec-file-bytes" };

/** Throws a UserError naming the field (or flag), what it must be and what it was. */
export function validateConfig(config: unknown, where: string): asserts config is UserConfig {
  if (config === null || typeof config !== "object" || Array.isArray(config)) {
    throw new UserError(`the config must be an object, got ${JSON.stringify(config)}`, { location: where });
  }
  const allowed = ["spec", "out", "outputs", "format", "refRoots", "maxSpecFileBytes"];
  const fromFlags = where === "command line";
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined) continue;
    const name = fromFlags ? `--${FLAG_NAMES[key] ?? key}` : where === API_OPTIONS ? `option \`${key}\`` : `config field \`${key}\``;
    const fail = (expected: string): never => {
      throw new UserError(`${name} ${expected}, got ${JSON.stringify(value)}`, { location: where });
    };
    if (!allowed.includes(key)) fail(`is unknown (allowed: ${allowed.join(", ")})`);
    if ((key === "spec" || key === "out") && typeof value !== "string") fail("must be a path string");
    if (key === "format" && typeof value !== "boolean") fail("must be true or false");
    if (key === "refRoots" && (!Array.isArray(value) || value.some((v) => typeof v !== "string" || v === ""))) fail("must be a list of folder paths");
    if (key === "maxSpecFileBytes" && (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0)) fail("must be a positive whole number of bytes");
    if (key === "outputs") {
      if (!Array.isArray(value)) fail(`must be a list of: ${OUTPUT_KINDS.join(", ")}`);
      const wrong = (value as unknown[]).find((v) => !OUTPUT_KINDS.includes(v as OutputKind));
      if (wrong !== undefined) {
        throw new UserError(`${name}: ${JSON.stringify(wrong)} is not an output (allowed: ${OUTPUT_KINDS.join(", ")})`, { location: where });
      }
    }
  }
}
