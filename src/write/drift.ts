import { createRequire } from "node:module";

/** `diff`, loaded when a file differs (a `check` that finds nothing stale never needs it). */
const loadDiff = () => createRequire(import.meta.url)("diff") as typeof import("diff");

export interface Drift {
  missing: string[];
  extra: string[];
  stale: { path: string; diff: string }[];
}

export const hasDrift = (drift: Drift) => drift.missing.length + drift.extra.length + drift.stale.length > 0;

/** Compares what would be generated with what is on disk. */
export function compareTrees(
  expected: ReadonlyMap<string, string>,
  actual: ReadonlyMap<string, Buffer>,
  outLabel: string,
  maxDiffLines = 40,
): Drift {
  const drift: Drift = { missing: [], extra: [], stale: [] };
  for (const [path, content] of [...expected].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const onDisk = actual.get(path);
    if (onDisk === undefined) drift.missing.push(path);
    else if (!onDisk.equals(Buffer.from(content))) {
      drift.stale.push({ path, diff: shortDiff(`${outLabel}/${path}`, onDisk.toString("utf8"), content, maxDiffLines) });
    }
  }
  drift.extra = [...actual.keys()].filter((path) => !expected.has(path)).sort();
  return drift;
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
