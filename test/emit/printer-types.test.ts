import { join } from "node:path";
import * as prettier from "prettier";
import { afterAll, describe, expect, it } from "vitest";
import { openapiTypescript, ts } from "../../src/package/deps.js";
import { printNodes, printNumber, printString } from "../../src/emit/printer.js";
import { emitTypes, typeStatements, typesContext } from "../../src/emit/types.js";
import { documentForTypes, loadSpec } from "../../src/load/index.js";
import { FIXTURES, V1_SPEC, cleanupTempDirs, tempDir, writeFiles } from "../helpers.js";

afterAll(cleanupTempDirs);

/** schema.ts of a one-schema document, printed by the canonical printer. */
function schemaOf(schemas: Record<string, unknown>, openapi = "3.1.0"): { canonical?: string; notCanonical?: string; content: string } {
  const dir = tempDir();
  writeFiles(dir, { "openapi.json": JSON.stringify({ openapi, info: { title: "t", version: "1" }, paths: {}, components: { schemas } }) });
  const spec = loadSpec(join(dir, "openapi.json"), dir);
  return emitTypes(documentForTypes(spec.document));
}

/** What prettier (default settings) makes of the same declarations as TypeScript's printer writes them. */
async function prettierOf(schemas: Record<string, unknown>, openapi = "3.1.0"): Promise<string> {
  const dir = tempDir();
  writeFiles(dir, { "openapi.json": JSON.stringify({ openapi, info: { title: "t", version: "1" }, paths: {}, components: { schemas } }) });
  const spec = loadSpec(join(dir, "openapi.json"), dir);
  // emitTypes' document and options (no moved operations here, so nothing is placed after the transform).
  const { document } = documentForTypes(spec.document);
  const nodes = openapiTypescript.transformSchema(document as never, typesContext(document as never));
  return prettier.format(openapiTypescript.astToString(nodes), { parser: "typescript" });
}

const long = (n: number) => Array.from({ length: n }, (_, i) => `value_number_${i}`);

/** Each case: schemas whose printing exercises one of prettier's layout rules. */
const CASES: Record<string, Record<string, unknown>> = {
  "short union on the key's line": { S: { type: "string", enum: ["a", "b"] } },
  "union that fits on the next line": { S: { type: "object", properties: { a_rather_long_property_name_here: { type: "string", enum: ["first", "second", "third"] } } } },
  "union broken one member per line": { S: { type: "string", enum: long(12) } },
  "union of arrays in an array (parentheses)": { S: { type: "array", items: { anyOf: [{ type: "string", enum: long(8) }, { type: "integer" }] } } },
  "object hugged with null": { S: { type: ["object", "null"], properties: { a: { type: "string" } } } },
  "nullable reference (3.0)": { S: { nullable: true, allOf: [{ $ref: "#/components/schemas/T" }] }, T: { type: "string" } },
  "intersections of references and objects": {
    S: { allOf: [{ $ref: "#/components/schemas/T" }, { $ref: "#/components/schemas/U" }, { type: "object", properties: { x: { type: "number" } } }] },
    T: { type: "object", properties: { t: { type: "string" } } },
    U: { type: "object", required: ["u"], properties: { u: { type: "string" } } },
  },
  "required properties of a referenced schema (WithRequired)": {
    S: { allOf: [{ $ref: "#/components/schemas/T" }], required: ["t"] },
    T: { type: "object", properties: { t: { type: "string" } } },
  },
  "additionalProperties and index signatures": { S: { type: "object", additionalProperties: { type: "array", items: { type: "string", enum: long(6) } } } },
  "tuples (prefixItems)": { S: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false } },
  "tuples with required elements and a rest (prefixItems, minItems, items)": {
    S: { type: "array", minItems: 1, prefixItems: [{ type: "object", properties: { count: { type: "integer" } } }, { type: ["string", "null"] }], items: { type: "string", enum: long(6) } },
    T: { type: "array", prefixItems: [{ anyOf: [{ type: "string" }, { type: "number" }] }] },
  },
  "quoted and unquoted keys": {
    S: { type: "object", properties: { plain: { type: "string" }, "with-dash": { type: "string" }, "it's": { type: "string" }, 'say "hi"': { type: "string" }, café: { type: "string" }, "123": { type: "string" } } },
  },
  // components' `schemas` member is laid out one schema at a time (objectMemberInPieces): documented, long, short ones.
  "documented schemas side by side, each laid out on its own": {
    A: { description: "The first.\n\nTwo paragraphs, and a line long enough to be longer than the print width of eighty.", type: "object", properties: { a: { type: "string" } } },
    B: { type: "string", enum: long(12), deprecated: true },
    "c-d": { type: "integer", description: "Last, with a key that needs quotes." },
  },
  "strings with quotes, backslashes, unicode, line separators": {
    S: { type: "string", enum: ['say "hi"', "it's", `both ' and "" here`, "back\\slash", "tab\there", "line\u2028sep", "日本語", "emoji 😀"] },
  },
  "numbers, booleans, const": { S: { type: "object", properties: { n: { type: "number", enum: [1.5, -2, 1e21, 0.000001] }, b: { const: true }, s: { const: "x" } } } },
  "comments: descriptions, examples, deprecated, */ inside": {
    S: {
      type: "object",
      description: "Top.\n\nSecond paragraph with */ inside and trailing spaces   ",
      properties: { a: { type: "string", description: "one line", example: { nested: [1, 2] }, deprecated: true, default: "x" } },
    },
  },
  "deeply nested objects near the print width": {
    S: { type: "object", properties: { level_one: { type: "object", properties: { level_two: { type: "object", properties: { level_three_with_a_long_name: { type: "string", enum: ["alpha", "beta", "gamma", "delta"] } } } } } } },
  },
};

describe("the printer on openapi-typescript's types", () => {
  it.each(Object.entries(CASES))("%s: prints what prettier prints", async (_name, schemas) => {
    const file = schemaOf(schemas);
    expect(file.notCanonical).toBeUndefined();
    expect(file.canonical).toBe(await prettierOf(schemas));
    // And prettier leaves the result as it is.
    expect(await prettier.format(file.canonical!, { parser: "typescript" })).toBe(file.canonical);
  });

  it("prints the v1 spec's schema.ts exactly as prettier formats it", async () => {
    const file = emitTypes(documentForTypes(loadSpec(V1_SPEC, process.cwd()).document));
    expect(file.canonical).toBeDefined();
    expect(await prettier.format(file.canonical!, { parser: "typescript" })).toBe(file.canonical);
  });

  it.each([
    ["the v1 spec", V1_SPEC],
    ["an OpenAPI 3.2 spec (moved operations, querystring parameters)", join(FIXTURES, "features", "oas32.yaml")],
    ["webhooks", join(FIXTURES, "features", "webhooks-plain.yaml")],
  ])("%s: the statements emitTypes transforms one part at a time are openapi-typescript's transformSchema's", (_name, path) => {
    const { document } = documentForTypes(loadSpec(path, process.cwd()).document);
    const whole = openapiTypescript.transformSchema(document as never, typesContext(document as never));
    const parts = [...typeStatements(document as never, typesContext(document as never))];
    expect(parts.map((node) => openapiTypescript.astToString([node]))).toEqual(whole.map((node) => openapiTypescript.astToString([node])));
  });

  it("paths and components made a slice of entries at a time print as the whole transform does (operations collected across slices)", async () => {
    const schemas = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`S${i}`, { type: "object", description: `Schema ${i}`, required: ["id"], properties: { id: { type: "string" }, next: { $ref: `#/components/schemas/S${(i + 1) % 150}` }, kind: { type: "string", enum: long(i % 9) } } }]));
    const paths = Object.fromEntries(
      Array.from({ length: 140 }, (_, i) => [
        `/items${i}/{id}`,
        {
          parameters: [{ $ref: "#/components/parameters/Id" }],
          get: { operationId: `get${i}`, summary: `Item ${i}`, responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: `#/components/schemas/S${i}` } } } } } },
          ...(i % 3 === 0 ? { post: { requestBody: { content: { "application/json": { schema: { type: "object", properties: { a: { type: "integer" } } } } } }, responses: { "204": { $ref: "#/components/responses/Empty" } } } } : {}),
        },
      ]),
    );
    const dir = tempDir();
    const components = { schemas, parameters: { Id: { name: "id", in: "path", required: true, schema: { type: "string" } } }, responses: { Empty: { description: "nothing" } } };
    writeFiles(dir, { "openapi.json": JSON.stringify({ openapi: "3.1.0", info: { title: "t", version: "1" }, paths, components }) });
    const { document } = documentForTypes(loadSpec(join(dir, "openapi.json"), dir).document);
    const emitted = emitTypes({ document, moved: [] });
    expect(emitted.notCanonical).toBeUndefined();
    const whole = openapiTypescript.transformSchema(document as never, typesContext(document as never));
    expect(emitted.content).toBe(await prettier.format(openapiTypescript.astToString(whole), { parser: "typescript" }));
  });

  it("names what it cannot print instead of guessing, so the file goes through prettier", () => {
    const { factory } = ts;
    const conditional = factory.createTypeAliasDeclaration(
      undefined,
      "X",
      undefined,
      factory.createConditionalTypeNode(
        factory.createKeywordTypeNode(ts.SyntaxKind.StringKeyword),
        factory.createKeywordTypeNode(ts.SyntaxKind.NumberKeyword),
        factory.createKeywordTypeNode(ts.SyntaxKind.NeverKeyword),
        factory.createKeywordTypeNode(ts.SyntaxKind.UnknownKeyword),
      ),
    );
    expect(printNodes([conditional])).toEqual({ unsupported: "ConditionalType" });
  });

  it.each([
    ["plain", '"plain"'],
    ['has "double" quotes', `'has "double" quotes'`],
    ["it's", `"it's"`],
    ["café", '"caf\\u00E9"'],
  ])("printString(%j) = %s", (value, want) => expect(printString(value)).toBe(want));

  it("prints any mix of quotes and backslashes as prettier does", async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 150; n++) {
      const value = Array.from({ length: 1 + Math.floor(random() * 8) }, () => `'"\\a\n\u2028é`[Math.floor(random() * 8)]).join("");
      const source = `type X = ${JSON.stringify(value)};\n`;
      const expected = (await prettier.format(source, { parser: "typescript" })).slice("type X = ".length, -2);
      const printed = printString(value);
      // printString starts from TypeScript's escaping (non-ASCII as \u), prettier here from JSON.stringify's.
      expect(eval(printed)).toBe(value);
      expect(printed.replace(/\\u00E9/g, "é").replace(/\\u2028/g, "\u2028")).toBe(expected.replace(/\\u2028/g, "\u2028"));
    }
  });

  it.each([
    ["1e+21", "1e21"],
    ["1.50", "1.5"],
    ["1.0", "1.0"],
    ["1.00", "1.0"],
    [".5", "0.5"],
    ["0xAB", "0xab"],
  ])("printNumber(%j) = %s", (raw, want) => expect(printNumber(raw)).toBe(want));
});
