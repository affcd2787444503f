import type { ResolvedConfig } from "../config/resolve.js";
import type { SpecWarning } from "../errors.js";
import { toDisplayPath } from "../load/index.js";
import { plain, type Paint } from "../output.js";
import type { PhaseTimings, RenderOptions } from "../pipeline.js";
import { writeOutputFolder, type WriteHooks, type WriteSummary } from "../write/atomic.js";

export interface GenerateReport extends WriteSummary {
  out: string;
  /** Every file now in the output folder, by relative path. */
  files: Map<string, string>;
  milliseconds: number;
  /** Milliseconds per phase: load, model, emit, format, write. */
  timings: PhaseTimings;
  /** Problems in the spec that did not stop generation; the CLI prints them on stderr. */
  warnings: SpecWarning[];
  /** The documents read from URLs: their version and how each was had (fetched, not modified, from the cache). */
  remoteDocuments: RemoteDocumentVersion[];
}

/** A document from a URL as one run used it. */
export interface RemoteDocumentVersion {
  url: string;
  sha256: string;
  etag?: string;
  lastModified?: string;
  source: "fetched" | "not-modified" | "cache";
}

export type GenerateHooks = WriteHooks & RenderOptions;

/** `specforge generate`: render in memory, then replace the output folder atomically. */
export async function runGenerate(config: ResolvedConfig, hooks: GenerateHooks = {}): Promise<GenerateReport> {
  const started = performance.now();
  // The emitters (TypeScript, openapi-typescript, prettier) load only here: the CLI imports this file for its
  // report formatting, and `check` of an up-to-date folder must not pay for them.
  const { render } = await import("../pipeline.js");
  const { files, timings, warnings, spec } = await render(config, hooks);
  const remoteDocuments = spec.files.flatMap((f): RemoteDocumentVersion[] =>
    f.remote ? [{ url: f.path, sha256: f.sha256, source: f.remote.source, ...(f.remote.etag !== undefined ? { etag: f.remote.etag } : {}), ...(f.remote.lastModified !== undefined ? { lastModified: f.remote.lastModified } : {}) }] : [],
  );
  const out = toDisplayPath(config.out, config.cwd);
  hooks.onPhase?.("write");
  const writeStarted = performance.now();
  const summary = writeOutputFolder(config.out, out, files, hooks);
  const finished = performance.now();
  return { ...summary, out, files, warnings, remoteDocuments, milliseconds: finished - started, timings: { ...timings, write: finished - writeStarted } };
}

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
  const how = { fetched: "fetched", "not-modified": "not modified since the cached copy (304)", cache: "from the cache" } as const;
  for (const document of report.remoteDocuments ?? []) lines.push(`  ${document.url}: ${how[document.source]}, sha256 ${document.sha256.slice(0, 12)}`);
  lines.push(`  phases: ${describeTimings(report.timings)}`);
  return lines;
}

export function describeTimings(timings: PhaseTimings): string {
  return Object.entries(timings)
    .map(([name, ms]) => `${name} ${Math.round(ms)}ms`)
    .join(", ");
}
