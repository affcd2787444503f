import { createRequire } from "node:module";
import type { OutputTree } from "./disk.js";

/** `diff`, loaded when a file differs (a `check` that finds nothing stale never needs it). */
const loadDiff = () => createRequire(import.meta.url)("diff") as typeof import("diff");

export interface Drift {
  missing: string[];
  extra: string[];
  stale: { path: string; diff: string }[];
  /**
   * The entries among `extra` and `stale` that are not regular files (a symbolic link, a FIFO, a device, a socket),
   * by path: what each is. Such entries are never read or followed.
   */
  notFiles?: Record<string, string>;
}

export const hasDrift = (drift: Drift) => drift.missing.length + drift.extra.length + drift.stale.length > 0;

/** How the content of a file on disk is had, at most `maxBytes` of it (undefined: not a regular file, or larger). */
export type ReadFile = (path: string, maxBytes: number) => Buffer | undefined;

/**
 * Compares what would be generated with what is on disk. Only regular files are read, each at most about twice the
 * size of the file it is compared with; an entry that is not a regular file is reported by name (where a folder of
 * generated files belongs, once for the folder).
 */
export function compareTrees(expected: ReadonlyMap<string, string>, tree: OutputTree, read: ReadFile, outLabel: string, maxDiffLines = 40): Drift {
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
      const diff = onDisk === undefined ? `(${entry.bytes} bytes on disk, the spec makes ${wanted.length}: too large to compare, not read)` : shortDiff(`${outLabel}/${path}`, onDisk.toString("utf8"), content, maxDiffLines);
      drift.stale.push({ path, diff });
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

/** A unified diff from the file on disk to the regenerated file, cut after `maxLines` lines. */
export function shortDiff(label: string, onDisk: string, expected: string, maxLines: number): string {
  // A bounded diff: a file rewritten from top to bottom must not make `check` slow.
  const patch = loadDiff().createTwoFilesPatch(`${label} (on disk)`, `${label} (from the spec)`, onDisk, expected, "", "", {
    context: 2,
    timeout: 1000,
  });
  if (patch === undefined) return `--- ${label} (on disk)\n+++ ${label} (from the spec)\n(too many differences to show)`;
  const lines = patch
    .split("\n")
    .filter((line) => !/^={10,}$/.test(line))
    .map((line) => line.replace(/\t$/, ""));
  const shown = lines.slice(0, maxLines);
  if (lines.length > maxLines) shown.push(`… ${lines.length - maxLines} more diff lines`);
  return shown.join("\n").trimEnd();
}
