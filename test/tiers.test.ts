import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "./helpers.js";
import { END_TO_END_TESTS } from "./tiers.js";

const listed = END_TO_END_TESTS.filter((entry) => !entry.includes("*"));
/** The folders listed whole (`test/cli/**\/*.test.ts`). */
const folders = END_TO_END_TESTS.filter((entry) => entry.endsWith("/**/*.test.ts")).map((entry) => entry.slice(0, -"**/*.test.ts".length));
const endToEnd = (file: string) => listed.includes(file) || folders.some((folder) => file.startsWith(folder));

/** Every test file below test/, outside the corpus and consumer tiers and test/e2e/ (wholly end-to-end). */
function quickCandidates(dir = join(ROOT, "test")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ["corpus", "consumers", "e2e", "node_modules", ".out"].includes(entry.name) ? [] : quickCandidates(path);
    return entry.name.endsWith(".test.ts") ? [relative(ROOT, path).split("\\").join("/")] : [];
  });
}

it("every end-to-end file the tiers name exists (a stale entry would let a renamed file slip into the quick tier)", () => {
  expect(listed.length).toBeGreaterThan(20);
  expect(listed.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
});

it("the quick tier starts no process: a test file that runs the bin, tsc or a child process is end-to-end", () => {
  const spawning = /\b(runBin|runCli|runAsUser|runMeasured|typecheck|execFileSync|execFile|spawnSync|spawn|fork)\(/;
  const quick = quickCandidates().filter((file) => !endToEnd(file));
  expect(quick.length).toBeGreaterThan(40);
  expect(quick.filter((file) => spawning.test(readFileSync(join(ROOT, file), "utf8")))).toEqual([]);
});
