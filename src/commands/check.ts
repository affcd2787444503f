import type { ResolvedConfig } from "../config/resolve.js";
import { toDisplayPath } from "../load/index.js";
import { isProvablyCurrent } from "../write/fast-check.js";
import { hasDrift, type Drift } from "../write/drift.js";
import { plain, type Paint } from "../output.js";

export interface CheckReport {
  out: string;
  spec: string;
  drift: Drift;
  /** True when the manifest proved the output current without regenerating. */
  fast: boolean;
  /** The command that brings the output folder up to date. */
  fix: string;
  milliseconds: number;
}

/** `specforge check`: is the output folder exactly what `generate` would write? Writes nothing. */
export async function runCheck(config: ResolvedConfig, options: { regenerate?: boolean; provenCurrent?: boolean } = {}): Promise<CheckReport> {
  const started = performance.now();
  const out = toDisplayPath(config.out, config.cwd);
  const spec = toDisplayPath(config.spec, config.cwd);
  // The same config, project and flags that this check was given, so the fix regenerates exactly this output.
  const fix = ["npx specforge generate", ...(config.regenerateArgs ?? [])].join(" ");
  // provenCurrent: the caller has just run isProvablyCurrent (a check of several projects), so it is not run twice.
  if (!options.regenerate && (options.provenCurrent || (await isProvablyCurrent(config)))) {
    return { out, spec, fast: true, fix, drift: { missing: [], extra: [], stale: [] }, milliseconds: performance.now() - started };
  }
  // Regenerating needs the emitters (openapi-typescript, TypeScript, ts-morph): load them only on this path.
  const { findDrift } = await import("../pipeline.js");
  const drift = await findDrift(config, out);
  return { out, spec, fast: false, fix, drift, milliseconds: performance.now() - started };
}

export function describeCheck(report: CheckReport, paint: Paint = plain): string {
  const { drift } = report;
  if (!hasDrift(drift)) return `specforge: ${report.out}/ is up to date with ${report.spec}`;
  const lines: string[] = [];
  for (const path of drift.missing) lines.push(`${paint.yellow("missing:")} ${report.out}/${path}`);
  for (const path of drift.extra) lines.push(`${paint.yellow("extra:")}   ${report.out}/${path} (not generated from the spec)`);
  for (const { path, diff } of drift.stale) lines.push(`${paint.yellow("stale:")}   ${report.out}/${path}`, indent(diff, paint), "");
  const count = drift.missing.length + drift.extra.length + drift.stale.length;
  lines.push(`specforge: ${report.out}/ is out of date with ${report.spec} (${count} file${count === 1 ? "" : "s"}); run \`${report.fix}\``);
  return lines.join("\n");
}

/** The `--verbose` line of a check: how it was decided and how long it took. */
export function describeCheckDetails(report: CheckReport): string {
  const how = report.fast ? "the manifest proves the output current (no regeneration)" : "regenerated in memory and compared";
  return `  ${how}; ${Math.round(report.milliseconds)}ms`;
}

const indent = (text: string, paint: Paint) =>
  text
    .split("\n")
    .map((line) => {
      const colored = /^\+(?!\+\+ )/.test(line) ? paint.green(line) : /^-(?!-- )/.test(line) ? paint.red(line) : line;
      return `    ${colored}`;
    })
    .join("\n");
