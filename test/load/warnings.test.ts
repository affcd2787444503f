import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startMockServer } from "../../src/commands/mock.js";
import { resolveConfig } from "../../src/config/resolve.js";
import { generate } from "../../src/index.js";
import { loadSpec } from "../../src/load/index.js";
import { cleanupTempDirs, runCli, tempDir, writeFiles } from "../helpers.js";

/**
 * `$ref: #/…` unquoted is YAML for `$ref: null` (the rest of the line is a comment). In a schema specforge accepts the
 * document, leaves that schema unconstrained (`unknown`) and warns with the line, what happened and the fix; it does
 * not guess the target from the comment.
 */
afterAll(cleanupTempDirs);

const PETS = [
  "openapi: 3.1.0",
  "info: {title: x, version: '1'}",
  "paths:",
  "  /pets:",
  "    get:",
  "      operationId: listPets",
  "      responses:",
  "        '200':",
  "          description: ok",
  "          content:",
  "            application/json:",
  "              schema:",
  "                type: array",
  "                items:",
  "                  $ref: '#/components/schemas/Pet'",
  "components:",
  "  schemas:",
  "    Pet:",
  "      type: object",
  "      required: [name, details]",
  "      properties:",
  "        name: {type: string}",
  "        details:",
  "          description: what YAML reads as a comment",
  "          $ref: #/components/schemas/Details",
  "        tags:",
  "          type: array",
  "          items:",
  "            - $ref: #/components/schemas/Tag",
  "    Details: {type: object}",
  "    Tag: {type: string}",
  "",
];

describe("a $ref that YAML read as a comment", () => {
  it("generates, warns on stderr with file:line:column and the quoted fix, and types the schema as unknown", async () => {
    const project = tempDir();
    writeFiles(project, { "spec.yaml": PETS.join("\n") });
    const result = await runCli(["generate", "--spec", "spec.yaml", "--out", "out"], project);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^specforge: out\/ \d+ written/);
    expect(result.stderr).toBe(
      [
        "specforge: warning: spec.yaml:25:11: `$ref: #/components/schemas/Details` is read as `$ref: null` (YAML takes an unquoted # for the start of a comment): the schema at spec.yaml#/components/schemas/Pet/properties/details is left unconstrained (unknown)",
        "  hint: quote it: $ref: '#/components/schemas/Details'",
        "specforge: warning: spec.yaml:29:15: `$ref: #/components/schemas/Tag` is read as `$ref: null` (YAML takes an unquoted # for the start of a comment): the schema at spec.yaml#/components/schemas/Pet/properties/tags/items/0 is left unconstrained (unknown)",
        "  hint: quote it: $ref: '#/components/schemas/Tag'",
        "",
      ].join("\n"),
    );
    const types = readFileSync(join(project, "out", "schema.ts"), "utf8");
    // The sibling description survives; the value is unconstrained.
    expect(types).toMatch(/@description what YAML reads as a comment \*\/\s+details: unknown;/);
  });

  it("the programmatic API returns the warnings", async () => {
    const project = tempDir();
    writeFiles(project, { "spec.yaml": PETS.join("\n") });
    const result = await generate({ cwd: project, spec: "spec.yaml", out: "out" });
    expect(result.warnings.map((w) => w.location)).toEqual(["spec.yaml:25:11", "spec.yaml:29:15"]);
    expect(result.warnings[0]!.hint).toBe("quote it: $ref: '#/components/schemas/Details'");
  });

  it("specforge mock serves such a spec and reports the same warnings", async () => {
    const project = tempDir();
    writeFiles(project, { "spec.yaml": PETS.join("\n") });
    const mock = await startMockServer(await resolveConfig({ cwd: project, flags: { spec: "spec.yaml" } }), 0);
    try {
      expect(mock.warnings.map((w) => w.location)).toEqual(["spec.yaml:25:11", "spec.yaml:29:15"]);
      const pets = await fetch(`${mock.url}/pets`);
      expect(pets.status).toBe(200);
      expect(Array.isArray(await pets.json())).toBe(true);
    } finally {
      await mock.close();
    }
  });

  it("names the JSON pointer when the line cannot be told for sure (JSON, or YAML aliases repeating a node)", () => {
    const project = tempDir();
    writeFiles(project, {
      "spec.json": JSON.stringify({
        openapi: "3.1.0",
        info: { title: "x", version: "1" },
        components: { schemas: { Pet: { properties: { details: { $ref: null } } } } },
      }),
      "alias.yaml": [
        "openapi: 3.1.0",
        "info: {title: x, version: '1'}",
        "components:",
        "  schemas:",
        "    A: &shared",
        "      $ref: #/components/schemas/B",
        "    C: *shared",
        "    B: {type: string}",
        "",
      ].join("\n"),
      "todo.yaml": ["openapi: 3.1.0", "info: {title: x, version: '1'}", "components:", "  schemas:", "    A:", "      $ref: # TODO", ""].join("\n"),
    });
    const json = loadSpec("spec.json", project);
    expect(json.warnings).toEqual([
      {
        location: "spec.json#/components/schemas/Pet/properties/details/$ref",
        message: "$ref is null, so the schema at spec.json#/components/schemas/Pet/properties/details is unconstrained (unknown)",
        hint: "in YAML an unquoted # starts a comment: quote the $ref",
      },
    ]);
    expect(json.document).toMatchObject({ components: { schemas: { Pet: { properties: { details: {} } } } } });
    const alias = loadSpec("alias.yaml", project);
    expect(alias.warnings.map((w) => w.location)).toEqual(["alias.yaml#/components/schemas/A/$ref", "alias.yaml#/components/schemas/C/$ref"]);
    const todo = loadSpec("todo.yaml", project);
    expect(todo.warnings).toEqual([
      expect.objectContaining({ location: "todo.yaml:6:7", hint: "give the $ref a value, quoted if it starts with #" }),
    ]);
  });
});
