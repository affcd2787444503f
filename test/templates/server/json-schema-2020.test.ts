import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, describe, expect, it } from "vitest";
import type { Schema, SchemaDocument } from "../../../templates/server/schema.js";
import { cleanupTempDirs } from "../../helpers.js";
import { enginesFor } from "./differential.js";

afterAll(cleanupTempDirs);

/**
 * The router's JSON Schema 2020-12 semantics against Ajv's (`ajv/dist/2020` with ajv-formats), on a table of schemas
 * and values: each value's expected answer is written down, and the closures, the generated code (alone and in front
 * of the closures, as the router runs them) and Ajv must all give it. The cases are the keywords OpenAPI 3.1 specs
 * use to close and constrain objects — `unevaluatedProperties` through `allOf`, `$ref`, the union branches that
 * passed and `if`/`then`/`else` above all — and the format ranges.
 */

const document: SchemaDocument = {
  components: {
    schemas: {
      Base: { type: "object", required: ["id"], properties: { id: { type: "string" } } },
      Named: { allOf: [{ $ref: "#/components/schemas/Base" }], properties: { name: { type: "string" } } },
      Tree: { type: "object", properties: { value: { type: "integer" }, children: { type: "array", items: { $ref: "#/components/schemas/Tree" } } }, unevaluatedProperties: false },
    },
  },
};

/**
 * A value, whether it is valid, and — only where Ajv departs from the specification — Ajv's answer. The one known
 * case: Ajv takes `contains` to evaluate every item (its `it.items = true`), where 2020-12 §11.2 counts only the
 * items `contains` matched (JSON-Schema-Test-Suite, "unevaluatedItems depends on adjacent contains").
 */
type Case = [name: string, schema: Schema, values: [value: unknown, valid: boolean, ajv?: boolean][]];

const CASES: Case[] = [
  [
    "unevaluatedProperties: false closes an allOf of a $ref (mass assignment)",
    { allOf: [{ $ref: "#/components/schemas/Base" }], properties: { name: { type: "string" } }, unevaluatedProperties: false },
    [
      [{ id: "1", name: "a" }, true],
      [{ id: "1", name: "a", admin: true }, false],
      [{ id: "1" }, true],
      [{ name: "a" }, false],
    ],
  ],
  [
    "through a $ref whose target has an allOf",
    { $ref: "#/components/schemas/Named", unevaluatedProperties: false },
    [
      [{ id: "1", name: "a" }, true],
      [{ id: "1", role: "admin" }, false],
    ],
  ],
  [
    "oneOf: the properties of the branch that passed",
    {
      type: "object",
      oneOf: [
        { required: ["kind"], properties: { kind: { const: "card" }, number: { type: "string" } } },
        { required: ["kind"], properties: { kind: { const: "bank" }, iban: { type: "string" } } },
      ],
      unevaluatedProperties: false,
    },
    [
      [{ kind: "card", number: "4242" }, true],
      [{ kind: "card", iban: "DE89" }, false],
      [{ kind: "bank", iban: "DE89" }, true],
    ],
  ],
  [
    "anyOf: every branch that passed, not only the first",
    { anyOf: [{ properties: { a: { type: "string" } } }, { properties: { b: { type: "string" } } }], unevaluatedProperties: false },
    [
      [{ a: "x", b: "y" }, true],
      [{ a: 1, b: "y" }, false],
      [{ c: 1 }, false],
      [{}, true],
    ],
  ],
  [
    "if/then/else: `if`'s annotations only when it passed, then `then`'s, else `else`'s",
    {
      if: { required: ["type"], properties: { type: { const: "person" } } },
      then: { properties: { age: { type: "integer" } } },
      else: { properties: { employees: { type: "integer" } } },
      unevaluatedProperties: false,
    },
    [
      [{ type: "person", age: 3 }, true],
      [{ type: "person", employees: 3 }, false],
      [{ employees: 3 }, true],
      [{ type: "company", employees: 3 }, false],
      [{ type: "person", age: "x" }, false],
    ],
  ],
  [
    "a nested unevaluatedProperties sees only its own schema",
    { allOf: [{ properties: { a: {} }, unevaluatedProperties: false }], properties: { b: {} } },
    [
      [{ a: 1 }, true],
      [{ a: 1, b: 2 }, false],
    ],
  ],
  [
    "`not` evaluates nothing",
    { not: { not: { properties: { a: {} } } }, unevaluatedProperties: false },
    [
      [{}, true],
      [{ a: 1 }, false],
    ],
  ],
  [
    "patternProperties and additionalProperties evaluate; an unevaluatedProperties schema checks the rest",
    { patternProperties: { "^x-": {} }, unevaluatedProperties: { type: "number" } },
    [
      [{ "x-a": "s", b: 1 }, true],
      [{ b: "s" }, false],
      [[1], true],
    ],
  ],
  [
    "additionalProperties evaluates everything",
    { additionalProperties: { type: "string" }, unevaluatedProperties: false },
    [[{ a: "x", b: "y" }, true]],
  ],
  [
    "dependentSchemas evaluate when their property is present",
    { properties: { card: {} }, dependentSchemas: { card: { required: ["billing"], properties: { billing: { type: "string" } } } }, unevaluatedProperties: false },
    [
      [{ card: 1, billing: "x" }, true],
      [{ card: 1 }, false],
      [{ billing: "x" }, false],
    ],
  ],
  [
    "a recursive $ref with unevaluatedProperties at every level",
    { $ref: "#/components/schemas/Tree" },
    [
      [{ value: 1, children: [{ value: 2, children: [] }] }, true],
      [{ value: 1, children: [{ value: 2, extra: 1 }] }, false],
    ],
  ],
  [
    "unevaluatedItems after prefixItems",
    { prefixItems: [{ type: "string" }], unevaluatedItems: false },
    [
      [["a"], true],
      [["a", 1], false],
      [[], true],
    ],
  ],
  [
    "unevaluatedItems: prefixItems of an allOf member, and the items contains matched",
    { allOf: [{ prefixItems: [{}] }], contains: { type: "string" }, unevaluatedItems: { type: "number" } },
    [
      [[true, 1, "b"], true],
      [[true, "a", 2], true],
      [[true, "a", false], false, true],
      [["a"], true],
    ],
  ],
  [
    "unevaluatedItems: items evaluates everything",
    { items: { type: "integer" }, unevaluatedItems: false },
    [[[1, 2], true]],
  ],
  [
    "dependentRequired",
    { type: "object", dependentRequired: { card: ["billing", "cvc"] } },
    [
      [{ card: 1, billing: 1, cvc: 1 }, true],
      [{ card: 1, billing: 1 }, false],
      [{ billing: 1 }, true],
    ],
  ],
  [
    "draft 7 dependencies, both forms",
    { dependencies: { a: ["b"], c: { required: ["d"] } } },
    [
      [{ a: 1, b: 1 }, true],
      [{ a: 1 }, false],
      [{ c: 1 }, false],
      [{ c: 1, d: 1 }, true],
    ],
  ],
  [
    "propertyNames",
    { propertyNames: { pattern: "^[a-z]+$", maxLength: 3 } },
    [
      [{ ab: 1 }, true],
      [{ Ab: 1 }, false],
      [{ abcd: 1 }, false],
      ["not an object", true],
    ],
  ],
  [
    "if/then/else as assertions",
    { if: { type: "string" }, then: { minLength: 2 }, else: { type: "number" } },
    [
      ["ab", true],
      ["a", false],
      [3, true],
      [true, false],
    ],
  ],
  [
    "if without then or else asserts nothing",
    { if: { type: "string" } },
    [[1, true]],
  ],
  [
    "contains with minContains and maxContains",
    { type: "array", contains: { type: "integer" }, minContains: 2, maxContains: 3 },
    [
      [[1, 2], true],
      [[1], false],
      [[1, 2, 3, 4], false],
      [["a", 1, "b", 2], true],
    ],
  ],
  [
    "contains alone needs one match; minContains 0 none",
    { anyOf: [{ contains: { const: 1 } }, { type: "string" }] },
    [
      [[], false],
      [[2, 1], true],
      ["s", true],
    ],
  ],
  ["minContains: 0", { contains: { const: 1 }, minContains: 0 }, [[[], true]]],
  [
    "date-time ranges: month, day of month, hour, minute, second, offset",
    { type: "string", format: "date-time" },
    [
      ["2024-02-29T12:00:00Z", true],
      ["2023-02-29T12:00:00Z", false],
      ["2024-13-01T12:00:00Z", false],
      ["2024-04-31T12:00:00Z", false],
      ["2024-01-01T25:00:00Z", false],
      ["2024-01-01T12:60:00Z", false],
      ["2024-01-01T12:00:00+99:99", false],
      ["2024-01-01T12:00:00+24:00", false],
      ["2024-01-01T12:00:00+23:59", true],
      ["2024-01-01T12:00:00-05:00", true],
      ["1998-12-31T23:59:60Z", true],
      ["1998-12-31T15:59:60-08:00", true],
      ["1998-12-31T12:59:60Z", false],
      ["2024-01-01T12:00:00.123456Z", true],
    ],
  ],
  [
    "date and time",
    { anyOf: [{ type: "string", format: "date", maxLength: 10 }, { type: "string", format: "time", minLength: 11 }] },
    [
      ["2000-02-29", true],
      ["1900-02-29", false],
      ["2024-00-10", false],
      ["12:00:00Z", false],
      ["12:00:00.5+01:00", true],
      ["12:00:00.5+01:60", false],
    ],
  ],
  [
    "int32",
    { type: "integer", format: "int32" },
    [
      [2147483647, true],
      [2147483648, false],
      [-2147483648, true],
      [-2147483649, false],
    ],
  ],
];

describe("JSON Schema 2020-12 semantics agree with Ajv 2020", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats.default(ajv);
  ajv.addSchema({ ...document, $id: "spec" });

  it.each(CASES)("%s", async (_name, schema, values) => {
    const engines = await enginesFor(document, [schema]);
    const independent = ajv.compile({ $id: `case-${_name.length}-${JSON.stringify(schema).length}`, ...(typeof schema === "object" ? rebase(schema) : {}) });
    for (const [value, valid, ajvAnswer = valid] of values) {
      const [answers] = engines(value);
      expect({ value, ajv: independent(value), ...answers }).toEqual({ value, ajv: ajvAnswer, closures: valid, generated: valid, fronted: valid });
    }
  });
});

/** The schema with its `$ref`s pointing into the document Ajv was given (`spec#/…`). */
function rebase(schema: object): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"spec#/components/')) as object;
}
