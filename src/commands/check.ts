import type { CheckReport } from "../pipeline.js";
import { hasDrift } from "../write/drift.js";
import { plain, type Paint } from "./output.js";

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
