import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, runCli, tempDir, typecheck, VENDOR_SPEC } from "./helpers.js";

afterAll(cleanupTempDirs);

describe("the vendor's published document", () => {
  it("generates cleanly and its output type-checks under tsc --strict", async () => {
    const dir = tempDir();
    const result = await runCli(["generate", "--spec", VENDOR_SPEC, "--out", "out"], dir);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const tsc = await typecheck(`${dir}/out`);
    expect(tsc.output).toBe("");
    expect(tsc.code).toBe(0);
  }, 120_000);
});
