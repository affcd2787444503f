import { appendFileSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import type { ResolvedConfig } from "../config/resolve.js";
import { escapeMarkdown, printable, summaryLine, toMarkdown, toText } from "../diff/format.js";
import { isBreaking } from "../diff/model.js";
import type { CheckReport, DocumentChange, RemoteReport } from "../pipeline.js";
import { DIFF_LINES, hasDrift, type Drift, type StaleFile } from "../write/drift.js";
import { MANIFEST_FILE } from "../write/manifest.js";
import { plain, type Paint } from "./output.js";

/** Whether a check fails (exit 1): the output drifted, or (`--remote`) the vendor changed the spec. */
export function checkFailed(report: CheckReport): boolean {
  return hasDrift(report.drift) || report.remote?.kind === "changed";
}

/** `a symbolic link: not read, ` for an entry that is not a regular file (it is never read or followed). */
const notAFile = (drift: Drift, path: string) => (drift.notFiles?.[path] ? `${drift.notFiles[path]}: not read, ` : "");

/** The API change summary `check` prints before the file drift: at most this many changes per group. */
const CHECK_LIMIT = 20;

export function describeCheck(report: CheckReport, paint: Paint = plain): string {
  const { drift, remote } = report;
  const lines: string[] = remote?.kind === "changed" ? [...describeRemoteChange(report, remote, paint), ""] : [];
  if (!hasDrift(drift)) {
    if (remote?.kind === "changed") lines.push(`specforge: ${report.out}/ is up to date with the version of ${report.spec} it locks; run \`${report.fix}\` to follow the current one`);
    else if (remote?.kind === "unchanged") lines.push(`specforge: ${report.out}/ is up to date with ${report.spec}, and the server still has the version it locks${remote.documents.length > 1 ? ` (all ${remote.documents.length} documents)` : ""}`);
    else if (remote?.kind === "none") lines.push(`specforge: ${report.out}/ is up to date with ${report.spec} (nothing to ask a server: ${remote.reason})`);
    else lines.push(`specforge: ${report.out}/ is up to date with ${report.spec}`);
    return lines.join("\n");
  }
  if (neverGenerated(report)) {
    lines.push(`specforge: ${report.out}/ has not been generated from ${report.spec} yet (${drift.missing.length} files to write); run \`${report.fix}\``);
    return lines.join("\n");
  }
  if (report.unverified) {
    lines.push(`specforge: ${report.unverified}; the output was compared with the file hashes its manifest records`, "");
  }
  if (report.api?.kind === "changes") {
    const { result } = report.api;
    lines.push(`specforge: ${report.spec} changed since ${report.out}/ was generated: ${summaryLine(result.changes)}${result.changes.length > 0 ? "" : " (only descriptions, examples or other documentation)"}`);
    if (result.changes.length > 0) lines.push(toText(result, { old: report.api.from, new: report.api.to }, { paint, limit: CHECK_LIMIT, indent: "  ", heading: false }));
    lines.push("");
  } else if (report.api?.kind === "unavailable") {
    lines.push(`specforge: ${report.spec} changed since ${report.out}/ was generated; the API changes cannot be shown: ${report.api.reason}`, "");
  }
  for (const path of drift.missing) lines.push(`${paint.yellow("missing:")} ${report.out}/${path}`);
  for (const path of drift.extra) lines.push(`${paint.yellow("extra:")}   ${report.out}/${path} (${notAFile(drift, path)}not generated from the spec)`);
  for (const file of drift.stale) {
    // The manifest's diff is hashes: what it records is said above.
    if (file.path === MANIFEST_FILE) {
      lines.push(`${paint.yellow("stale:")}   ${report.out}/${file.path} (the spec, generator and file hashes it records)`);
      continue;
    }
    const changed = changedCount(file);
    lines.push(`${paint.yellow("stale:")}   ${report.out}/${file.path}${changed ? ` (${changed})` : ""}`, indent(file.diff, paint));
    if (file.hidden) lines.push(`    … ${file.hidden} more diff line${file.hidden === 1 ? "" : "s"}`);
    lines.push("");
  }
  const count = drift.missing.length + drift.extra.length + drift.stale.length;
  if (drift.stale.some((file) => file.abridged)) {
    lines.push(`specforge: each diff above is cut at ${DIFF_LINES} lines, long lines at \`…\`; \`specforge check --diff\` prints them whole`);
  }
  lines.push(`specforge: ${report.out}/ is out of date with ${report.spec} (${count} file${count === 1 ? "" : "s"}); run \`${report.fix}\``);
  if (remote?.kind === "unchanged") lines.push(`specforge: the server still has the version of ${report.spec} that ${report.out}/ locks`);
  return lines.join("\n");
}

/** Whether the output folder holds nothing of the output: not one file of it is there, the manifest included. */
function neverGenerated(report: CheckReport): boolean {
  const { drift } = report;
  return drift.missing.includes(MANIFEST_FILE) && drift.stale.length === 0 && drift.extra.length === 0;
}

/** `+3 -1 lines`: how much of a stale file changes ("" when only its hash is known). */
function changedCount(file: StaleFile): string {
  if (file.lines) return `changed throughout: ${file.lines.onDisk} lines on disk, ${file.lines.generated} generated`;
  return file.added === undefined || file.removed === undefined ? "" : `+${file.added} -${file.removed} line${file.added + file.removed === 1 ? "" : "s"}`;
}

/** `check --remote` when the vendor changed a document: which, and the API changes since the locked version. */
function describeRemoteChange(report: CheckReport, remote: Extract<RemoteReport, { kind: "changed" }>, paint: Paint): string[] {
  const short = (sha256: string | undefined) => (sha256 === undefined ? "none" : sha256.slice(0, 12));
  const what = (change: DocumentChange) => (change.before === undefined ? "new" : change.after === undefined ? "no longer read" : `sha256 ${short(change.before)} → ${short(change.after)}`);
  const [first] = remote.documents;
  const subject = remote.documents.length === 1 ? `${first!.url} changed on the server (${what(first!)})` : `${remote.documents.length} documents of ${report.spec} changed on the server`;
  const lines: string[] = [];
  const api = remote.api;
  if (api.kind === "changes") {
    const { result } = api;
    lines.push(`specforge: ${subject} since ${report.out}/ was generated: ${summaryLine(result.changes)}${result.changes.length > 0 ? "" : " (only descriptions, examples or other documentation)"}`);
  } else {
    lines.push(`specforge: ${subject} since ${report.out}/ was generated; the API changes cannot be shown: ${api.reason}`);
  }
  if (remote.documents.length > 1) for (const change of remote.documents) lines.push(`  ${change.url} (${what(change)})`);
  if (api.kind === "changes" && api.result.changes.length > 0) lines.push(toText(api.result, { old: api.from, new: api.to }, { paint, limit: CHECK_LIMIT, indent: "  ", heading: false }));
  return lines;
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
 * runner reads them). A project of a config with several has its name in front of each title and heading.
 */
export async function githubActionsReport(report: CheckReport, config: ResolvedConfig, env: NodeJS.ProcessEnv): Promise<string[]> {
  const annotations = await checkAnnotations(report, config, env);
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, projectCheckMarkdown(report, config.project));
  return annotations;
}

/** checkMarkdown, with the project's name in its headings when the config lists several. */
export function projectCheckMarkdown(report: CheckReport, project: string | undefined): string {
  const markdown = checkMarkdown(report);
  return project === undefined ? markdown : markdown.replace(/^### specforge check/gm, `### [${escapeMarkdown(project)}] specforge check`);
}

async function checkAnnotations(report: CheckReport, config: ResolvedConfig, env: NodeJS.ProcessEnv): Promise<string[]> {
  const command = (level: "error" | "warning" | "notice", properties: { file?: string; line?: number; title: string }, message: string) =>
    workflowCommand(level, { ...properties, title: config.project === undefined ? properties.title : `[${config.project}] ${properties.title}` }, message);
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
  if (report.remote?.kind === "changed" && report.remote.api.kind === "changes") {
    // The document is on a server, not in the workspace: annotations without a file.
    const changes = report.remote.api.result.changes;
    for (const [list, level] of [
      [changes.filter(isBreaking), "warning"],
      [changes.filter((c) => !isBreaking(c)), "notice"],
    ] as const) {
      for (const change of list.slice(0, MAX_ANNOTATIONS)) {
        const who = change.breaking.client && change.breaking.server ? "clients and servers" : change.breaking.client ? "clients" : change.breaking.server ? "servers" : undefined;
        annotations.push(command(level, { title: `${who ? `Breaking API change for ${who}` : "Compatible API change"} on the server` }, printable(`${report.spec}: ${change.subject}: ${change.message} (#${change.new})`)));
      }
    }
  }
  return annotations;
}

/** The check as Markdown, for `$GITHUB_STEP_SUMMARY`. */
export function checkMarkdown(report: CheckReport): string {
  const remote = report.remote?.kind === "changed" ? remoteMarkdown(report, report.remote) : "";
  if (!hasDrift(report.drift)) return `${remote}### specforge check: \`${report.out}/\` is up to date with ${remote ? "the locked version of " : ""}\`${report.spec}\`\n\n`;
  const lines = [`${remote}### specforge check: \`${report.out}/\` is out of date with \`${report.spec}\``, ""];
  if (report.unverified) lines.push(`${escapeMarkdown(report.unverified)}: the output was compared with the file hashes its manifest records.`, "");
  if (report.api?.kind === "changes") lines.push(toMarkdown(report.api.result, { old: report.api.from, new: report.api.to }, { level: 4 }));
  else if (report.api?.kind === "unavailable") lines.push(`The spec changed; the API changes cannot be shown: ${escapeMarkdown(report.api.reason)}`, "");
  const count = report.drift.missing.length + report.drift.extra.length + report.drift.stale.length;
  lines.push(`#### Files out of date (${count})`, "");
  for (const path of report.drift.missing) lines.push(`- \`${report.out}/${path}\` (missing)`);
  for (const file of report.drift.stale) {
    const changed = file.path === MANIFEST_FILE ? "" : changedCount(file);
    lines.push(`- \`${report.out}/${file.path}\` (stale${changed ? `: ${changed}` : ""})`);
  }
  for (const path of report.drift.extra) lines.push(`- \`${report.out}/${path}\` (${notAFile(report.drift, path)}not generated from the spec)`);
  lines.push("", `Run \`${report.fix}\` and commit the result.`, "", "");
  return lines.join("\n");
}

/** `check --remote` in Markdown: the vendor changed the spec, and how (for an issue, or `$GITHUB_STEP_SUMMARY`). */
function remoteMarkdown(report: CheckReport, remote: Extract<RemoteReport, { kind: "changed" }>): string {
  const lines = [`### specforge check --remote: the server's \`${report.spec}\` changed since \`${report.out}/\` was generated`, ""];
  for (const change of remote.documents) {
    const what = change.before === undefined ? "new" : change.after === undefined ? "no longer read" : `sha256 \`${change.before.slice(0, 12)}\` → \`${change.after.slice(0, 12)}\``;
    lines.push(`- ${escapeMarkdown(change.url)} (${what})`);
  }
  lines.push("");
  if (remote.api.kind === "changes") lines.push(toMarkdown(remote.api.result, { old: remote.api.from, new: remote.api.to }, { level: 4 }));
  else lines.push(`The API changes cannot be shown: ${escapeMarkdown(remote.api.reason)}`, "");
  lines.push(`Run \`${report.fix}\` to follow it, and commit the result.`, "", "");
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
export function workflowCommand(level: "error" | "warning" | "notice", properties: Record<string, string | number | undefined>, message: string): string {
  const escapeData = (text: string) => text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const escapeProperty = (text: string) => escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
  const props = Object.entries(properties)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(",");
  return `::${level} ${props}::${escapeData(message)}`;
}
