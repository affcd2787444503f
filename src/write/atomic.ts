import { randomBytes } from "node:crypto";
import { copyFileSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { readRegularFile } from "../load/read.js";
import { fileSystemUserError, inspectOutputFolder, type OutputTree } from "./disk.js";

export interface WriteSummary {
  written: string[];
  unchanged: string[];
  removed: string[];
}

export interface WriteHooks {
  /** Called after the new tree is complete in the temporary folder, before the swap (tests inject failures here). */
  beforeSwap?: () => void;
  /** Removes the previous output once the new one is in place (tests inject a failing removal here). */
  removeOldOutput?: (path: string) => void;
}

/**
 * Makes `outDir` hold exactly `files`, all at once: the new tree is built in a temporary folder beside it
 * (unchanged files are hard links to the current ones, so they are not rewritten), then swapped in with two
 * renames. On any error before the swap, the output folder is untouched; if the second rename fails, the first is
 * undone. Nothing is written at all when every file is already current.
 *
 * The temporary folders are `.<out>.specforge-new-<pid>-<hex>` and `.<out>.specforge-old-<pid>-<hex>`. Removing the
 * old tree after the swap may fail (a file held open on Windows, a read-only leftover): the run still succeeds, and
 * every run first removes such leftovers of earlier runs whose process is gone.
 *
 * A file-system refusal (permissions, read-only or full disk) is a UserError naming the output folder.
 */
export function writeOutputFolder(
  outDir: string,
  shown: string,
  files: ReadonlyMap<string, string>,
  hooks: WriteHooks = {},
): WriteSummary {
  const state = inspectOutputFolder(outDir, shown);
  const parent = dirname(outDir);
  removeLeftovers(parent, basename(outDir));
  const current: OutputTree = state.kind === "owned" ? state.tree : new Map();
  const summary: WriteSummary = { written: [], unchanged: [], removed: [] };
  for (const [path, content] of files) {
    if (isUnchanged(outDir, current, path, content)) summary.unchanged.push(path);
    else summary.written.push(path);
  }
  summary.removed = [...current.keys()].filter((path) => !files.has(path)).sort();
  if (summary.written.length === 0 && summary.removed.length === 0 && state.kind !== "absent") return summary;

  const tag = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const temp = join(parent, `.${basename(outDir)}.specforge-new-${tag}`);
  let swapped = false;
  try {
    mkdirSync(parent, { recursive: true });
    mkdirSync(temp);
    const unchanged = new Set(summary.unchanged);
    for (const [path, content] of files) {
      const target = join(temp, path);
      mkdirSync(dirname(target), { recursive: true });
      if (unchanged.has(path)) linkOrCopy(join(outDir, path), target);
      else writeFileSync(target, content);
    }
    hooks.beforeSwap?.();
    const backup = join(parent, `.${basename(outDir)}.specforge-old-${tag}`);
    swapIn(temp, outDir, state.kind !== "absent", backup);
    swapped = true;
    if (state.kind !== "absent") {
      try {
        (hooks.removeOldOutput ?? removeTree)(backup);
      } catch {
        // The new output is in place; the old tree is removed by the next run (removeLeftovers).
      }
    }
  } catch (error) {
    if (!swapped) {
      try {
        rmSync(temp, { recursive: true, force: true });
      } catch {
        // A temporary folder that cannot be removed is a leftover for the next run.
      }
    }
    throw fileSystemUserError(error, shown, "write") ?? error;
  }
  return summary;
}

/**
 * Whether the output folder already holds `content` at `path` as a regular file: read only when the size is right,
 * never through a link. Anything else there (a link, a FIFO, another size) is replaced.
 */
function isUnchanged(outDir: string, current: OutputTree, path: string, content: string): boolean {
  const entry = current.get(path);
  const wanted = Buffer.from(content);
  return entry?.kind === "file" && entry.bytes === wanted.length && readRegularFile(join(outDir, path), wanted.length)?.equals(wanted) === true;
}

function removeTree(path: string): void {
  rmSync(path, { recursive: true, force: true });
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to); // file systems without hard links
  }
}

function swapIn(temp: string, outDir: string, exists: boolean, backup: string): void {
  if (!exists) {
    renameSync(temp, outDir);
    return;
  }
  renameSync(outDir, backup);
  try {
    renameSync(temp, outDir);
  } catch (error) {
    renameSync(backup, outDir);
    throw error;
  }
}

const LEFTOVER = /^\.(.+)\.specforge-(?:new|old)-(\d+)-[0-9a-f]{8}$/;

/**
 * Removes the temporary folders of earlier runs for this output folder: a cleanup that failed, or a run that was
 * killed half-way. A folder whose process is still running (another `generate` at this moment) is left alone.
 */
export function removeLeftovers(parent: string, outName: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(parent);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of entries) {
    const match = LEFTOVER.exec(name);
    if (!match || match[1] !== outName) continue;
    const pid = Number(match[2]);
    if (pid !== process.pid && isRunning(pid)) continue;
    try {
      rmSync(join(parent, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Still not removable: tried again on the next run.
    }
  }
  return removed;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // alive, owned by another user
  }
}
