/**
 * What a plain `generate` loads: start-up is most of a small spec's run, so what the run does not use stays unloaded.
 * The built bin runs as a real process with a preload that lists, at exit, the CommonJS modules it required.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, projectWithV1Spec, runBin, writeFiles } from "../helpers.js";

afterAll(cleanupTempDirs);

async function requiredModules(args: string[], files: Record<string, string> = {}): Promise<string[]> {
  const dir = projectWithV1Spec();
  writeFiles(dir, {
    ...files,
    "list-modules.cjs": `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(join(dir, "modules.json"))}, JSON.stringify(Object.keys(require("node:module")._cache))));`,
  });
  const result = await runBin(args, dir, { NODE_OPTIONS: `--require ${join(dir, "list-modules.cjs")}` });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return (JSON.parse(readFileSync(join(dir, "modules.json"), "utf8")) as string[]).map((file) => file.replace(/\\/g, "/"));
}

describe("modules a generation loads", () => {
  it("generate runs on ts-morph's compiler alone: the typescript package (only for compiling the runtime at build) is not loaded", async () => {
    const modules = await requiredModules(["generate", "--quiet"]);
    expect(modules.some((file) => file.endsWith("/@ts-morph/common/dist/typescript.js"))).toBe(true);
    expect(modules.filter((file) => file.includes("/node_modules/typescript/"))).toEqual([]);
  }, 60_000);

  it("redos-detector is loaded only for a spec with patterns to analyse", async () => {
    const withoutPatterns = JSON.stringify({
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: { "/pets/{id}": { get: { operationId: "getPet", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: { "200": { description: "ok" } } } } },
    });
    const loaded = await requiredModules(["generate", "--quiet", "--spec", "plain.json", "--out", "plain"], { "plain.json": withoutPatterns });
    expect(loaded.filter((file) => file.includes("/node_modules/redos-detector/"))).toEqual([]);
    const v1 = await requiredModules(["generate", "--quiet"]); // `pattern: ^Bearer .+$`
    expect(v1.some((file) => file.includes("/node_modules/redos-detector/"))).toBe(true);
  }, 60_000);
});
