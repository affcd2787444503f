import { printString } from "./printer.js";
import type { PartUse } from "./schemas-plan.js";

/**
 * JSON Schema (as OpenAPI 3.0/3.1 writes it) to zod 4 expressions, for `schemas: { library: "zod" }`. Each keyword
 * maps to zod's own API where zod has one (types, bounds, lengths, formats, objects, arrays, tuples, unions, enums);
 * the assertions zod has no method for (`not`, `if`/`then`/`else`, `contains`, `dependentRequired`,
 * `dependentSchemas`, `propertyNames`, `patternProperties`, `minProperties`/`maxProperties`, `uniqueItems`) are
 * `superRefine`s over zod schemas of the same keywords, so a value gets the verdict specforge's own validators give.
 * `unevaluatedProperties` / `unevaluatedItems` are checked against what the schema and its in-place subschemas could
 * evaluate, read statically (every branch of a union counts, passed or not). Known differences are listed in
 * docs/schemas.md ("zod"): that reading, and lengths in UTF-16 code units.
 */

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => value !== null && typeof value === "object" && !Array.isArray(value);

export interface ZodContext {
  /** The expression of a `$ref` target (a constant the module defines or imports), or undefined when it is unknown. */
  ref(pointer: string): string | undefined;
  /** Which side of an exchange the schema checks (the router's readOnly / writeOnly / default semantics), if any. */
  use: PartUse | undefined;
  /** The schema a local `$ref` points at. */
  resolve(pointer: string): unknown;
  /** Patterns that backtrack catastrophically: matched only on short strings (as the router's fallback does). */
  superLinear: ReadonlySet<string>;
}

/** Longest string a super-linear pattern is run on natively (the router's UNSAFE_PATTERN_MAX_INPUT). */
const UNSAFE_PATTERN_MAX_INPUT = 20;

/** RFC 3339 `full-time` with its ranges, the offset optional as the router reads it (zod's `iso.time` takes none). */
const TIME = String.raw`^([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):?[0-5]\d)?$`;

/** The zod 4 expression of `schema`. */
export function zodOf(schema: unknown, context: ZodContext, depth = 0): string {
  if (depth > 64) return "z.unknown()"; // (inline nesting this deep is not a real schema; $refs are lazy and do not count)
  if (schema === true || schema === undefined) return "z.unknown()";
  if (schema === false) return "z.never()";
  if (!isObject(schema)) return "z.unknown()";
  const sub = (node: unknown) => zodOf(node, context, depth + 1);
  const parts: string[] = [];
  const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : [];
  const typed = types.map((type) => typeExpression(type, schema, context, sub));
  if (typed.length === 1) parts.push(typed[0]!);
  else if (typed.length > 1) parts.push(`z.union([${typed.join(", ")}])`);
  else {
    // No `type`: each keyword applies to the values of its kind only (JSON Schema), so they are checked as refinements.
    const kinds = (["string", "number", "array", "object"] as const).filter((kind) => hasKeywordsOf(kind, schema));
    for (const kind of kinds) parts.push(`z.unknown().superRefine((value, ctx) => { if (${KIND_TEST[kind]}) forward(${typeExpression(kind, schema, context, sub)}, value, ctx); })`);
  }
  const valueCheck = enumConst(schema);
  if (valueCheck) parts.push(valueCheck);
  if (typeof schema.$ref === "string") {
    const target = context.ref(schema.$ref);
    parts.push(target === undefined ? "z.never()" : `z.lazy(() => ${target})`);
  }
  for (const member of Array.isArray(schema.allOf) ? schema.allOf : []) parts.push(sub(member));
  if (Array.isArray(schema.anyOf) && schema.anyOf.length > 0) parts.push(schema.anyOf.length === 1 ? sub(schema.anyOf[0]) : `z.union([${schema.anyOf.map(sub).join(", ")}])`);
  if (Array.isArray(schema.oneOf) && schema.oneOf.length > 0) parts.push(schema.oneOf.length === 1 ? sub(schema.oneOf[0]) : `z.xor([${schema.oneOf.map(sub).join(", ")}])`);
  if (schema.not !== undefined) parts.push(`z.unknown().refine((value) => !${sub(schema.not)}.safeParse(value).success, "Input should not match the schema in not")`);
  if (schema.if !== undefined && (schema.then !== undefined || schema.else !== undefined)) {
    const branch = (node: unknown) => (node === undefined ? "undefined" : sub(node));
    parts.push(`z.unknown().superRefine((value, ctx) => { const next = ${sub(schema.if)}.safeParse(value).success ? ${branch(schema.then)} : ${branch(schema.else)}; if (next) forward(next, value, ctx); })`);
  }
  const unevaluated = unevaluatedCheck(schema, context, sub);
  if (unevaluated) parts.push(unevaluated);
  // Every part checks the whole value; the first one's output is the answer (zod's intersection would merge outputs,
  // but it forgives a strict object the keys the other side knows, which JSON Schema's allOf does not).
  let expression = parts.length === 0 ? "z.unknown()" : parts.length === 1 ? parts[0]! : `${parts[0]}.superRefine((value, ctx) => { ${parts.slice(1).map((part) => `forward(${part}, value, ctx);`).join(" ")} })`;
  // OpenAPI 3.0's `nullable: true`: null is valid whatever else the schema says.
  if (schema.nullable === true && !types.includes("null")) expression = `${expression}.nullable()`;
  return expression;
}

const KIND_TEST = {
  string: 'typeof value === "string"',
  number: 'typeof value === "number"',
  array: "Array.isArray(value)",
  object: 'value !== null && typeof value === "object" && !Array.isArray(value)',
} as const;

const KEYWORDS_OF = {
  string: ["minLength", "maxLength", "pattern", "format"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  array: ["items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains"],
  object: ["properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties", "maxProperties", "dependentRequired", "dependentSchemas"],
} as const;

function hasKeywordsOf(kind: keyof typeof KEYWORDS_OF, schema: Obj): boolean {
  return KEYWORDS_OF[kind].some((keyword) => schema[keyword] !== undefined && !(keyword === "format" && !STRING_FORMATS.has(schema.format as string)));
}

const STRING_FORMATS = new Set(["date-time", "date", "time", "uuid", "email", "uri"]);

function typeExpression(type: string, schema: Obj, context: ZodContext, sub: (node: unknown) => string): string {
  switch (type) {
    case "string":
      return stringExpression(schema, context);
    case "integer":
    case "number":
      return numberExpression(type, schema);
    case "boolean":
      return "z.boolean()";
    case "null":
      return "z.null()";
    case "array":
      return arrayExpression(schema, sub);
    case "object":
      return objectExpression(schema, context, sub);
    default:
      return "z.unknown()";
  }
}

function stringExpression(schema: Obj, context: ZodContext): string {
  const format = schema.format;
  let out =
    format === "date-time"
      ? "z.iso.datetime({ offset: true })"
      : format === "date"
        ? "z.iso.date()"
        : format === "uuid"
          ? "z.guid()"
          : format === "email"
            ? "z.email({ pattern: /^[^\\s@]+@[^\\s@]+$/ })"
            : format === "uri"
              ? "z.string().regex(/^[A-Za-z][A-Za-z0-9+.-]*:[^\\s]*$/)"
              : format === "time"
                ? `z.string().regex(new RegExp(${printString(TIME)}))`
                : "z.string()";
  if (typeof schema.minLength === "number") out += `.min(${schema.minLength})`;
  if (typeof schema.maxLength === "number") out += `.max(${schema.maxLength})`;
  if (typeof schema.pattern === "string") out += patternCheck(schema.pattern, context);
  return out;
}

/** A `pattern` as zod checks it: with the `u` flag when it parses so (as the router), fail-closed when it parses not at all. */
function patternCheck(pattern: string, context: ZodContext): string {
  const flags = parses(pattern, "u") ? '"u"' : parses(pattern, "") ? undefined : null;
  if (flags === null) return `.refine(() => false, ${printString(`String cannot be checked against pattern '${pattern}': it is not a valid regular expression`)})`;
  const regex = `new RegExp(${printString(pattern)}${flags ? `, ${flags}` : ""})`;
  if (!context.superLinear.has(pattern)) return `.regex(${regex})`;
  return `.refine((value) => value.length <= ${UNSAFE_PATTERN_MAX_INPUT} && ${regex}.test(value), ${printString(`String is too long or too costly to check against pattern '${pattern}'`)})`;
}

function parses(pattern: string, flags: string): boolean {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}

function numberExpression(type: "integer" | "number", schema: Obj): string {
  // (zod's int() is a safe integer: what the router makes of int64; a plain integer is any whole number.)
  let out = type === "number" ? "z.number()" : schema.format === "int32" ? "z.int32()" : schema.format === "int64" ? "z.int()" : 'z.number().refine(Number.isInteger, "Input should be a valid integer")';
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema;
  // 3.0 writes exclusive bounds as booleans beside minimum/maximum; 3.1 as numbers of their own.
  if (typeof minimum === "number") out += exclusiveMinimum === true ? `.gt(${minimum})` : `.gte(${minimum})`;
  if (typeof maximum === "number") out += exclusiveMaximum === true ? `.lt(${maximum})` : `.lte(${maximum})`;
  if (typeof exclusiveMinimum === "number") out += `.gt(${exclusiveMinimum})`;
  if (typeof exclusiveMaximum === "number") out += `.lt(${exclusiveMaximum})`;
  if (typeof multipleOf === "number" && multipleOf > 0) out += `.multipleOf(${multipleOf})`;
  return out;
}

function arrayExpression(schema: Obj, sub: (node: unknown) => string): string {
  // 2020-12 `prefixItems` + `items`; draft-4 (OpenAPI 3.0) tuples are `items: [...]` + `additionalItems`.
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
  let out: string;
  if (prefix) {
    // A JSON Schema tuple's items are all optional (a shorter array is valid); zod's tuple items likewise with .optional().
    const items = prefix.map((item) => `${sub(item)}.optional()`).join(", ");
    out = rest === false ? `z.tuple([${items}])` : `z.tuple([${items}], ${rest === undefined || rest === true ? "z.unknown()" : sub(rest)})`;
  } else out = `z.array(${rest === undefined ? "z.unknown()" : sub(rest)})`;
  if (typeof schema.minItems === "number") out += prefix ? `.refine((items) => items.length >= ${schema.minItems}, "Too few items")` : `.min(${schema.minItems})`;
  if (typeof schema.maxItems === "number") out += prefix ? `.refine((items) => items.length <= ${schema.maxItems}, "Too many items")` : `.max(${schema.maxItems})`;
  if (schema.uniqueItems === true) out += `.refine((items) => new Set(items.map((item) => canonical(item))).size === items.length, "Array should have unique items")`;
  if (schema.contains !== undefined) {
    const min = typeof schema.minContains === "number" ? schema.minContains : 1;
    const max = typeof schema.maxContains === "number" ? `&& count <= ${schema.maxContains}` : "";
    const contains = sub(schema.contains);
    out += `.refine((items) => { const count = items.filter((item) => ${contains}.safeParse(item).success).length; return count >= ${min} ${max}; }, "Array should contain the items that contains describes")`;
  }
  return out;
}

function objectExpression(schema: Obj, context: ZodContext, sub: (node: unknown) => string): string {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const ignored = context.use === "request" ? "readOnly" : context.use === "response" ? "writeOnly" : undefined;
  const shape: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const key = printString(name);
    // readOnly properties in a request (writeOnly in a response) are neither required nor checked, as the router does.
    if (ignored !== undefined && isObject(property) && property[ignored] === true) {
      shape.push(`${key}: z.unknown().optional()`);
      required.delete(name);
      continue;
    }
    let value = sub(property);
    if (context.use === "request" && isObject(property) && property.default !== undefined) value += `.default(${JSON.stringify(property.default)})`;
    else if (!required.has(name)) value += ".optional()";
    shape.push(`${key}: ${value}`);
    required.delete(name);
  }
  const members = `{ ${shape.join(", ")} }`;
  const additional = schema.additionalProperties;
  const patterns = isObject(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
  let out: string;
  if (additional === false && patterns.length === 0) out = `z.strictObject(${members})`;
  else if (isObject(additional) && patterns.length === 0) out = `z.object(${members}).catchall(${sub(additional)})`;
  else out = `z.looseObject(${members})`;
  const refinements: string[] = [];
  // Names required without a property schema.
  for (const name of required) refinements.push(`if (!Object.hasOwn(value, ${printString(name)})) ctx.addIssue({ code: "custom", message: "Field required", path: [${printString(name)}] });`);
  if (patterns.length > 0) {
    const known = JSON.stringify(Object.keys(properties));
    const tests = patterns.map(([source, node]) => `[new RegExp(${printString(source)}, "u"), ${sub(node)}]`).join(", ");
    const rest = additional === false ? `ctx.addIssue({ code: "custom", message: "Extra inputs are not permitted", path: [key] })` : isObject(additional) ? `forward(${sub(additional)}, value[key], ctx, [key])` : "";
    refinements.push(
      `const known = ${known}; for (const key of Object.keys(value)) { let matched = false; for (const [test, schema] of [${tests}]) if (test.test(key)) { matched = true; forward(schema, value[key], ctx, [key]); } if (!matched && !known.includes(key)) { ${rest} } }`,
    );
  }
  if (schema.propertyNames !== undefined) refinements.push(`for (const key of Object.keys(value)) forward(${sub(schema.propertyNames)}, key, ctx, [key]);`);
  if (typeof schema.minProperties === "number") refinements.push(`if (Object.keys(value).length < ${schema.minProperties}) ctx.addIssue({ code: "custom", message: "Object should have at least ${schema.minProperties} properties" });`);
  if (typeof schema.maxProperties === "number") refinements.push(`if (Object.keys(value).length > ${schema.maxProperties}) ctx.addIssue({ code: "custom", message: "Object should have at most ${schema.maxProperties} properties" });`);
  const dependentRequired = isObject(schema.dependentRequired) ? schema.dependentRequired : isObject(schema.dependencies) ? Object.fromEntries(Object.entries(schema.dependencies).filter(([, v]) => Array.isArray(v))) : {};
  for (const [name, needed] of Object.entries(dependentRequired)) {
    for (const other of needed as string[]) {
      refinements.push(`if (Object.hasOwn(value, ${printString(name)}) && !Object.hasOwn(value, ${printString(other)})) ctx.addIssue({ code: "custom", message: ${printString(`Field required when '${name}' is present`)}, path: [${printString(other)}] });`);
    }
  }
  const dependentSchemas = isObject(schema.dependentSchemas) ? schema.dependentSchemas : isObject(schema.dependencies) ? Object.fromEntries(Object.entries(schema.dependencies).filter(([, v]) => !Array.isArray(v))) : {};
  for (const [name, node] of Object.entries(dependentSchemas)) refinements.push(`if (Object.hasOwn(value, ${printString(name)})) forward(${sub(node)}, value, ctx);`);
  if (refinements.length > 0) out += `.superRefine((value, ctx) => { ${refinements.join(" ")} })`;
  return out;
}

/** `enum` and `const` as zod literals (primitives), or as a refinement on the canonical JSON (objects and arrays). */
function enumConst(schema: Obj): string | undefined {
  const values = Object.hasOwn(schema, "const") ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
  if (values === undefined) return undefined;
  if (values.length === 0) return "z.never()";
  const primitive = values.every((value) => value === null || typeof value !== "object");
  if (primitive) return `z.literal([${values.map((value) => JSON.stringify(value)).join(", ")}])`;
  return `z.unknown().refine((value) => ${JSON.stringify(values)}.some((allowed) => canonical(allowed) === canonical(value)), "Input should be one of the allowed values")`;
}

/**
 * `unevaluatedProperties` / `unevaluatedItems` (2020-12 §11) over what the schema and its in-place subschemas (`allOf`,
 * `anyOf`, `oneOf`, `if`/`then`/`else`, `dependentSchemas`, `$ref`) declare: names in `properties` and names matching
 * `patternProperties`; items up to the longest `prefixItems`. A subschema with `additionalProperties` (or `items`)
 * evaluates everything, and then nothing is left to check.
 */
function unevaluatedCheck(schema: Obj, context: ZodContext, sub: (node: unknown) => string): string | undefined {
  const checks: string[] = [];
  if (schema.unevaluatedProperties !== undefined && schema.unevaluatedProperties !== true) {
    const evaluated = { names: new Set<string>(), patterns: new Set<string>(), all: false };
    walkInPlace(schema, context, (node) => {
      if (node !== schema && node.unevaluatedProperties !== undefined) evaluated.all = true;
      if (node.additionalProperties !== undefined) evaluated.all = true;
      if (isObject(node.properties)) for (const name of Object.keys(node.properties)) evaluated.names.add(name);
      if (isObject(node.patternProperties)) for (const source of Object.keys(node.patternProperties)) if (parses(source, "u")) evaluated.patterns.add(source);
    });
    if (!evaluated.all) {
      const rest = schema.unevaluatedProperties === false ? `ctx.addIssue({ code: "custom", message: "Extra inputs are not permitted", path: [key] })` : `forward(${sub(schema.unevaluatedProperties)}, value[key], ctx, [key])`;
      const patterns = [...evaluated.patterns].map((source) => `new RegExp(${printString(source)}, "u")`).join(", ");
      checks.push(
        `if (${KIND_TEST.object}) { const known = ${JSON.stringify([...evaluated.names])}; const patterns = [${patterns}]; for (const key of Object.keys(value)) if (!known.includes(key) && !patterns.some((test) => test.test(key))) ${rest}; }`,
      );
    }
  }
  if (schema.unevaluatedItems !== undefined && schema.unevaluatedItems !== true) {
    let prefix = 0;
    let all = false;
    walkInPlace(schema, context, (node) => {
      if (node !== schema && node.unevaluatedItems !== undefined) all = true;
      if (Array.isArray(node.prefixItems)) prefix = Math.max(prefix, node.prefixItems.length);
      if (Array.isArray(node.items)) prefix = Math.max(prefix, node.items.length);
      if (node.items !== undefined && !Array.isArray(node.items)) all = true;
      if (node.contains !== undefined) all = true; // (what `contains` evaluates depends on the value: not checked)
    });
    if (!all) {
      const rest = schema.unevaluatedItems === false ? `ctx.addIssue({ code: "custom", message: "Extra items are not permitted", path: [index] })` : `forward(${sub(schema.unevaluatedItems)}, value[index], ctx, [index])`;
      checks.push(`if (Array.isArray(value)) for (let index = ${prefix}; index < value.length; index++) ${rest};`);
    }
  }
  return checks.length === 0 ? undefined : `z.unknown().superRefine((value, ctx) => { ${checks.join(" ")} })`;
}

/** Calls `visit` on `schema` and each schema applied in place to the same value, each once. */
function walkInPlace(schema: Obj, context: ZodContext, visit: (node: Obj) => void): void {
  const seen = new Set<Obj>();
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const node = pending.pop();
    if (!isObject(node) || seen.has(node)) continue;
    seen.add(node);
    visit(node);
    if (typeof node.$ref === "string" && node.$ref.startsWith("#")) pending.push(context.resolve(node.$ref));
    for (const key of ["allOf", "anyOf", "oneOf"]) if (Array.isArray(node[key])) pending.push(...(node[key] as unknown[]));
    pending.push(node.if, node.then, node.else);
    if (isObject(node.dependentSchemas)) pending.push(...Object.values(node.dependentSchemas));
  }
}
