import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { CONFIG_FILES, DEFAULT_OUT, DEFAULT_SPEC, findConfigFile, validateConfig, type ProjectConfig, type UserConfig } from "../config/resolve.js";
import { UserError } from "../errors.js";
import { invalidJson } from "../load/json-error.js";
import { JsonShapeError, addScripts, type ScriptsEdit } from "../write/json-edit.js";
import { isHttpUrl } from "../openapi/url.js";

/** The scripts `specforge init` adds to the project's package.json. */
const INIT_SCRIPTS = { "api:generate": "specforge generate", "api:check": "specforge check" } as const;

/** Where `init` looks for a spec when no --spec is given, in this order. */
const SPEC_CANDIDATES = [
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
  /**
   * Adds a project of this name (with `flags.spec`) to the config's `projects`, turning a config for one spec into
   * a list whose first project is that spec. Without a config, writes one with this project alone.
   */
  project?: string;
}

export interface InitReport {
  scripts: Omit<ScriptsEdit, "text">;
  /** The config file written, or the one that already configures specforge (then it was left alone). */
  config: { path: string; created: boolean; content?: UserConfig };
  /** With `project`: the project added (absent when the config already had it exactly), and the name the spec of a one-spec config got. */
  addedProject?: { project?: ProjectConfig; convertedFrom?: string };
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
export function runInit({ cwd, flags, force = false, project }: InitOptions): InitReport {
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
    if (error instanceof SyntaxError) throw invalidJson(error, pkgText.replace(/^\uFEFF/, ""), pkgPath, "invalid JSON in package.json", "fix the file (or `npm pkg fix`), then run init again");
    if (error instanceof JsonShapeError) throw new UserError(`cannot add scripts: ${error.message}`, { location: pkgPath });
    throw error;
  }

  const existingFile = findConfigFile(cwd);
  const inPackageJson = (JSON.parse(pkgText.replace(/^\uFEFF/, "")) as { specforge?: unknown }).specforge !== undefined;
  const given = Object.entries(flags).filter(([, v]) => v !== undefined).map(([k]) => `--${k}`);
  const indent = /\n([ \t]+)"/.exec(pkgText)?.[1] ?? "  ";
  const eol = pkgText.includes("\r\n") ? "\r\n" : "\n";
  let config: InitReport["config"];
  let configText: string | undefined;
  let replacesConfig = false;
  let missingSpec: string | undefined;
  let addedProject: InitReport["addedProject"];
  if (project !== undefined && (existingFile || inPackageJson)) {
    if (!existingFile || !existingFile.endsWith(".json")) {
      const shown = existingFile ? basename(existingFile) : "package.json#/specforge";
      throw new UserError(`cannot add a project to ${shown}: init edits only specforge.config.json`, {
        location: existingFile ?? pkgPath,
        hint: `add { "name": "${project}", "spec": "…", "out": "…" } to \`projects\` in it by hand`,
      });
    }
    const text = readFileSync(existingFile, "utf8");
    let current: UserConfig;
    try {
      current = JSON.parse(text.replace(/^\uFEFF/, "")) as UserConfig;
    } catch (error) {
      throw new UserError(`invalid JSON in config file: ${(error as Error).message}`, { location: existingFile });
    }
    validateConfig(current, existingFile);
    const added = addProject(cwd, current, project, flags);
    addedProject = added.report;
    if (added.config !== current) {
      const fileIndent = /\n([ \t]+)"/.exec(text)?.[1] ?? indent;
      configText = serializeConfig(added.config, fileIndent, text.includes("\r\n") ? "\r\n" : "\n");
      replacesConfig = true;
    }
    if (added.report.project && !isHttpUrl(added.report.project.spec) && !existsSync(join(cwd, added.report.project.spec))) missingSpec = added.report.project.spec;
    config = { path: existingFile, created: false };
  } else if (existingFile || inPackageJson) {
    config = { path: existingFile ?? `${pkgPath}#/specforge`, created: false };
  } else {
    const spec = flags.spec !== undefined ? portable(cwd, flags.spec) : (SPEC_CANDIDATES.find((c) => existsSync(join(cwd, c))) ?? "openapi.yaml");
    if (!isHttpUrl(spec) && !existsSync(join(cwd, spec))) missingSpec = spec;
    const fields = {
      out: flags.out !== undefined ? portable(cwd, flags.out) : defaultOut(cwd, project),
      // Written only when asked: without a list, each spec gets the outputs it has something for.
      ...(flags.outputs !== undefined ? { outputs: flags.outputs } : {}),
      format: flags.format ?? true,
      // Written only when asked: the default form ("ts") is what a project should get unless it chose otherwise.
      ...(flags.form !== undefined ? { form: flags.form } : {}),
    };
    const { out, ...defaults } = fields;
    // With --project, a list of one; `outputs` and `format` stay at the top, the defaults of projects added later.
    const content: UserConfig = project !== undefined ? { projects: [{ name: checkedName(project), spec, out }], ...defaults } : { spec, ...fields };
    if (project !== undefined) addedProject = { project: content.projects![0]! };
    configText = serializeConfig(content, indent, eol);
    config = { path: join(cwd, CONFIG_FILES[0]!), created: true, content };
  }

  // Write: the config first, then package.json; if package.json fails, the config is put back as it was.
  const previousConfig = replacesConfig ? readFileSync(config.path, "utf8") : undefined;
  if (configText !== undefined) replaceFile(config.path, configText);
  try {
    if (edit.text !== pkgText) replaceFile(pkgPath, edit.text);
  } catch (error) {
    if (previousConfig !== undefined) replaceFile(config.path, previousConfig);
    else if (configText !== undefined) rmSync(config.path, { force: true });
    throw error;
  }
  const { text: _text, ...scripts } = edit;
  return {
    scripts,
    config,
    ignoredFlags: config.created || addedProject ? [] : given,
    ...(missingSpec ? { missingSpec } : {}),
    ...(addedProject ? { addedProject } : {}),
  };
}

/** The config as init writes it: the package.json's indentation and line ends, lists of names on one line. */
function serializeConfig(content: UserConfig, indent: string, eol: string): string {
  const json = JSON.stringify(content, null, indent).replace(/\[\s*("[^"\n]*"(?:,\s*"[^"\n]*")*)\s*\]/g, (_, items: string) => `[${items.split(/,\s*/).join(", ")}]`);
  return json.replace(/\n/g, eol) + eol;
}

/**
 * Where a new config puts the output: beside the project's code when it has a `src/` folder (`src/generated`), so a
 * `tsc` whose `rootDir` is `src` (what `tsc --init` suggests) compiles it with the rest; else `generated`. With a
 * project name, a folder of its own below either.
 */
function defaultOut(cwd: string, project: string | undefined): string {
  const base = isDirectory(join(cwd, "src")) ? `src/${DEFAULT_OUT}` : DEFAULT_OUT;
  return project !== undefined ? `${base}/${project}` : base;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function checkedName(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
    throw new UserError(`--project: ${JSON.stringify(name)} is not a project name (letters, digits, ".", "_" and "-", starting with a letter or digit)`, {
      location: "command line",
    });
  }
  return name;
}

/**
 * The config with project `name` added. A config for one spec becomes `projects` whose first project is that spec
 * (named by shortProjectName) and keeps its `outputs` / `format` as the defaults of every project. Returns the same
 * object when the project is already there exactly as asked.
 */
function addProject(cwd: string, current: UserConfig, name: string, flags: UserConfig): { config: UserConfig; report: NonNullable<InitReport["addedProject"]> } {
  checkedName(name);
  if (flags.spec === undefined) {
    throw new UserError(`--project ${name} adds a project to the config: say where its spec is with --spec PATH`, { location: "command line" });
  }
  const { projects: existing, spec: oneSpec, out: oneOut, ...defaults } = current;
  let convertedFrom: string | undefined;
  let projects: ProjectConfig[];
  if (existing) {
    projects = existing;
  } else {
    const spec = oneSpec ?? DEFAULT_SPEC;
    convertedFrom = shortProjectName(spec);
    if (convertedFrom === name) convertedFrom = `${convertedFrom}-1`;
    projects = [{ name: convertedFrom, spec, out: oneOut ?? DEFAULT_OUT }];
  }
  const spec = portable(cwd, flags.spec);
  // With a shared runtime folder (`runtime`), a new project goes beside it, as the others usually are.
  const shared = defaults.runtime !== undefined ? resolve(cwd, defaults.runtime) : undefined;
  const outs = [...projects.map((p) => resolve(cwd, p.out)), ...(shared ? [shared] : [])];
  const nests = (out: string) => outs.some((o) => o === out || o.startsWith(out + sep) || out.startsWith(o + sep));
  let out = flags.out !== undefined ? portable(cwd, flags.out) : shared ? portable(cwd, join(dirname(shared), name)) : `${DEFAULT_OUT}/${name}`;
  // The usual case: a one-spec config writes to generated/, which would contain generated/<name>.
  if (flags.out === undefined && nests(resolve(cwd, out))) out = `${DEFAULT_OUT}-${name}`;
  const form = (p: { form?: UserConfig["form"] }) => p.form ?? defaults.form ?? "ts";
  const mismatch = shared && projects.find((p) => form(p) !== form(flags));
  if (mismatch) {
    throw new UserError(`--form ${form(flags)}: the projects share one runtime folder (config \`runtime\`: ${defaults.runtime}), written in one form, and project "${mismatch.name}" has form "${form(mismatch)}"`, {
      location: "command line",
      hint: `leave --form out (or give --form ${form(mismatch)}), or change the form of every project and the top-level \`form\` together`,
    });
  }
  const project: ProjectConfig = {
    name,
    spec,
    out,
    ...(flags.outputs !== undefined ? { outputs: flags.outputs } : {}),
    ...(flags.format !== undefined ? { format: flags.format } : {}),
    ...(flags.form !== undefined ? { form: flags.form } : {}),
  };
  const same = projects.find((p) => p.name === name);
  if (same) {
    // Running the same init again changes nothing; fields not given on the command line are not compared.
    const asked =
      same.spec === spec &&
      (flags.out === undefined || same.out === out) &&
      (flags.outputs === undefined || JSON.stringify(same.outputs ?? defaults.outputs) === JSON.stringify(flags.outputs)) &&
      (flags.format === undefined || (same.format ?? defaults.format ?? true) === flags.format) &&
      (flags.form === undefined || (same.form ?? defaults.form ?? "ts") === flags.form);
    if (asked) return { config: current, report: {} };
    throw new UserError(`the config already has a project "${name}" (spec: ${same.spec}, out: ${same.out})`, {
      location: "command line",
      hint: "choose another name, or edit that project in specforge.config.json",
    });
  }
  if (nests(resolve(cwd, out))) {
    throw new UserError(`--out ${out} is, contains or is inside another project's out folder or the shared runtime folder (${[...projects.map((p) => p.out), ...(shared ? [defaults.runtime] : [])].join(", ")})`, {
      location: "command line",
      hint: "give the new project a folder of its own with --out DIR",
    });
  }
  return { config: { projects: [...projects, project], ...defaults }, report: { project, ...(convertedFrom ? { convertedFrom } : {}) } };
}

/** Words of a spec's file name that tell one API from another by none of them. */
const GENERIC_WORDS = new Set(["api", "apis", "openapi", "swagger", "spec", "specs", "schema", "web", "rest", "public", "latest", "bundled", "resolved", "v", "com", "org", "io", "json", "yaml", "yml"]);

/**
 * A short project name from a spec's path: the first word of its file name that is neither generic nor a version
 * (`spotify-web-api-3.0.json` → `spotify`, `training-api.v1.yaml` → `training`, `api.github.com.yaml` → `github`);
 * the whole file name when every word is one of those, `api` when nothing is left.
 */
export function shortProjectName(spec: string): string {
  const stem = basename(spec).replace(/\.(ya?ml|json)$/i, "");
  const word = stem
    .split(/[^A-Za-z0-9]+/)
    .find((part) => part !== "" && !GENERIC_WORDS.has(part.toLowerCase()) && !/^v?\d+$/i.test(part));
  return (word ?? stem.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "")).toLowerCase() || "api";
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
  const added = report.addedProject;
  if (config.created) {
    const c = config.content!;
    const where = c.projects ? `project ${c.projects[0]!.name}: spec: ${c.projects[0]!.spec}, out: ${c.projects[0]!.out}` : `spec: ${c.spec}, out: ${c.out}`;
    lines.push(`specforge: wrote ${shown(config.path)} (${where}, outputs: ${c.outputs?.join(", ") ?? "what the spec has"}, format: ${c.format}${c.form ? `, form: ${c.form}` : ""})`);
  } else if (added?.project) {
    const p = added.project;
    if (added.convertedFrom) lines.push(`specforge: ${shown(config.path)}: its spec is now the project ${added.convertedFrom}`);
    lines.push(`specforge: ${shown(config.path)}: added project ${p.name} (spec: ${p.spec}, out: ${p.out})`);
  } else if (added) {
    lines.push(`specforge: ${shown(config.path)} already has this project; left it unchanged`);
  } else {
    lines.push(`specforge: ${shown(config.path)} already configures specforge; left it unchanged`);
  }
  if (report.ignoredFlags.length > 0) {
    warnings.push(`${report.ignoredFlags.join(", ")} not written: ${shown(config.path)} exists (edit it instead)`);
  }
  if (report.missingSpec) {
    warnings.push(`the spec ${report.missingSpec} does not exist yet: put your OpenAPI document there or change \`spec\` in ${shown(config.path)}`);
  }
  lines.push(
    added?.project || config.content?.projects
      ? "specforge: next: `npm run api:generate` writes every project's output (`-- --project NAME` one of them), `npm run api:check` verifies them in CI"
      : `specforge: next: \`npm run api:generate\` writes the output${config.content?.out ? ` (its entry point: ${config.content.out.replace(/\/+$/, "")}/index.ts)` : ""}, \`npm run api:check\` verifies it in CI`,
  );
  return { lines, warnings };
}
