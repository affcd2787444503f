/**
 * The three renderings of a diff: text for a terminal (coloured only there), Markdown for a pull-request comment or
 * `$GITHUB_STEP_SUMMARY`, and JSON (documented in docs/ci.md, `version: 1`, fields only ever added).
 */
import { plain, type Paint } from "../commands/output.js";
import { GROUPS, summarize, type Change, type DiffResult, type DiffSummary } from "./model.js";

export interface DiffLabels {
  /** How the two versions are named: `spec/openapi.yaml`, `git:HEAD~1:spec/openapi.yaml`. */
  old: string;
  new: string;
}

export interface DiffJson {
  version: 1;
  old: { source: string; apiVersion?: string };
  new: { source: string; apiVersion?: string };
  summary: DiffSummary;
  changes: Change[];
}

export function toJson(result: DiffResult, labels: DiffLabels): DiffJson {
  return {
    version: 1,
    old: { source: labels.old, ...(result.versions.old !== undefined ? { apiVersion: result.versions.old } : {}) },
    new: { source: labels.new, ...(result.versions.new !== undefined ? { apiVersion: result.versions.new } : {}) },
    summary: summarize(result.changes),
    changes: result.changes,
  };
}

/** `2 breaking for clients, 1 breaking for servers, 5 compatible` (or `no API changes`). */
export function summaryLine(changes: readonly Change[]): string {
  const s = summarize(changes);
  if (s.total === 0) return "no API changes";
  const parts = [`${s.breakingForClients} breaking for clients`, `${s.breakingForServers} breaking for servers`, `${s.compatible} compatible`];
  return `${s.total} API change${s.total === 1 ? "" : "s"}: ${parts.join(", ")}`;
}

const pointerText = (pointer: string) => `#${printable(pointer)}`;

/**
 * Text from a spec as it may be shown on a terminal or in a CI log: control characters (an escape sequence in a
 * property name could rewrite the terminal) are written as `\u001b`.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The operations line of a change, when the subject does not already say which operation it is. */
function affected(change: Change, max: number): string | undefined {
  if (change.operations.length === 0) return undefined;
  if (change.operations.length === 1 && change.subject.startsWith(change.operations[0]!)) return undefined;
  const shown = change.operations.slice(0, max).join(", ");
  return change.operations.length > max ? `${shown} and ${change.operations.length - max} more` : shown;
}

/** `(in requests)` / `(in responses)` after a change inside a shared schema, where the subject does not say it. */
function directionNote(change: Change): string {
  if (!change.direction || change.operations.some((op) => change.subject.startsWith(op))) return "";
  return change.direction === "request" ? " (in requests)" : " (in responses)";
}

export interface TextOptions {
  paint?: Paint;
  /** At most this many changes per group; the rest are counted. @default unlimited */
  limit?: number;
  /** Indent every line (check puts the summary under its own heading). */
  indent?: string;
  /** Start with the line naming both versions and counting the changes. @default true */
  heading?: boolean;
}

export function toText(result: DiffResult, labels: DiffLabels, options: TextOptions = {}): string {
  const paint = options.paint ?? plain;
  const indent = options.indent ?? "";
  const version = (v?: string) => (v === undefined ? "" : ` (${v})`);
  const lines = options.heading === false ? [] : [`API: ${labels.old}${printable(version(result.versions.old))} → ${labels.new}${printable(version(result.versions.new))}: ${summaryLine(result.changes)}`];
  for (const group of GROUPS) {
    const changes = result.changes.filter((c) => group.test(c.breaking));
    if (changes.length === 0) continue;
    const colour = group.key === "compatible" ? paint.green : group.key === "server" ? paint.yellow : paint.red;
    if (lines.length > 0) lines.push("");
    lines.push(colour(`${group.title} (${changes.length})`));
    const shown = options.limit === undefined ? changes : changes.slice(0, options.limit);
    for (const change of shown) {
      lines.push(`  - ${printable(change.subject)}: ${printable(change.message)}${directionNote(change)}`);
      const where = change.old === change.new ? pointerText(change.new) : `${pointerText(change.old)} → ${pointerText(change.new)}`;
      lines.push(paint.dim(`      ${where}`));
      const ops = affected(change, 3);
      if (ops) lines.push(paint.dim(`      affects ${printable(ops)}`));
    }
    if (shown.length < changes.length) lines.push(`  … and ${changes.length - shown.length} more (\`specforge diff\` lists them all)`);
  }
  return lines.map((line) => (line ? indent + line : line)).join("\n");
}

export interface MarkdownOptions {
  /** Heading level of the title. @default 3 */
  level?: number;
  /** At most this many changes per group (a PR comment holds 65,536 characters). @default 200 */
  limit?: number;
}

export function toMarkdown(result: DiffResult, labels: DiffLabels, options: MarkdownOptions = {}): string {
  const level = options.level ?? 3;
  const limit = options.limit ?? 200;
  const h = (n: number) => "#".repeat(Math.min(n, 6));
  const s = summarize(result.changes);
  const version = (v?: string) => (v === undefined ? "" : ` (${escapeMarkdown(v)})`);
  const lines = [`${h(level)} API changes: ${code(labels.old)}${version(result.versions.old)} → ${code(labels.new)}${version(result.versions.new)}`, ""];
  if (s.total === 0) {
    lines.push("No API changes.");
    return lines.join("\n") + "\n";
  }
  lines.push(`**${s.breakingForClients}** breaking for clients · **${s.breakingForServers}** breaking for servers · **${s.compatible}** compatible`, "");
  for (const group of GROUPS) {
    const changes = result.changes.filter((c) => group.test(c.breaking));
    if (changes.length === 0) continue;
    const items = changes.slice(0, limit).map((change) => {
      const where = change.old === change.new ? code(pointerText(change.new)) : `${code(pointerText(change.old))} → ${code(pointerText(change.new))}`;
      const ops = affected(change, 5);
      return `- ${code(change.subject)}: ${escapeMarkdown(change.message + directionNote(change))}<br><sub>${where}${ops ? ` · affects ${escapeMarkdown(ops)}` : ""}</sub>`;
    });
    if (changes.length > limit) items.push(`- … and ${changes.length - limit} more (\`specforge diff --format json\` lists them all)`);
    const title = `${group.title} (${changes.length})`;
    if (group.key === "compatible") lines.push("<details>", `<summary>${title}</summary>`, "", ...items, "", "</details>", "");
    else lines.push(`${h(level + 1)} ${title}`, "", ...items, "");
  }
  return lines.join("\n");
}

/** An inline code span that holds any text (backticks in it get a longer fence). */
function code(text: string): string {
  const clean = text.replace(/[\r\n]+/g, " ");
  const longest = Math.max(0, ...[...clean.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = clean.startsWith("`") || clean.endsWith("`") ? " " : "";
  return `${fence}${pad}${clean}${pad}${fence}`;
}

/** Text from a spec in Markdown prose: no HTML, no emphasis, no links, one line. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\r\n]+/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/([\\`*_[\]()#|!~])/g, "\\$1");
}
