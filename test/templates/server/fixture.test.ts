import { readFileSync } from "node:fs";
import openapiTS, { astToString } from "openapi-typescript";
import { describe, expect, it } from "vitest";

/**
 * fixtures/schema.ts is openapi-typescript 7 output for fixtures/openapi.json. Regenerate with:
 *   npx openapi-typescript test/templates/server/fixtures/openapi.json -o test/templates/server/fixtures/schema.ts
 */
describe("fixture", () => {
  it("schema.ts is up to date with openapi.json", async () => {
    const ast = await openapiTS(new URL("./fixtures/openapi.json", import.meta.url));
    const committed = readFileSync(new URL("./fixtures/schema.ts", import.meta.url), "utf8");
    expect(committed.endsWith(astToString(ast))).toBe(true);
  });
});
