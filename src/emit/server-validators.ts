import type { RouteSpec, Schema, SchemaDocument, SchemaObject } from "../../templates/server/index.js";
import { resolvePointer } from "../../templates/server/schema.js";
import { canonicalJson, dependentKeywords, FORMAT_NAMES, isNullOnlySchema, NUMBER_FORMAT_NAMES, SchemaCompiler } from "../../templates/server/validate.js";
import type { OutputForm } from "../config/resolve.js";
import type { EmittedFile } from "./file.js";
import { printJsonConstant } from "./printer.js";

/**
 * `server-validators.ts` (or `.js` + `.d.ts`): the router's request validators as straight-line JavaScript, one function per
 * schema (shared through `$ref`), emitted here at generate time so the router needs no `eval`/`new Function` and
 * runs under `--disallow-code-generation-from-strings` (Workers). They mirror the closures of
 * templates/server/validate.ts keyword for keyword and in the same order (cheap keywords first, the first failure
 * ends the check, depth limit, readOnly ignored in requests, defaults filled only when the closures would, the
 * discriminator's tag table, patterns through the compiler's own tests, so super-linear ones stay on the linear
 * matcher), but only answer valid or not: the runtime asks the closures again to report an invalid value's issues
 * (`SchemaCompiler.useGenerated`), so error answers are what they always were. `unevaluatedProperties` and
 * `unevaluatedItems`, which depend on what every other keyword evaluated, are the closures' own check, called from the
 * code (`env.unevaluated`). The code does not remember answers as the closures do: each `$ref` target it enters takes
 * a step of `env.budget`, and an answer given past the budget is decided by the closures instead. Equivalence is
 * pinned by a differential test over the feature fixtures and the corpus.
 *
 * Safety: every string and number from the spec is in one `JSON.parse(String.raw`…`)` table (`S`, one value per line); a property name or tag
 * appears in code only as a `JSON.stringify`d literal of plain printable ASCII without quotes or backslashes.
 * The text is printed in prettier's form (short generated lines, no spec text in them), so no formatting pass.
 * Nothing for a project's type checker to infer: in the `ts` form, `server-validators.ts` with its one export typed;
 * in the `js` form, a `.js` module with a two-line `.d.ts`. Either is marked `// @ts-nocheck` (its parameters are
 * untyped), and the `.js` names its declarations for Deno (`@ts-self-types`).
 */
export function emitServerValidators(document: SchemaDocument, routes: readonly RouteSpec[], superLinearPatterns: readonly string[], form: OutputForm = "ts"): EmittedFile[] {
  if (form === "ts") {
    // The same code, its one export typed: a project's compiler infers nothing here (the file is `// @ts-nocheck`).
    const content = serverValidatorsText(document, routes, superLinearPatterns, "ts");
    return [{ path: "server-validators.ts", content, canonical: content, description: "the router's request validators, generated as code", noCheck: true }];
  }
  const content = `// @ts-self-types="./server-validators.d.ts"\n${serverValidatorsText(document, routes, superLinearPatterns)}`;
  return [
    { path: "server-validators.js", content, canonical: content, description: "the router's request validators, generated as code", noCheck: true },
    { path: "server-validators.d.ts", content: DECLARATION, canonical: DECLARATION, description: "the type of server-validators.js" },
  ];
}

const DECLARATION = `import type { GeneratedValidators } from "./runtime/server/index.js";

/** The router's request validators, generated as code (see \`createRouterRuntime\`). */
export declare const requestValidators: GeneratedValidators;
`;

/** Something the closures would refuse at router creation (an unresolvable \`$ref\`, a schema that is not an object). */
class Unsupported extends Error {}

type Line = [indent: number, text: string];
type Loc = "path" | "query" | "header" | "cookie";
const LOCATIONS: readonly Loc[] = ["path", "query", "header", "cookie"];
/** Header parameters the router ignores (templates/server/params.ts). */
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);
const FORMATS = new Set(FORMAT_NAMES);
const NUMBER_FORMATS = new Set(NUMBER_FORMAT_NAMES);
/** Bits of the type helper `T` of the generated module. */
const TYPE_BITS: Record<string, number> = { string: 1, integer: 2, number: 4, boolean: 8, array: 16, object: 32, null: 64 };
/** Failing conditions for one type. */
const NOT_TYPE: Record<string, string> = {
  string: 'typeof x !== "string"',
  integer: "!Number.isInteger(x)",
  number: "!Number.isFinite(x)",
  boolean: 'typeof x !== "boolean"',
  array: "!Array.isArray(x)",
  object: 'x === null || typeof x !== "object" || Array.isArray(x)',
  null: "x !== null",
};
const IS_OBJECT = 'x !== null && typeof x === "object" && !Array.isArray(x)';
const PRINT_WIDTH = 80;

/** The text of `server-validators.js`, or with `form` "ts" of `server-validators.ts` (no header). */
export function serverValidatorsText(source: SchemaDocument, sourceRoutes: readonly RouteSpec[], superLinearPatterns: readonly string[], form: OutputForm = "js"): string {
  // What the router runs with: the data as server.ts writes it, `JSON.parse` of its JSON text (the routes'
  // request schemas are copied one at a time, in entries: nothing else of a route is read).
  const document = JSON.parse(JSON.stringify(source)) as SchemaDocument;
  let emitter = new ValidatorEmitter(document, superLinearPatterns);
  let entries: [(string | number)[], string][] = [];
  try {
    entries = emitter.entries(sourceRoutes);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    // The closures throw at router creation for such a spec: nothing to generate (and nothing that could run).
    emitter = new ValidatorEmitter(document, superLinearPatterns);
    entries = [];
  }
  return emitter.module(entries, form);
}

interface FunctionEntry {
  name: string;
  /** The function callers use: undefined while its body is generated, null when it accepts everything. */
  resolved: string | null | undefined;
  /** Whether it was called while its body was being generated (a cycle): it must then exist as named. */
  usedEarly: boolean;
}

class ValidatorEmitter {
  private readonly compiler: SchemaCompiler;
  private readonly table: unknown[] = [];
  private readonly tableIndex = new Map<string, number>();
  private readonly factory: string[] = [];
  /** Each function's text (its lines joined, no final newline). */
  private readonly functions: string[] = [];
  /**
   * Function name by body text, and factory constant by initialiser: equal schemas (Stripe repeats its inline schemas
   * in every operation) share one function instead of being written again.
   */
  private readonly functionByBody = new Map<string, string>();
  /** The document's schema at each `$ref` followed (resolvePointer parses the pointer on every call). */
  private readonly refTargets = new Map<string, Schema | undefined>();
  private readonly constByInit = new Map<string, string>();
  /** Weak: a route's schemas are garbage once its functions are written (nothing leads back to them). */
  private readonly bySchema = new WeakMap<object, FunctionEntry>();
  private readonly patterns = new Map<string, string>();
  private readonly formats = new Map<string, string>();
  /** The document's schemas reached through a `$ref`: their functions take a step of the budget. */
  private readonly refTargetSchemas = new WeakSet<object>();
  private count = 0;
  private never: string | undefined;

  constructor(
    private readonly document: SchemaDocument,
    superLinearPatterns: readonly string[],
  ) {
    this.compiler = new SchemaCompiler(document, { superLinearPatterns });
  }

  /**
   * [path into `{ routes, document }`, function] of every request schema the router compiles, each schema a copy of
   * its own: in the router's copy of the table no two positions are one object, and only a `$ref` leads to a schema
   * twice (into the document).
   */
  entries(routes: readonly RouteSpec[]): [(string | number)[], string][] {
    const out: [(string | number)[], string][] = [];
    const add = (path: (string | number)[], source: Schema | undefined) => {
      if (typeof source !== "object" || source === null) return;
      const name = this.fnFor(JSON.parse(JSON.stringify(source)) as Schema);
      if (name !== null) out.push([path, name]);
    };
    routes.forEach((route, i) => {
      for (const location of LOCATIONS) {
        (route.params[location] ?? []).forEach((param, j) => {
          if (location === "header" && IGNORED_HEADERS.has(param.name.toLowerCase())) return;
          add(["routes", i, "params", location, j, "schema"], param.schema);
        });
      }
      if (route.params.querystring) add(["routes", i, "params", "querystring", "schema"], route.params.querystring.schema);
      for (const [key, media] of Object.entries(route.body?.content ?? {})) add(["routes", i, "body", "content", key, "schema"], media.schema);
    });
    return out;
  }

  module(entries: [(string | number)[], string][], form: OutputForm): string {
    const registrations = entries.map(([path, name]) => `  out.push([${this.constant(path)}, ${name}]);`);
    const typed = form === "ts";
    const parts = [
      ...(typed ? ["import type {", "  GeneratedValidators,", "  ValidatorEnv,", '} from "./runtime/server/index.js";', ""] : []),
      printJsonConstant(typed ? "const S: unknown[]" : "const S", { value: this.table, entriesAt: 1 }),
      "",
      ...(typed ? ["export function requestValidators(", "  env: ValidatorEnv,", "): ReturnType<GeneratedValidators> {"] : ["export function requestValidators(env) {"]),
      "  const M = env.maxDepth;",
      "  const B = env.budget;",
      "  const MATCH = env.MATCH;",
      "  const UNCHECKED = env.UNCHECKED;",
      "  const len = env.len;",
      "  const canon = env.canon;",
      "  const clone = env.clone;",
      "  const unique = env.unique;",
      "  const define = env.define;",
      "  const multipleOf = env.multipleOf;",
      ...this.factory.map((line) => `  ${line}`),
      "",
      ...TYPE_HELPER,
      // Each function after a blank line, in one string (not an array of a line per function).
      ...(this.functions.length > 0 ? ["", this.functions.join("\n\n")] : []),
      "",
      "  const out = [];",
      ...registrations,
      "  return out;",
      "}",
      "",
    ];
    return parts.join("\n");
  }

  /** `S[i]`: a value of the data table. */
  private constant(value: unknown): string {
    const key = JSON.stringify(value) ?? "undefined";
    let index = this.tableIndex.get(key);
    if (index === undefined) {
      index = this.table.length;
      this.table.push(value);
      this.tableIndex.set(key, index);
    }
    return `S[${index}]`;
  }

  /**
   * A line naming a spec string (`make(key)`): the key is a `JSON.stringify`d literal when the string is plain
   * printable ASCII and the line stays within prettier's width at `indent`, else a value of the table.
   */
  private keyed(indent: number, value: string, make: (key: string) => string): Line {
    const literal = JSON.stringify(value);
    if (/^[\x20-\x7e]*$/.test(value) && !/["'\\]/.test(value)) {
      const text = make(literal);
      if (4 + indent * 2 + text.length <= PRINT_WIDTH) return [indent, text];
    }
    return [indent, make(this.constant(value))];
  }

  private patternTest(source: string): string {
    let name = this.patterns.get(source);
    if (!name) {
      name = `P${this.patterns.size}`;
      this.patterns.set(source, name);
      this.factory.push(`const ${name} = env.pattern(${this.constant(source)});`);
    }
    return name;
  }

  private formatTest(format: string): string {
    let name = this.formats.get(format);
    if (!name) {
      name = `F${this.formats.size}`;
      this.formats.set(format, name);
      this.factory.push(`const ${name} = env.format(${this.constant(format)});`);
    }
    return name;
  }

  /** A constant of the factory (`let` ones are each a cache of their own; equal read-only ones are shared). */
  private factoryConst(prefix: string, init: string): string {
    const shared = init === "let" ? undefined : `${prefix} ${init}`;
    const known = shared === undefined ? undefined : this.constByInit.get(shared);
    if (known) return known;
    const name = `${prefix}${this.count++}`;
    this.factory.push(`${init === "let" ? `let ${name}` : `const ${name} = ${init}`};`);
    if (shared !== undefined) this.constByInit.set(shared, name);
    return name;
  }

  private resolve(ref: string): Schema | undefined {
    if (this.refTargets.has(ref)) return this.refTargets.get(ref);
    const target = resolvePointer(this.document, ref);
    this.refTargets.set(ref, target);
    return target;
  }

  private ref(ref: string): string | null {
    const target = this.resolve(ref);
    if (target === undefined) throw new Unsupported(`unresolvable $ref ${ref}`);
    if (typeof target === "object") this.refTargetSchemas.add(target);
    return this.fnFor(target);
  }

  /** The function checking `schema` (request direction), or null when it accepts everything. */
  fnFor(schema: Schema | undefined): string | null {
    if (schema === undefined || schema === true) return null;
    if (schema === false) return (this.never ??= this.addFunction(`n${this.count++}`, [[0, "return false;"]], false));
    if (typeof schema !== "object" || schema === null) throw new Unsupported("a schema that is not an object");
    const known = this.bySchema.get(schema);
    if (known) {
      if (known.resolved !== undefined) return known.resolved;
      known.usedEarly = true;
      return known.name;
    }
    const entry: FunctionEntry = { name: `v${this.count++}`, resolved: undefined, usedEarly: false };
    this.bySchema.set(schema, entry);
    const body = this.body(schema);
    if (body === null) {
      entry.resolved = entry.usedEarly ? this.addFunction(entry.name, [[0, "return true;"]], false) : null;
    } else if (typeof body === "string" && !entry.usedEarly) {
      entry.resolved = body; // only a `$ref`: its target's function
    } else {
      const lines: Line[] = typeof body === "string" ? [[0, `return ${body}(x, d, f);`]] : body;
      // Recursion and sharing go through `$ref`s: counting their entries bounds the work (see env.budget).
      if (this.refTargetSchemas.has(schema)) lines.unshift([0, "if (--B.left < 0) return false;"]);
      // A name already handed out (a cycle) must exist as such; any other body equal to one written is that function.
      entry.resolved = entry.usedEarly ? this.addFunction(entry.name, lines, true) : this.sharedFunction(entry.name, lines);
    }
    return entry.resolved;
  }

  /** `name`'s function, or the one already written with the same body (free names are the module's: equal text checks equally). */
  private sharedFunction(name: string, lines: Line[]): string {
    // The body's text is its key: a line's indentation is its depth (no generated line starts with a space).
    const body = bodyText(lines);
    const known = this.functionByBody.get(body);
    if (known) return known;
    this.functionByBody.set(body, name);
    this.functions.push(`  function ${name}(x, d, f) {\n${body}\n  }`);
    return name;
  }

  private addFunction(name: string, lines: Line[], full: boolean): string {
    this.functions.push(`${full ? `  function ${name}(x, d, f) {` : `  function ${name}() {`}\n${bodyText(lines)}\n  }`);
    return name;
  }

  /**
   * The statements checking one schema object, in the closures' order (compileObject in validate.ts); null when it
   * accepts everything, a function name when it is only a `$ref` (the closures then use the target's check itself).
   */
  private body(schema: SchemaObject): Line[] | string | null {
    const lines: Line[] = [];
    const add = (indent: number, text: string) => lines.push([indent, text]);
    const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? [...schema.type] : [];
    const nullable = schema.nullable === true;
    const checks: Line[][] = [];

    // type: unknown type names are not enforced (the whole check then passes for a list of them).
    let typeLine: string | undefined;
    if (types.length > 0 && types.every((t) => typeof t === "string" && Object.hasOwn(TYPE_BITS, t))) {
      typeLine = types.length === 1 ? `if (${NOT_TYPE[types[0]!]}) return false;` : `if ((T(x) & ${types.reduce((bits, t) => bits | TYPE_BITS[t]!, 0)}) === 0) return false;`;
    }
    const valueLines = this.enumConst(schema);
    for (const part of [this.stringKeywords(schema), this.numberKeywords(schema), this.arrayKeywords(schema), this.objectKeywords(schema)]) if (part) checks.push(part);
    const called = new Set<string>();
    const call = (name: string | null) => {
      // (The same function twice in a row, `allOf: [$ref: X, $ref: X]`, is one call, as one check in the closures.)
      if (name !== null && called.has(name)) return;
      if (name !== null) called.add(name);
      checks.push(this.callLines(name));
    };
    if (typeof schema.$ref === "string") call(this.ref(schema.$ref));
    for (const member of schema.allOf ?? []) call(this.fnFor(member));
    const discriminated = schema.discriminator ? this.discriminator(schema) : undefined;
    if (discriminated !== undefined) call(discriminated);
    else {
      if (schema.anyOf) call(this.union(schema.anyOf, false));
      if (schema.oneOf) call(this.union(schema.oneOf, true));
    }
    if (schema.not !== undefined) {
      const not = this.fnFor(schema.not);
      checks.push([[0, not === null ? "return false;" : `if (${not}(x, d, false)) return false;`]]);
    }
    if (schema.if !== undefined && (schema.then !== undefined || schema.else !== undefined)) checks.push(this.conditional(schema));
    const dependent = dependentKeywords(schema).schemas.map(([name, sub]) => [name, this.fnFor(sub)] as const).filter(([, check]) => check !== null);
    if (dependent.length > 0) {
      checks.push([
        [0, `if (${IS_OBJECT}) {`],
        ...dependent.map(([name, check]) => this.keyed(1, name, (key) => `if (Object.hasOwn(x, ${key}) && !${check}(x, d, f)) return false;`)),
        [0, "}"],
      ]);
    }
    if (typeof schema.pattern === "string") {
      const test = this.patternTest(schema.pattern);
      checks.push([[0, `if (typeof x === "string" && ${test}(x) !== MATCH) return false;`]]);
    }
    if ((schema.unevaluatedProperties !== undefined && schema.unevaluatedProperties !== true) || (schema.unevaluatedItems !== undefined && schema.unevaluatedItems !== true)) {
      checks.push([[0, `if (!${this.factoryConst("U", `env.unevaluated(${this.constant(schema)})`)}(x, d, f)) return false;`]]);
    }
    const nonEmpty = checks.filter((c) => c.length > 0);
    if (!nullable && typeLine === undefined && valueLines.length === 0) {
      if (nonEmpty.length === 0) return null;
      // Only a `$ref` (or one composition): the closures use that check itself.
      if (nonEmpty.length === 1 && typeof schema.$ref === "string" && Object.keys(schema).every((key) => !CHECKED_KEYWORDS.has(key) || key === "$ref")) {
        const target = this.ref(schema.$ref);
        if (target !== null) return target;
      }
    }
    if (nullable) add(0, "if (x === null) return true;");
    if (typeLine) add(0, typeLine);
    lines.push(...valueLines);
    for (const check of nonEmpty) lines.push(...check);
    if (lines.length === 0 || (nullable && lines.length === 1)) return null;
    add(0, "return true;");
    return lines;
  }

  private callLines(name: string | null): Line[] {
    return name === null ? [] : [[0, `if (!${name}(x, d, f)) return false;`]];
  }

  /** `if`/`then`/`else`: `if` only probes (no defaults), the branch it picks checks as any subschema does. */
  private conditional(schema: SchemaObject): Line[] {
    const condition = this.fnFor(schema.if);
    const then = this.fnFor(schema.then);
    const otherwise = this.fnFor(schema.else);
    const branch = (check: string | null, indent: number): Line[] => (check === null ? [] : [[indent, `if (!${check}(x, d, f)) return false;`]]);
    if (condition === null) return branch(then, 0);
    return [[0, `if (${condition}(x, d, false)) {`], ...branch(then, 1), [0, "} else {"], ...branch(otherwise, 1), [0, "}"]];
  }

  private enumConst(schema: SchemaObject): Line[] {
    if (schema.const !== undefined || Object.hasOwn(schema, "const")) {
      const expected = schema.const;
      if (expected === null || typeof expected !== "object") return [[0, `if (x !== ${this.constant(expected)}) return false;`]];
      return [[0, `if (canon(x) !== ${this.constant(canonicalJson(expected))}) return false;`]];
    }
    if (!Array.isArray(schema.enum)) return [];
    const values = schema.enum;
    const primitives = this.factoryConst("E", `new Set(${this.constant(values.filter((v) => v === null || typeof v !== "object"))})`);
    const structured = values.filter((v) => v !== null && typeof v === "object").map(canonicalJson);
    if (structured.length === 0) return [[0, `if (!${primitives}.has(x)) return false;`]];
    const objects = this.factoryConst("E", `new Set(${this.constant(structured)})`);
    return [
      [0, `if (!${primitives}.has(x)) {`],
      [1, 'if (x === null || typeof x !== "object") return false;'],
      [1, `if (!${objects}.has(canon(x))) return false;`],
      [0, "}"],
    ];
  }

  private stringKeywords(schema: SchemaObject): Line[] | undefined {
    const { minLength, maxLength } = schema;
    const format = typeof schema.format === "string" && FORMATS.has(schema.format) ? schema.format : undefined;
    if (minLength === undefined && maxLength === undefined && !format) return undefined;
    const lines: Line[] = [[0, 'if (typeof x === "string") {']];
    if (minLength !== undefined || maxLength !== undefined) {
      const max = maxLength !== undefined ? this.constant(maxLength) : undefined;
      lines.push([1, max !== undefined ? `const n = x.length > ${max} * 2 ? Infinity : len(x);` : "const n = len(x);"]);
      if (minLength !== undefined) lines.push([1, `if (n < ${this.constant(minLength)}) return false;`]);
      if (max !== undefined) lines.push([1, `if (n > ${max}) return false;`]);
    }
    if (format) lines.push([1, `if (!${this.formatTest(format)}(x)) return false;`]);
    lines.push([0, "}"]);
    return lines;
  }

  private numberKeywords(schema: SchemaObject): Line[] | undefined {
    let { minimum, maximum } = schema;
    let exclusiveMinimum: unknown;
    let exclusiveMaximum: unknown;
    if (schema.exclusiveMinimum === true && minimum !== undefined) [exclusiveMinimum, minimum] = [minimum, undefined];
    else if (typeof schema.exclusiveMinimum === "number") exclusiveMinimum = schema.exclusiveMinimum;
    if (schema.exclusiveMaximum === true && maximum !== undefined) [exclusiveMaximum, maximum] = [maximum, undefined];
    else if (typeof schema.exclusiveMaximum === "number") exclusiveMaximum = schema.exclusiveMaximum;
    const multipleOf = typeof schema.multipleOf === "number" && schema.multipleOf > 0 ? schema.multipleOf : undefined;
    const format = typeof schema.format === "string" && NUMBER_FORMATS.has(schema.format) ? schema.format : undefined;
    if (minimum === undefined && maximum === undefined && exclusiveMinimum === undefined && exclusiveMaximum === undefined && !multipleOf && !format) return undefined;
    const lines: Line[] = [[0, 'if (typeof x === "number") {']];
    if (format) lines.push([1, `if (!${this.formatTest(format)}(x)) return false;`]);
    if (minimum !== undefined) lines.push([1, `if (x < ${this.constant(minimum)}) return false;`]);
    if (exclusiveMinimum !== undefined) lines.push([1, `if (x <= ${this.constant(exclusiveMinimum)}) return false;`]);
    if (maximum !== undefined) lines.push([1, `if (x > ${this.constant(maximum)}) return false;`]);
    if (exclusiveMaximum !== undefined) lines.push([1, `if (x >= ${this.constant(exclusiveMaximum)}) return false;`]);
    if (multipleOf !== undefined) lines.push([1, `if (!multipleOf(x, ${this.constant(multipleOf)})) return false;`]);
    lines.push([0, "}"]);
    return lines;
  }

  private arrayKeywords(schema: SchemaObject): Line[] | undefined {
    const { minItems, maxItems, uniqueItems } = schema;
    const tuple = schema.prefixItems ?? (Array.isArray(schema.items) ? (schema.items as readonly Schema[]) : undefined);
    const tupleChecks = tuple?.map((s) => this.fnFor(s));
    const rest = Array.isArray(schema.items) ? schema.additionalItems : (schema.items as Schema | undefined);
    const itemCheck = rest === undefined || rest === true ? undefined : this.fnFor(rest);
    const contains = schema.contains === undefined ? undefined : this.fnFor(schema.contains);
    if (minItems === undefined && maxItems === undefined && !uniqueItems && !tupleChecks && itemCheck === undefined && contains === undefined) return undefined;
    const lines: Line[] = [[0, "if (Array.isArray(x)) {"]];
    if (minItems !== undefined) lines.push([1, `if (x.length < ${this.constant(minItems)}) return false;`]);
    if (maxItems !== undefined) lines.push([1, `if (x.length > ${this.constant(maxItems)}) return false;`]);
    lines.push([1, "if (d > M) return false;"]);
    tupleChecks?.forEach((check, i) => {
      if (check !== null) lines.push([1, `if (x.length > ${i} && !${check}(x[${i}], d + 1, f)) return false;`]);
    });
    if (itemCheck) {
      lines.push([1, `for (let i = ${tupleChecks?.length ?? 0}; i < x.length; i++) {`], [2, `if (!${itemCheck}(x[i], d + 1, f)) return false;`], [1, "}"]);
    }
    if (contains !== undefined) {
      const min = typeof schema.minContains === "number" ? schema.minContains : 1;
      const max = typeof schema.maxContains === "number" ? schema.maxContains : undefined;
      const matches = contains === null ? "x.length" : "c";
      if (contains !== null) {
        lines.push([1, "let c = 0;"], [1, "for (let i = 0; i < x.length; i++) {"], [2, `if (${contains}(x[i], d + 1, false)) c++;`], [1, "}"]);
      }
      if (min > 0) lines.push([1, `if (${matches} < ${this.constant(min)}) return false;`]);
      if (max !== undefined) lines.push([1, `if (${matches} > ${this.constant(max)}) return false;`]);
    }
    if (uniqueItems) lines.push([1, "if (x.length > 1 && !unique(x)) return false;"]);
    lines.push([0, "}"]);
    return lines;
  }

  private objectKeywords(schema: SchemaObject): Line[] | undefined {
    const properties: [string, string | null, boolean][] = [];
    const defaults: [string, unknown, string | null][] = [];
    const known: string[] = [];
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    for (const [name, propSchema] of Object.entries(schema.properties ?? {})) {
      known.push(name);
      if (this.compiler.hasFlag(propSchema, "readOnly")) {
        required.delete(name);
        continue;
      }
      const check = this.fnFor(propSchema);
      properties.push([name, check, required.has(name)]);
      if (typeof propSchema === "object" && propSchema.default !== undefined) defaults.push([name, propSchema.default, check]);
      required.delete(name);
    }
    const requiredOnly = [...required];
    const patterns: [string, string | null][] = [];
    for (const [source, propertySchema] of Object.entries(schema.patternProperties ?? {})) patterns.push([this.patternTest(source), this.fnFor(propertySchema)]);
    const additional = schema.additionalProperties;
    const additionalCheck = additional === undefined || additional === true ? undefined : additional === false ? false : this.fnFor(additional);
    const { minProperties, maxProperties } = schema;
    const dependent = dependentKeywords(schema).required.filter(([, needed]) => needed.length > 0);
    const propertyNames = schema.propertyNames === undefined ? null : this.fnFor(schema.propertyNames);
    const walkExtras = additionalCheck !== undefined || patterns.length > 0;
    if (
      properties.length === 0 &&
      requiredOnly.length === 0 &&
      !walkExtras &&
      minProperties === undefined &&
      maxProperties === undefined &&
      dependent.length === 0 &&
      propertyNames === null
    ) {
      return undefined;
    }

    const lines: Line[] = [[0, `if (${IS_OBJECT}) {`], [1, "if (d > M) return false;"]];
    if (walkExtras || propertyNames !== null || minProperties !== undefined || maxProperties !== undefined) lines.push([1, "const k = Object.keys(x);"]);
    if (minProperties !== undefined) lines.push([1, `if (k.length < ${this.constant(minProperties)}) return false;`]);
    if (maxProperties !== undefined) lines.push([1, `if (k.length > ${this.constant(maxProperties)}) return false;`]);
    if (defaults.length > 0) {
      lines.push([1, "if (f) {"]);
      for (const [name, fallback, check] of defaults) {
        const inherited = name in Object.prototype;
        const value = `clone(${this.constant(fallback)})`;
        lines.push(this.keyed(2, name, (key) => (inherited ? `if (!Object.hasOwn(x, ${key})) {` : `if (x[${key}] === undefined) {`)));
        let indent = 3;
        if (check !== null) {
          const valid = this.factoryConst("D", "let");
          lines.push([3, `${valid} ??= ${check}(${value}, 0, false);`], [3, `if (${valid}) {`]);
          indent = 4;
        }
        lines.push(this.keyed(indent, name, (key) => (name === "__proto__" ? `define(x, ${key}, ${value});` : `x[${key}] = ${value};`)));
        if (check !== null) lines.push([3, "}"]);
        lines.push([2, "}"]);
      }
      lines.push([1, "}"]);
    }
    if (properties.length > 0) lines.push([1, "let p;"]);
    for (const [name, check, isRequired] of properties) {
      lines.push(this.keyed(1, name, (key) => (name in Object.prototype ? `p = Object.hasOwn(x, ${key}) ? x[${key}] : undefined;` : `p = x[${key}];`)));
      if (check === null) {
        if (isRequired) lines.push([1, "if (p === undefined) return false;"]);
      } else lines.push([1, isRequired ? `if (p === undefined || !${check}(p, d + 1, f)) return false;` : `if (p !== undefined && !${check}(p, d + 1, f)) return false;`]);
    }
    for (const name of requiredOnly) lines.push(this.keyed(1, name, (key) => `if (!Object.hasOwn(x, ${key})) return false;`));
    for (const [name, needed] of dependent) {
      lines.push(this.keyed(1, name, (key) => `if (Object.hasOwn(x, ${key})) {`));
      for (const other of needed) lines.push(this.keyed(2, other, (key) => `if (!Object.hasOwn(x, ${key})) return false;`));
      lines.push([1, "}"]);
    }
    const extraLines: Line[] = [];
    if (patterns.length > 0) extraLines.push([2, "let m = false;"]);
    patterns.forEach(([test, check], i) => {
      extraLines.push([2, `const r${i} = ${test}(key);`], [2, `if (r${i} === UNCHECKED) return false;`], [2, `if (r${i} === MATCH) {`], [3, "m = true;"]);
      if (check !== null) extraLines.push([3, `if (!${check}(x[key], d + 1, f)) return false;`]);
      extraLines.push([2, "}"]);
    });
    if (additionalCheck === false) extraLines.push([2, patterns.length > 0 ? "if (!m) return false;" : "return false;"]);
    else if (additionalCheck) extraLines.push([2, patterns.length > 0 ? `if (!m && !${additionalCheck}(x[key], d + 1, f)) return false;` : `if (!${additionalCheck}(x[key], d + 1, f)) return false;`]);
    if (walkExtras && extraLines.length > 0) {
      const names = this.factoryConst("K", `new Set(${this.constant(known)})`);
      lines.push([1, "for (const key of k) {"], [2, `if (${names}.has(key)) continue;`], ...extraLines, [1, "}"]);
    }
    if (propertyNames !== null) lines.push([1, "for (const key of k) {"], [2, `if (!${propertyNames}(key, d + 1, false)) return false;`], [1, "}"]);
    lines.push([0, "}"]);
    return lines;
  }

  /** compileDiscriminator of validate.ts: undefined when the closures fall back to the plain union. */
  private discriminator(schema: SchemaObject): string | null | undefined {
    const branches = schema.oneOf ?? schema.anyOf;
    const propertyName = schema.discriminator?.propertyName;
    if (!branches || !propertyName) return undefined;
    const byTag = new Map<string, string | null>();
    const pointerOf = (ref: string) => (ref.startsWith("#") ? ref : `#/components/schemas/${ref}`);
    for (const [tag, ref] of Object.entries(schema.discriminator?.mapping ?? {})) byTag.set(tag, this.ref(pointerOf(ref)));
    for (const branch of branches) {
      if (typeof branch !== "object") continue;
      const check = this.fnFor(branch);
      if (typeof branch.$ref === "string") {
        const name = branch.$ref.slice(branch.$ref.lastIndexOf("/") + 1);
        const alreadyMapped = [...Object.values(schema.discriminator?.mapping ?? {})].some((r) => r === branch.$ref || r === name);
        if (!alreadyMapped && !byTag.has(name)) byTag.set(name, check);
      }
      const target = typeof branch.$ref === "string" ? this.resolve(branch.$ref) : branch;
      const tagSchema = typeof target === "object" ? target.properties?.[propertyName] : undefined;
      if (typeof tagSchema === "object") {
        const tags = tagSchema.const !== undefined ? [tagSchema.const] : (tagSchema.enum ?? []);
        for (const tag of tags) if (typeof tag === "string" && !byTag.has(tag)) byTag.set(tag, check);
      }
    }
    const defaultRef = schema.discriminator?.defaultMapping;
    const fallback = typeof defaultRef === "string" ? { check: this.ref(pointerOf(defaultRef)) } : undefined;
    if (byTag.size === 0 && !fallback) return undefined;
    const call = (check: string | null) => (check === null ? "true" : `${check}(x, d, f)`);
    const otherwise = fallback ? call(fallback.check) : "false";
    const lines: Line[] = [
      [0, 'if (x === null || typeof x !== "object" || Array.isArray(x)) return false;'],
      this.keyed(0, propertyName, (key) => (propertyName in Object.prototype ? `const t = Object.hasOwn(x, ${key}) ? x[${key}] : undefined;` : `const t = x[${key}];`)),
      [0, `if (t === undefined) return ${otherwise};`],
      [0, "switch (t) {"],
    ];
    for (const [tag, check] of byTag) lines.push(this.keyed(1, tag, (key) => `case ${key}:`), [2, `return ${call(check)};`]);
    lines.push([1, "default:"], [2, `return ${otherwise};`], [0, "}"]);
    return this.sharedFunction(`u${this.count++}`, lines);
  }

  /** compileUnion of validate.ts (anyOf / oneOf), with its `[X, {type: "null"}]` shortcut. */
  private union(schemas: readonly Schema[], exactlyOne: boolean): string {
    const branches = schemas.map((s) => this.fnFor(s));
    const general = this.generalUnion(schemas, branches, exactlyOne);
    const nullOnly = schemas.map(isNullOnlySchema);
    const others = branches.filter((_, i) => !nullOnly[i]);
    if (others.length !== 1 || others.length === branches.length) return general;
    const only = others[0]!;
    return this.sharedFunction(`u${this.count++}`, [
      [0, `if (x === null) return ${exactlyOne ? `${general}(x, d, f)` : "true"};`],
      [0, `return ${only === null ? "true" : `${only}(x, d, f)`};`],
    ]);
  }

  private generalUnion(schemas: readonly Schema[], branches: readonly (string | null)[], exactlyOne: boolean): string {
    const fills = schemas.map((s) => this.compiler.mayFillDefaults(s, "request"));
    const lines: Line[] = [];
    if (!exactlyOne) {
      let accepts = false;
      for (let i = 0; i < branches.length && !accepts; i++) {
        const branch = branches[i]!;
        accepts = branch === null;
        if (accepts) break;
        lines.push([0, `if (${branch}(x, d, false)) {`]);
        if (fills[i]) lines.push([1, `if (f) ${branch}(x, d, true);`]);
        lines.push([1, "return true;"], [0, "}"]);
      }
      lines.push([0, accepts ? "return true;" : "return false;"]);
    } else {
      lines.push([0, "let w = -1;"]);
      branches.forEach((branch, i) => {
        if (i === 0) lines.push([0, branch === null ? "w = 0;" : `if (${branch}(x, d, false)) w = 0;`]);
        else if (branch === null) lines.push([0, "if (w >= 0) return false;"], [0, `w = ${i};`]);
        else lines.push([0, `if (${branch}(x, d, false)) {`], [1, "if (w >= 0) return false;"], [1, `w = ${i};`], [0, "}"]);
      });
      lines.push([0, "if (w < 0) return false;"]);
      branches.forEach((branch, i) => {
        if (branch !== null && fills[i]) lines.push([0, `if (f && w === ${i}) ${branch}(x, d, true);`]);
      });
      lines.push([0, "return true;"]);
    }
    return this.sharedFunction(`u${this.count++}`, lines);
  }
}

/** A function body's lines, indented inside the factory's function. */
function bodyText(lines: readonly Line[]): string {
  let text = "";
  for (let i = 0; i < lines.length; i++) {
    const [indent, line] = lines[i]!;
    text += `${i > 0 ? "\n" : ""}${INDENTS[indent] ?? " ".repeat(4 + indent * 2)}${line}`;
  }
  return text;
}
const INDENTS = Array.from({ length: 8 }, (_, indent) => " ".repeat(4 + indent * 2));

/** Keywords the closures check (anything else is an annotation). */
const CHECKED_KEYWORDS = new Set([
  "type", "nullable", "enum", "const", "minLength", "maxLength", "format", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
  "multipleOf", "items", "prefixItems", "minItems", "maxItems", "uniqueItems", "properties", "required", "patternProperties", "additionalProperties",
  "minProperties", "maxProperties", "$ref", "allOf", "anyOf", "oneOf", "not", "discriminator", "additionalItems", "contains", "minContains",
  "maxContains", "propertyNames", "dependentRequired", "dependentSchemas", "dependencies", "if", "then", "else", "unevaluatedProperties",
  "unevaluatedItems",
]);

/** The type helper of the generated module: one bit per JSON Schema type a value has (see TYPE_BITS). */
const TYPE_HELPER = [
  "  function T(x) {",
  '    if (typeof x === "string") return 1;',
  '    if (typeof x === "number") {',
  "      if (Number.isInteger(x)) return 6;",
  "      return Number.isFinite(x) ? 4 : 0;",
  "    }",
  '    if (typeof x === "boolean") return 8;',
  "    if (x === null) return 64;",
  "    if (Array.isArray(x)) return 16;",
  '    return typeof x === "object" ? 32 : 0;',
  "  }",
];
