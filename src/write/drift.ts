import { createRequire } from "node:module";

/** `diff`, loaded when a file differs (a `check` that finds nothing stale never needs it). */
const loadDiff = () => createRequire(import.meta.url)("diff") as typeof import("diff");

/** A file whose content on disk is not what `generate` would write. */
export interface StaleFile {
  path: string;
  /**
   * A unified diff from the file on disk to the regenerated one: whole (`fullDiff`), or its first DIFF_LINES lines
   * (hunks only), each cut at DIFF_WIDTH columns.
   */
  diff: string;
  /**
   * Lines the diff adds and removes; absent when only the manifest's hashes prove the file stale, or when the diff
   * was not computed (`lines`).
   */
  added?: number;
  removed?: number;
  /** The lines on disk and generated, when the files differ too much to diff in time. */
  lines?: { onDisk: number; generated: number };
  /** Lines of the diff left out of `diff`. */
  hidden?: number;
  /** Whether `diff` is not the whole diff: lines left out or cut. */
  abridged?: boolean;
}

export interface Drift {
  missing: string[];
  extra: string[];
  stale: StaleFile[];
}

export interface DiffOptions {
  /** Every line of every diff, uncut. @default false */
  fullDiff?: boolean;
}

/** A stale file's diff as `check` shows it by default: its first lines, each cut to a width a terminal shows. */
export const DIFF_LINES = 40;
export const DIFF_WIDTH = 160;

export const hasDrift = (drift: Drift) => drift.missing.length + drift.extra.length + drift.stale.length > 0;

/** Compares what would be generated with what is on disk. */
export function compareTrees(expected: ReadonlyMap<string, string>, actual: ReadonlyMap<string, Buffer>, outLabel: string, options: DiffOptions = {}): Drift {
  const drift: Drift = { missing: [], extra: [], stale: [] };
  for (const [path, content] of [...expected].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const onDisk = actual.get(path);
    if (onDisk === undefined) drift.missing.push(path);
    else if (!onDisk.equals(Buffer.from(content))) drift.stale.push(staleFile(path, `${outLabel}/${path}`, onDisk.toString("utf8"), content, options));
  }
  drift.extra = [...actual.keys()].filter((path) => !expected.has(path)).sort();
  return drift;
}

/** A stale file: the unified diff from the file on disk to the regenerated file, its size, and what is shown of it. */
export function staleFile(path: string, label: string, onDisk: string, expected: string, options: DiffOptions = {}): StaleFile {
  // A bounded diff: a file rewritten from top to bottom must not make `check` slow (unless asked for the whole diff).
  const patch = loadDiff().createTwoFilesPatch(`${label} (on disk)`, `${label} (from the spec)`, onDisk, expected, "", "", {
    context: 2,
    timeout: options.fullDiff ? 60_000 : 1000,
  });
  if (patch === undefined) {
    const count = (text: string) => (text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0));
    return { path, diff: "(too many differences to show)", lines: { onDisk: count(onDisk), generated: count(expected) }, ...(options.fullDiff ? {} : { abridged: true }) };
  }
  const lines = patch
    .split("\n")
    .filter((line) => !/^={10,}$/.test(line) && !line.startsWith("Index: "))
    .map((line) => line.replace(/\t$/, ""));
  while (lines.at(-1) === "") lines.pop();
  const hunks = lines.slice(lines.findIndex((line) => line.startsWith("@@")));
  const added = hunks.filter((line) => line.startsWith("+")).length;
  const removed = hunks.filter((line) => line.startsWith("-")).length;
  if (options.fullDiff) return { path, diff: lines.join("\n"), added, removed };
  const shown = hunks.slice(0, DIFF_LINES).map(cutLine);
  const hidden = hunks.length - shown.length;
  const abridged = hidden > 0 || shown.some((line, i) => line !== hunks[i]);
  return { path, diff: shown.join("\n"), added, removed, ...(hidden > 0 ? { hidden } : {}), ...(abridged ? { abridged } : {}) };
}

/** A diff line cut to DIFF_WIDTH columns, `…` in place of the rest (never between the halves of a surrogate pair). */
function cutLine(line: string): string {
  if (line.length <= DIFF_WIDTH) return line;
  let end = DIFF_WIDTH - 1;
  if (/[\uD800-\uDBFF]/.test(line[end - 1]!)) end--;
  return `${line.slice(0, end)}…`;
}
