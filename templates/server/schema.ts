/**
 * JSON Schema / OpenAPI schema shapes shared by the validator, the parameter coercer and the mock generator.
 * Deliberately loose (`[keyword: string]: unknown`): specs carry vendor extensions and annotations we ignore.
 */

/** A schema as found in an OpenAPI 3.0/3.1 document. `true`/`false` are 3.1 boolean schemas. */
export type Schema = boolean | SchemaObject;

/** The subset of JSON Schema keywords the runtime understands; everything else is ignored. */
export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  /** OpenAPI 3.0: adds `null` to the allowed values. */
  nullable?: boolean;
  enum?: readonly unknown[];
  const?: unknown;
  format?: string;
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  required?: readonly string[];
  additionalProperties?: Schema;
  minProperties?: number;
  maxProperties?: number;
  /** 3.1: one schema for every item (or, legacy draft-4, a tuple of schemas). */
  items?: Schema | readonly Schema[];
  prefixItems?: readonly Schema[];
  /** Draft 4–7: the schema of the items after an `items` tuple. */
  additionalItems?: Schema;
  contains?: Schema;
  minContains?: number;
  maxContains?: number;
  /** 2020-12: the schema of the items no other keyword (in place) evaluated. */
  unevaluatedItems?: Schema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  /** 3.0: boolean modifier of minimum; 3.1: the bound itself. */
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  multipleOf?: number;
  allOf?: readonly Schema[];
  anyOf?: readonly Schema[];
  oneOf?: readonly Schema[];
  not?: Schema;
  if?: Schema;
  then?: Schema;
  else?: Schema;
  propertyNames?: Schema;
  dependentRequired?: Record<string, readonly string[]>;
  dependentSchemas?: Record<string, Schema>;
  /** Draft 7: `dependentRequired` (a list) or `dependentSchemas` (a schema) per name. */
  dependencies?: Record<string, readonly string[] | Schema>;
  /** 2020-12: the schema of the properties no other keyword (in place) evaluated. */
  unevaluatedProperties?: Schema;
  /** `defaultMapping` (OpenAPI 3.2): the schema for a value whose tag is absent or not in `mapping`. */
  discriminator?: { propertyName: string; mapping?: Record<string, string>; defaultMapping?: string };
  readOnly?: boolean;
  writeOnly?: boolean;
  default?: unknown;
  example?: unknown;
  examples?: unknown;
  [keyword: string]: unknown;
}

/**
 * The part of the OpenAPI document that `$ref`s point into. The emitter passes `{ components: { schemas } }`;
 * any other JSON pointer inside the object resolves too.
 */
export interface SchemaDocument {
  components?: { schemas?: Record<string, Schema>; [section: string]: unknown };
  [key: string]: unknown;
}

/** Error location, FastAPI style: `["body", "messages", 0, "role"]`, `["query", "limit"]`. */
export type Loc = (string | number)[];

/** One validation problem, shaped like a FastAPI/pydantic `ValidationError` item. */
export interface ValidationIssue {
  loc: Loc;
  msg: string;
  type: string;
}

/** Resolves a local JSON pointer (`#/components/schemas/Pet`) inside `document`; `undefined` when absent. */
export function resolvePointer(document: SchemaDocument, ref: string): Schema | undefined {
  if (!ref.startsWith("#")) return undefined;
  if (ref === "#") return document as SchemaObject;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split("/")) {
    let token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    try {
      token = decodeURIComponent(token);
    } catch {
      // Keep the raw token: a literal "%" in a schema name is legal.
    }
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return typeof node === "boolean" || (node !== null && typeof node === "object") ? (node as Schema) : undefined;
}

/** Follows `$ref` chains (without siblings) to the schema that carries keywords. Throws on dangling refs. */
export function derefSchema(schema: Schema, document: SchemaDocument): Schema {
  let current = schema;
  for (let hops = 0; typeof current === "object" && typeof current.$ref === "string"; hops++) {
    if (hops > 64) throw new Error(`$ref cycle without content at ${current.$ref}`);
    const target = resolvePointer(document, current.$ref);
    if (target === undefined) throw new Error(`Unresolvable $ref ${JSON.stringify(current.$ref)}`);
    current = target;
  }
  return current;
}

/** The JSON type names a schema admits at its top level (following refs and unions shallowly). */
export function schemaTypes(schema: Schema, document: SchemaDocument, seen: Set<Schema> = new Set()): Set<string> {
  const out = new Set<string>();
  if (typeof schema === "boolean") {
    if (schema) out.add("any");
    return out;
  }
  if (seen.has(schema)) return out;
  seen.add(schema);
  if (typeof schema.$ref === "string") {
    for (const t of schemaTypes(derefSchema({ $ref: schema.$ref }, document), document, seen)) out.add(t);
  }
  if (typeof schema.type === "string") out.add(schema.type);
  else if (Array.isArray(schema.type)) for (const t of schema.type) out.add(t);
  if (schema.nullable === true) out.add("null");
  const consts = schema.const !== undefined ? [schema.const] : schema.enum ?? [];
  if (schema.type === undefined) for (const value of consts) out.add(jsonTypeOf(value));
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    for (const t of schemaTypes(branch, document, seen)) out.add(t);
  }
  if (out.size === 0 && schema.type === undefined) {
    if (schema.properties || schema.additionalProperties !== undefined) out.add("object");
    else if (schema.items !== undefined || schema.prefixItems) out.add("array");
    else if (schema.$ref === undefined && !schema.anyOf && !schema.oneOf && !schema.allOf && consts.length === 0) out.add("any");
  }
  return out;
}

/** JSON Schema type name of a JSON value ("integer" for whole numbers). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/**
 * A deep copy of a JSON value (defaults from the spec: plain objects, arrays, primitives), several times
 * cheaper than `structuredClone` for the small values defaults are. Anything that is not plain JSON goes
 * through `structuredClone`.
 */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i]);
    return out as T;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = cloneJson((value as Record<string, unknown>)[key]);
    // An own "__proto__" key (JSON.parse makes those) must stay a key, not become the prototype.
    if (key === "__proto__") Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out as T;
}
