import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { ROOT } from "./helpers.js";

const SELF = fileURLToPath(import.meta.url);
/** Ways a test reaches ../shared: the path itself, or the names test/corpus/shared.ts exports for it. */
const READS_SHARED = [/\.\.\/shared\b/, /["']\.\.["']\s*,\s*["']shared["']/, /\b(SHARED|CORPUS|VENDOR_SPEC)\b/, /from\s+["'][^"']*\/corpus\//];

/**
 * `npm test` passes in a clone of this repository alone. CI proves it by running the suite where ../shared is out
 * of reach (.ci/run); this test names the file at fault before that: only test/corpus/ may read ../shared.
 */
describe("npm test needs nothing outside the repository", () => {
  it("no test outside test/corpus/ reads ../shared or imports test/corpus/", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== "corpus" && entry.name !== ".out" && entry.name !== "node_modules") walk(path);
        } else if (/\.(ts|mts|mjs|js)$/.test(entry.name) && path !== SELF) {
          const text = readFileSync(path, "utf8");
          for (const [index, line] of text.split("\n").entries()) {
            if (READS_SHARED.some((pattern) => pattern.test(line))) offenders.push(`${relative(ROOT, path)}:${index + 1}: ${line.trim()}`);
          }
        }
      }
    };
    walk(join(ROOT, "test"));
    expect(offenders).toEqual([]);
  });
});
