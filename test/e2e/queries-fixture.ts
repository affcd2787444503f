import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, ROOT, runCli, tempDir } from "../helpers.js";

/** test/fixtures/queries/pets.yaml: the spec of the queries and MSW tests. */
export const PETS_SPEC = join(FIXTURES, "queries", "pets.yaml");

/**
 * The pets spec generated with every output (client, server, queries, msw), in the output form asked for (the
 * default, TypeScript, or `.js` beside `.d.ts`), into a folder of its own, beside a
 * `node_modules` that is specforge's (msw and TanStack Query are found from there, as from a user's project).
 */
export async function generatedFixture(outputs = "client,server,queries,msw", form: "ts" | "js" = "ts"): Promise<string> {
  const project = tempDir();
  symlinkSync(join(ROOT, "node_modules"), join(project, "node_modules"), "junction");
  const out = join(project, "generated");
  const result = await runCli(["generate", "--spec", PETS_SPEC, "--out", out, "--outputs", outputs, "--form", form, "--no-format"], ROOT);
  if (result.code !== 0) throw new Error(`generate failed:\n${result.stderr}`);
  return out;
}
