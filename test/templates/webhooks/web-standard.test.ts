import { spawnSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT, tempDir } from "../../helpers.js";

/**
 * The webhook runtime is web-standard: every module but its node:http adapter (node.ts) and the index that re-exports
 * it type-checks for a worker (`lib: ["es2022", "webworker"]`) without @types/node, so it runs on edge runtimes.
 */
it("the webhook runtime type-checks with lib es2022 + webworker and no @types/node", () => {
  const folder = join(ROOT, "templates", "webhooks");
  const files = readdirSync(folder)
    .filter((name) => name.endsWith(".ts") && name !== "node.ts" && name !== "index.ts")
    .map((name) => join(folder, name));
  expect(files.length).toBeGreaterThanOrEqual(7);
  const dir = tempDir();
  const compilerOptions = { strict: true, noEmit: true, lib: ["es2022", "webworker"], types: [], typeRoots: [], target: "es2022", module: "nodenext", moduleResolution: "nodenext" };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files }));
  const result = spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { encoding: "utf8" });
  expect(result.stdout + result.stderr).toBe("");
  expect(result.status).toBe(0);
});
