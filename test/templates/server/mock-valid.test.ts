/**
 * Mock values validate against their schemas as an independent validator reads them (Ajv, JSON Schema 2020-12 with
 * ajv-formats: test/ajv-judge.ts), keyword by keyword, in every variant; and where no valid value is made, the
 * generator says so (`onIssue`) instead of passing it off as valid.
 */
import { describe, expect, it } from "vitest";
import { MOCK_LIMITS, mockFromSchema, type MockIssue, type MockOptions, type Schema, type SchemaDocument } from "../../../templates/server/index.js";
import { schemaJudge } from "../../ajv-judge.js";

/** `schema`'s mock values for variants 0–5: each must pass Ajv and report no issue. */
function valid(schema: Schema, document: SchemaDocument = {}, options: MockOptions = {}): unknown[] {
  const judge = schemaJudge(document as Record<string, unknown>, options.direction ?? "response");
  return [0, 1, 2, 3, 4, 5].map((variant) => {
    const issues: MockIssue[] = [];
    const value = mockFromSchema(schema, document, { ...options, variant, onIssue: (issue) => issues.push(issue) });
    expect(judge.problemWith(schema, value), `variant ${variant}: ${JSON.stringify(value)?.slice(0, 300)}`).toBeUndefined();
    expect(issues, `variant ${variant}`).toEqual([]);
    return value;
  });
}

/** A pattern as JSON Schema reads it (the `u` flag), else as the legacy flavour does. */
function nativeRegex(pattern: string): RegExp {
  try {
    return new RegExp(pattern, "u");
  } catch {
    return new RegExp(pattern);
  }
}

/** The mock value of `schema` (variant 0) with the issues it reports. */
function withIssues(schema: Schema, document: SchemaDocument = {}): { value: unknown; issues: MockIssue[] } {
  const issues: MockIssue[] = [];
  const value = mockFromSchema(schema, document, { onIssue: (issue) => issues.push(issue) });
  return { value, issues };
}

describe("mock values pass Ajv (2020-12 + ajv-formats)", () => {
  it("formats: byte is base64, and every format the corpus uses is well-formed in every variant", () => {
    const formats = ["byte", "date-time", "date", "time", "uuid", "email", "uri", "url", "uri-reference", "uri-template", "hostname", "ipv4", "ipv6", "duration", "json-pointer", "relative-json-pointer", "regex", "iso-time", "iso-date-time", "idn-email", "idn-hostname", "iri", "iri-reference"];
    for (const format of formats) {
      const values = valid({ type: "string", format });
      // Different variants give different strings, so that unique items can be made.
      expect(new Set(values).size, format).toBeGreaterThan(1);
    }
    expect(mockFromSchema({ type: "string", format: "byte" })).toBe("bW9jaw==");
    expect(mockFromSchema({ type: "string", format: "byte" }, {}, { variant: 6 })).toMatch(/^(?:[A-Za-z0-9+/]{4})+$/);
  });

  it("uniqueItems of byte strings (Kubernetes' and Adyen's shape) are distinct base64 strings", () => {
    const [first] = valid({ type: "array", uniqueItems: true, minItems: 3, items: { type: "string", format: "byte" } }) as string[][];
    expect(new Set(first).size).toBe(3);
    for (const item of first!) expect(Buffer.from(item, "base64").toString("base64")).toBe(item);
  });

  it("formats within length bounds, and lengths counted in code points", () => {
    valid({ type: "string", format: "email", minLength: 40 });
    valid({ type: "string", format: "uri", minLength: 100, maxLength: 120 });
    valid({ type: "string", format: "hostname", minLength: 80 });
    valid({ type: "string", format: "byte", minLength: 10, maxLength: 12 });
    valid({ type: "string", minLength: 3, maxLength: 3 });
  });

  it("patterns: a matching string is made (hex digests, base64, version numbers, alternatives, lookaheads, backreferences)", () => {
    const patterns = [
      "^sha256:[a-f0-9]{64}$",
      "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$",
      "^\\d+\\.\\d+\\.\\d+$",
      "^ssh-(rsa|dss|ed25519) |^ecdsa-sha2-nistp(256|384|521) ",
      "^([0-9a-fA-F]{40}(?:[0-9a-fA-F]{24})?)$",
      "^refs/",
      ".+\\.[Jj][Ss][Oo][Nn][Ll]$",
      "^do:(dbaas|domain|droplet):.*",
      "^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d).{8,}$",
      "^(?<word>[a-z]+)-\\k<word>$",
      "^(0|[1-9][0-9]*)$",
      "^[^\\s@]+@[^\\s@]+$",
      "^\\p{Lu}\\p{Ll}+$",
      "^[a-zA-Z0-9_\\-\\:]+$",
    ];
    for (const pattern of patterns) {
      const values = valid({ type: "string", pattern });
      expect(values.every((value) => nativeRegex(pattern).test(value as string)), pattern).toBe(true);
    }
    // A pattern and a length together.
    valid({ type: "string", pattern: "^[a-z]+$", minLength: 20, maxLength: 20 });
    valid({ type: "string", pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", format: "date" });
  });

  it("numbers: bounds, exclusive bounds (3.0 and 3.1 forms), multipleOf as validators divide, integers", () => {
    valid({ type: "number", multipleOf: 0.01, minimum: 0.05 });
    valid({ type: "number", multipleOf: 0.1 });
    valid({ type: "integer", multipleOf: 7, minimum: 10, maximum: 40 });
    valid({ type: "integer", minimum: 1, maximum: 3 });
    valid({ type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 });
    valid({ type: "integer", maximum: -5 });
    valid({ type: "integer", format: "int32", minimum: 2147483000 });
    valid({ type: "number", minimum: 1.5, maximum: 1.6 });
    valid({ type: "integer", multipleOf: 0.5, minimum: 0.5 });
    // 3.0's boolean exclusive bounds
    valid({ type: "integer", minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true } as Schema);
  });

  it("const, enum (only values that fit the rest of the schema), null types", () => {
    expect(valid({ const: { a: [1] } })[0]).toEqual({ a: [1] });
    expect(valid({ type: "string", enum: ["x", "yy", "zzz"], minLength: 2 })).toContain("yy");
    valid({ type: ["string", "null"], format: "date-time" });
    valid({ type: "null" });
  });

  it("objects: required, additionalProperties false, patternProperties, minProperties/maxProperties, propertyNames, dependentRequired", () => {
    valid({ type: "object", required: ["a"], properties: { a: { type: "string" }, b: { type: "integer" } }, additionalProperties: false });
    valid({ type: "object", minProperties: 3, additionalProperties: { type: "integer" } });
    valid({ type: "object", minProperties: 2, additionalProperties: false, patternProperties: { "^x-[a-z]+$": { type: "string" } } });
    valid({ type: "object", properties: { a: { type: "string" }, b: { type: "string" }, c: { type: "string" } }, maxProperties: 2 });
    valid({ type: "object", minProperties: 1, propertyNames: { pattern: "^[a-z]+[0-9]+$" } });
    valid({ type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, dependentRequired: { a: ["b"] } } as Schema);
  });

  it("arrays: minItems, maxItems, uniqueItems of objects and enums, prefixItems, contains", () => {
    valid({ type: "array", minItems: 4, uniqueItems: true, items: { type: "object", required: ["id"], properties: { id: { type: "integer" } } } });
    valid({ type: "array", minItems: 3, uniqueItems: true, items: { enum: ["a", "b", "c"] } });
    valid({ type: "array", minItems: 2, maxItems: 2, items: { type: "string", format: "uuid" }, uniqueItems: true });
    valid({ type: "array", prefixItems: [{ type: "integer" }, { type: "string", format: "date" }], items: false } as Schema);
    valid({ type: "array", items: { type: "integer" }, contains: { type: "integer", minimum: 5 }, minContains: 2 } as Schema);
  });

  it("compositions: allOf merged (bounds tightened, types intersected), oneOf matched exactly once, discriminators", () => {
    valid({ allOf: [{ type: "integer", minimum: 3 }, { type: "number", minimum: 5, maximum: 9 }] });
    valid({ allOf: [{ type: "string", minLength: 4 }, { type: "string", maxLength: 6, pattern: "^[a-z]+$" }] });
    // Every `b` is also an `a` here: only a value of the second branch matches exactly one.
    valid({ oneOf: [{ type: "object", properties: { kind: { type: "string" } } }, { type: "object", required: ["kind", "n"], properties: { kind: { const: "b" }, n: { type: "integer" } }, additionalProperties: false }] });
    // GitHub's "one of these sets of properties": the value keeps one set.
    const item = { type: "object", required: ["type"], properties: { type: { enum: ["Issue"] }, id: { type: "integer" }, owner: { type: "string" }, repo: { type: "string" } }, oneOf: [{ required: ["id"] }, { required: ["owner", "repo"] }] };
    valid(item as Schema);
    const document: SchemaDocument = {
      components: {
        schemas: {
          Pet: { type: "object", required: ["kind"], properties: { kind: { type: "string" } }, discriminator: { propertyName: "kind", mapping: { cat: "#/components/schemas/Cat" } } },
          Cat: { allOf: [{ $ref: "#/components/schemas/Pet" }, { type: "object", required: ["lives"], properties: { lives: { type: "integer", minimum: 1, maximum: 9 } } }] },
          Dog: { allOf: [{ $ref: "#/components/schemas/Pet" }, { type: "object", required: ["barks"], properties: { barks: { type: "boolean" } } }] },
          Animal: { oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }], discriminator: { propertyName: "kind", mapping: { cat: "#/components/schemas/Cat", dog: "#/components/schemas/Dog" } } },
        },
      },
    };
    // A schema that inherits the discriminator carries its own tag: Cat's is "cat" (its mapping key), Dog's "Dog".
    expect(valid({ $ref: "#/components/schemas/Cat" }, document)[0]).toMatchObject({ kind: "cat" });
    expect(valid({ $ref: "#/components/schemas/Dog" }, document)[0]).toMatchObject({ kind: "Dog" });
    valid({ $ref: "#/components/schemas/Animal" }, document);
    // Subschemas two members both set hold together: GitHub's fork webhook lists `topics` as strings and as nulls,
    // so only an empty list is valid; additional properties of two members must satisfy both.
    const topics = { type: "object", required: ["topics"], allOf: [{ properties: { topics: { type: "array", items: { type: "string" } } } }, { properties: { topics: { type: "array", items: { type: ["null"] } } } }] };
    expect(valid(topics as Schema)[0]).toEqual({ topics: [] });
    valid({ allOf: [{ type: "object", minProperties: 1, additionalProperties: { type: "integer" } }, { additionalProperties: { type: "number", minimum: 2 } }] } as Schema);
  });

  it("allOf members whose types have nothing in common are reported", () => {
    expect(withIssues({ allOf: [{ type: "string" }, { type: "integer" }] }).issues[0]?.message).toMatch(/types .* have none in common/);
  });

  it("requests skip readOnly properties, responses writeOnly ones (required or not)", () => {
    const schema: Schema = { type: "object", required: ["id", "password"], properties: { id: { type: "integer", readOnly: true }, password: { type: "string", writeOnly: true } } };
    expect(valid(schema)[0]).toEqual({ id: 0 });
    expect(valid(schema, {}, { direction: "request" })[0]).toEqual({ password: "string" });
  });
});

describe("sizes are clamped, and a value the clamp makes invalid is reported", () => {
  it("minItems 1e8 gives at most MOCK_LIMITS.items items, at once", () => {
    const started = performance.now();
    const { value, issues } = withIssues({ type: "array", minItems: 1e8, items: { type: "integer" } });
    expect(performance.now() - started).toBeLessThan(2000);
    expect((value as unknown[]).length).toBe(MOCK_LIMITS.items);
    expect(issues).toEqual([{ at: "", message: `minItems 100000000 is more than mock arrays hold (${MOCK_LIMITS.items}): the array is too short` }]);
  });

  it("minLength 2e9 gives a string of MOCK_LIMITS.length characters (no RangeError), in a format or from a pattern too", () => {
    for (const schema of [{ type: "string", minLength: 2e9 }, { type: "string", format: "email", minLength: 2e9 }, { type: "string", pattern: "^a+$", minLength: 2e9 }] as Schema[]) {
      const { value, issues } = withIssues({ type: "object", required: ["s"], properties: { s: schema } });
      expect(((value as { s: string }).s).length).toBeLessThanOrEqual(MOCK_LIMITS.length);
      expect(issues).toEqual([{ at: "/s", message: `minLength 2000000000 is more than mock strings hold (${MOCK_LIMITS.length}): the string is too short` }]);
    }
  });

  it("nested large arrays stop growing at MOCK_LIMITS.values values", () => {
    const started = performance.now();
    const { value, issues } = withIssues({ type: "array", minItems: 1000, items: { type: "array", minItems: 1000, items: { type: "string" } } });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(JSON.stringify(value).length).toBeLessThan(4_000_000);
    expect(issues.length).toBeGreaterThan(0);
  });

  it("a pattern asking for a huge string (a{999999999}) gives up instead of filling the memory", () => {
    const { issues } = withIssues({ type: "string", pattern: "^a{999999999}$" });
    expect(issues[0]!.message).toMatch(/no string was found that matches the pattern/);
  });

  it("what no value satisfies is reported, not passed off: enum [], false, overlapping oneOf, an allOf of two types", () => {
    expect(withIssues({ type: "string", enum: [] }).issues).toEqual([{ at: "", message: "`enum: []` allows no value" }]);
    expect(withIssues(false).issues).toEqual([{ at: "", message: "the schema is `false`: no value is valid" }]);
    expect(withIssues({ oneOf: [{ type: "string" }, { type: "string", maxLength: 100 }] }).issues).toEqual([{ at: "", message: "no value made matches exactly one `oneOf` branch (the branches overlap)" }]);
    expect(withIssues({ allOf: [{ type: "string" }, { type: "integer" }] }).issues.length).toBe(1);
  });
});
