import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { CONFIG_FILES, DEFAULT_OUT, DEFAULT_SPEC, OUTPUT_KINDS, findConfigFile, validateConfig, type UserConfig } from "../config/resolve.js";
import { UserError } from "../errors.js";
import { JsonShapeError, addScripts, type ScriptsEdit } from "../write/json-edit.js";

/** The scripts `specforge init` adds to the project's package.json. */
export const INIT_SCRIPTS = { "api:generate": "specforge generate", "api:check": "specforge check" } as const;

/** Where `init` looks for a spec when no --spec is given, in this order. */
export const SPEC_CANDIDATES = [
  DEFAULT_SPEC,
  "openapi.yaml",
  "openapi.yml",
  "openapi.json",
  "spec/openapi.yaml",
  "spec/openapi.yml",
  "spec/openapi.json",
];

export interface InitOptions {
  cwd: string;
  /** --spec, --out, --outputs, --format: what the new config file says. */
  flags: UserConfig;
  /** Replace scripts of the same name that run something else. */
  force?: boolean;
}

export interface InitReport {
  scripts: Omit<ScriptsEdit, "text">;
  /** The config file written, or the one that already configures specforge (then it was left alone). */
  config: { path: string; created: boolean; content?: UserConfig };
  /** Flags that were not used because a config already exists. */
  ignoredFlags: string[];
  /** The spec the new config points at, when it does not exist yet. */
  missingSpec?: string;
}

/**
 * `specforge init`: adds the api:generate / api:check scripts to ./package.json (keeping its formatting) and writes
 * specforge.config.json unless specforge is already configured. Idempotent. Everything is decided before anything is
 * written, and both files are replaced by rename, so an error leaves both as they were.
 */
export function runInit({ cwd, flags, force = false }: InitOptions): InitReport {
  validateConfig(flags, "command line");
  const pkgPath = join(cwd, "package.json");
  if (!existsSync(pkgPath)) {
    throw new UserError("no package.json in this folder", {
      location: cwd,
      hint: "run `npx specforge init` in the project's root folder (create one with `npm init -y`)",
    });
  }
  const pkgText = readFileSync(pkgPath, "utf8");
  let edit: ScriptsEdit;
  try {
    edit = addScripts(pkgText, INIT_SCRIPTS, { force });
  } catch (error) {
    if (error instanceof SyntaxError) throw new UserError(`invalid JSON in package.json: ${error.message}`, { location: pkgPath, hint: "fix the file (or `npm pkg fix`), then run init again" });
    if (error instanceof JsonShapeError) throw new UserError(`cannot add scripts: ${error.message}`, { location: pkgPath });
    throw error;
  }

  const existingFile = findConfigFile(cwd);
  const inPackageJson = (JSON.parse(pkgText.replace(/^\uFEFF/, "")) as { specforge?: unknown }).specforge !== undefined;
  const given = Object.entries(flags).filter(([, v]) => v !== undefined).map(([k]) => `--${k}`);
  let config: InitReport["config"];
  let configText: string | undefined;
  let missingSpec: string | undefined;
  if (existingFile || inPackageJson) {
    config = { path: existingFile ?? `${pkgPath}#/specforge`, created: false };
  } else {
    const spec = flags.spec !== undefined ? portable(cwd, flags.spec) : (SPEC_CANDIDATES.find((c) => existsSync(join(cwd, c))) ?? "openapi.yaml");
    if (!existsSync(join(cwd, spec))) missingSpec = spec;
    const content: UserConfig = {
      spec,
      out: flags.out !== undefined ? portable(cwd, flags.out) : DEFAULT_OUT,
      outputs: flags.outputs ?? [...OUTPUT_KINDS],
      format: flags.format ?? true,
    };
    const indent = /\n([ \t]+)"/.exec(pkgText)?.[1] ?? "  ";
    const eol = pkgText.includes("\r\n") ? "\r\n" : "\n";
    // Lists of names on one line, as people write them.
    const json = JSON.stringify(content, null, indent).replace(/\[\s*("[^"\n]*"(?:,\s*"[^"\n]*")*)\s*\]/g, (_, items: string) => `[${items.split(/,\s*/).join(", ")}]`);
    configText = json.replace(/\n/g, eol) + eol;
    config = { path: join(cwd, CONFIG_FILES[0]!), created: true, content };
  }

  // Write: the config first (a new file), then package.json; if package.json fails, the new config is removed.
  if (configText !== undefined) replaceFile(config.path, configText);
  try {
    if (edit.text !== pkgText) replaceFile(pkgPath, edit.text);
  } catch (error) {
    if (configText !== undefined) rmSync(config.path, { force: true });
    throw error;
  }
  const { text: _text, ...scripts } = edit;
  return { scripts, config, ignoredFlags: config.created ? [] : given, ...(missingSpec ? { missingSpec } : {}) };
}

/** A path for the config file: relative to the project with forward slashes when inside it. */
function portable(cwd: string, path: string): string {
  const rel = isAbsolute(path) ? relative(cwd, path) : path;
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel.split("\\").join("/") : path;
}

/** Writes `path` through a temporary file beside it and a rename, keeping the old file's mode. */
function replaceFile(path: string, text: string): void {
  const temp = `${path}.specforge-${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  try {
    writeFileSync(temp, text);
    if (existsSync(path)) chmodSync(temp, statSync(path).mode & 0o7777);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new UserError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { location: path, cause: error });
  }
}

/** What `init` prints: one line per file, then the next step. */
export function describeInit(report: InitReport, cwd: string): { lines: string[]; warnings: string[] } {
  const lines: string[] = [];
  const warnings: string[] = [];
  const { scripts, config } = report;
  const shown = (path: string) => relative(cwd, path).split("\\").join("/") || path;
  if (scripts.added.length > 0) lines.push(`specforge: package.json: added scripts ${scripts.added.join(", ")}`);
  for (const { name, previous } of scripts.replaced) lines.push(`specforge: package.json: replaced script ${name} (was: ${previous})`);
  if (scripts.present.length > 0 && scripts.added.length === 0 && scripts.replaced.length === 0 && scripts.kept.length === 0) {
    lines.push(`specforge: package.json: scripts ${scripts.present.join(", ")} already present`);
  }
  for (const { name, existing } of scripts.kept) {
    warnings.push(
      `package.json already has a script "${name}" that runs \`${existing}\`; left it unchanged (\`specforge init --force\` replaces it with \`${INIT_SCRIPTS[name as keyof typeof INIT_SCRIPTS]}\`)`,
    );
  }
  if (config.created) {
    const c = config.content!;
    lines.push(`specforge: wrote ${shown(config.path)} (spec: ${c.spec}, out: ${c.out}, outputs: ${c.outputs!.join(", ")}, format: ${c.format})`);
  } else {
    lines.push(`specforge: ${shown(config.path)} already configures specforge; left it unchanged`);
  }
  if (report.ignoredFlags.length > 0) {
    warnings.push(`${report.ignoredFlags.join(", ")} not written: ${shown(config.path)} exists (edit it instead)`);
  }
  if (report.missingSpec) {
    warnings.push(`the spec ${report.missingSpec} does not exist yet: put your OpenAPI document there or change \`spec\` in ${shown(config.path)}`);
  }
  lines.push("specforge: next: `npm run api:generate` writes the output, `npm run api:check` verifies it in CI");
  return { lines, warnings };
}
