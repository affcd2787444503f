import { describe, expect, it } from "vitest";
import { compileValidator, SchemaCompiler } from "../../../templates/server/validate.js";
import type { Schema, SchemaDocument } from "../../../templates/server/schema.js";

const v = (schema: Schema, document: SchemaDocument = {}, direction: "request" | "response" = "request") =>
  compileValidator(schema, document, { direction });
const types = (issues: { type: string }[]) => issues.map((i) => i.type);

describe("types", () => {
  it("checks each JSON type with pydantic error types", () => {
    expect(types(v({ type: "string" })(1))).toEqual(["string_type"]);
    expect(types(v({ type: "integer" })("1"))).toEqual(["int_type"]);
    expect(types(v({ type: "integer" })(1.5))).toEqual(["int_from_float"]);
    expect(v({ type: "integer" })(3)).toEqual([]);
    expect(types(v({ type: "number" })("x"))).toEqual(["float_type"]);
    expect(v({ type: "number" })(1)).toEqual([]);
    expect(types(v({ type: "boolean" })(0))).toEqual(["bool_type"]);
    expect(types(v({ type: "array" })({}))).toEqual(["list_type"]);
    expect(types(v({ type: "object" })([]))).toEqual(["dict_type"]);
    expect(types(v({ type: "object" })(null))).toEqual(["dict_type"]);
    expect(types(v({ type: "null" })(0))).toEqual(["none_required"]);
  });

  it("supports 3.1 type arrays and 3.0 nullable", () => {
    const nullableString = v({ type: ["string", "null"] });
    expect(nullableString(null)).toEqual([]);
    expect(nullableString("a")).toEqual([]);
    expect(types(nullableString(1))).toEqual(["string_type"]);
    const legacy = v({ type: "string", nullable: true, enum: ["a", "b"] });
    expect(legacy(null)).toEqual([]);
    expect(types(legacy("c"))).toEqual(["enum"]);
    expect(types(v({ type: "string" })(null))).toEqual(["string_type"]);
  });

  it("accepts anything for empty and `true` schemas, nothing for `false`", () => {
    expect(v({})({ any: [1] })).toEqual([]);
    expect(v(true)(null)).toEqual([]);
    expect(types(v(false)(1))).toEqual(["never"]);
  });
});

describe("keywords", () => {
  it("enum and const, including structured values", () => {
    const order = v({ type: "string", enum: ["asc", "desc"] });
    expect(order("asc")).toEqual([]);
    expect(order("up")).toEqual([{ loc: [], msg: "Input should be 'asc' or 'desc'", type: "enum" }]);
    expect(v({ const: "chat.completion" })("x")[0]).toMatchObject({ type: "literal_error", msg: "Input should be 'chat.completion'" });
    expect(v({ const: { a: [1, 2] } })({ a: [1, 2] })).toEqual([]);
    expect(types(v({ enum: [{ a: 1 }] })({ a: 2 }))).toEqual(["enum"]);
    expect(v({ enum: [{ b: 1, a: 2 }] })({ a: 2, b: 1 })).toEqual([]);
  });

  it("strings: length (code points), pattern compiled once, formats", () => {
    const name = v({ type: "string", minLength: 2, maxLength: 3, pattern: "^[a-z]+$" });
    expect(types(name("a"))).toEqual(["string_too_short"]);
    expect(types(name("abcd"))).toEqual(["string_too_long"]);
    expect(types(name("AB"))).toEqual(["string_pattern_mismatch"]);
    expect(v({ type: "string", maxLength: 1 })("😀")).toEqual([]);
    const format = (f: string, value: string) => v({ type: "string", format: f })(value).length === 0;
    expect(format("uuid", "00000000-0000-4000-8000-000000000000")).toBe(true);
    expect(format("uuid", "not-a-uuid")).toBe(false);
    expect(format("date-time", "2024-02-29T12:30:00.123+02:00")).toBe(true);
    expect(format("date-time", "2023-02-29T12:30:00Z")).toBe(false);
    expect(format("date-time", "2024-01-01")).toBe(false);
    expect(format("date", "2024-12-31")).toBe(true);
    expect(format("date", "2024-13-01")).toBe(false);
    expect(format("email", "a@b.c")).toBe(true);
    expect(format("email", "nope")).toBe(false);
    expect(format("uri", "https://example.com/x")).toBe(true);
    expect(format("uri", "/relative")).toBe(false);
    expect(format("unknown-format", "anything")).toBe(true);
    expect(v({ type: "string", format: "uuid" })("x")[0].type).toBe("uuid_parsing");
  });

  it("an invalid spec pattern fails closed instead of crashing (every string is refused, numbers are not strings)", () => {
    expect(() => v({ type: "string", pattern: "(" })).not.toThrow();
    for (const pattern of ["(", "(?i)^abc$", "[z-a]"]) {
      expect(v({ type: "string", pattern })("x"), pattern).toEqual([
        { loc: [], msg: `String cannot be checked against pattern '${pattern}': it is not a valid regular expression`, type: "string_pattern_unchecked" },
      ]);
    }
    expect(v({ pattern: "(" })(1)).toEqual([]);
    const keys = v({ type: "object", properties: { a: {} }, patternProperties: { "(": { type: "string" } } });
    expect(keys({ a: 1 })).toEqual([]);
    expect(types(keys({ a: 1, b: "x" }))).toEqual(["string_pattern_unchecked"]);
    // Valid without the `u` flag only (identity escape):
    expect(v({ type: "string", pattern: "^\\-$" })("-")).toEqual([]);
  });

  it("numbers: 3.0 boolean and 3.1 numeric exclusive bounds, multipleOf", () => {
    const range = v({ type: "integer", minimum: 1, maximum: 100 });
    expect(range(0)[0]).toMatchObject({ type: "greater_than_equal", msg: "Input should be greater than or equal to 1" });
    expect(range(101)[0].type).toBe("less_than_equal");
    expect(range(100)).toEqual([]);
    const legacy = v({ type: "number", minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true });
    expect(types(legacy(0))).toEqual(["greater_than"]);
    expect(types(legacy(1))).toEqual(["less_than"]);
    expect(legacy(0.5)).toEqual([]);
    const modern = v({ type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 });
    expect(types(modern(0))).toEqual(["greater_than"]);
    expect(types(modern(1))).toEqual(["less_than"]);
    expect(v({ type: "number", multipleOf: 0.1 })(0.3)).toEqual([]);
    expect(types(v({ type: "integer", multipleOf: 2 })(3))).toEqual(["multiple_of"]);
  });

  it("arrays: items, prefixItems, min/max, uniqueItems", () => {
    const list = v({ type: "array", items: { type: "integer" }, minItems: 1, maxItems: 3, uniqueItems: true });
    expect(types(list([]))).toEqual(["too_short"]);
    expect(types(list([1, 2, 3, 4]))).toEqual(["too_long"]);
    expect(types(list([1, 1]))).toEqual(["unique_items"]);
    expect(list([1, "x"])).toEqual([{ loc: [1], msg: "Input should be a valid integer", type: "int_type" }]);
    const tuple = v({ type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false });
    expect(tuple(["a", 1])).toEqual([]);
    expect(tuple(["a", "b"])[0].loc).toEqual([1]);
    expect(types(tuple(["a", 1, true]))).toEqual(["never"]);
    expect(types(v({ type: "array", uniqueItems: true })([{ a: 1, b: 2 }, { b: 2, a: 1 }]))).toEqual(["unique_items"]);
  });

  it("objects: required, additionalProperties (bool or schema), patternProperties, min/maxProperties", () => {
    const model = v({
      type: "object",
      required: ["project", "name"],
      properties: { project: { type: "string" }, name: { type: "string" } },
      additionalProperties: false,
    });
    expect(model({ project: "p", extra: 1 })).toEqual([
      { loc: ["name"], msg: "Field required", type: "missing" },
      { loc: ["extra"], msg: "Extra inputs are not permitted", type: "extra_forbidden" },
    ]);
    const metrics = v({ type: "object", additionalProperties: { type: "number" } });
    expect(metrics({ loss: 0.1, acc: "x" })).toEqual([{ loc: ["acc"], msg: "Input should be a valid number", type: "float_type" }]);
    const patterned = v({ type: "object", patternProperties: { "^x-": { type: "string" } }, additionalProperties: false });
    expect(patterned({ "x-a": "ok" })).toEqual([]);
    expect(types(patterned({ "x-a": 1, y: 1 }))).toEqual(["string_type", "extra_forbidden"]);
    expect(types(v({ type: "object", minProperties: 1 })({}))).toEqual(["too_short"]);
    expect(types(v({ type: "object", maxProperties: 1 })({ a: 1, b: 2 }))).toEqual(["too_long"]);
    expect(v({ type: "object", required: ["x"] })({})).toEqual([{ loc: ["x"], msg: "Field required", type: "missing" }]);
  });

  it("reports nested locations", () => {
    const check = v({
      type: "object",
      properties: { messages: { type: "array", items: { type: "object", required: ["role"], properties: { role: { enum: ["user"] } } } } },
    });
    expect(check({ messages: [{ role: "user" }, { role: "bot" }, {}] })).toEqual([
      { loc: ["messages", 1, "role"], msg: "Input should be 'user'", type: "enum" },
      { loc: ["messages", 2, "role"], msg: "Field required", type: "missing" },
    ]);
    expect(check({ messages: [{ role: "bot" }] }, ["body"])[0].loc).toEqual(["body", "messages", 0, "role"]);
  });
});

describe("properties", () => {
  it("names an object inherits (constructor, toString) are present only as own properties", () => {
    const check = v({ type: "object", required: ["constructor", "toString"], properties: { constructor: { type: "string" }, toString: { type: "integer" } } });
    expect(check({})).toEqual([
      { loc: ["constructor"], msg: "Field required", type: "missing" },
      { loc: ["toString"], msg: "Field required", type: "missing" },
    ]);
    expect(check(JSON.parse('{"constructor":"c","toString":1}'))).toEqual([]);
    expect(types(check(JSON.parse('{"constructor":1,"toString":1}')))).toEqual(["string_type"]);
  });

  it("`required: true` on a property (Swagger 2.0's spelling, which hey-api's fixture keeps) is ignored, not a crash", () => {
    const swagger2 = { type: "object", properties: { offset: { type: "number", required: true }, inner: { type: "object", required: true, properties: { a: { type: "string" } } } } };
    const check = v(swagger2 as unknown as Schema);
    expect(check({})).toEqual([]);
    expect(check({ offset: 1, inner: { a: "x" } })).toEqual([]);
    expect(types(check({ offset: "1" }))).toEqual(["float_type"]);
  });

  it("a property whose value is undefined is absent, as JSON.stringify will send it", () => {
    const check = v({ type: "object", required: ["id"], properties: { id: { type: "string" }, note: { type: "string" } } }, {}, "response");
    expect(check({ id: "a", note: undefined })).toEqual([]);
    expect(check({ id: undefined })).toEqual([{ loc: ["id"], msg: "Field required", type: "missing" }]);
  });
});

describe("composition", () => {
  it("allOf requires every branch", () => {
    const check = v({ allOf: [{ type: "object", required: ["a"] }, { type: "object", required: ["b"] }] });
    expect(types(check({ a: 1 }))).toEqual(["missing"]);
    expect(check({ a: 1, b: 2 })).toEqual([]);
  });

  it("anyOf reports the most plausible branch", () => {
    const optionalInt = v({ anyOf: [{ type: "integer", minimum: 1 }, { type: "null" }] });
    expect(optionalInt(null)).toEqual([]);
    expect(optionalInt(0)).toEqual([{ loc: [], msg: "Input should be greater than or equal to 1", type: "greater_than_equal" }]);
    expect(types(optionalInt("x"))).toEqual(["int_type"]);
    const shapes = v({
      anyOf: [
        { type: "string" },
        { type: "object", required: ["text"], properties: { text: { type: "string" } } },
      ],
    });
    expect(shapes({ text: 1 })).toEqual([{ loc: ["text"], msg: "Input should be a valid string", type: "string_type" }]);
  });

  it("an Optional (X or null) checks X once: null matches at once, anything else is X's to accept or reject", () => {
    const optional = v({ oneOf: [{ type: "object", required: ["a"], properties: { a: { type: "integer" } } }, { type: "null", description: "absent" }] });
    expect(optional(null)).toEqual([]);
    expect(optional({ a: 1 })).toEqual([]);
    expect(optional({ a: "x" })).toEqual([{ loc: ["a"], msg: "Input should be a valid integer", type: "int_type" }]);
    expect(types(optional([]))).toEqual(["dict_type"]);
    // A oneOf whose other branch also takes null still counts both.
    expect(types(v({ oneOf: [{ type: ["string", "null"] }, { type: "null" }] })(null))).toEqual(["one_of_multiple"]);
    // Defaults inside X are filled in the same single pass.
    const body: Record<string, unknown> = {};
    expect(v({ anyOf: [{ type: "object", properties: { n: { type: "integer", default: 3 } } }, { type: "null" }] })(body)).toEqual([]);
    expect(body).toEqual({ n: 3 });
  });

  it("oneOf requires exactly one match", () => {
    const check = v({ oneOf: [{ type: "integer" }, { type: "number" }] });
    expect(types(check(1))).toEqual(["one_of_multiple"]);
    expect(check(1.5)).toEqual([]);
    expect(types(check("x"))).toEqual(["int_type"]);
  });

  it("not", () => {
    expect(types(v({ not: { type: "string" } })("x"))).toEqual(["not"]);
    expect(v({ not: { type: "string" } })(1)).toEqual([]);
  });

  it("discriminator picks the branch by its mapping (and by schema name / const without mapping)", () => {
    const document: SchemaDocument = {
      components: {
        schemas: {
          Cat: { type: "object", required: ["kind", "meows"], properties: { kind: { const: "cat" }, meows: { type: "boolean" } } },
          Dog: { type: "object", required: ["kind", "barks"], properties: { kind: { type: "string" }, barks: { type: "boolean" } } },
        },
      },
    };
    const pet = v(
      {
        oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
        discriminator: { propertyName: "kind", mapping: { cat: "#/components/schemas/Cat", dog: "Dog" } },
      },
      document,
    );
    expect(pet({ kind: "dog", barks: true })).toEqual([]);
    expect(pet({ kind: "dog" })).toEqual([{ loc: ["barks"], msg: "Field required", type: "missing" }]);
    expect(types(pet({ kind: "cow" }))).toEqual(["union_tag_invalid"]);
    expect(types(pet({}))).toEqual(["union_tag_not_found"]);
    const implicit = v({ oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }], discriminator: { propertyName: "kind" } }, document);
    expect(implicit({ kind: "Dog", barks: false })).toEqual([]);
    expect(implicit({ kind: "cat", meows: true })).toEqual([]);
    expect(implicit({ kind: "cat" })[0]).toMatchObject({ loc: ["meows"], type: "missing" });
  });
});

describe("$ref", () => {
  const document: SchemaDocument = {
    components: {
      schemas: {
        Node: {
          type: "object",
          required: ["name", "children"],
          properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/components/schemas/Node" } } },
        },
        "FunctionCall-Input": { type: "object", required: ["name"], properties: { name: { type: "string" } } },
        Stamp: { type: "object", properties: { id: { type: "string", readOnly: true }, secret: { type: "string", writeOnly: true } }, required: ["id", "secret"] },
      },
    },
  };

  it("resolves lazily and supports recursion", () => {
    const check = v({ $ref: "#/components/schemas/Node" }, document);
    expect(check({ name: "root", children: [{ name: "a", children: [{ name: "b", children: [] }] }] })).toEqual([]);
    expect(check({ name: "root", children: [{ name: "a", children: [{ children: [] }] }] })).toEqual([
      { loc: ["children", 0, "children", 0, "name"], msg: "Field required", type: "missing" },
    ]);
  });

  it("handles schema names with odd characters", () => {
    expect(v({ $ref: "#/components/schemas/FunctionCall-Input" }, document)({})[0].type).toBe("missing");
  });

  it("throws at compile time for a dangling ref", () => {
    expect(() => v({ $ref: "#/components/schemas/Missing" }, document)).toThrow(/Unresolvable \$ref/);
  });

  it("ignores readOnly properties in requests and writeOnly properties in responses", () => {
    const stamp = { $ref: "#/components/schemas/Stamp" };
    expect(v(stamp, document, "request")({ secret: "s" })).toEqual([]);
    expect(v(stamp, document, "request")({ id: 5, secret: "s" })).toEqual([]);
    expect(v(stamp, document, "response")({ id: "x" })).toEqual([]);
    expect(types(v(stamp, document, "response")({ secret: "s" }))).toEqual(["missing"]);
  });

  it("reads readOnly and writeOnly said in an allOf member of the property (DigitalOcean's `allOf: [$ref, {readOnly: true}]`)", () => {
    const cluster: Schema = {
      type: "object",
      required: ["name", "connection", "password"],
      properties: {
        name: { type: "string" },
        connection: { allOf: [{ $ref: "#/components/schemas/Connection" }, { readOnly: true }] },
        password: { allOf: [{ type: "string" }, { writeOnly: true }] },
      },
    };
    const doc: SchemaDocument = { components: { schemas: { Connection: { type: "object", required: ["uri"], properties: { uri: { type: "string" } } } } } };
    // A request need not send the read-only connection (required applies to responses only), nor a valid one.
    expect(v(cluster, doc, "request")({ name: "db", password: "pw" })).toEqual([]);
    expect(v(cluster, doc, "request")({ name: "db", password: "pw", connection: {} })).toEqual([]);
    // A response need not carry the write-only password.
    expect(v(cluster, doc, "response")({ name: "db", connection: { uri: "u" } })).toEqual([]);
    expect(types(v(cluster, doc, "response")({ name: "db" }))).toEqual(["missing"]);
  });

  it("compiles each component once and caches by schema", () => {
    const compiler = new SchemaCompiler(document);
    const schema = { $ref: "#/components/schemas/Node" };
    expect(compiler.compile(schema)).toBe(compiler.compile(schema));
  });
});

describe("defaults", () => {
  it("fills defaults of absent properties in requests (not in responses), even inside a matched union branch", () => {
    const schema: Schema = {
      type: "object",
      properties: {
        stream: { type: "boolean", default: false },
        config: { anyOf: [{ type: "object", properties: { batch: { default: "auto" } } }, { type: "null" }] },
      },
    };
    const body: Record<string, unknown> = { config: {} };
    expect(v(schema)(body)).toEqual([]);
    expect(body).toEqual({ stream: false, config: { batch: "auto" } });
    const response: Record<string, unknown> = {};
    v(schema, {}, "response")(response);
    expect(response).toEqual({});
  });

  it("fills defaults that a union branch reaches through $refs, recursion and compositions", () => {
    const document: SchemaDocument = {
      components: {
        schemas: {
          Tree: { type: "object", properties: { children: { type: "array", items: { $ref: "#/components/schemas/Tree" } }, leaf: { $ref: "#/components/schemas/Leaf" } } },
          Leaf: { allOf: [{ type: "object", properties: { color: { type: "string", default: "green" } } }] },
          Plain: { type: "object", properties: { n: { type: "integer" } }, additionalProperties: false },
        },
      },
    };
    const schema: Schema = { anyOf: [{ $ref: "#/components/schemas/Plain" }, { type: "null" }, { $ref: "#/components/schemas/Tree" }] };
    const tree: Record<string, unknown> = { children: [{ leaf: {} }], leaf: {} };
    expect(v(schema, document)(tree)).toEqual([]);
    expect(tree).toEqual({ children: [{ leaf: { color: "green" } }], leaf: { color: "green" } });
    const compiler = new SchemaCompiler(document);
    expect(compiler.mayFillDefaults({ $ref: "#/components/schemas/Tree" }, "request")).toBe(true);
    expect(compiler.mayFillDefaults({ $ref: "#/components/schemas/Plain" }, "request")).toBe(false);
    expect(compiler.mayFillDefaults({ $ref: "#/components/schemas/Tree" }, "response")).toBe(false);
  });

  it("a default its own schema refuses is not filled in (Kubernetes' `default: {}` on timestamps): the request stays valid", () => {
    const document: SchemaDocument = { components: { schemas: { Time: { type: "string", format: "date-time" } } } };
    const schema: Schema = {
      type: "object",
      properties: {
        creationTimestamp: { allOf: [{ $ref: "#/components/schemas/Time" }], default: {} },
        replicas: { type: "integer", default: 1 },
      },
    };
    const body: Record<string, unknown> = {};
    expect(v(schema, document)(body)).toEqual([]);
    expect(body).toEqual({ replicas: 1 });
    const sent: Record<string, unknown> = { creationTimestamp: "1970-01-01T00:00:00Z" };
    expect(v(schema, document)(sent)).toEqual([]);
    expect(sent).toEqual({ creationTimestamp: "1970-01-01T00:00:00Z", replicas: 1 });
  });

  it("hands every request its own copy of a structured default, own __proto__ keys included", () => {
    const fallback = JSON.parse('{"tags":["a"],"meta":{"__proto__":{"polluted":true},"n":1}}') as unknown;
    const schema: Schema = { type: "object", properties: { options: { type: "object", default: fallback } } };
    const first: Record<string, { tags: string[]; meta: Record<string, unknown> }> = {};
    const second: Record<string, unknown> = {};
    v(schema)(first);
    first.options.tags.push("mutated");
    v(schema)(second);
    expect(second).toEqual({ options: JSON.parse('{"tags":["a"],"meta":{"__proto__":{"polluted":true},"n":1}}') });
    expect(Object.hasOwn(first.options.meta, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("hostile values", () => {
  /** A compiler whose patterns are counted: `runs` lists every string a pattern was run on. */
  function counting(settings: { maxDepth?: number } = {}) {
    const runs: string[] = [];
    const compiler = new SchemaCompiler({}, { ...settings, patterns: { compile: (pattern) => (value) => (runs.push(value), new RegExp(pattern).test(value)) } });
    return { runs, validate: (schema: Schema) => compileValidator(schema, {}, { compiler }) };
  }

  it("cheap keywords first: a pattern never runs on a value of the wrong type, length, enum or const", () => {
    const { runs, validate } = counting();
    const name = validate({ type: "string", maxLength: 5, pattern: "^a+$" });
    expect(types(name("b".repeat(6)))).toEqual(["string_too_long"]);
    expect(types(name(42))).toEqual(["string_type"]);
    expect(types(validate({ enum: ["a", "b"], pattern: "^a$" })("c"))).toEqual(["enum"]);
    expect(types(validate({ const: "a", pattern: "^a$" })("b"))).toEqual(["literal_error"]);
    // A maxLength in a $ref'd or allOf'd schema beside the pattern counts too.
    expect(types(validate({ allOf: [{ maxLength: 2 }], pattern: "^a+$" })("aaa"))).toEqual(["string_too_long"]);
    expect(runs).toEqual([]);
    expect(types(name("bb"))).toEqual(["string_pattern_mismatch"]);
    expect(runs).toEqual(["bb"]);
  });

  it("a schema stops at its first failing keyword; properties still each report theirs", () => {
    expect(types(v({ type: "string", minLength: 5, format: "uuid" })("x"))).toEqual(["string_too_short"]);
    expect(types(v({ type: "array", minItems: 3, items: { type: "string" } })([1]))).toEqual(["too_short"]);
    const record = v({ type: "object", required: ["a", "b"], properties: { a: { type: "string" }, b: { type: "integer" }, c: { maximum: 1 } }, additionalProperties: false });
    expect(types(record({ a: 1, c: 2, d: 0 }))).toEqual(["string_type", "missing", "less_than_equal", "extra_forbidden"]);
  });

  it("values nested deeper than maxDepth fail where the limit is crossed, without recursing further", () => {
    const document = { components: { schemas: { Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/components/schemas/Node" } } } } } } };
    const compiler = new SchemaCompiler(document, { maxDepth: 6 });
    const tree = compileValidator({ $ref: "#/components/schemas/Node" }, document, { compiler });
    let deep: object = {};
    for (let i = 0; i < 5000; i++) deep = { children: [deep] };
    expect(tree(deep, ["body"])).toEqual([
      // The seventh container: body, children, its item, children, its item, children, its item.
      { loc: ["body", "children", 0, "children", 0, "children", 0], msg: "Input is nested more than 6 levels deep", type: "too_deep" },
    ]);
    let shallow: object = {};
    for (let i = 0; i < 2; i++) shallow = { children: [shallow] };
    expect(tree(shallow, ["body"])).toEqual([]);
  });

  it("collects at most 100 problems, however many the value has", () => {
    const list = v({ type: "array", items: { type: "string" } });
    expect(list(new Array(10_000).fill(0))).toHaveLength(100);
    const record = v({ type: "object", additionalProperties: false });
    expect(record(Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i])))).toHaveLength(100);
  });

  it("a super-linear pattern runs on the linear-time matcher, and patternProperties keys too", () => {
    const compiler = new SchemaCompiler({}, { superLinearPatterns: ["^(a+)+$"] });
    const check = compileValidator({ type: "object", properties: { v: { type: "string", pattern: "^(a+)+$" } }, patternProperties: { "^(a+)+$": { type: "integer" } } }, {}, { compiler });
    const evil = `${"a".repeat(5000)}!`;
    const started = performance.now();
    expect(types(check({ v: evil }))).toEqual(["string_pattern_mismatch"]);
    expect(types(check({ aaaa: "x" }))).toEqual(["int_type"]);
    expect(check({ [evil]: "x" })).toEqual([]); // not a match: an additional property, which is allowed
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe("response stripping (FastAPI's response_model)", () => {
  const document = {
    components: {
      schemas: {
        User: { type: "object", required: ["id"], properties: { id: { type: "string" }, password: { type: "string", writeOnly: true }, profile: { $ref: "#/components/schemas/Profile" } } },
        Profile: { type: "object", properties: { bio: { type: "string" } } },
        Admin: { allOf: [{ $ref: "#/components/schemas/User" }, { type: "object", properties: { role: { type: "string" } } }] },
      },
    },
  };
  const strip = (schema: Schema) => new SchemaCompiler(document).stripper(schema);

  it("drops undeclared and writeOnly properties, through $ref, allOf and arrays; never changes its input", () => {
    const user = { id: "1", password: "pw", password_hash: "$2b$", profile: { bio: "hi", ssn: "000" } };
    expect(strip({ $ref: "#/components/schemas/User" })(user)).toEqual({ id: "1", profile: { bio: "hi" } });
    expect(user.password_hash).toBe("$2b$");
    expect(strip({ type: "array", items: { $ref: "#/components/schemas/Admin" } })([{ ...user, role: "admin", token: "t" }])).toEqual([{ id: "1", profile: { bio: "hi" }, role: "admin" }]);
  });

  it("keeps what the schema allows: additionalProperties, patternProperties, free-form objects", () => {
    expect(strip({ type: "object", properties: { a: {} }, additionalProperties: true })({ a: 1, b: 2 })).toEqual({ a: 1, b: 2 });
    expect(strip({ type: "object", properties: { a: {} }, additionalProperties: { type: "object", properties: { x: {} } } })({ a: 1, b: { x: 1, y: 2 } })).toEqual({ a: 1, b: { x: 1 } });
    expect(strip({ type: "object", patternProperties: { "^x-": {} } })({ "x-a": 1, b: 2 })).toEqual({ "x-a": 1 });
    expect(strip({ type: "object" })({ anything: 1 })).toEqual({ anything: 1 });
    expect(strip({ type: "string" })("as is")).toBe("as is");
  });

  it("a union strips by the branch the value validates against", () => {
    const pet = strip({
      oneOf: [
        { type: "object", required: ["bark"], properties: { kind: { const: "dog" }, bark: { type: "string" } } },
        { type: "object", required: ["meow"], properties: { kind: { const: "cat" }, meow: { type: "string" } } },
      ],
    });
    expect(pet({ kind: "cat", meow: "m", secret: 1 })).toEqual({ kind: "cat", meow: "m" });
    expect(pet({ kind: "dog", bark: "b", meow: "?" })).toEqual({ kind: "dog", bark: "b" });
  });
});
