import { DEFAULT_OUT, DEFAULT_SPEC, type ResolvedConfig } from "../config/resolve.js";
import { toDisplayPath } from "../load/index.js";
import { isProvablyCurrent } from "../write/fast-check.js";
import { hasDrift, type Drift } from "../write/drift.js";

export interface CheckReport {
  out: string;
  spec: string;
  drift: Drift;
  /** True when the manifest proved the output current without regenerating. */
  fast: boolean;
  /** The command that brings the output folder up to date. */
  fix: string;
}

/** `specforge check`: is the output folder exactly what `generate` would write? Writes nothing. */
export async function runCheck(config: ResolvedConfig, options: { regenerate?: boolean } = {}): Promise<CheckReport> {
  const out = toDisplayPath(config.out, config.cwd);
  const spec = toDisplayPath(config.spec, config.cwd);
  const fix = ["npx specforge generate", spec !== DEFAULT_SPEC ? `--spec ${spec}` : "", out !== DEFAULT_OUT ? `--out ${out}` : ""]
    .filter(Boolean)
    .join(" ");
  if (!options.regenerate && (await isProvablyCurrent(config))) {
    return { out, spec, fast: true, fix, drift: { missing: [], extra: [], stale: [] } };
  }
  // Regenerating needs the emitters (openapi-typescript, TypeScript, ts-morph): load them only on this path.
  const { findDrift } = await import("../pipeline.js");
  return { out, spec, fast: false, fix, drift: await findDrift(config, out) };
}

export function describeCheck(report: CheckReport): string {
  const { drift } = report;
  if (!hasDrift(drift)) return `specforge: ${report.out}/ is up to date with ${report.spec}`;
  const lines: string[] = [];
  for (const path of drift.missing) lines.push(`missing: ${report.out}/${path}`);
  for (const path of drift.extra) lines.push(`extra:   ${report.out}/${path} (not generated from the spec)`);
  for (const { path, diff } of drift.stale) lines.push(`stale:   ${report.out}/${path}`, indent(diff), "");
  const count = drift.missing.length + drift.extra.length + drift.stale.length;
  lines.push(`specforge: ${report.out}/ is out of date with ${report.spec} (${count} file${count === 1 ? "" : "s"}); run \`${report.fix}\``);
  return lines.join("\n");
}

const indent = (text: string) =>
  text
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
