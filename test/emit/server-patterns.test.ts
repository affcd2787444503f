import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findPatterns, isSuperLinear, superLinearPatterns } from "../../src/emit/server-patterns.js";
import { runCli, tempDir, writeFiles } from "../helpers.js";

/** The generator finds the spec's catastrophic patterns, warns where they are, and hands them to the router. */

const document = {
  paths: {
    "/pets/{id}": {
      get: {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", pattern: "^(a+)+$" } }],
        "x-internal": { pattern: "(x+)+y" },
        responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" }, example: { pattern: "(z+)+" } } } } },
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: "object",
        properties: { pattern: { type: "string", pattern: "^[a-z]+$" }, email: { type: "string", pattern: "^([a-z0-9]+)*@example\\.com$" } },
        patternProperties: { "^(b|bb)+$": { type: "string", pattern: "^(a+)+$" } },
        default: { pattern: "(d+)+" },
      },
    },
  },
};

describe("super-linear patterns", () => {
  it("finds every pattern and patternProperties key under paths and components, with its pointer; not in x- extensions or examples", () => {
    expect(findPatterns(document)).toEqual([
      { pattern: "^(a+)+$", pointer: ["paths", "/pets/{id}", "get", "parameters", "0", "schema", "pattern"] },
      { pattern: "^[a-z]+$", pointer: ["components", "schemas", "Pet", "properties", "pattern", "pattern"] },
      { pattern: "^([a-z0-9]+)*@example\\.com$", pointer: ["components", "schemas", "Pet", "properties", "email", "pattern"] },
      { pattern: "^(b|bb)+$", pointer: ["components", "schemas", "Pet", "patternProperties", "^(b|bb)+$"] },
      { pattern: "^(a+)+$", pointer: ["components", "schemas", "Pet", "patternProperties", "^(b|bb)+$", "pattern"] },
    ]);
  });

  it("reads a property called like a keyword or an extension as the schema it is (`default`, `x-code`, `patternProperties`)", () => {
    const named = {
      paths: {},
      components: {
        schemas: {
          Code: {
            type: "object",
            properties: {
              default: { type: "string", pattern: "^(a+)+$" },
              "x-code": { type: "string", pattern: "^(b+)+$" },
              patternProperties: { type: "string", pattern: "^(c+)+$" },
            },
          },
        },
      },
    };
    const at = (name: string) => ["components", "schemas", "Code", "properties", name, "pattern"];
    expect(findPatterns(named)).toEqual([
      { pattern: "^(a+)+$", pointer: at("default") },
      { pattern: "^(b+)+$", pointer: at("x-code") },
      { pattern: "^(c+)+$", pointer: at("patternProperties") },
    ]);
    expect(superLinearPatterns(named).map(({ pattern }) => pattern)).toEqual(["^(a+)+$", "^(b+)+$", "^(c+)+$"]);
  });

  it("tells catastrophic patterns from linear ones (unanchored searches included)", () => {
    for (const slow of ["^(a+)+$", "(ab|a)*c", "[a-z]+@", "^.+/.+$", "^(b|bb)+$"]) expect(isSuperLinear(slow), slow).toBe(true);
    for (const fast of ["^[a-z]+$", "^[^/]+/[^/]+$", "^Bearer .+$", "^\\d{4}-\\d{2}-\\d{2}$", "^[a-z]+@"]) expect(isSuperLinear(fast), fast).toBe(false);
    expect(isSuperLinear("(")).toBe(false); // invalid: the router ignores it, there is nothing to run
  });

  it("lists each once, in document order, at its first place, with the count of places", () => {
    expect(superLinearPatterns(document)).toEqual([
      { pattern: "^(a+)+$", pointer: ["paths", "/pets/{id}", "get", "parameters", "0", "schema", "pattern"], occurrences: 2 },
      { pattern: "^([a-z0-9]+)*@example\\.com$", pointer: ["components", "schemas", "Pet", "properties", "email", "pattern"], occurrences: 1 },
      { pattern: "^(b|bb)+$", pointer: ["components", "schemas", "Pet", "patternProperties", "^(b|bb)+$"], occurrences: 1 },
    ]);
  });

  it("generate warns with the file and JSON pointer (exit 0) and server.js passes the list to the router", async () => {
    const dir = tempDir();
    writeFiles(dir, { "openapi.json": JSON.stringify({ openapi: "3.1.0", info: { title: "t", version: "1" }, ...document }) });
    const result = await runCli(["generate", "--spec", "openapi.json", "--out", "out", "--outputs", "server"], dir);
    expect(result.code).toBe(0);
    const warnings = result.stderr.split("\n").filter((line) => line.startsWith("specforge: warning:"));
    expect(warnings).toEqual([
      'specforge: warning: openapi.json#/paths/~1pets~1{id}/get/parameters/0/schema/pattern: pattern "^(a+)+$" (used in 2 places) can backtrack catastrophically (time super-linear in the length of the string): the generated router matches it with its linear-time matcher, within a bounded amount of work',
      'specforge: warning: openapi.json#/components/schemas/Pet/properties/email/pattern: pattern "^([a-z0-9]+)*@example\\\\.com$" can backtrack catastrophically (time super-linear in the length of the string): the generated router matches it with its linear-time matcher, within a bounded amount of work',
      // Too costly for the analyser to decide within its step limit: listed all the same.
      'specforge: warning: openapi.json#/components/schemas/Pet/patternProperties/^(b|bb)+$: pattern "^(b|bb)+$" could not be shown to run in linear time: the generated router matches it with its linear-time matcher, within a bounded amount of work',
    ]);
    expect(result.stderr).toContain("hint: rewrite it without nested or overlapping quantifiers");
    // Sorted in server.ts (warnings come in document order).
    const server = readFileSync(join(dir, "out", "server.ts"), "utf8");
    expect(server).toContain(
      `const generated: GeneratedInfo = JSON.parse(\n  '{\\\n  "superLinearPatterns":[\\\n    "^([a-z0-9]+)*@example\\\\\\\\.com$",\\\n    "^(a+)+$",\\\n    "^(b|bb)+$"\\\n  ]\\\n}',\n);`,
    );
  });
});
