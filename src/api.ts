import { API_OPTIONS, resolveConfig, type UserConfig } from "./config/resolve.js";
import type { SpecWarning } from "./errors.js";
import type { CheckReport, GenerateReport } from "./pipeline.js";
import { hasDrift } from "./write/drift.js";

/** Options of `generate()` and `check()`: the config fields (they win over the config file) and where to run. */
export interface GenerateOptions extends Omit<UserConfig, "projects"> {
  /** With a config that lists several `projects`: the one to generate or check (required then). */
  project?: string;
  /** Folder that relative paths are resolved from and the config file is looked for in. @default process.cwd() */
  cwd?: string;
  /** Config file to read; without it, the specforge.config.* in `cwd` or package.json's `specforge` key. */
  config?: string;
  /** Write the output folder (atomically). When false, only return the files. @default false */
  write?: boolean;
  /** Documents from URLs come from the cache (the locked version first), never the network (`--offline`). @default false */
  offline?: boolean;
}

export interface CheckOptions extends Omit<GenerateOptions, "write" | "offline"> {
  /** Also ask the servers whether the spec's documents from URLs are still the locked versions (`--remote`). @default false */
  remote?: boolean;
  /** Each stale file's whole diff (`--diff`), not its first 40 lines with long lines cut. @default false */
  fullDiff?: boolean;
}

export interface GenerateResult {
  /** Every generated file by path relative to the output folder (the manifest included), formatted and stamped. */
  files: Map<string, string>;
  /** What was written, removed and left unchanged, when `write` was true. */
  report?: GenerateReport;
  /** Problems in the spec that did not stop generation (e.g. a `$ref` YAML read as a comment). */
  warnings: SpecWarning[];
}

export interface CheckResult extends CheckReport {
  /** True when the output folder is exactly what `generate` would write. */
  upToDate: boolean;
}

/**
 * Generates the output for a spec in memory; with `write: true` also replaces the output folder atomically.
 * Without `write`, nothing is written (the spec, the config and the project's prettier config are only read).
 * Throws a `UserError` (with `location` and `hint`) for a bad spec or config.
 *
 * ```ts
 * import { generate } from "specforge";
 * const { files } = await generate({ spec: "openapi.yaml", outputs: ["client"] });
 * files.get("client.ts");
 * ```
 */
export async function generate(options: GenerateOptions = {}): Promise<GenerateResult> {
  const { cwd = process.cwd(), config: configFile, write = false, project, offline = false, ...flags } = options;
  const remote = offline ? { remote: "offline" as const } : {};
  const config = await resolveConfig({ cwd, configFile, flags, flagsFrom: API_OPTIONS, projects: project === undefined ? undefined : [project] });
  // The pipeline loads its emitters (openapi-typescript, ts-morph) only when generating, and is itself imported here
  // only when called: `import { defineConfig } from "specforge"` in a config file must stay cheap.
  const { render, runGenerate } = await import("./pipeline.js");
  if (write) {
    const report = await runGenerate(config, remote);
    return { files: report.files, report, warnings: report.warnings };
  }
  const { files, warnings } = await render(config, remote);
  return { files, warnings };
}

/**
 * Compares the output folder with what `generate` would write and returns the drift (missing, extra and stale
 * files, each stale one with a unified diff) as data. Never writes. Throws a `UserError` for a bad spec or config.
 */
export async function check(options: CheckOptions = {}): Promise<CheckResult> {
  const { cwd = process.cwd(), config: configFile, project, remote = false, fullDiff = false, ...flags } = options;
  const { runCheck } = await import("./pipeline.js");
  const report = await runCheck(await resolveConfig({ cwd, configFile, flags, flagsFrom: API_OPTIONS, projects: project === undefined ? undefined : [project] }), { remote, fullDiff });
  return { ...report, upToDate: !hasDrift(report.drift) && !(report.sharedRuntime && hasDrift(report.sharedRuntime.drift)) };
}
