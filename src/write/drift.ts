import { createRequire } from "node:module";
import type { OutputTree } from "./disk.js";

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
  /**
   * The entries among `extra` and `stale` that are not regular files (a symbolic link, a FIFO, a device, a socket),
   * by path: what each is. Such entries are never read or followed.
   */
  notFiles?: Record<string, string>;
}

export interface DiffOptions {
  /** Every line of every diff, uncut. @default false */
  fullDiff?: boolean;
}

/** A stale file's diff as `check` shows it by default: its first lines, each cut to a width a terminal shows. */
export const DIFF_LINES = 40;
export const DIFF_WIDTH = 160;

export const hasDrift = (drift: Drift) => drift.missing.length + drift.extra.length + drift.stale.length > 0;

/** How the content of a file on disk is had, at most `maxBytes` of it (undefined: not a regular file, or larger). */
export type ReadFile = (path: string, maxBytes: number) => Buffer | undefined;

/**
 * Compares what would be generated with what is on disk. Only regular files are read, each at most about twice the
 * size of the file it is compared with; an entry that is not a regular file is reported by name (where a folder of
 * generated files belongs, once for the folder).
 */
export function compareTrees(expected: ReadonlyMap<string, string>, tree: OutputTree, read: ReadFile, outLabel: string, options: DiffOptions = {}): Drift {
  const drift: Drift = { missing: [], extra: [], stale: [] };
  const notFiles: Record<string, string> = {};
  const inTheWay = new Map<string, number>(); // an entry where a folder of generated files belongs: how many files
  for (const [path, content] of [...expected].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const blocker = ancestorIn(tree, path);
    if (blocker !== undefined) {
      inTheWay.set(blocker, (inTheWay.get(blocker) ?? 0) + 1);
      continue;
    }
    const entry = tree.get(path);
    if (entry === undefined) drift.missing.push(path);
    else if (entry.kind === "other") {
      notFiles[path] = entry.what;
      drift.stale.push({ path, diff: `(${entry.what} where specforge writes a file: not read)` });
    } else {
      const wanted = Buffer.from(content);
      if (entry.bytes === wanted.length && read(path, wanted.length)?.equals(wanted)) continue;
      const onDisk = read(path, Math.max(2 * wanted.length, wanted.length + 1024 * 1024));
      drift.stale.push(
        onDisk === undefined
          ? { path, diff: `(${entry.bytes} bytes on disk, the spec makes ${wanted.length}: too large to compare, not read)` }
          : staleFile(path, `${outLabel}/${path}`, onDisk.toString("utf8"), content, options),
      );
    }
  }
  for (const [path, files] of inTheWay) {
    const entry = tree.get(path)!;
    const what = entry.kind === "other" ? entry.what : "a file";
    if (entry.kind === "other") notFiles[path] = what;
    drift.stale.push({ path, diff: `(${what} where specforge writes a folder of ${files} file${files === 1 ? "" : "s"}: not followed)` });
  }
  drift.stale.sort((a, b) => (a.path < b.path ? -1 : 1));
  drift.extra = [...tree.keys()].filter((path) => !expected.has(path) && !inTheWay.has(path)).sort();
  for (const path of drift.extra) {
    const entry = tree.get(path)!;
    if (entry.kind === "other") notFiles[path] = entry.what;
  }
  if (Object.keys(notFiles).length > 0) drift.notFiles = notFiles;
  return drift;
}

/** The entry of `tree` that stands where a folder of `path` belongs (`runtime` for `runtime/client/x.ts`), if any. */
function ancestorIn(tree: OutputTree, path: string): string | undefined {
  for (let slash = path.indexOf("/"); slash !== -1; slash = path.indexOf("/", slash + 1)) {
    const folder = path.slice(0, slash);
    if (tree.has(folder)) return folder;
  }
  return undefined;
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
