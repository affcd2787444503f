import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, runMeasured, tempDir } from "../helpers.js";

/**
 * Output in proportion to the spec. A text written once in a spec may be used hundreds of times (a parameter every
 * operation `$ref`s, a path item many paths `$ref`, a path item's parameters in each of its operations): a long one
 * is written whole once and abridged with a pointer at every other use. Whatever else amplifies meets a cap on the
 * output relative to the spec's size: exit 2, naming it, nothing written.
 */
afterAll(cleanupTempDirs);

/** A description of `bytes` characters, in words. */
const longText = (bytes: number) => "lorem ipsum dolor sit amet ".repeat(Math.ceil(bytes / 27)).slice(0, bytes);
const info = { title: "amplify", version: "1" };
const ok = { "200": { description: "ok" } };

/** The hostile spec of the report: 600 operations, each `$ref`ing one parameter with a 480 KB description (568 KB in all). */
function sharedParameter(): object {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < 600; i++) paths[`/r${i}`] = { get: { operationId: `op${i}`, parameters: [{ $ref: "#/components/parameters/Shared" }], responses: ok } };
  return { openapi: "3.1.0", info, paths, components: { parameters: { Shared: { name: "shared", in: "query", description: longText(480_000), schema: { type: "string" } } } } };
}

/** 600 paths `$ref`ing one path item whose operation has a 100 KB description and a 3 KB summary. */
function sharedPathItem(): object {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < 600; i++) paths[`/r${i}`] = { $ref: "#/components/pathItems/Shared" };
  return { openapi: "3.1.0", info, paths, components: { pathItems: { Shared: { get: { summary: longText(3_000), description: longText(100_000), responses: ok } } } } };
}

/** One path whose 100 KB parameter description its 200 operations (OpenAPI 3.2 `additionalOperations`) inherit. */
function pathItemParameter(): object {
  const additionalOperations: Record<string, unknown> = {};
  for (let i = 0; i < 200; i++) additionalOperations[`M${i}`] = { operationId: `m${i}`, responses: ok };
  return { openapi: "3.2.0", info, paths: { "/x": { parameters: [{ name: "p", in: "query", description: longText(100_000), schema: { type: "string" } }], additionalOperations } } };
}

/** `specforge generate` of `spec.json` into `out/`, as a process of its own reporting its peak RSS. */
const generate = (dir: string) => runMeasured(["generate", "--spec", "spec.json", "--out", "out"], dir, 300_000);

function folderBytes(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe("a long text used many times is written whole once", () => {
  it.each([
    ["a parameter every operation $refs (the report's 568 KB spec: 288 MB of output before)", sharedParameter, "#/components/parameters/Shared"],
    ["a path item 600 paths $ref", sharedPathItem, "`getR0`"],
    ["a path item's parameter in each of its 201 operations", pathItemParameter, "#/paths/~1x/parameters/0"],
  ])("%s: output and memory stay in proportion to the spec", async (_name, make, pointer) => {
    const dir = tempDir();
    const text = JSON.stringify(make());
    writeFileSync(join(dir, "spec.json"), text);
    const result = await generate(dir);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const output = folderBytes(join(dir, "out"));
    // The runtime (under 1 MB) and a few times the spec: each use of the long text costs about 250 characters.
    expect(output).toBeLessThan(1_500_000 + 4 * text.length);
    expect(result.maxRss).toBeLessThan(600 * 1024 * 1024);
    const all = ["schema.ts", "client.d.ts", "server.d.ts"].map((file) => readFileSync(join(dir, "out", file), "utf8")).join("\n");
    expect(occurrences(all, `(the whole text: ${pointer})`)).toBeGreaterThan(100);
  }, 600_000);

  it("a short shared text is written at every use, as before", async () => {
    const dir = tempDir();
    const spec = sharedParameter() as { components: { parameters: { Shared: { description: string } } } };
    spec.components.parameters.Shared.description = "A short description of the shared parameter.";
    writeFileSync(join(dir, "spec.json"), JSON.stringify(spec));
    expect((await generate(dir)).code).toBe(0);
    const schema = readFileSync(join(dir, "out", "schema.ts"), "utf8");
    expect(occurrences(schema, "@description A short description of the shared parameter. */")).toBe(601);
    expect(schema).not.toContain("the whole text");
  }, 600_000);
});

describe("the output is capped relative to the spec", () => {
  it("a 22 KB spec whose path parameter's type each of 300 operations copies (9 MB of output before): exit 2 naming the cap and the file, nothing written", async () => {
    const additionalOperations: Record<string, unknown> = {};
    for (let i = 0; i < 300; i++) additionalOperations[`M${i}`] = { responses: ok };
    const values = Array.from({ length: 1000 }, (_, i) => `v${i}`);
    const dir = tempDir();
    writeFileSync(join(dir, "spec.json"), JSON.stringify({ openapi: "3.2.0", info, paths: { "/x": { parameters: [{ name: "p", in: "query", schema: { type: "string", enum: values } }], additionalOperations } } }));
    const result = await generate(dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^specforge: error: spec\.json: the output would pass 4\.\d MiB \(32 characters per byte of the spec's 22 KiB, plus 4\.0 MiB\) while schema\.ts was made; a block of \d+ lines is written 300 times in its last part: "parameters: \{ query\?: \{ p\?: \| "v0" \| "v1" /);
    expect(result.stderr).toMatch(/\n {2}hint: a spec whose text or types are repeated at every use of a shared component/);
    expect(existsSync(join(dir, "out"))).toBe(false);
    expect(result.maxRss).toBeLessThan(600 * 1024 * 1024);
  }, 600_000);
});
