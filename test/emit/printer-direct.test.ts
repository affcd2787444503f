import { join } from "node:path";
import * as prettier from "prettier";
import { afterAll, describe, expect, it } from "vitest";
import { openapiTypescript } from "../../src/package/deps.js";
import { emitTypes, typesContext } from "../../src/emit/types.js";
import { documentForTypes, loadSpec } from "../../src/load/index.js";
import { cleanupTempDirs, tempDir, writeFiles } from "../helpers.js";

// schema.ts's members are written as text where their layout is certain (src/emit/printer.ts, memberText): flat when
// they fit in 80 columns or cannot break, object literals and long unions broken as prettier breaks them. These
// tests put each layout decision at its boundary and compare the file with prettier's formatting of the same types.

afterAll(cleanupTempDirs);

type Schemas = Record<string, unknown>;

function documentOf(schemas: Schemas, openapi: string): string {
  const dir = tempDir();
  writeFiles(dir, { "openapi.json": JSON.stringify({ openapi, info: { title: "t", version: "1" }, paths: {}, components: { schemas } }) });
  return join(dir, "openapi.json");
}

/** schema.ts as specforge prints it, and as prettier formats openapi-typescript's own printing of the same types. */
async function bothPrintings(schemas: Schemas, openapi = "3.1.0"): Promise<{ printed: string; prettier: string }> {
  const { document } = documentForTypes(loadSpec(documentOf(schemas, openapi)).document);
  const file = emitTypes(documentForTypes(loadSpec(documentOf(schemas, openapi)).document));
  expect(file.notCanonical).toBeUndefined();
  // prettier leaves the printed file as it is...
  expect(await prettier.format(file.canonical!, { parser: "typescript" }), JSON.stringify(schemas)).toBe(file.canonical);
  // ...and makes the same of openapi-typescript's own printing, whose JSDoc lines TypeScript's printer has trimmed
  // (the printer keeps a Markdown line break's two trailing spaces, as prettier does: printBlockComment).
  const nodes = openapiTypescript.transformSchema(document as never, typesContext(document as never));
  const trimmed = (text: string) => text.replace(/ +$/gm, "");
  return { printed: trimmed(file.canonical!), prettier: await prettier.format(openapiTypescript.astToString(nodes), { parser: "typescript" }) };
}

/** Columns as prettier counts them here: CJK ideographs are two. */
const widthOf = (text: string) => [...text].reduce((width, char) => width + (/[\u3000-\u9fff]/.test(char) ? 2 : 1), 0);

/** A required property `name` of schema S (printed at column 6: components, schemas, S). */
const property = (name: string, schema: unknown): Schemas => ({ S: { type: "object", required: [name], properties: { [name]: schema } } });

/**
 * Shapes whose one line (at `column`) can be made any width with `pad`, and the text of that line when flat. Each is
 * printed at widths 79, 80 and 81; `breaks` says whether the line may break at all once it is too long.
 */
const AT_THE_WIDTH: Record<string, { column: number; breaks: boolean; make: (pad: string) => { schemas: Schemas; line: string } }> = {
  "a union of strings": {
    column: 6,
    breaks: true,
    make: (pad) => ({ schemas: property(`p${pad}`, { type: "string", enum: ["alpha", "beta", "gamma"] }), line: `p${pad}: "alpha" | "beta" | "gamma";` }),
  },
  "an array of a union (parenthesised)": {
    column: 6,
    breaks: true,
    make: (pad) => ({ schemas: property(`p${pad}`, { type: "array", items: { type: "string", enum: ["alpha", "beta"] } }), line: `p${pad}: ("alpha" | "beta")[];` }),
  },
  "a reference (no place to break)": {
    column: 6,
    breaks: false,
    make: (pad) => ({ schemas: { ...property(`p${pad}`, { $ref: "#/components/schemas/Target" }), Target: { type: "string" } }, line: `p${pad}: components["schemas"]["Target"];` }),
  },
  "type arguments that cannot break themselves (one per line when too long)": {
    column: 6,
    breaks: true,
    make: (pad) => ({
      schemas: {
        ...property(`p${pad}`, { allOf: [{ $ref: "#/components/schemas/Target" }], required: ["id"] }),
        Target: { type: "object", properties: { id: { type: "string" } } },
      },
      line: `p${pad}: WithRequired<components["schemas"]["Target"], "id">;`,
    }),
  },
  "a quoted key": {
    column: 6,
    breaks: true,
    make: (pad) => ({ schemas: property(`x-p${pad}`, { type: "string", enum: ["a", "b"] }), line: `"x-p${pad}": "a" | "b";` }),
  },
  "an index signature": {
    column: 6,
    breaks: true,
    make: (pad) => ({ schemas: { S: { type: "object", additionalProperties: { type: "string", enum: [`v${pad}`, "w"] } } }, line: `[key: string]: "v${pad}" | "w";` }),
  },
  "a tuple": {
    column: 6,
    breaks: true,
    make: (pad) => ({ schemas: property(`p${pad}`, { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false }), line: `p${pad}: [string?, number?];` }),
  },
  "a member of an object that is nullable (hugged union)": {
    column: 8,
    breaks: true,
    make: (pad) => ({ schemas: property("o", { type: ["object", "null"], required: [`p${pad}`], properties: { [`p${pad}`]: { type: "string", enum: ["alpha", "beta"] } } }), line: `p${pad}: "alpha" | "beta";` }),
  },
  "a member of an object in a broken union": {
    column: 12,
    breaks: true,
    make: (pad) => ({
      schemas: property("o", { oneOf: [{ type: "object", required: [`p${pad}`], properties: { [`p${pad}`]: { type: "string", enum: ["a", "b"] } } }, { type: "object", properties: { q: { type: "integer" } } }] }),
      line: `p${pad}: "a" | "b";`,
    }),
  },
  "a member of an object intersected with a reference (allOf)": {
    column: 8,
    breaks: true,
    make: (pad) => ({
      schemas: { ...property("o", { allOf: [{ $ref: "#/components/schemas/Target" }, { type: "object", required: [`p${pad}`], properties: { [`p${pad}`]: { type: "string", enum: ["a", "b"] } } }] }), Target: { type: "object", properties: { t: { type: "string" } } } },
      line: `p${pad}: "a" | "b";`,
    }),
  },
  "a documented member (a Markdown line break and */ in its JSDoc)": {
    column: 6,
    breaks: true,
    make: (pad) => ({ schemas: property(`p${pad}`, { type: "string", enum: ["alpha", "beta"], description: "First line  \nsecond */ line\n\n  indented" }), line: `p${pad}: "alpha" | "beta";` }),
  },
  "a union of wide and accented strings (measured by prettier's display width)": {
    column: 6,
    breaks: true,
    make: (pad) => ({ schemas: property(`p${pad}`, { type: "string", enum: ["日本", "é"] }), line: `p${pad}: "日本" | "é";` }),
  },
};

describe("schema.ts members written as text, at the print width", () => {
  for (const [name, shape] of Object.entries(AT_THE_WIDTH)) {
    it.each([79, 80, 81])(`${name}, a line of %i columns: prettier's layout`, async (width) => {
      const padding = width - shape.column - widthOf(shape.make("").line);
      const { schemas, line } = shape.make("x".repeat(padding));
      expect(shape.column + widthOf(line)).toBe(width);
      const { printed, prettier } = await bothPrintings(schemas);
      expect(printed).toBe(prettier);
      // The boundary is where this test says it is: flat up to 80 columns, broken after, unless it cannot break.
      const flat = printed.split("\n").includes(`${" ".repeat(shape.column)}${line}`);
      expect(flat).toBe(width <= 80 || !shape.breaks);
    });
  }

  it.each([
    ["a long union moved to the next line whole", property("a_rather_long_property_name_for_this", { type: "string", enum: ["first", "second", "third", "x"] })],
    ["a long union, one member per line", property("p", { type: "string", enum: Array.from({ length: 14 }, (_, i) => `value_${i}`) })],
    ["unions nested in an array in a union", property("p", { anyOf: [{ type: "array", items: { anyOf: [{ type: "string", enum: ["alpha_one", "beta_two", "gamma_three"] }, { type: "integer" }] } }, { type: "boolean" }, { type: "string", enum: ["some_other_long_value", "and_another"] }] })],
    ["an array of nullable objects", property("p", { type: "array", items: { type: ["object", "null"], properties: { a: { type: "string" } } } })],
    ["an array of a union of objects", property("p", { type: "array", items: { oneOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "object", properties: { b: { type: "string" } } }] } })],
    ["objects intersected with objects", property("p", { allOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "object", properties: { b: { type: "string" } } }] })],
    ["an index signature whose value is an object", { S: { type: "object", additionalProperties: { type: "object", properties: { a: { type: "string" } } } } }],
    // openapi-typescript makes a union of one type of it; TypeScript's printer writes `(number)`, prettier `number`.
    ["a oneOf of the same type twice, intersected", { T: { type: "object" }, S: { type: "array", items: { allOf: [{ $ref: "#/components/schemas/T" }, { oneOf: [{ type: "integer" }, { type: "integer" }] }] } } }],
  ])("%s: prettier's layout", async (_name, schemas) => {
    const { printed, prettier } = await bothPrintings(schemas);
    expect(printed).toBe(prettier);
  });

  it("random schemas (seeded): every file as prettier formats it", async () => {
    let seed = 19;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const word = (max: number) => Array.from({ length: 1 + Math.floor(random() * max) }, () => pick("abcdefghij_-".split(""))).join("");
    const schema = (depth: number): Record<string, unknown> => {
      const kinds = depth >= 3 ? ["string", "enum", "ref"] : ["string", "enum", "ref", "array", "object", "nullable", "oneOf", "allOf", "map", "tuple"];
      const described = random() < 0.3 ? { description: pick(["one line", "two  \nlines  \n", "with */ inside", `long ${word(60)} text`]) } : {};
      switch (pick(kinds)) {
        case "string":
          return { type: pick(["string", "integer", "boolean"]), ...described };
        case "enum":
          return { type: "string", enum: Array.from({ length: 1 + Math.floor(random() * 6) }, () => word(18)), ...described };
        case "ref":
          return { $ref: pick(["#/components/schemas/Named_target", "#/components/schemas/a-much-longer-named-target-schema"]) };
        case "array":
          return { type: "array", items: schema(depth + 1), ...described };
        case "object": {
          const names = Array.from({ length: 1 + Math.floor(random() * 4) }, () => word(36));
          return { type: "object", required: names.filter(() => random() < 0.5), properties: Object.fromEntries(names.map((name) => [name, schema(depth + 1)])), ...described };
        }
        case "nullable": {
          const inner = schema(depth + 1);
          return typeof inner.type === "string" ? { ...inner, type: [inner.type, "null"] } : { anyOf: [inner, { type: "null" }] };
        }
        case "oneOf":
          return { oneOf: [schema(depth + 1), schema(depth + 1), ...(random() < 0.5 ? [schema(depth + 1)] : [])] };
        case "allOf":
          return { allOf: [{ $ref: "#/components/schemas/Named_target" }, schema(depth + 1)] };
        case "map":
          return { type: "object", additionalProperties: schema(depth + 1) };
        default:
          return { type: "array", prefixItems: [schema(depth + 1), schema(depth + 1)], items: random() < 0.5 ? false : schema(depth + 1) };
      }
    };
    for (let n = 0; n < 60; n++) {
      const schemas: Schemas = {
        Named_target: { type: "object", properties: { t: { type: "string" } } },
        "a-much-longer-named-target-schema": { type: "string" },
        ...Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`S${i}_${word(20)}`, schema(0)])),
      };
      const { printed, prettier } = await bothPrintings(schemas);
      expect(printed, JSON.stringify(schemas)).toBe(prettier);
    }
  });
});
