import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "./helpers.js";
import { END_TO_END_TESTS } from "./tiers.js";

it("every end-to-end file the tiers name exists (a stale entry would let a renamed file slip into the quick tier)", () => {
  const files = END_TO_END_TESTS.filter((entry) => !entry.includes("*"));
  expect(files.length).toBeGreaterThan(20);
  expect(files.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
});
