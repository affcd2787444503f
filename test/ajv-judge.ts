import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

/**
 * An independent judge of "this value is valid for this OpenAPI schema": Ajv (JSON Schema 2020-12) with
 * ajv-formats, over a copy of the document written the way JSON Schema 2020-12 says what OpenAPI says:
 *
 * - OpenAPI 3.0's `nullable: true` adds `null` to `type` (or, without a `type`, is `anyOf: [schema, {type: null}]`),
 *   and its boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric bounds of 2020-12 — in 3.1 documents
 *   too, which still write them (OpenAI's), as their authors mean them;
 * - in a response, a `writeOnly` property is not sent, so it is not required (OpenAPI 3.x: "MAY be sent as part of a
 *   request but SHOULD NOT be sent as part of the response"), and in a request the same goes for `readOnly`;
 * - `discriminator` is an annotation (3.0.4 and 3.1.1: it "MUST NOT change the validation outcome");
 * - formats Ajv does not know are accepted as they are; the OpenAPI ones (`byte`, `int32`, `int64`, `float`,
 *   `double`, `password`, `binary`) are ajv-formats'.
 *
 * Nothing here is specforge's: the judge reads the schemas on its own.
 */
export interface SchemaJudge {
  /** The first problem Ajv finds with `value` for the schema at `pointer` (`#/components/schemas/Pet`), or undefined. */
  problem(pointer: string, value: unknown): string | undefined;
  /** Same, for a schema given inline (its `$ref`s point into the document). */
  problemWith(schema: unknown, value: unknown): string | undefined;
}

const DOCUMENT_ID = "https://judge.specforge.test/document.json";
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The judge of one document. */
export function schemaJudge(document: Record<string, unknown>, direction: "request" | "response"): SchemaJudge {
  const converted = convertDocument(document, direction);
  const ajv = new Ajv2020({ strict: false, validateSchema: false, inlineRefs: false, allErrors: false, validateFormats: true, allowUnionTypes: true, code: { regExp: patternEngine } });
  addFormats(ajv);
  for (const format of formatsIn(converted)) if (!ajv.formats[format]) ajv.addFormat(format, true);
  ajv.addSchema({ ...converted, $id: DOCUMENT_ID });
  const compiled = new Map<string, ValidateFunction>();
  const compile = (schema: object): ValidateFunction => {
    try {
      return ajv.compile(schema);
    } catch (error) {
      // A schema the judge cannot read fails every value, saying why.
      return Object.assign(() => false, { errors: [{ instancePath: "", keyword: "compile", message: `the judge cannot compile the schema: ${(error as Error).message}`, params: {} }] }) as unknown as ValidateFunction;
    }
  };
  const run = (validate: ValidateFunction, value: unknown) => {
    if (validate(value)) return undefined;
    const error = validate.errors?.[0];
    return error ? `${error.instancePath || "/"} ${error.message ?? error.keyword}${error.params ? ` ${JSON.stringify(error.params)}` : ""}` : "invalid";
  };
  return {
    problem(pointer, value) {
      let validate = compiled.get(pointer);
      if (!validate) compiled.set(pointer, (validate = compile({ $ref: `${DOCUMENT_ID}${pointer}` })));
      return run(validate, value);
    },
    problemWith(schema, value) {
      // A schema that is a `$ref` alone is judged as the schema it names (compiled once, whoever refers to it).
      if (schema !== null && typeof schema === "object" && Object.keys(schema).length === 1 && typeof (schema as { $ref?: unknown }).$ref === "string" && (schema as { $ref: string }).$ref.startsWith("#")) {
        return this.problem((schema as { $ref: string }).$ref, value);
      }
      const text = JSON.stringify(schema);
      let validate = compiled.get(text);
      if (!validate) {
        const inline = convertSchema(structuredClone(schema), direction, new Set(), document);
        for (const format of formatsIn(inline)) if (!ajv.formats[format]) ajv.addFormat(format, true);
        compiled.set(text, (validate = compile({ $id: `${DOCUMENT_ID}?inline=${compiled.size}`, ...(rebased(inline) as object) })));
      }
      return run(validate, value);
    },
  };
}

/**
 * Patterns as JSON Schema reads them (ECMA-262 with the `u` flag), and the ones written for the legacy flavour
 * (`\-`, `\:` outside a class, which `u` refuses) as that flavour reads them.
 */
const patternEngine = Object.assign(
  (source: string, flags: string) => {
    try {
      return new RegExp(source, flags);
    } catch {
      return new RegExp(source, flags.replace("u", ""));
    }
  },
  { code: "new RegExp" },
);

/** `$ref: "#/…"` made absolute (an inline schema is its own resource, the refs mean the document's). */
function rebased(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebased);
  if (schema === null || typeof schema !== "object") return schema;
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, key === "$ref" && typeof value === "string" && value.startsWith("#") ? `${DOCUMENT_ID}${value}` : rebased(value)]));
}

/** The keywords whose value is a schema, a list of schemas or a map of schemas (2020-12 and OpenAPI's). */
const ONE = ["items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema"];
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

function convertDocument(document: Record<string, unknown>, direction: "request" | "response"): Record<string, unknown> {
  const copy = structuredClone(document);
  const seen = new Set<object>();
  const schemas = (copy.components as { schemas?: Record<string, unknown> } | undefined)?.schemas ?? {};
  for (const schema of Object.values(schemas)) convertSchema(schema, direction, seen, document);
  // Every other schema position: parameters, media types, headers (of operations, components and webhooks).
  const walk = (node: unknown, depth: number) => {
    if (node === null || typeof node !== "object" || depth > 64) return;
    if (Array.isArray(node)) return node.forEach((item) => walk(item, depth + 1));
    for (const [key, value] of Object.entries(node)) {
      if ((key === "schema" || key === "itemSchema") && value !== null && typeof value === "object") convertSchema(value, direction, seen, document);
      else if (key !== "example" && key !== "examples" && key !== "schemas") walk(value, depth + 1);
    }
  };
  walk(copy.paths, 0);
  walk(copy.webhooks, 0);
  walk(copy.components, 0);
  return copy;
}

/** Rewrites one schema (and the schemas inside it) in place, as the judge reads OpenAPI; returns it. */
function convertSchema(schema: unknown, direction: "request" | "response", seen: Set<object>, document: Record<string, unknown>): unknown {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema) || seen.has(schema)) return schema;
  seen.add(schema);
  const node = schema as Record<string, unknown>;
  for (const key of ONE) if (key in node) convertSchema(node[key], direction, seen, document);
  for (const key of LIST) if (Array.isArray(node[key])) for (const item of node[key] as unknown[]) convertSchema(item, direction, seen, document);
  for (const key of MAP) if (node[key] && typeof node[key] === "object") for (const item of Object.values(node[key] as object)) convertSchema(item, direction, seen, document);
  if (Array.isArray(node.items)) {
    // (A tuple written the draft-4 way.)
    for (const item of node.items) convertSchema(item, direction, seen, document);
    [node.prefixItems, node.items] = [node.items, undefined];
    delete node.items;
  }
  delete node.discriminator;
  // `required: true` on a property is Swagger 2.0's spelling, which JSON Schema does not read (and Ajv cannot compile).
  if (node.required !== undefined && !Array.isArray(node.required)) delete node.required;
  // The loader has made every reference a pointer into the document: an `$id` would only move what they resolve against.
  for (const key of ["$id", "$anchor", "$dynamicAnchor", "$schema"]) delete node[key];
  // An empty `enum` allows no value (JSON Schema only says it SHOULD have one; Ajv refuses to compile it).
  if (Array.isArray(node.enum) && node.enum.length === 0) [node.enum, node.not] = [undefined, {}];
  if (node.enum === undefined) delete node.enum;
  // A property the other side never sends is not required on this side (the flag on the property, its `$ref`'s
  // target or an `allOf` member, as DigitalOcean writes it).
  const skipped = direction === "response" ? "writeOnly" : "readOnly";
  if (Array.isArray(node.required) && node.properties && typeof node.properties === "object") {
    const properties = node.properties as Record<string, unknown>;
    node.required = (node.required as string[]).filter((name) => !flagged(properties[name], skipped, document, 0));
  }
  {
    for (const [bound, exclusive] of [["minimum", "exclusiveMinimum"], ["maximum", "exclusiveMaximum"]] as const) {
      if (node[exclusive] === true && typeof node[bound] === "number") [node[exclusive], node[bound]] = [node[bound], undefined];
      else if (typeof node[exclusive] === "boolean") delete node[exclusive];
      if (node[bound] === undefined) delete node[bound];
    }
    if (node.nullable !== true) delete node.nullable;
    else {
      delete node.nullable;
      if (typeof node.type === "string") node.type = [node.type, "null"];
      if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null];
      if (node.type === undefined) {
        const rest = { ...node };
        for (const key of Object.keys(node)) delete node[key];
        node.anyOf = [rest, { type: "null" }];
      }
    }
  }
  return schema;
}

/** Whether a schema says `flag`: itself, through its `$ref`, or in an `allOf` member. */
function flagged(schema: unknown, flag: string, document: Record<string, unknown>, depth: number): boolean {
  if (schema === null || typeof schema !== "object" || depth > 8) return false;
  const node = schema as Record<string, unknown>;
  if (node[flag] === true) return true;
  if (typeof node.$ref === "string" && node.$ref.startsWith("#/")) {
    const target = node.$ref
      .slice(2)
      .split("/")
      .reduce<unknown>((at, token) => (at && typeof at === "object" ? (at as Record<string, unknown>)[token.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined), document);
    if (flagged(target, flag, document, depth + 1)) return true;
  }
  return Array.isArray(node.allOf) && node.allOf.some((member) => flagged(member, flag, document, depth + 1));
}

function formatsIn(document: unknown): Set<string> {
  const out = new Set<string>();
  const seen = new Set<object>();
  const walk = (node: unknown) => {
    if (node === null || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    if (!Array.isArray(node) && typeof (node as Record<string, unknown>).format === "string") out.add((node as Record<string, string>).format!);
    for (const value of Object.values(node)) walk(value);
  };
  walk(document);
  return out;
}
