import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import type { ResolvedConfig } from "../config/resolve.js";
import { escapeMarkdown, printable, summaryLine, toMarkdown, toText } from "../diff/format.js";
import { isBreaking, type DiffResult } from "../diff/model.js";
import { toDisplayPath, type LoadedSpec } from "../load/index.js";
import { LockedCopyMissing } from "../load/remote.js";
import { isHttpUrl } from "../load/url.js";
import { isProvablyCurrent, manifestDrift } from "../write/fast-check.js";
import { hasDrift, type Drift } from "../write/drift.js";
import { MANIFEST_FILE, lockedDocuments, manifestInputs, pathFromOutput, readManifest } from "../write/manifest.js";
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
  /**
   * Why the output could not be regenerated to compare with (the locked version of a document from a URL is not in
   * the cache): the drift is what the manifest's hashes prove, without diffs.
   */
  unverified?: string;
  /** `check --remote`: whether the documents from URLs are still the versions the output was generated from. */
  remote?: RemoteReport;
}

/** What `check --remote` found on the servers. */
export type RemoteReport =
  /** Nothing to ask: the spec reads no documents from URLs, or the output locks none yet. */
  | { kind: "none"; reason: string }
  | { kind: "unchanged"; documents: string[] }
  | { kind: "changed"; documents: DocumentChange[]; api: ApiExplanation };

/** A document from a URL whose version differs from the locked one (`before` absent: new; `after` absent: no longer read). */
export interface DocumentChange {
  url: string;
  before?: string;
  after?: string;
}

export interface CheckOptions {
  /** Regenerate and compare even when the manifest proves the output current. */
  regenerate?: boolean;
  /** The caller has just run isProvablyCurrent (a check of several projects), so it is not run twice. */
  provenCurrent?: boolean;
  /** Also ask the servers whether the documents from URLs are still the locked versions (`check --remote`). */
  remote?: boolean;
}

/** Whether a check fails (exit 1): the output drifted, or (`--remote`) the vendor changed the spec. */
export function checkFailed(report: CheckReport): boolean {
  return hasDrift(report.drift) || report.remote?.kind === "changed";
}

/**
 * `specforge check`: is the output folder exactly what `generate` would write? Writes nothing (but the cache). A
 * spec from a URL is the version the manifest locks, read from the cache: no network. With `remote`, the servers
 * are asked too.
 */
export async function runCheck(config: ResolvedConfig, options: CheckOptions = {}): Promise<CheckReport> {
  const started = performance.now();
  const out = toDisplayPath(config.out, config.cwd);
  const spec = toDisplayPath(config.spec, config.cwd);
  // The same config, project and flags that this check was given, so the fix regenerates exactly this output.
  const fix = ["npx specforge generate", ...(config.regenerateArgs ?? [])].join(" ");
  let report: CheckReport;
  if (!options.regenerate && (options.provenCurrent || (await isProvablyCurrent(config)))) {
    report = { out, spec, fast: true, fix, drift: { missing: [], extra: [], stale: [] }, milliseconds: 0 };
  } else {
    // Regenerating needs the emitters (openapi-typescript, TypeScript, ts-morph): load them only on this path.
    const { findDrift } = await import("../pipeline.js");
    try {
      const { drift, spec: loaded } = await findDrift(config, out, { remote: "locked" });
      const api = hasDrift(drift) ? await explainSpecChange(config, loaded, spec) : undefined;
      report = { out, spec, fast: false, fix, drift, milliseconds: 0, ...(api ? { api } : {}) };
    } catch (error) {
      if (!(error instanceof LockedCopyMissing)) throw error;
      const drift = await manifestDrift(config, "the locked spec is not in the cache, so there is no diff");
      report = { out, spec, fast: false, fix, drift, milliseconds: 0, unverified: `${error.location}: ${error.message}` };
    }
  }
  if (options.remote) report.remote = await checkRemote(config, out, spec);
  report.milliseconds = performance.now() - started;
  return report;
}

/**
 * `check --remote`: asks each server, conditionally with the locked version's validators, whether the document is
 * still that version (a 304, or the same bytes). When one changed, the spec is loaded as it is now and as it was
 * locked (from the cache), and compared: the API change report of `specforge diff`.
 */
async function checkRemote(config: ResolvedConfig, out: string, specShown: string): Promise<RemoteReport> {
  const manifest = readManifest(config.out);
  const lock = lockedDocuments(manifest);
  if (!manifest || lock.size === 0) {
    return { kind: "none", reason: isHttpUrl(config.spec) ? `${out}/ locks no version of ${specShown} yet: run \`specforge generate\`` : `${specShown} reads no documents from URLs` };
  }
  if (manifest.spec !== pathFromOutput(config.out, config.spec)) {
    return { kind: "none", reason: `${out}/ was generated from ${isHttpUrl(manifest.spec) ? manifest.spec : toDisplayPath(resolve(config.out, manifest.spec), config.cwd)}, not ${specShown}: run \`specforge generate\`` };
  }
  const [{ fetchPolicy, loadSpecSource, probeDocuments }, { RemoteCache }, { diffDocuments }] = await Promise.all([
    import("../load/remote-documents.js"),
    import("../load/remote-cache.js"),
    import("../diff/compare.js"),
  ]);
  const cache = new RemoteCache(config.fetch.cacheDir);
  // The ETag the manifest recorded, and the one the cache last saw for the same bytes (a CDN may send another for
  // them): If-None-Match takes a list, so either one answers 304.
  const known = new Map(
    [...lock].map(([url, locked]) => {
      const seen = cache.versions(url).find((version) => version.sha256 === locked.sha256)?.etag;
      const etags = [...new Set([locked.etag, seen].filter((etag): etag is string => etag !== undefined))];
      return [url, { ...locked, ...(etags.length > 0 ? { etag: etags.join(", ") } : {}) }] as const;
    }),
  );
  const results = await probeDocuments(known, fetchPolicy(config), cache);
  for (const result of results) if ("error" in result) throw result.error;
  if (!results.some((result) => "changed" in result && result.changed)) return { kind: "unchanged", documents: [...lock.keys()] };

  const current = await loadSpecSource(config, { mode: "network" });
  const now = new Map(current.files.filter((f) => f.remote).map((f) => [f.path, f.sha256]));
  const documents: DocumentChange[] = [];
  for (const [url, locked] of lock) {
    const after = now.get(url);
    if (after !== locked.sha256) documents.push({ url, before: locked.sha256, ...(after !== undefined ? { after } : {}) });
  }
  for (const [url, after] of now) if (!lock.has(url)) documents.push({ url, after });
  if (documents.length === 0) return { kind: "unchanged", documents: [...lock.keys()] };
  let api: ApiExplanation;
  try {
    const lockedEntry = isHttpUrl(manifest.spec) ? manifest.spec : resolve(config.out, manifest.spec);
    const previous = await loadSpecSource({ ...config, spec: lockedEntry }, { mode: "locked", lock });
    const label = toDisplayPath(lockedEntry, config.cwd);
    api = { kind: "changes", result: diffDocuments(previous.document, current.document), from: `${label} (as generated)`, to: `${specShown} (now)` };
  } catch (error) {
    if (!(error instanceof LockedCopyMissing)) throw error;
    api = { kind: "unavailable", reason: `${error.location}: ${error.message}` };
  }
  return { kind: "changed", documents, api };
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
  if (Object.keys(recorded.inputs).some(isHttpUrl)) {
    // The documents from URLs are the locked versions here; what changed on the servers is `check --remote`'s.
    return { kind: "unavailable", reason: "the spec reads documents from URLs, which are not in git (`specforge check --remote` compares those with the servers)" };
  }
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
  const { drift, remote } = report;
  const lines: string[] = remote?.kind === "changed" ? [...describeRemoteChange(report, remote, paint), ""] : [];
  if (!hasDrift(drift)) {
    if (remote?.kind === "changed") lines.push(`specforge: ${report.out}/ is up to date with the version of ${report.spec} it locks; run \`${report.fix}\` to follow the current one`);
    else if (remote?.kind === "unchanged") lines.push(`specforge: ${report.out}/ is up to date with ${report.spec}, and the server still has the version it locks${remote.documents.length > 1 ? ` (all ${remote.documents.length} documents)` : ""}`);
    else if (remote?.kind === "none") lines.push(`specforge: ${report.out}/ is up to date with ${report.spec} (nothing to ask a server: ${remote.reason})`);
    else lines.push(`specforge: ${report.out}/ is up to date with ${report.spec}`);
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
  for (const path of drift.extra) lines.push(`${paint.yellow("extra:")}   ${report.out}/${path} (not generated from the spec)`);
  for (const { path, diff } of drift.stale) {
    // The manifest's diff is hashes: what it records is said above.
    if (path === MANIFEST_FILE) lines.push(`${paint.yellow("stale:")}   ${report.out}/${path} (the spec, generator and file hashes it records)`);
    else lines.push(`${paint.yellow("stale:")}   ${report.out}/${path}`, indent(diff, paint), "");
  }
  const count = drift.missing.length + drift.extra.length + drift.stale.length;
  lines.push(`specforge: ${report.out}/ is out of date with ${report.spec} (${count} file${count === 1 ? "" : "s"}); run \`${report.fix}\``);
  if (remote?.kind === "unchanged") lines.push(`specforge: the server still has the version of ${report.spec} that ${report.out}/ locks`);
  return lines.join("\n");
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
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, checkMarkdown(report));
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
  for (const { path } of report.drift.stale) lines.push(`- \`${report.out}/${path}\` (stale)`);
  for (const path of report.drift.extra) lines.push(`- \`${report.out}/${path}\` (not generated from the spec)`);
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
function command(level: "error" | "warning" | "notice", properties: Record<string, string | number | undefined>, message: string): string {
  const escapeData = (text: string) => text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const escapeProperty = (text: string) => escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
  const props = Object.entries(properties)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(",");
  return `::${level} ${props}::${escapeData(message)}`;
}
