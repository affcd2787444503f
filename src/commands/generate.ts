import type { GenerateReport, PhaseTimings } from "../pipeline.js";
import { plain, type Paint } from "./output.js";

/** The one-line summary of a run: `specforge: generated/ 3 written, 27 unchanged, 0 removed (0.41s)`. */
export function describeGenerate(report: Omit<GenerateReport, "files">, paint: Paint = plain): string {
  return `specforge: ${summarizeGenerate(report, paint)}`;
}

/** The summary without the `specforge:` prefix (watch mode puts what changed in front of it). */
export function summarizeGenerate(report: Omit<GenerateReport, "files">, paint: Paint = plain): string {
  const seconds = (report.milliseconds / 1000).toFixed(2);
  const written = `${report.written.length} written`;
  return `${report.out}/ ${report.written.length > 0 ? paint.green(written) : written}, ${report.unchanged.length} unchanged, ${report.removed.length} removed ${paint.dim(`(${seconds}s)`)}`;
}

/** The `--verbose` lines of a run: one per file (written, unchanged, removed), then the time of each phase. */
export function describeGenerateDetails(report: Omit<GenerateReport, "files">, paint: Paint = plain): string[] {
  const status = new Map<string, string>();
  for (const path of report.written) status.set(path, paint.green("written  "));
  for (const path of report.unchanged) status.set(path, paint.dim("unchanged"));
  for (const path of report.removed) status.set(path, paint.yellow("removed  "));
  const lines = [...status.keys()].sort().map((path) => `  ${status.get(path)} ${report.out}/${path}`);
  for (const [path, reason] of report.formattedByPrettier ?? []) lines.push(`  ${report.out}/${path} was formatted by prettier: the printer does not know ${reason}`);
  const how = { fetched: "fetched", "not-modified": "not modified since the cached copy (304)", cache: "from the cache" } as const;
  for (const document of report.remoteDocuments ?? []) lines.push(`  ${document.url}: ${how[document.source]}, sha256 ${document.sha256.slice(0, 12)}`);
  lines.push(`  phases: ${describeTimings(report.timings)}`);
  return lines;
}

function describeTimings(timings: PhaseTimings): string {
  return Object.entries(timings)
    .map(([name, ms]) => `${name} ${Math.round(ms)}ms`)
    .join(", ");
}
