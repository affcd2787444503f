import type { ResolvedConfig } from "../config/resolve.js";
import type { SpecWarning } from "../errors.js";
import { toDisplayPath } from "../load/index.js";
import { render } from "../pipeline.js";
import { writeOutputFolder, type WriteHooks, type WriteSummary } from "../write/atomic.js";

export interface GenerateReport extends WriteSummary {
  out: string;
  /** Every file now in the output folder, by relative path. */
  files: Map<string, string>;
  milliseconds: number;
  /** Problems in the spec that did not stop generation; the CLI prints them on stderr. */
  warnings: SpecWarning[];
}

/** `specforge generate`: render in memory, then replace the output folder atomically. */
export async function runGenerate(config: ResolvedConfig, hooks: WriteHooks = {}): Promise<GenerateReport> {
  const started = performance.now();
  const { files, warnings } = await render(config);
  const out = toDisplayPath(config.out, config.cwd);
  const summary = writeOutputFolder(config.out, out, files, hooks);
  return { ...summary, out, files, warnings, milliseconds: performance.now() - started };
}

export function describeGenerate(report: GenerateReport): string {
  const seconds = (report.milliseconds / 1000).toFixed(2);
  return `specforge: ${report.out}/ ${report.written.length} written, ${report.unchanged.length} unchanged, ${report.removed.length} removed (${seconds}s)`;
}
