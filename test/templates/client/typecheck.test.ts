/**
 * The runtime is compiled by downstream projects under their own settings. Check it, with the type tests, under the
 * strictest common options (exactOptionalPropertyTypes, noUncheckedIndexedAccess, …) both in a browser project (DOM
 * library, no Node types) and in a Node project (Node's fetch types, no DOM library).
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

test.each(["tsconfig.strictest.json", "tsconfig.strictest-node.json"])("compiles under %s", (config) => {
  let output = "";
  try {
    execFileSync(process.execPath, [tsc, "-p", join(here, config)], { encoding: "utf8" });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  expect(output).toBe("");
});
