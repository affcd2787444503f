import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers.js";

/**
 * test/corpus/.out/report.md, which `.ci/run` prints: one section per corpus test file, each written when that file
 * ends (files run one after another), in the order of their section names.
 */
const OUT = join(ROOT, "test", "corpus", ".out");
const SECTIONS = join(OUT, "report-sections");

/** Forgets the sections of an earlier run (the corpus run's global setup). */
export function clearReport(): void {
  rmSync(SECTIONS, { recursive: true, force: true });
}

/** Writes one section (`name` orders it) and rebuilds report.md from every section written so far. */
export function writeReportSection(name: string, markdown: string): void {
  mkdirSync(SECTIONS, { recursive: true });
  writeFileSync(join(SECTIONS, `${name}.md`), markdown.endsWith("\n") ? markdown : `${markdown}\n`);
  const sections = readdirSync(SECTIONS)
    .filter((file) => file.endsWith(".md"))
    .sort()
    .map((file) => readFileSync(join(SECTIONS, file), "utf8"));
  writeFileSync(join(OUT, "report.md"), sections.join("\n"));
}
