/**
 * Deterministic example values generated from a schema: the router's mock mode, `specforge mock`, the MSW output and
 * `mockFromSchema`. Every value is made to validate against its schema: `const`, the first `enum` value that fits,
 * examples and defaults when they validate, strings in their `format` and matching their `pattern`, numbers within
 * their bounds and on their `multipleOf`, distinct items for `uniqueItems`, `allOf` merged, exactly one `oneOf`
 * branch matched, discriminator tags set. Sizes are clamped (`MOCK_LIMITS`); recursion is cut by dropping optional
 * properties and shrinking arrays to `minItems` once a `$ref` repeats or the depth grows. Where no valid value is
 * made (a clamped size, a pattern no string is found for, branches that overlap, `enum: []`) the value is still
 * returned, and `onIssue` is told where and why.
 */
import { codePoints, formatValue, inFormat, knownFormat, patternValue, type LengthBounds } from "./mock-strings.js";
import { streamedMedia } from "./responses.js";
import { derefSchema, resolvePointer, type Schema, type SchemaDocument, type SchemaObject, type ValidationIssue } from "./schema.js";
import type { MediaSpec, SequenceSpec } from "./types.js";
import { SchemaCompiler, type Check } from "./validate.js";

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
   * Strings to try for a string schema without a `format` or `pattern`, before the generated ones (`"string"`,
   * `"a"`, …): the first that validates is used, starting at `variant` (modulo their number). Test data that must
   * survive a wire (spaces, `&`, `%`, `/`, non-ASCII) goes here.
   */
  strings?: readonly string[];
  /** How many items an array gets, within its `minItems`/`maxItems` (test data varies it: none, one, several). Default 1. */
  items?: number;
  /** Whether optional properties are made (as far as `maxDepth` goes), or only the required ones. Default true. */
  optional?: boolean;
  /** Told about each place where the value cannot satisfy its schema, and why (a clamped size, an unmatched pattern, …). */
  onIssue?: (issue: MockIssue) => void;
}

/** Where a mock value fails its schema, and why. */
export interface MockIssue {
  /** JSON pointer into the value (`""` for the value itself, `/items/0/id`). */
  at: string;
  message: string;
}

/**
 * The largest sizes mock values take, whatever the schema asks: a `minItems: 1e8` or `minLength: 2e9` is clamped
 * (and reported), and a value stops growing after `values` values (optional parts are left out from then on).
 */
export const MOCK_LIMITS = { items: 1000, length: 65_536, properties: 1000, values: 20_000 } as const;

/** Nesting beyond which no value is made (null, reported), whatever the schema asks. */
const HARD_DEPTH_LIMIT = 24;

/** Generates a deterministic value for `schema` (refs resolved in `document`). */
export function mockFromSchema(schema: Schema | undefined, document: SchemaDocument = {}, options: MockOptions = {}): unknown {
  const generator = new MockGenerator(document, options);
  const value = generator.generate(schema ?? true, 0, Math.max(0, Math.trunc(options.variant ?? 0)));
  generator.finalCheck(schema ?? true, value);
  return value;
}

/** `mockFromSchema` as a generated server.ts exports it: a component schema of `document` by name, or any schema. */
export type DocumentMocker = (schema: string | Schema, documentOrOptions?: SchemaDocument | MockOptions, options?: MockOptions) => unknown;

/**
 * The `mockFromSchema` of a generated server.ts: given a name, a value of that component schema of `document` (a
 * name it does not hold is a `TypeError`, the prototype's keys included); given a schema, `mockFromSchema` itself.
 */
export function documentMocker(document: SchemaDocument): DocumentMocker {
  let compiler: SchemaCompiler | undefined;
  return (schema, documentOrOptions, options) => {
    if (typeof schema !== "string") return mockFromSchema(schema, documentOrOptions as SchemaDocument | undefined, options);
    const schemas = (document.components as { schemas?: Record<string, unknown> } | undefined)?.schemas ?? {};
    if (!Object.hasOwn(schemas, schema)) throw new TypeError(`mockFromSchema: no component schema ${JSON.stringify(schema)} (those the routes reach are: MockableSchemas)`);
    compiler ??= new SchemaCompiler(document);
    const pointer = `#/components/schemas/${schema.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    return mockFromSchema({ $ref: pointer }, document, { ...(documentOrOptions as MockOptions | undefined), compiler });
  };
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

/** A mock answer of an operation: its status, its body (or stream items) and what keeps it from being valid, if anything. */
export interface MockPayload {
  status: number;
  contentType: string | undefined;
  body: unknown;
  /** The streamed media type the response declares (the first, by preference), with the items the mock streams. */
  stream?: { key: string; sequence: SequenceSpec; items: unknown[] };
  /** True when the response declares nothing but streams: the mock always streams. */
  streamOnly: boolean;
  /** Why the answer does not validate against its schema (empty when it does). */
  issues: MockIssue[];
}

/** How many items a mock stream sends (each generated with another variant, so they differ where they can). */
const MOCK_STREAM_ITEMS = 3;

/**
 * The mock answer to an operation with these `responses` (status key → content): the first 2xx response (else
 * `default`, as 200), with its media type's example when it validates, else a value generated from its schema.
 */
export function mockPayload(responses: Record<string, { content?: Record<string, MediaSpec> }>, compiler: SchemaCompiler): MockPayload {
  const statuses = Object.keys(responses);
  const success = statuses.filter((s) => /^2\d\d$/.test(s) || /^2XX$/i.test(s)).sort((a, b) => a.localeCompare(b))[0];
  const key = success ?? (statuses.includes("default") ? "default" : undefined);
  const issues: MockIssue[] = [];
  if (key === undefined) return { status: 200, contentType: undefined, body: undefined, streamOnly: false, issues };
  const status = /^\d{3}$/.test(key) ? Number(key) : 200;
  const content = responses[key]!.content ?? {};
  const sequences = streamedMedia(content);
  const nonStream = Object.keys(content).filter((k) => !sequences.some((entry) => entry.key === k));
  const media = nonStream.find((k) => k === "application/json") ?? nonStream.find((k) => /json/i.test(k)) ?? nonStream[0];
  const first = sequences[0];
  const stream = first && { key: first.key, sequence: first.sequence, items: mockItems(content[first.key]!, compiler, issues) };
  if (media === undefined) return { status, contentType: stream?.key, body: undefined, stream, streamOnly: stream !== undefined, issues };
  return { status, contentType: media, body: exampleOrMock(content[media]!, compiler, issues), stream, streamOnly: false, issues };
}

/** The media type's example when it validates, else a generated value (the issues of either go to `issues`). */
function exampleOrMock(media: MediaSpec, compiler: SchemaCompiler, issues: MockIssue[], variant = 0): unknown {
  const example = mediaExample(media);
  if (example.found && variant === 0) {
    const problems: ValidationIssue[] = [];
    compiler.compile(media.schema ?? true, "response")(structuredCloneSafe(example.value), [], problems);
    if (problems.length === 0) return example.value;
  }
  return mockFromSchema(media.schema, compiler.document, { compiler, variant, onIssue: (issue) => issues.push(issue) });
}

/**
 * The items a mock stream sends: the media type's example when it is a list of valid items (OpenAPI 3.2 models a
 * sequence as an array, e.g. in an example's `dataValue`) or one valid item (what 3.1 documents show for an event),
 * else items generated from the item schema.
 */
function mockItems(media: MediaSpec, compiler: SchemaCompiler, issues: MockIssue[]): unknown[] {
  const check = compiler.compile(media.schema ?? true, "response");
  const example = mediaExample(media);
  if (example.found) {
    const value = example.value;
    if (Array.isArray(value) && value.length > 0 && value.every((item) => check(item, [], null))) return value;
    if (check(value, [], null)) return [value];
  }
  const items: unknown[] = [];
  for (let variant = 0; variant < MOCK_STREAM_ITEMS; variant++) {
    items.push(mockFromSchema(media.schema, compiler.document, { compiler, variant, onIssue: (issue) => variant === 0 && issues.push(issue) }));
  }
  return items;
}

/** `MockIssue`s as one line of visible ASCII (for a header or a log line). */
export function describeMockIssues(issues: readonly MockIssue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.at || "/"}: ${issue.message}`)
    .join("; ")
    .replace(/[^\x20-\x7e]/g, "?")
    .slice(0, 500);
}

type Obj = Record<string, unknown>;

class MockGenerator {
  private readonly compiler: SchemaCompiler;
  private readonly direction: "request" | "response";
  private readonly maxDepth: number;
  private readonly strings: readonly string[];
  private readonly items: number;
  private readonly optional: boolean;
  private readonly onIssue: ((issue: MockIssue) => void) | undefined;
  /** How often each $ref is on the current path: a repeat means recursion, so generate the minimum. */
  private readonly refStack = new Map<string, number>();
  /** Where in the value the generator is (JSON pointer segments). */
  private readonly path: string[] = [];
  /** Values left to make before only the required parts are (see MOCK_LIMITS.values). */
  private budget: number = MOCK_LIMITS.values;
  /** Whether an issue reached `onIssue`. */
  private reported = false;
  /** Issues of the attempts under way (a `oneOf` branch, an optional property): kept only if the attempt is. */
  private readonly attempts: MockIssue[][] = [];
  private readonly document: SchemaDocument;

  constructor(document: SchemaDocument, options: MockOptions) {
    this.document = document;
    this.compiler = options.compiler ?? new SchemaCompiler(document);
    this.direction = options.direction ?? "response";
    this.maxDepth = options.maxDepth ?? 3;
    this.strings = options.strings ?? [];
    this.items = Math.max(0, Math.trunc(options.items ?? 1));
    this.optional = options.optional ?? true;
    this.onIssue = options.onIssue;
  }

  private issue(message: string): void {
    this.keep([{ at: this.path.map((segment) => `/${segment.replace(/~/g, "~0").replace(/\//g, "~1")}`).join(""), message }]);
  }

  /** Hands issues to the attempt under way, else to `onIssue`. */
  private keep(issues: readonly MockIssue[]): void {
    const attempt = this.attempts.at(-1);
    if (attempt) attempt.push(...issues);
    else {
      if (issues.length > 0) this.reported = true;
      for (const issue of issues) this.onIssue?.(issue);
    }
  }

  /** Runs `make` as an attempt: its issues are returned, not reported (`keep` them if the value is used). */
  private attempt<T>(make: () => T): { value: T; issues: MockIssue[] } {
    const issues: MockIssue[] = [];
    this.attempts.push(issues);
    try {
      return { value: make(), issues };
    } finally {
      this.attempts.pop();
    }
  }

  /** Reports the first way the whole value fails its schema when nothing was reported on the way (the router's validator judges). */
  finalCheck(schema: Schema, value: unknown): void {
    if (this.reported || !this.onIssue) return;
    const problems: ValidationIssue[] = [];
    try {
      this.compiler.compile(schema, this.direction)(structuredCloneSafe(value), [], problems);
    } catch (error) {
      this.issue(`the schema cannot be compiled: ${(error as Error).message}`);
      return;
    }
    const first = problems[0];
    if (first) this.onIssue({ at: first.loc.map((segment) => `/${String(segment).replace(/~/g, "~0").replace(/\//g, "~1")}`).join(""), message: first.msg });
  }

  private check(schema: Schema): Check | undefined {
    try {
      return this.compiler.compile(schema, this.direction);
    } catch {
      return undefined;
    }
  }

  private validates(schema: Schema, value: unknown): boolean {
    // Probe mode (errors = null) never mutates `value`.
    return this.check(schema)?.(value, [], null) ?? false;
  }

  private at<T>(segment: string | number, make: () => T): T {
    this.path.push(String(segment));
    try {
      return make();
    } finally {
      this.path.pop();
    }
  }

  /**
   * `depth` counts nesting; `recursion` counts how many refs on the path are repeats. Either past its limit
   * means "minimal value": required properties only, minItems items.
   */
  generate(schema: Schema, depth: number, variant: number): unknown {
    if (schema === true) return {};
    if (schema === false) {
      this.issue("the schema is `false`: no value is valid");
      return null;
    }
    if (depth > HARD_DEPTH_LIMIT) {
      this.issue(`nested deeper than ${HARD_DEPTH_LIMIT} levels: no value is made there`);
      return null;
    }
    this.budget--;
    if (typeof schema.$ref === "string") return this.generateRef(schema, depth, variant);

    if (schema.const !== undefined) return structuredCloneSafe(schema.const);
    if (Array.isArray(schema.enum)) return this.enumValue(schema, variant);
    if (variant === 0) {
      for (const candidate of declaredExamples(schema)) {
        if (this.validates(schema, candidate) && (typeof candidate !== "string" || typeof schema.format !== "string" || inFormat(schema.format, candidate))) return structuredCloneSafe(candidate);
      }
    }

    if (schema.allOf && schema.allOf.length > 0) return this.generate(this.mergeAllOf(schema, new Set()), depth, variant);
    const union = schema.oneOf ?? schema.anyOf;
    if (union && union.length > 0) return this.generateUnion(schema, union, depth, variant);

    const value = this.generateType(schema, depth, variant);
    return schema.not === undefined ? value : this.avoidNot(schema, value, depth, variant);
  }

  private generateType(schema: SchemaObject, depth: number, variant: number): unknown {
    const type = primaryType(schema);
    switch (type) {
      case "null":
        return null;
      case "boolean":
        return variant % 2 === 1;
      case "integer":
      case "number":
        return this.numberFor(schema, type === "integer", variant);
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

  /** A value `not` does not match: another variant, else another type the schema allows. */
  private avoidNot(schema: SchemaObject, value: unknown, depth: number, variant: number): unknown {
    const not = schema.not!;
    if (!this.validates(not, value)) return value;
    const tries = [1, 2, 3, 4].map((offset) => () => this.generateType(schema, depth, variant + offset));
    for (const type of ["string", "integer", "boolean", "object", "array", "null"]) {
      if (allowsType(schema, type)) tries.push(() => this.generateType({ ...schema, type }, depth, variant));
    }
    for (const make of tries) {
      const other = this.attempt(make);
      if (this.validates(not, other.value)) continue;
      this.keep(other.issues);
      return other.value;
    }
    this.issue("every value made matches `not`");
    return value;
  }

  /** An `enum` value that fits the rest of the schema (non-null first), picked by `variant`. */
  private enumValue(schema: SchemaObject, variant: number): unknown {
    const values = schema.enum as readonly unknown[];
    if (values.length === 0) {
      this.issue("`enum: []` allows no value");
      return null;
    }
    const nonNull = values.filter((v) => v !== null);
    const pool = nonNull.length > 0 ? nonNull : values;
    const rest = { ...schema };
    delete rest.enum;
    for (let i = 0; i < pool.length; i++) {
      const candidate = pool[(variant + i) % pool.length];
      if (Object.keys(rest).length === 0 || this.validates(schema, candidate)) return structuredCloneSafe(candidate);
    }
    this.issue("no `enum` value satisfies the rest of the schema");
    return structuredCloneSafe(pool[variant % pool.length]);
  }

  private generateRef(schema: SchemaObject, depth: number, variant: number): unknown {
    const ref = schema.$ref as string;
    const target = resolvePointer(this.document, ref);
    if (target === undefined) {
      this.issue(`$ref ${ref} does not resolve`);
      return null;
    }
    const seen = this.refStack.get(ref) ?? 0;
    if (seen >= 2) {
      this.issue(`${ref} requires itself: no finite value`);
      return null;
    }
    this.refStack.set(ref, seen + 1);
    try {
      // A repeated ref means recursion: jump past maxDepth so only required parts are generated.
      const nextDepth = seen > 0 ? Math.max(depth, this.maxDepth) + 1 : depth;
      const siblings = { ...schema };
      delete siblings.$ref;
      // Keywords beside a `$ref` apply too (JSON Schema 2020-12; 3.0 documents write only annotations there).
      const merged = Object.keys(siblings).some((k) => KEYWORDS.has(k)) ? { allOf: [{ $ref: ref }], ...siblings } : undefined;
      const value = merged ? this.generate(this.mergeAllOf(merged, new Set()), nextDepth, variant) : this.generate(target, nextDepth, variant);
      return this.withOwnTag(ref, target, value);
    } finally {
      if (seen === 0) this.refStack.delete(ref);
      else this.refStack.set(ref, seen);
    }
  }

  /**
   * A schema that inherits a discriminator (`allOf: [Parent]`, the parent's mapping naming this schema) carries its
   * own tag: the mapping key that names it, else its name, unless the schema pins the tag itself.
   */
  private withOwnTag(ref: string, target: Schema, value: unknown): unknown {
    if (!isPlainObject(value) || typeof target !== "object") return value;
    const discriminator = (target.allOf ?? []).map((part) => this.resolve(part)).map((part) => part && this.inheritedDiscriminator(part, 1)).find(Boolean);
    if (!discriminator) return value;
    const tag = tagFor(discriminator, ref);
    const tagSchema = this.propertySchema(target, discriminator.propertyName, 0);
    if (tag === undefined || (tagSchema !== undefined && !this.validates(tagSchema, tag))) return value;
    return { ...value, [discriminator.propertyName]: tag };
  }

  private inheritedDiscriminator(schema: Schema, depth: number): SchemaObject["discriminator"] | undefined {
    if (typeof schema !== "object" || depth > 8) return undefined;
    if (schema.discriminator) return schema.discriminator;
    for (const part of schema.allOf ?? []) {
      const resolved = this.resolve(part);
      const found = resolved && this.inheritedDiscriminator(resolved, depth + 1);
      if (found) return found;
    }
    return undefined;
  }

  /** The schema of property `name` in `schema`, itself or through `allOf` members. */
  private propertySchema(schema: Schema, name: string, depth: number): Schema | undefined {
    if (typeof schema !== "object" || depth > 8) return undefined;
    const own = schema.properties?.[name];
    if (own !== undefined) return own;
    for (const part of schema.allOf ?? []) {
      const resolved = this.resolve(part);
      const found = resolved && this.propertySchema(resolved, name, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  private resolve(schema: Schema): Schema | undefined {
    try {
      return derefSchema(schema, this.document);
    } catch {
      return undefined;
    }
  }

  private generateUnion(schema: SchemaObject, branches: readonly Schema[], depth: number, variant: number): unknown {
    const base = { ...schema };
    delete base.oneOf;
    delete base.anyOf;
    delete base.discriminator;
    const exactlyOne = schema.oneOf !== undefined;
    // Prefer non-null branches (a mock "null" is a poor example), then the first branch that validates; `variant`
    // starts the search at another branch.
    const order = branches.map((_, i) => i).sort((a, b) => Number(this.isNullSchema(branches[a]!)) - Number(this.isNullSchema(branches[b]!)));
    const start = variant % order.length;
    const ordered = [...order.slice(start), ...order.slice(0, start)].map((i) => branches[i]!);
    // A branch next to keywords of its own (`properties` beside `anyOf: [{required: [file_ids]}, {required: [files]}]`,
    // as OpenAI writes "one of these is required") is generated together with them, so the base's property schemas
    // shape what the branch requires.
    const withBase = Object.keys(base).some((k) => KEYWORDS.has(k));
    let fallback: { value: unknown; issues: MockIssue[] } | undefined;
    for (let i = 0; i < ordered.length; i++) {
      const branch = ordered[i]!;
      const made = this.attempt(() => this.applyDiscriminator(schema, branch, withBase && !this.isNullSchema(branch) ? this.generate({ allOf: [base, branch] }, depth, variant) : this.generate(branch, depth, variant)));
      fallback ??= made;
      const valid = (candidate: unknown) => this.validates(schema, candidate);
      const value = exactlyOne ? this.matchingOnlyOne(branches, branch, made.value, valid) : valid(made.value) ? made.value : undefined;
      if (value === undefined) continue;
      this.keep(made.issues);
      return value;
    }
    this.keep(fallback?.issues ?? []);
    this.issue(exactlyOne ? "no value made matches exactly one `oneOf` branch (the branches overlap)" : "no value made matches an `anyOf` branch");
    return fallback?.value;
  }

  /**
   * `value` (made for `branch`), or the same with one or two properties fewer, such that no other `oneOf` branch
   * matches it (JSON Schema: exactly one; a discriminator, which OpenAPI says does not change the outcome, does not
   * count) and `valid` accepts it; undefined when none is found.
   */
  private matchingOnlyOne(branches: readonly Schema[], branch: Schema, value: unknown, valid: (candidate: unknown) => boolean): unknown {
    const others = branches.filter((other) => other !== branch);
    const alone = (candidate: unknown) => this.validates(branch, candidate) && !others.some((other) => this.validates(other, candidate)) && valid(candidate);
    if (alone(value)) return value;
    if (!isPlainObject(value)) return undefined;
    const keys = Object.keys(value);
    const without = (...left: string[]) => Object.fromEntries(Object.entries(value).filter(([key]) => !left.includes(key)));
    for (const a of keys) if (alone(without(a))) return without(a);
    for (let i = 0; i < keys.length && i < 24; i++) for (let j = i + 1; j < keys.length && j < 24; j++) if (alone(without(keys[i]!, keys[j]!))) return without(keys[i]!, keys[j]!);
    return undefined;
  }

  private isNullSchema(schema: Schema): boolean {
    return typeof schema === "object" && (schema.type === "null" || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === "null"));
  }

  /** Sets the discriminator property to the tag that maps to `branch` (mapping key or schema name). */
  private applyDiscriminator(schema: SchemaObject, branch: Schema, value: unknown): unknown {
    const discriminator = schema.discriminator;
    if (!discriminator || !isPlainObject(value) || typeof branch !== "object" || typeof branch.$ref !== "string") return value;
    const target = resolvePointer(this.document, branch.$ref);
    // Without a mapping entry the tag is the schema name, unless the branch pins its own tag (const/enum).
    const tagSchema = target === undefined ? undefined : this.propertySchema(target, discriminator.propertyName, 0);
    const pinned = typeof tagSchema === "object" && (tagSchema.const !== undefined || Array.isArray(tagSchema.enum));
    const tag = tagFor(discriminator, branch.$ref);
    if (tag === undefined || (pinned && !this.validates(tagSchema!, tag))) return value;
    return { ...value, [discriminator.propertyName]: tag };
  }

  /** allOf: the branches merged into one schema (properties, required, other keywords). */
  private mergeAllOf(schema: SchemaObject, seen: Set<string>): SchemaObject {
    const merged: SchemaObject = { ...schema };
    delete merged.allOf;
    const properties: Record<string, Schema> = { ...(schema.properties ?? {}) };
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    for (const part of schema.allOf ?? []) {
      if (typeof part === "object" && typeof part.$ref === "string") {
        if (seen.has(part.$ref)) continue;
        seen.add(part.$ref);
      }
      const resolved = this.resolve(part);
      if (resolved === false) this.issue("an `allOf` member is `false`: no value is valid");
      if (resolved === undefined || typeof resolved !== "object") continue;
      // (A member that is a `$ref` with keywords beside it counts both.)
      const own = typeof part === "object" && typeof part.$ref === "string" ? { ...part, $ref: undefined } : undefined;
      const withOwn: SchemaObject = own && Object.keys(own).some((k) => KEYWORDS.has(k)) ? { ...resolved, allOf: [...(resolved.allOf ?? []), { ...own, $ref: undefined }] } : resolved;
      const flat = withOwn.allOf ? this.mergeAllOf(withOwn, seen) : withOwn;
      // A property several members describe must satisfy them all (GitHub narrows `{type: string}` to an enum).
      for (const [name, property] of Object.entries(flat.properties ?? {})) {
        const earlier = properties[name];
        properties[name] = earlier === undefined ? property : { allOf: [earlier, property] };
      }
      if (Array.isArray(flat.required)) for (const name of flat.required) required.add(name);
      for (const [key, value] of Object.entries(flat)) {
        if (key === "properties" || key === "required" || key === "$ref" || value === undefined) continue;
        if (merged[key] === undefined) merged[key] = value;
        else if (key === "type") {
          const common = intersectTypes(merged.type, value);
          if (common === undefined) this.issue(`the \`allOf\` members' types (${JSON.stringify(merged.type)}, ${JSON.stringify(value)}) have none in common: no value is valid`);
          merged.type = common ?? merged.type;
        }
        // A subschema several members set must be satisfied by all of them (items of a string and of a null list).
        else if (SUBSCHEMAS.has(key) && !Array.isArray(value) && !Array.isArray(merged[key]) && merged[key] !== value) {
          merged[key] = merged[key] === false || value === false ? false : { allOf: [merged[key], value] };
        }
        else if (TIGHTER_MIN.has(key) && typeof value === "number" && typeof merged[key] === "number") merged[key] = Math.max(merged[key] as number, value);
        else if (TIGHTER_MAX.has(key) && typeof value === "number" && typeof merged[key] === "number") merged[key] = Math.min(merged[key] as number, value);
      }
    }
    if (Object.keys(properties).length > 0) merged.properties = properties;
    if (required.size > 0) merged.required = [...required];
    if (merged.type === undefined && merged.properties) merged.type = "object";
    delete merged.$ref;
    return merged;
  }

  private numberFor(schema: SchemaObject, integer: boolean, variant: number): number {
    const value = numberIn(schema, integer, variant);
    if (value !== undefined) return value;
    this.issue("no number lies within the schema's bounds and `multipleOf`");
    return typeof schema.minimum === "number" ? schema.minimum : 0;
  }

  private stringFor(schema: SchemaObject, variant: number): string {
    const requested = typeof schema.minLength === "number" ? schema.minLength : 0;
    const bounds: LengthBounds = { min: Math.min(requested, MOCK_LIMITS.length), max: typeof schema.maxLength === "number" ? schema.maxLength : Infinity };
    const format = typeof schema.format === "string" && knownFormat(schema.format) ? schema.format : undefined;
    const pattern = typeof schema.pattern === "string" ? schema.pattern : undefined;
    const candidates: string[] = [];
    if (format !== undefined) {
      for (let attempt = 0; attempt < 4; attempt++) {
        const text = formatValue(format, variant + attempt * 101, bounds);
        if (text !== undefined) candidates.push(text);
      }
    }
    if (format === undefined) {
      for (let i = 0; i < this.strings.length; i++) candidates.push(this.strings[(variant + i) % this.strings.length]!);
      candidates.push(variant === 0 ? "string" : `string${variant}`);
    }
    if (pattern !== undefined) {
      const text = patternValue(pattern, variant, bounds, format === undefined ? undefined : (t) => inFormat(format, t));
      if (text !== undefined) candidates.push(text);
    }
    if (format === undefined) {
      // Variants of the short ones first, so that items which must be distinct can be (digit-only ids, short codes).
      if (variant > 0) candidates.push(String(variant), `a${variant}`, `A${variant}`);
      candidates.push("a", "0", "A", "a0", "example", "");
    }
    const fits = (text: string) => (format === undefined || inFormat(format, text)) && this.validates({ ...schema, type: "string" }, text);
    for (const raw of candidates) {
      const text = fitLength(raw, bounds);
      if (fits(text)) return text;
    }
    const best = fitLength(candidates[0] ?? "string", bounds);
    if (requested > MOCK_LIMITS.length) this.issue(`minLength ${requested} is more than mock strings hold (${MOCK_LIMITS.length}): the string is too short`);
    else if (pattern !== undefined) this.issue(`no string was found that matches the pattern ${JSON.stringify(pattern).slice(0, 200)}${format ? ` in format ${format}` : ""} within the length bounds`);
    else this.issue(format ? `no ${format} string fits the length bounds` : "no string fits the schema");
    return best;
  }

  private arrayFor(schema: SchemaObject, depth: number, variant: number): unknown[] {
    const minItems = typeof schema.minItems === "number" ? schema.minItems : 0;
    const maxItems = typeof schema.maxItems === "number" ? schema.maxItems : Infinity;
    const tuple = schema.prefixItems ?? (Array.isArray(schema.items) ? (schema.items as readonly Schema[]) : []);
    const rest = Array.isArray(schema.items) ? schema.additionalItems as Schema | undefined : (schema.items as Schema | undefined);
    const minimal = depth >= this.maxDepth || this.budget <= 0;
    let count = Math.max(minItems, minimal ? 0 : this.items, minimal ? 0 : tuple.length);
    count = Math.min(count, maxItems);
    if (rest === false) count = Math.min(count, tuple.length);
    if (count > MOCK_LIMITS.items) {
      this.issue(`minItems ${minItems} is more than mock arrays hold (${MOCK_LIMITS.items}): the array is too short`);
      count = MOCK_LIMITS.items;
    }
    // `contains`: the first `minContains` items (one by default) are made to match it too.
    const contains = schema.contains as Schema | undefined;
    const minContains = contains === undefined ? 0 : typeof schema.minContains === "number" ? schema.minContains : 1;
    count = Math.max(count, Math.min(minContains, maxItems, MOCK_LIMITS.items));
    const out: unknown[] = [];
    const seen = schema.uniqueItems ? new Set<string>() : undefined;
    for (let i = 0; i < count; i++) {
      if (this.budget <= 0) {
        if (out.length < minItems) this.issue(`the value grew past ${MOCK_LIMITS.values} values: the array is cut at ${out.length} items, fewer than minItems ${minItems}`);
        break;
      }
      const itemSchema = i < tuple.length ? tuple[i]! : (rest ?? true);
      const forItem: Schema = contains !== undefined && i < minContains ? { allOf: [itemSchema, contains] } : itemSchema;
      // uniqueItems needs distinct items: vary them deterministically, trying more variants when a pattern or bound
      // makes two of them equal (Discord's snowflakes all came out "0").
      const made = this.at(i, () => {
        let made = this.attempt(() => this.generate(forItem, depth + 1, seen ? variant + i : variant));
        for (let attempt = 1; seen && seen.has(canonical(made.value)) && attempt <= 16; attempt++) {
          made = this.attempt(() => this.generate(forItem, depth + 1, variant + i + attempt * (count + 1)));
        }
        return made;
      });
      // An item the schema does not ask for that came out invalid (GitHub's `allOf` of `items: string` and
      // `items: null`, which only `[]` satisfies) ends the array there, as an invalid optional property is left out.
      const optionalItem = i >= Math.max(minItems, minContains);
      if (optionalItem && (made.issues.length > 0 || seen?.has(canonical(made.value)))) break;
      this.at(i, () => this.keep(made.issues));
      const item = made.value;
      if (seen?.has(canonical(item))) {
        this.at(i, () => this.issue("`uniqueItems`: no item different from the others was found"));
      }
      seen?.add(canonical(item));
      out.push(item);
    }
    return out;
  }

  private objectFor(schema: SchemaObject, depth: number, variant: number): Record<string, unknown> {
    const out: Obj = {};
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const minimal = depth >= this.maxDepth || this.budget <= 0 || !this.optional;
    const skipped = this.direction === "response" ? "writeOnly" : "readOnly";
    const maxProperties = typeof schema.maxProperties === "number" ? schema.maxProperties : Infinity;
    const properties = schema.properties ?? {};
    // Required properties first, so that `maxProperties` leaves out optional ones only.
    const names = [...Object.keys(properties).filter((name) => required.has(name)), ...Object.keys(properties).filter((name) => !required.has(name))];
    for (const name of names) {
      const propertySchema = properties[name]!;
      const isRequired = required.has(name);
      // (A required writeOnly property is required of requests only: OpenAPI.)
      if (this.flagged(propertySchema, skipped)) continue;
      if (!isRequired && (minimal || Object.keys(out).length >= maxProperties)) continue;
      const made = this.attempt(() => this.at(name, () => this.generate(propertySchema, depth + 1, variant)));
      // An optional property whose value came out invalid (a recursion dead end, a `pattern` no candidate string
      // matches, Discord's `enum: []`) is left out rather than making the whole value invalid.
      if (!isRequired && (made.issues.length > 0 || !this.validates(propertySchema, made.value))) continue;
      this.keep(made.issues);
      define(out, name, made.value);
    }
    for (const name of required) {
      if (Object.hasOwn(out, name) || Object.hasOwn(properties, name)) continue;
      const extra = this.extraPropertySchema(schema, name);
      if (extra === undefined) {
        this.at(name, () => this.issue(`required property ${JSON.stringify(name)} is not allowed by additionalProperties`));
        continue;
      }
      define(out, name, this.at(name, () => this.generate(extra, depth + 1, variant)));
    }
    // `dependentRequired`: a present property brings the ones it names.
    const dependent = schema.dependentRequired as Record<string, readonly string[]> | undefined;
    if (dependent && typeof dependent === "object") {
      for (const [name, needs] of Object.entries(dependent)) {
        if (!Object.hasOwn(out, name) || !Array.isArray(needs)) continue;
        for (const need of needs) {
          const needSchema = Object.hasOwn(properties, need) ? properties[need]! : this.extraPropertySchema(schema, need);
          if (!Object.hasOwn(out, need) && needSchema !== undefined) define(out, need, this.at(need, () => this.generate(needSchema, depth + 1, variant)));
        }
      }
    }
    const requestedMin = typeof schema.minProperties === "number" ? schema.minProperties : 0;
    const minProperties = Math.min(requestedMin, MOCK_LIMITS.properties);
    if (requestedMin > MOCK_LIMITS.properties) this.issue(`minProperties ${requestedMin} is more than mock objects hold (${MOCK_LIMITS.properties})`);
    for (let i = 0; Object.keys(out).length < minProperties && i < minProperties + 8; i++) {
      const name = this.extraPropertyName(schema, i);
      if (name === undefined) break;
      const extra = this.extraPropertySchema(schema, name);
      if (!Object.hasOwn(out, name) && extra !== undefined) define(out, name, this.at(name, () => this.generate(extra, depth + 1, variant)));
    }
    if (Object.keys(out).length < minProperties) this.issue(`no property names could be made to reach minProperties ${requestedMin}`);
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

  /** The schema of a property `properties` does not declare: from `patternProperties`, else `additionalProperties`; undefined when none is allowed. */
  private extraPropertySchema(schema: SchemaObject, name: string): Schema | undefined {
    for (const [pattern, patternSchema] of Object.entries(schema.patternProperties ?? {})) {
      if (nativeTest(pattern, name)) return patternSchema;
    }
    const additional = schema.additionalProperties ?? (schema.unevaluatedProperties as Schema | undefined);
    if (additional === false) return undefined;
    return typeof additional === "object" ? additional : { type: "string" };
  }

  /** The `i`-th name for a property added to reach `minProperties`: `property1`, … or one a `patternProperties` key matches. */
  private extraPropertyName(schema: SchemaObject, i: number): string | undefined {
    const names = schema.propertyNames;
    const closed = (schema.additionalProperties ?? schema.unevaluatedProperties) === false;
    const patterns = Object.keys(schema.patternProperties ?? {});
    const candidates = [...(closed ? [] : [`property${i + 1}`]), ...patterns.map((pattern) => patternValue(pattern, i, { min: 1, max: 64 }))];
    return candidates.find((name): name is string => name !== undefined && (names === undefined || this.validates(names as Schema, name)));
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
const KEYWORDS = new Set(["properties", "required", "type", "additionalProperties", "allOf", "items", "enum", "const", "minLength", "maxLength", "pattern", "format", "minimum", "maximum", "minItems", "maxItems"]);

/** Keywords whose value is a schema, which two `allOf` members may both set: both hold. */
const SUBSCHEMAS = new Set(["items", "additionalProperties", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties"]);

/** Bounds two `allOf` members may both set: the tighter one holds. */
const TIGHTER_MIN = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]);
const TIGHTER_MAX = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]);

function declaredExamples(schema: SchemaObject): unknown[] {
  const out: unknown[] = [];
  if (schema.example !== undefined) out.push(schema.example);
  if (Array.isArray(schema.examples)) out.push(...schema.examples);
  if (schema.default !== undefined) out.push(schema.default);
  return out;
}

function primaryType(schema: SchemaObject): string {
  const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  const nonNull = types.find((t) => t !== "null");
  if (nonNull) return nonNull;
  if (types.length > 0) return "null";
  if (schema.properties || schema.additionalProperties !== undefined || schema.required || schema.patternProperties) return "object";
  if (schema.items !== undefined || schema.prefixItems || schema.contains !== undefined) return "array";
  if (schema.minLength !== undefined || schema.pattern !== undefined || schema.format !== undefined) return "string";
  if (schema.minimum !== undefined || schema.maximum !== undefined || schema.multipleOf !== undefined) return "number";
  return "any";
}

/** Whether `type` is one the schema's `type` allows (any, without one). */
function allowsType(schema: SchemaObject, type: string): boolean {
  if (schema.type === undefined) return true;
  const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  return types.includes(type) || (type === "integer" && types.includes("number"));
}

/** The tag of the schema `ref` names under `discriminator`: its mapping key, else the schema's name. */
function tagFor(discriminator: NonNullable<SchemaObject["discriminator"]>, ref: string): string | undefined {
  const name = ref.slice(ref.lastIndexOf("/") + 1);
  const mapped = Object.entries(discriminator.mapping ?? {}).find(([, target]) => target === ref || target === name)?.[0];
  if (mapped !== undefined) return mapped;
  // A mapping that lists other schemas only: this one's name is its tag only when the mapping does not use it.
  return Object.hasOwn(discriminator.mapping ?? {}, name) ? undefined : name;
}

/**
 * The `variant`-th number the schema allows, counted from the lowest (from 0, or down from the highest when only a
 * negative maximum is given), on a `multipleOf` that divides it exactly in binary floating point (as validators
 * compute `value / multipleOf`); undefined when the bounds leave none.
 */
function numberIn(schema: SchemaObject, integer: boolean, variant: number): number | undefined {
  let low = typeof schema.minimum === "number" ? schema.minimum : -Infinity;
  let high = typeof schema.maximum === "number" ? schema.maximum : Infinity;
  let lowOpen = false;
  let highOpen = false;
  if (typeof schema.exclusiveMinimum === "number" && schema.exclusiveMinimum >= low) [low, lowOpen] = [schema.exclusiveMinimum, true];
  else if (schema.exclusiveMinimum === true) lowOpen = true;
  if (typeof schema.exclusiveMaximum === "number" && schema.exclusiveMaximum <= high) [high, highOpen] = [schema.exclusiveMaximum, true];
  else if (schema.exclusiveMaximum === true) highOpen = true;
  const multipleOf = typeof schema.multipleOf === "number" && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  const fits = (n: number) =>
    Number.isFinite(n) && (lowOpen ? n > low : n >= low) && (highOpen ? n < high : n <= high) && (!integer || Number.isInteger(n)) && (multipleOf === undefined || Number.isInteger(n / multipleOf));
  const down = !Number.isFinite(low) && Number.isFinite(high) && high <= 0;
  const origin = Number.isFinite(low) ? low : down ? high : 0;
  const step = multipleOf ?? (integer ? 1 : undefined);
  const candidates: number[] = [];
  if (step !== undefined) {
    const first = down ? Math.floor(origin / step + 1e-9) : Math.ceil(origin / step - 1e-9);
    // How many multiples a range bounded on both sides holds: a large variant wraps around inside it.
    const last = down ? (Number.isFinite(low) ? Math.ceil(low / step - 1e-9) : undefined) : Number.isFinite(high) ? Math.floor(high / step + 1e-9) : undefined;
    const count = last === undefined ? Infinity : Math.abs(last - first) + 1;
    const index = count > 0 && Number.isFinite(count) ? variant % count : variant;
    for (const offset of [...Array.from({ length: 64 }, (_, k) => index + k), ...Array.from({ length: 64 }, (_, k) => k)]) {
      const raw = (first + (down ? -offset : offset)) * step;
      candidates.push(Number.isInteger(raw) ? raw : Number(raw.toPrecision(15)), raw);
    }
  } else {
    candidates.push(origin + (down ? -variant : variant), origin + (down ? -variant - 1 : variant + 1));
    if (Number.isFinite(low) && Number.isFinite(high)) candidates.push(low + ((high - low) * ((variant % 8) + 1)) / 9, (low + high) / 2);
  }
  return candidates.find(fits);
}

/** `raw` cut or padded (with `x`) to the length bounds; a cut never splits a surrogate pair. */
function fitLength(raw: string, bounds: LengthBounds): string {
  const length = codePoints(raw);
  if (length < bounds.min) return raw + "x".repeat(bounds.min - length);
  if (length > bounds.max) return Array.from(raw).slice(0, bounds.max).join("");
  return raw;
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

const regexes = new Map<string, RegExp | undefined>();

/** `RegExp.test` of a spec's pattern (the `u` flavour, else the legacy one); false for a pattern neither reads. */
function nativeTest(pattern: string, text: string): boolean {
  if (!regexes.has(pattern)) {
    let regex: RegExp | undefined;
    for (const flags of ["u", ""]) {
      try {
        regex = new RegExp(pattern, flags);
        break;
      } catch {
        // the other flavour, or none
      }
    }
    if (regexes.size > 1000) regexes.clear();
    regexes.set(pattern, regex);
  }
  return regexes.get(pattern)?.test(text) ?? false;
}

/** JSON with sorted keys: equal values give equal text (what `uniqueItems` compares). */
function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical((value as Obj)[key])}`)
    .join(",")}}`;
}

/** Sets an own, enumerable property (a property named `__proto__` stays a property). */
function define(record: Obj, name: string, value: unknown): void {
  Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
}

function isPlainObject(value: unknown): value is Obj {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function structuredCloneSafe<T>(value: T): T {
  return value !== null && typeof value === "object" ? structuredClone(value) : value;
}
