/**
 * Deterministic example values generated from a schema, for mock mode. The generated value is meant to
 * validate against the schema: `const` / first `enum` value, examples and defaults when they validate, bounds
 * honoured (minimum, minLength, minItems, ...), formats filled with fixed well-formed strings, `oneOf`/`anyOf`
 * → first branch that works, `allOf` merged, discriminator tags set. Recursion is cut by dropping optional
 * properties and shrinking arrays to `minItems` once a `$ref` repeats or the depth grows.
 */
import { derefSchema, resolvePointer, type Schema, type SchemaDocument, type SchemaObject } from "./schema.js";
import { SchemaCompiler, type Check } from "./validate.js";
import type { MediaSpec } from "./types.js";

/** Options of `mockFromSchema`. */
export interface MockOptions {
  /** Which side the value is for: responses skip writeOnly properties, requests skip readOnly ones. Default "response". */
  direction?: "request" | "response";
  /** Depth after which optional properties are omitted and arrays shrink to minItems (default 3). */
  maxDepth?: number;
  /** Reuse a compiler (and its cache) for example checks. */
  compiler?: SchemaCompiler;
  /**
   * Which of the deterministic variants to make. 0 (the default) takes the spec's examples and defaults, the first
   * `enum` value, `false` and the lowest allowed number; other numbers pick other enum values, booleans, numbers
   * and strings (still within the schema), so that test data can vary with a seed.
   */
  variant?: number;
  /**
   * Strings to try for a string schema without a `format`, before the generated ones (`"string"`, `"a"`, …): the
   * first that validates is used, starting at `variant` (modulo their number). Test data that must survive a wire
   * (spaces, `&`, `%`, `/`, non-ASCII) goes here.
   */
  strings?: readonly string[];
}

const FORMAT_VALUES: Record<string, string> = {
  uuid: "00000000-0000-4000-8000-000000000000",
  "date-time": "1970-01-01T00:00:00Z",
  date: "1970-01-01",
  time: "00:00:00Z",
  email: "user@example.com",
  uri: "https://example.com",
  url: "https://example.com",
  "uri-reference": "https://example.com",
  hostname: "example.com",
  ipv4: "127.0.0.1",
  ipv6: "::1",
  byte: "",
  binary: "",
  password: "password",
};

const HARD_DEPTH_LIMIT = 24;

/** Generates a deterministic value for `schema` (refs resolved in `document`). */
export function mockFromSchema(schema: Schema | undefined, document: SchemaDocument = {}, options: MockOptions = {}): unknown {
  const generator = new MockGenerator(document, options);
  return generator.generate(schema ?? true, 0, Math.max(0, Math.trunc(options.variant ?? 0)));
}

/**
 * The example a media type declares: `example`, else the first of `examples` (map of Example Objects, each with an
 * OpenAPI 3.2 `dataValue` or a `value`, or a plain array).
 */
export function mediaExample(media: MediaSpec): { found: boolean; value?: unknown } {
  if (media.example !== undefined) return { found: true, value: media.example };
  const examples = media.examples;
  if (Array.isArray(examples)) return examples.length > 0 ? { found: true, value: examples[0] } : { found: false };
  if (examples && typeof examples === "object") {
    for (const example of Object.values(examples as Record<string, { value?: unknown; dataValue?: unknown }>)) {
      if (example && typeof example === "object" && "dataValue" in example) return { found: true, value: example.dataValue };
      if (example && typeof example === "object" && "value" in example) return { found: true, value: example.value };
    }
  }
  return { found: false };
}

class MockGenerator {
  private readonly compiler: SchemaCompiler;
  private readonly direction: "request" | "response";
  private readonly maxDepth: number;
  private readonly strings: readonly string[];
  /** How often each $ref is on the current path: a repeat means recursion, so generate the minimum. */
  private readonly refStack = new Map<string, number>();
  private readonly document: SchemaDocument;

  constructor(document: SchemaDocument, options: MockOptions) {
    this.document = document;
    this.compiler = options.compiler ?? new SchemaCompiler(document);
    this.direction = options.direction ?? "response";
    this.maxDepth = options.maxDepth ?? 3;
    this.strings = options.strings ?? [];
  }

  private validates(schema: Schema, value: unknown): boolean {
    let check: Check;
    try {
      check = this.compiler.compile(schema, this.direction);
    } catch {
      return false;
    }
    // Probe mode (errors = null) never mutates `value`.
    return check(value, [], null);
  }

  /**
   * `depth` counts nesting; `recursion` counts how many refs on the path are repeats. Either past its limit
   * means "minimal value": required properties only, minItems items.
   */
  generate(schema: Schema, depth: number, variant: number): unknown {
    if (schema === true) return {};
    if (schema === false) return null;
    if (depth > HARD_DEPTH_LIMIT) return null;
    if (typeof schema.$ref === "string") return this.generateRef(schema, depth, variant);

    if (schema.const !== undefined) return schema.const;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) {
      const nonNull = schema.enum.filter((v) => v !== null);
      const pool = nonNull.length > 0 ? nonNull : schema.enum;
      return pool[variant % pool.length];
    }
    for (const candidate of this.declaredExamples(schema)) {
      if (variant === 0 && this.validates(schema, candidate)) return structuredCloneSafe(candidate);
    }

    if (schema.allOf && schema.allOf.length > 0) return this.generateAllOf(schema, depth, variant);
    const union = schema.oneOf ?? schema.anyOf;
    if (union && union.length > 0) return this.generateUnion(schema, union, depth, variant);

    const type = this.primaryType(schema);
    switch (type) {
      case "null":
        return null;
      case "boolean":
        return variant % 2 === 1;
      case "integer":
      case "number":
        return numberFor(schema, type === "integer", variant);
      case "string":
        return this.stringFor(schema, variant);
      case "array":
        return this.arrayFor(schema, depth, variant);
      case "object":
        return this.objectFor(schema, depth, variant);
      default:
        return {};
    }
  }

  private generateRef(schema: SchemaObject, depth: number, variant: number): unknown {
    const ref = schema.$ref as string;
    const target = resolvePointer(this.document, ref);
    if (target === undefined) return null;
    const seen = this.refStack.get(ref) ?? 0;
    if (seen >= 2) return null; // a required self-reference cannot be satisfied finitely
    this.refStack.set(ref, seen + 1);
    try {
      // A repeated ref means recursion: jump past maxDepth so only required parts are generated.
      const value = this.generate(target, seen > 0 ? Math.max(depth, this.maxDepth) + 1 : depth, variant);
      const siblings = { ...schema };
      delete siblings.$ref;
      if (Object.keys(siblings).some((k) => KEYWORDS.has(k)) && value !== null && typeof value === "object" && !Array.isArray(value)) {
        const extra = this.generate(siblings, depth, variant);
        if (extra !== null && typeof extra === "object" && !Array.isArray(extra)) return { ...(value as object), ...(extra as object) };
      }
      return value;
    } finally {
      if (seen === 0) this.refStack.delete(ref);
      else this.refStack.set(ref, seen);
    }
  }

  private declaredExamples(schema: SchemaObject): unknown[] {
    const out: unknown[] = [];
    if (schema.example !== undefined) out.push(schema.example);
    if (Array.isArray(schema.examples)) out.push(...schema.examples);
    if (schema.default !== undefined) out.push(schema.default);
    return out;
  }

  private primaryType(schema: SchemaObject): string {
    const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
    const nonNull = types.find((t) => t !== "null");
    if (nonNull) return nonNull;
    if (types.length > 0) return "null";
    if (schema.properties || schema.additionalProperties !== undefined || schema.required) return "object";
    if (schema.items !== undefined || schema.prefixItems) return "array";
    if (schema.minLength !== undefined || schema.pattern !== undefined || schema.format !== undefined) return "string";
    if (schema.minimum !== undefined || schema.maximum !== undefined || schema.multipleOf !== undefined) return "number";
    return "any";
  }

  private generateUnion(schema: SchemaObject, branches: readonly Schema[], depth: number, variant: number): unknown {
    const base = { ...schema };
    delete base.oneOf;
    delete base.anyOf;
    delete base.discriminator;
    // Prefer non-null branches (a mock "null" is a poor example), then the first branch that validates.
    const ordered = [...branches].sort((a, b) => Number(this.isNullSchema(a)) - Number(this.isNullSchema(b)));
    let fallback: unknown;
    // A branch next to keywords of its own (`properties` beside `anyOf: [{required: [file_ids]}, {required: [files]}]`,
    // as OpenAI writes "one of these is required") is generated together with them, so the base's property schemas
    // shape what the branch requires.
    const withBase = Object.keys(base).some((k) => KEYWORDS.has(k));
    for (let i = 0; i < ordered.length; i++) {
      const branch = ordered[i];
      let value = withBase && !this.isNullSchema(branch) ? this.generate({ allOf: [base, branch] }, depth, variant) : this.generate(branch, depth, variant);
      value = this.applyDiscriminator(schema, branch, value);
      if (i === 0) fallback = value;
      if (this.validates(schema, value)) return value;
    }
    return fallback;
  }

  private isNullSchema(schema: Schema): boolean {
    return typeof schema === "object" && (schema.type === "null" || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === "null"));
  }

  /** Sets the discriminator property to the tag that maps to `branch` (mapping key or schema name). */
  private applyDiscriminator(schema: SchemaObject, branch: Schema, value: unknown): unknown {
    const discriminator = schema.discriminator;
    if (!discriminator || !isPlainObject(value) || typeof branch !== "object" || typeof branch.$ref !== "string") return value;
    const ref = branch.$ref;
    const name = ref.slice(ref.lastIndexOf("/") + 1);
    const mapped = Object.entries(discriminator.mapping ?? {}).find(([, target]) => target === ref || target === name)?.[0];
    if (mapped !== undefined) return { ...value, [discriminator.propertyName]: mapped };
    // Without a mapping entry the tag is the schema name, unless the branch pins its own tag (const/enum).
    const target = resolvePointer(this.document, ref);
    const tagSchema = typeof target === "object" ? target.properties?.[discriminator.propertyName] : undefined;
    const pinned = typeof tagSchema === "object" && (tagSchema.const !== undefined || Array.isArray(tagSchema.enum));
    return pinned ? value : { ...value, [discriminator.propertyName]: name };
  }

  /** allOf: merge the branches into one object schema (properties, required, other keywords), then generate. */
  private generateAllOf(schema: SchemaObject, depth: number, variant: number): unknown {
    const merged = this.mergeAllOf(schema, new Set());
    return this.generate(merged, depth, variant);
  }

  private mergeAllOf(schema: SchemaObject, seen: Set<string>): SchemaObject {
    const merged: SchemaObject = { ...schema };
    delete merged.allOf;
    const properties: Record<string, Schema> = { ...(schema.properties ?? {}) };
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    for (const part of schema.allOf ?? []) {
      let resolved: Schema;
      try {
        if (typeof part === "object" && typeof part.$ref === "string") {
          if (seen.has(part.$ref)) continue;
          seen.add(part.$ref);
        }
        resolved = derefSchema(part, this.document);
      } catch {
        continue;
      }
      if (typeof resolved !== "object") continue;
      const flat = resolved.allOf ? this.mergeAllOf(resolved, seen) : resolved;
      // A property several members describe must satisfy them all (GitHub narrows `{type: string}` to an enum).
      for (const [name, property] of Object.entries(flat.properties ?? {})) {
        const earlier = properties[name];
        properties[name] = earlier === undefined ? property : { allOf: [earlier, property] };
      }
      if (Array.isArray(flat.required)) for (const name of flat.required) required.add(name);
      for (const [key, value] of Object.entries(flat)) {
        if (key === "properties" || key === "required" || key === "$ref") continue;
        if (merged[key] === undefined) merged[key] = value;
        else if (key === "type") merged.type = intersectTypes(merged.type, value) ?? merged.type;
      }
    }
    if (Object.keys(properties).length > 0) merged.properties = properties;
    if (required.size > 0) merged.required = [...required];
    if (merged.type === undefined && merged.properties) merged.type = "object";
    return merged;
  }

  private stringFor(schema: SchemaObject, variant: number): string {
    const minLength = schema.minLength ?? 0;
    const maxLength = schema.maxLength ?? Infinity;
    const formatted = typeof schema.format === "string" ? FORMAT_VALUES[schema.format] : undefined;
    const candidates: string[] = [];
    if (formatted !== undefined) candidates.push(variant === 0 ? formatted : variantOfFormatted(formatted, schema.format as string, variant));
    const base = variant === 0 ? "string" : `string${variant}`;
    if (formatted === undefined) for (let i = 0; i < this.strings.length; i++) candidates.push(this.strings[(variant + i) % this.strings.length]!);
    candidates.push(base);
    // Variants of the short ones first, so that items which must be distinct can be (digit-only ids, short codes).
    if (variant > 0) candidates.push(String(variant), `a${variant}`, `A${variant}`);
    candidates.push("a", "0", "A", "a0", "example", "");
    for (const raw of candidates) {
      // Lengths are counted in code points (as JSON Schema does), and a cut never splits a surrogate pair.
      const points = Array.from(raw);
      const candidate =
        points.length < minLength ? raw + "x".repeat(minLength - points.length) : points.length > maxLength ? points.slice(0, maxLength).join("") : raw;
      if (this.validates({ ...schema, type: "string" }, candidate)) return candidate;
    }
    const fallback = formatted ?? base;
    return fallback.length < minLength ? fallback + "x".repeat(minLength - fallback.length) : fallback.slice(0, Math.max(minLength, Math.min(maxLength, fallback.length)));
  }

  private arrayFor(schema: SchemaObject, depth: number, variant: number): unknown[] {
    const minItems = schema.minItems ?? 0;
    const maxItems = schema.maxItems ?? Infinity;
    const tuple = schema.prefixItems ?? (Array.isArray(schema.items) ? (schema.items as readonly Schema[]) : []);
    const rest = Array.isArray(schema.items) ? undefined : (schema.items as Schema | undefined);
    const minimal = depth >= this.maxDepth;
    let count = Math.max(minItems, minimal ? 0 : 1, minimal ? 0 : tuple.length);
    count = Math.min(count, maxItems);
    if (rest === false) count = Math.min(count, tuple.length);
    const out: unknown[] = [];
    const seen = schema.uniqueItems ? new Set<string>() : undefined;
    for (let i = 0; i < count; i++) {
      const itemSchema = i < tuple.length ? tuple[i] : rest ?? true;
      // uniqueItems needs distinct items: vary them deterministically, trying a few more variants when a pattern
      // or bound makes two of them equal (Discord's snowflakes all came out "0").
      let item = this.generate(itemSchema, depth + 1, schema.uniqueItems ? variant + i : variant);
      for (let attempt = 1; seen && seen.has(JSON.stringify(item)) && attempt <= 8; attempt++) {
        item = this.generate(itemSchema, depth + 1, variant + i + attempt * (count + 1));
      }
      seen?.add(JSON.stringify(item));
      out.push(item);
    }
    return out;
  }

  private objectFor(schema: SchemaObject, depth: number, variant: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const minimal = depth >= this.maxDepth;
    const skipped = this.direction === "response" ? "writeOnly" : "readOnly";
    for (const [name, propertySchema] of Object.entries(schema.properties ?? {})) {
      if (this.flagged(propertySchema, skipped)) continue;
      if (!required.has(name) && minimal) continue;
      const value = this.generate(propertySchema, depth + 1, variant);
      // An optional property whose value came out invalid (a recursion dead end, a `pattern` no candidate string
      // matches, Discord's `enum: []`) is left out rather than making the whole value invalid.
      if (!required.has(name) && !this.validates(propertySchema, value)) continue;
      out[name] = value;
    }
    for (const name of required) {
      if (!(name in out) && !(schema.properties && name in schema.properties)) {
        const additional = schema.additionalProperties;
        out[name] = typeof additional === "object" ? this.generate(additional, depth + 1, variant) : "string";
      }
    }
    const minProperties = schema.minProperties ?? 0;
    const additional = schema.additionalProperties;
    for (let i = 0; Object.keys(out).length < minProperties && additional !== false && i < minProperties + 8; i++) {
      const key = `property${i + 1}`;
      if (!(key in out)) out[key] = typeof additional === "object" ? this.generate(additional, depth + 1, variant) : "string";
    }
    // `not` is how specs say "not both" (OpenAI's `not: {required: [image_url, file_id]}`): leaving out one optional
    // property at a time finds a value that keeps clear of it.
    if (schema.not !== undefined && !this.validates(schema, out)) {
      for (const name of Object.keys(out)) {
        if (required.has(name)) continue;
        const { [name]: _left, ...fewer } = out;
        if (this.validates(schema, fewer)) return fewer;
      }
    }
    return out;
  }

  /** Whether the property schema says `flag`, itself, through its `$ref` or in an `allOf` member (DigitalOcean's `allOf: [$ref, {readOnly: true}]`). */
  private flagged(schema: Schema, flag: "readOnly" | "writeOnly", depth = 0): boolean {
    if (typeof schema !== "object" || depth > 8) return false;
    if (schema[flag] === true) return true;
    if (typeof schema.$ref === "string") {
      const target = resolvePointer(this.document, schema.$ref);
      if (target !== undefined && this.flagged(target, flag, depth + 1)) return true;
    }
    return (schema.allOf ?? []).some((member) => this.flagged(member, flag, depth + 1));
  }
}

/** Keywords that make a `$ref` sibling or union base worth merging (annotations alone are not). */
const KEYWORDS = new Set(["properties", "required", "type", "additionalProperties", "allOf", "items"]);

function numberFor(schema: SchemaObject, integer: boolean, variant: number): number {
  let low = schema.minimum;
  let high = schema.maximum;
  let lowExclusive = false;
  let highExclusive = false;
  if (typeof schema.exclusiveMinimum === "number") [low, lowExclusive] = [schema.exclusiveMinimum, true];
  else if (schema.exclusiveMinimum === true) lowExclusive = true;
  if (typeof schema.exclusiveMaximum === "number") [high, highExclusive] = [schema.exclusiveMaximum, true];
  else if (schema.exclusiveMaximum === true) highExclusive = true;
  const step = typeof schema.multipleOf === "number" && schema.multipleOf > 0 ? schema.multipleOf : integer ? 1 : undefined;
  let value: number;
  if (low !== undefined) {
    value = lowExclusive ? (step ? low + step : low + 1) : low;
  } else if (high !== undefined && high <= 0) {
    value = highExclusive ? (step ? high - step : high - 1) : high;
  } else {
    value = 0;
  }
  if (step) value = Math.ceil(value / step - 1e-9) * step;
  if (integer) value = Math.ceil(value);
  value += variant * (step ?? 1);
  if (high !== undefined && (value > high || (highExclusive && value >= high))) value = low !== undefined && !lowExclusive ? low : value - variant * (step ?? 1);
  return Number.isInteger(value) ? value : Number(value.toPrecision(12));
}

/** The types both `type` keywords allow (`integer` is a `number`), or undefined when none. */
function intersectTypes(a: unknown, b: unknown): string | string[] | undefined {
  const list = (t: unknown): string[] => (typeof t === "string" ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === "string") : []);
  const left = list(a);
  const right = list(b);
  const both = left.filter((t) => right.includes(t) || (t === "integer" && right.includes("number")));
  for (const t of right) if (t === "integer" && left.includes("number") && !both.includes(t)) both.push(t);
  if (both.length === 0) return undefined;
  return both.length === 1 ? both[0] : both;
}

function variantOfFormatted(value: string, format: string, variant: number): string {
  if (format === "uuid") return `00000000-0000-4000-8000-${variant.toString(16).padStart(12, "0")}`;
  if (format === "email") return `user${variant}@example.com`;
  if (format === "uri" || format === "url") return `https://example.com/${variant}`;
  if (format === "date") return `1970-01-${String((variant % 28) + 1).padStart(2, "0")}`;
  if (format === "date-time") return `1970-01-01T00:00:${String(variant % 60).padStart(2, "0")}Z`;
  return `${value}${variant}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function structuredCloneSafe<T>(value: T): T {
  return value !== null && typeof value === "object" ? structuredClone(value) : value;
}
