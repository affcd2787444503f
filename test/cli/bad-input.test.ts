import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, projectWithV1Spec, runBin, runCli, snapshotTree, writeFiles } from "../helpers.js";

/**
 * Every kind of bad input gets one clear message naming the file and a line:column or JSON pointer, exit code 2,
 * and leaves the existing output byte-identical (same bytes, same mtimes, same inodes).
 */
describe("bad input", () => {
  let project: string;
  let before: ReturnType<typeof snapshotTree>;

  beforeAll(async () => {
    project = projectWithV1Spec();
    expect((await runCli(["generate"], project)).code).toBe(0);
    before = snapshotTree(join(project, "generated"));
    writeFiles(project, {
      "bad/invalid.yaml": "openapi: 3.1.0\ninfo:\n  title: x\n   version: 1\n",
      "bad/invalid.json": '{\n  "openapi": "3.1.0",\n  "info": { "title": "x", }\n}\n',
      "bad/not-openapi.yaml": "name: my-package\nversion: 1.0.0\n",
      "bad/list.yaml": "- a\n- b\n",
      "bad/swagger.yaml": 'swagger: "2.0"\ninfo: {title: x, version: "1"}\npaths: {}\n',
      "bad/version.yaml": "openapi: 4.0.0\ninfo: {title: x, version: '1'}\n",
      "bad/unresolved.yaml": [
        "openapi: 3.1.0",
        "info: {title: x, version: '1'}",
        "paths:",
        "  /pets:",
        "    get:",
        "      responses:",
        "        '200':",
        "          description: ok",
        "          content:",
        "            application/json:",
        "              schema: {$ref: '#/components/schemas/Missing'}",
        "",
      ].join("\n"),
      "bad/unresolved-external.yaml": [
        "openapi: 3.1.0",
        "info: {title: x, version: '1'}",
        "components:",
        "  schemas:",
        "    Pet: {$ref: './nowhere.yaml#/Pet'}",
        "",
      ].join("\n"),
      "bad/null-ref.yaml": [
        "openapi: 3.1.0",
        "info: {title: x, version: '1'}",
        "paths:",
        "  /pets:",
        "    get:",
        "      parameters:",
        "        - $ref: #/components/parameters/Limit",
        "      responses: {'204': {description: none}}",
        "",
      ].join("\n"),
      "a-file": "not a folder\n",
    });
  });
  afterAll(cleanupTempDirs);

  const cases: [string, string[], RegExp][] = [
    ["missing spec file", ["--spec", "bad/nope.yaml"], /^specforge: error: bad\/nope\.yaml: file not found/],
    ["invalid YAML", ["--spec", "bad/invalid.yaml"], /^specforge: error: bad\/invalid\.yaml:4:\d+: invalid YAML: /],
    ["invalid JSON", ["--spec", "bad/invalid.json"], /^specforge: error: bad\/invalid\.json:3:\d+: invalid JSON: /],
    ["not OpenAPI", ["--spec", "bad/not-openapi.yaml"], /^specforge: error: bad\/not-openapi\.yaml#: not an OpenAPI document/],
    ["not a mapping", ["--spec", "bad/list.yaml"], /^specforge: error: bad\/list\.yaml: not an OpenAPI document/],
    ["Swagger 2.0", ["--spec", "bad/swagger.yaml"], /^specforge: error: bad\/swagger\.yaml#\/swagger: Swagger 2\.0 is not supported[^]*hint: convert it to OpenAPI 3/],
    ["unsupported version", ["--spec", "bad/version.yaml"], /^specforge: error: bad\/version\.yaml#\/openapi: unsupported OpenAPI version "4\.0\.0"/],
    [
      "unresolved $ref",
      ["--spec", "bad/unresolved.yaml"],
      /^specforge: error: bad\/unresolved\.yaml#\/paths\/~1pets\/get\/responses\/200\/content\/application~1json\/schema\/\$ref: unresolved \$ref "#\/components\/schemas\/Missing"/,
    ],
    ["unresolved external $ref", ["--spec", "bad/unresolved-external.yaml"], /file not found: bad\/nowhere\.yaml, referenced by bad\/unresolved-external\.yaml#\/components\/schemas\/Pet\/\$ref/],
    // In a schema such a $ref is a warning (test/load/warnings.test.ts); in a parameter there is nothing to fall back to.
    [
      "parameter $ref that YAML read as a comment",
      ["--spec", "bad/null-ref.yaml"],
      /bad\/null-ref\.yaml#\/paths\/~1pets\/get\/parameters\/0\/\$ref: \$ref must be a string, found null[^]*quote a \$ref/,
    ],
    ["unknown flag", ["--colour"], /^specforge: error: unknown option --colour for `specforge (generate|check)`\n  hint: `specforge (generate|check) --help` lists its options\n$/],
    ["output path is a file", ["--out", "a-file"], /^specforge: error: a-file: the output path is a file, not a folder/],
  ];

  for (const command of ["generate", "check"]) {
    describe(command, () => {
      it.each(cases)("%s: exit 2, one clear message, nothing written", async (_name, args, message) => {
        const result = await runCli([command, ...args], project);
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(message);
        expect(result.stdout).toBe("");
        expect(snapshotTree(join(project, "generated"))).toEqual(before);
      });
    });
  }

  it("refuses to write into a non-empty folder it did not create", async () => {
    mkdirSync(join(project, "theirs"));
    writeFileSync(join(project, "theirs", "keep.txt"), "mine\n");
    const result = await runCli(["generate", "--out", "theirs"], project);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/theirs: refusing to write into a folder specforge did not create/);
    expect(snapshotTree(join(project, "theirs")).size).toBe(1);
  });

  it("the real bin exits 2 on bad input and 0 on --help / --version", async () => {
    const bad = await runBin(["generate", "--spec", "bad/invalid.yaml"], project);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\/invalid\.yaml:4:\d+: invalid YAML/);
    const help = await runBin(["--help"], project);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/specforge generate/);
    expect(help.stdout).toMatch(/specforge check/);
    const version = await runBin(["--version"], project);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const none = await runBin([], project);
    expect(none.code).toBe(2);
  });
});
