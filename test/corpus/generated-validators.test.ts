import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs } from "../helpers.js";
import { differential } from "../templates/server/differential.js";
import { corpusDocuments, wildFixtures } from "./corpus.js";

afterAll(cleanupTempDirs);

/**
 * The differential test of the generated request validators (test/templates/server/differential.ts) over every
 * public spec of the corpus: for each request schema, mock values and their one-place breakages are validated by
 * the closures and by the generated code; both must agree (valid or not, defaults filled, issues reported).
 */
describe("generated request validators agree with the closures on the corpus", () => {
  it.each([...corpusDocuments(), ...wildFixtures()])("$name", async ({ path }) => {
    const result = await differential(path, { perSchema: 40 });
    expect(result.mismatches).toEqual([]);
  }, 600_000);
});
