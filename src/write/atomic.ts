import { randomBytes } from "node:crypto";
import { copyFileSync, linkSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { inspectOutputFolder } from "./disk.js";

export interface WriteSummary {
  written: string[];
  unchanged: string[];
  removed: string[];
}

export interface WriteHooks {
  /** Called after the new tree is complete in the temporary folder, before the swap (tests inject failures here). */
  beforeSwap?: () => void;
}

/**
 * Makes `outDir` hold exactly `files`, all at once: the new tree is built in a temporary folder beside it
 * (unchanged files are hard links to the current ones, so they are not rewritten), then swapped in with two
 * renames. On any error before the swap, the output folder is untouched; if the second rename fails, the first is
 * undone. Nothing is written at all when every file is already current.
 */
export function writeOutputFolder(
  outDir: string,
  shown: string,
  files: ReadonlyMap<string, string>,
  hooks: WriteHooks = {},
): WriteSummary {
  const state = inspectOutputFolder(outDir, shown);
  const current = state.kind === "owned" ? state.files : new Map<string, Buffer>();
  const summary: WriteSummary = { written: [], unchanged: [], removed: [] };
  for (const [path, content] of files) {
    const old = current.get(path);
    if (old && old.equals(Buffer.from(content))) summary.unchanged.push(path);
    else summary.written.push(path);
  }
  summary.removed = [...current.keys()].filter((path) => !files.has(path)).sort();
  if (summary.written.length === 0 && summary.removed.length === 0 && state.kind !== "absent") return summary;

  const parent = dirname(outDir);
  mkdirSync(parent, { recursive: true });
  const tag = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const temp = join(parent, `.${basename(outDir)}.specforge-new-${tag}`);
  try {
    mkdirSync(temp);
    const unchanged = new Set(summary.unchanged);
    for (const [path, content] of files) {
      const target = join(temp, path);
      mkdirSync(dirname(target), { recursive: true });
      if (unchanged.has(path)) linkOrCopy(join(outDir, path), target);
      else writeFileSync(target, content);
    }
    hooks.beforeSwap?.();
    swapIn(temp, outDir, state.kind !== "absent", join(parent, `.${basename(outDir)}.specforge-old-${tag}`));
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw error;
  }
  return summary;
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
  rmSync(backup, { recursive: true, force: true });
}
