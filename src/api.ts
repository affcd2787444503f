import { resolveConfig, type UserConfig } from "./config/resolve.js";
import { runCheck, type CheckReport } from "./commands/check.js";
import { runGenerate, type GenerateReport } from "./commands/generate.js";
import type { SpecWarning } from "./errors.js";
import { render } from "./pipeline.js";

export interface GenerateOptions extends UserConfig {
  /** Folder that relative paths are resolved from. @default process.cwd() */
  cwd?: string;
  /** Config file to read; without it, specforge.config.* in cwd or package.json's `specforge` key. */
  config?: string;
  /** Write the output folder (atomically). When false, only return the files. @default false */
  write?: boolean;
}

export interface GenerateResult {
  /** Every generated file by path relative to the output folder, formatted and stamped. */
  files: Map<string, string>;
  /** What was written, when `write` was true. */
  report?: GenerateReport;
  /** Problems in the spec that did not stop generation (e.g. a `$ref` YAML read as a comment). */
  warnings: SpecWarning[];
}

export type CheckResult = CheckReport;

/**
 * Generates the output for a spec in memory; with `write: true` also replaces the output folder atomically.
 * Throws a `UserError` (with `location` and `hint`) for a bad spec or config.
 */
export async function generate(options: GenerateOptions = {}): Promise<GenerateResult> {
  const { cwd = process.cwd(), config: configFile, write = false, ...flags } = options;
  const config = await resolveConfig({ cwd, configFile, flags });
  if (write) {
    const report = await runGenerate(config);
    return { files: report.files, report, warnings: report.warnings };
  }
  const { files, warnings } = await render(config);
  return { files, warnings };
}

/** Compares the output folder with what `generate` would write. Never writes. */
export async function check(options: Omit<GenerateOptions, "write"> = {}): Promise<CheckResult> {
  const { cwd = process.cwd(), config: configFile, ...flags } = options;
  return runCheck(await resolveConfig({ cwd, configFile, flags }));
}
