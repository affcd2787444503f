import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import type { ResolvedConfig } from "../config/resolve.js";
import { escapeMarkdown, printable, summaryLine, toMarkdown, toText } from "../diff/format.js";
import { isBreaking, type DiffResult } from "../diff/model.js";
import { toDisplayPath, type LoadedSpec } from "../load/index.js";
import { isProvablyCurrent } from "../write/fast-check.js";
import { hasDrift, type Drift } from "../write/drift.js";
import { MANIFEST_FILE, manifestInputs, pathFromOutput } from "../write/manifest.js";
import { plain, type Paint } from "../output.js";

/**
 * What changed in the API since the output was generated (when the spec changed): the changes, or why they cannot
 * be shown (the old version is not in git).
 */
export type ApiExplanation = { kind: "changes"; result: DiffResult; from: string; to: string } | { kind: "unavailable"; reason: string };

export interface CheckReport {
  out: string;
  spec: string;
  drift: Drift;
  /** True when the manifest proved the output current without regenerating. */
  fast: boolean;
  /** The command that brings the output folder up to date. */
  fix: string;
  milliseconds: number;
  /** Present when the output is stale and the spec is not the one it was generated from. */
  api?: ApiExplanation;
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
  const { drift, spec: loaded } = await findDrift(config, out);
  const api = hasDrift(drift) ? await explainSpecChange(config, loaded, spec) : undefined;
  return { out, spec, fast: false, fix, drift, milliseconds: performance.now() - started, ...(api ? { api } : {}) };
}

/**
 * When the spec is not the one the manifest says the output was generated from, the API changes between the two.
 * The old version is read back from git by the blob ids the manifest records (see README: "`check` explains
 * itself"); undefined when the spec did not change (the drift comes from elsewhere: a hand edit, a generator upgrade).
 */
async function explainSpecChange(config: ResolvedConfig, current: LoadedSpec, specShown: string): Promise<ApiExplanation | undefined> {
  const manifestPath = join(config.out, MANIFEST_FILE);
  if (!existsSync(manifestPath)) return undefined;
  const recorded = manifestInputs(readFileSync(manifestPath, "utf8"));
  if (!recorded) return undefined;
  const now = Object.fromEntries(current.files.map((f) => [pathFromOutput(config.out, f.path), f.sha256]));
  const before = Object.fromEntries(Object.entries(recorded.inputs).map(([path, input]) => [path, input.sha256]));
  if (recorded.spec === pathFromOutput(config.out, current.entry) && sameRecord(now, before)) return undefined;
  const [{ loadPreviousSpec }, { diffDocuments }] = await Promise.all([import("../load/git.js"), import("../diff/compare.js")]);
  const previous = loadPreviousSpec(config.out, recorded.spec, recorded.inputs);
  if ("unavailable" in previous) return { kind: "unavailable", reason: previous.unavailable };
  const from = toDisplayPath(resolve(config.out, recorded.spec), config.cwd);
  return { kind: "changes", result: diffDocuments(previous.spec.document, current.document), from: `${from} (as generated)`, to: specShown };
}

function sameRecord(a: Record<string, string | undefined>, b: Record<string, string | undefined>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** The API change summary `check` prints before the file drift: at most this many changes per group. */
const CHECK_LIMIT = 20;

export function describeCheck(report: CheckReport, paint: Paint = plain): string {
  const { drift } = report;
  if (!hasDrift(drift)) return `specforge: ${report.out}/ is up to date with ${report.spec}`;
  const lines: string[] = [];
  if (report.api?.kind === "changes") {
    const { result } = report.api;
    lines.push(`specforge: ${report.spec} changed since ${report.out}/ was generated: ${summaryLine(result.changes)}${result.changes.length > 0 ? "" : " (only descriptions, examples or other documentation)"}`);
    if (result.changes.length > 0) lines.push(toText(result, { old: report.api.from, new: report.api.to }, { paint, limit: CHECK_LIMIT, indent: "  ", heading: false }));
    lines.push("");
  } else if (report.api?.kind === "unavailable") {
    lines.push(`specforge: ${report.spec} changed since ${report.out}/ was generated; the API changes cannot be shown: ${report.api.reason}`, "");
  }
  for (const path of drift.missing) lines.push(`${paint.yellow("missing:")} ${report.out}/${path}`);
  for (const path of drift.extra) lines.push(`${paint.yellow("extra:")}   ${report.out}/${path} (not generated from the spec)`);
  for (const { path, diff } of drift.stale) {
    // The manifest's diff is hashes: what it records is said above.
    if (path === MANIFEST_FILE) lines.push(`${paint.yellow("stale:")}   ${report.out}/${path} (the spec, generator and file hashes it records)`);
    else lines.push(`${paint.yellow("stale:")}   ${report.out}/${path}`, indent(diff, paint), "");
  }
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

/** GitHub shows at most 10 annotations of each kind per step; the step summary has the rest. */
const MAX_ANNOTATIONS = 10;

/**
 * In GitHub Actions: `::error` annotations on the files that are out of date (at their first changed line),
 * `::warning` on breaking API changes and `::notice` on compatible ones (at their line in the spec), and the whole
 * report as Markdown appended to `$GITHUB_STEP_SUMMARY`. Returns the annotation lines (written to stdout, where the
 * runner reads them).
 */
export async function githubActionsReport(report: CheckReport, config: ResolvedConfig, env: NodeJS.ProcessEnv): Promise<string[]> {
  const workspace = env.GITHUB_WORKSPACE || config.cwd;
  const fromWorkspace = (absolute: string) => relative(workspace, absolute).split(sep).join("/");
  const annotations: string[] = [];
  const staleFiles = [...report.drift.missing.map((path) => ({ path, line: undefined as number | undefined, what: "is missing" })), ...report.drift.stale.map(({ path, diff }) => ({ path, line: firstChangedLine(diff), what: "is out of date" })), ...report.drift.extra.map((path) => ({ path, line: 1, what: "is not generated from the spec" }))];
  for (const file of staleFiles.slice(0, MAX_ANNOTATIONS)) {
    annotations.push(command("error", { file: fromWorkspace(join(config.out, file.path)), line: file.line, title: "specforge check" }, `${report.out}/${file.path} ${file.what}: run \`${report.fix}\` and commit the result`));
  }
  if (report.api?.kind === "changes") {
    const { locatePointers } = await import("../diff/locate.js");
    const changes = report.api.result.changes;
    let lines = new Map<string, number>();
    try {
      lines = locatePointers(readFileSync(config.spec, "utf8"), changes.map((c) => c.new), /\.json$/i.test(config.spec));
    } catch {
      // no lines, then
    }
    const specFile = fromWorkspace(resolve(config.spec));
    const breaking = changes.filter(isBreaking);
    const compatible = changes.filter((c) => !isBreaking(c));
    for (const [list, level] of [
      [breaking, "warning"],
      [compatible, "notice"],
    ] as const) {
      for (const change of list.slice(0, MAX_ANNOTATIONS)) {
        const who = change.breaking.client && change.breaking.server ? "clients and servers" : change.breaking.client ? "clients" : change.breaking.server ? "servers" : undefined;
        const title = who ? `Breaking API change for ${who}` : "Compatible API change";
        annotations.push(command(level, { file: specFile, line: lines.get(change.new), title }, printable(`${change.subject}: ${change.message} (#${change.new})`)));
      }
    }
  }
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, checkMarkdown(report));
  return annotations;
}

/** The check as Markdown, for `$GITHUB_STEP_SUMMARY`. */
export function checkMarkdown(report: CheckReport): string {
  if (!hasDrift(report.drift)) return `### specforge check: \`${report.out}/\` is up to date with \`${report.spec}\`\n\n`;
  const lines = [`### specforge check: \`${report.out}/\` is out of date with \`${report.spec}\``, ""];
  if (report.api?.kind === "changes") lines.push(toMarkdown(report.api.result, { old: report.api.from, new: report.api.to }, { level: 4 }));
  else if (report.api?.kind === "unavailable") lines.push(`The spec changed; the API changes cannot be shown: ${escapeMarkdown(report.api.reason)}`, "");
  const count = report.drift.missing.length + report.drift.extra.length + report.drift.stale.length;
  lines.push(`#### Files out of date (${count})`, "");
  for (const path of report.drift.missing) lines.push(`- \`${report.out}/${path}\` (missing)`);
  for (const { path } of report.drift.stale) lines.push(`- \`${report.out}/${path}\` (stale)`);
  for (const path of report.drift.extra) lines.push(`- \`${report.out}/${path}\` (not generated from the spec)`);
  lines.push("", `Run \`${report.fix}\` and commit the result.`, "", "");
  return lines.join("\n");
}

/** The line of the file on disk where the first hunk of a unified diff starts changing. */
function firstChangedLine(diff: string): number | undefined {
  const lines = diff.split("\n");
  const hunk = lines.findIndex((line) => line.startsWith("@@"));
  if (hunk === -1) return undefined;
  const start = /^@@ -(\d+)/.exec(lines[hunk]!);
  if (!start) return undefined;
  let line = Number(start[1]);
  for (const text of lines.slice(hunk + 1)) {
    if (text.startsWith("-") || text.startsWith("+")) return Math.max(line, 1);
    line++;
  }
  return Math.max(Number(start[1]), 1);
}

/** A GitHub Actions workflow command, with its properties and message escaped as the runner expects. */
function command(level: "error" | "warning" | "notice", properties: Record<string, string | number | undefined>, message: string): string {
  const escapeData = (text: string) => text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const escapeProperty = (text: string) => escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
  const props = Object.entries(properties)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(",");
  return `::${level} ${props}::${escapeData(message)}`;
}
