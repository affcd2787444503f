/**
 * A small JSON Schema validator *compiler*: each schema is turned into a tree of closures once (at router
 * creation); validating a value afterwards only runs those closures. Errors are reported FastAPI/pydantic style
 * (`{ loc, msg, type }`). The engine's contract, for the router and for anything else that validates with it:
 * `new SchemaCompiler(document).compile(schema)` (or `compileValidator(schema, document)`) once, then
 * `validate(value)` → the issues, each a message (`msg`), a machine-readable `type` and a path (`loc`), none when the
 * value is valid. Request validation may fill in `default`s (the value is changed in place); nothing else mutates.
 *
 * Supported: OpenAPI 3.0 and 3.1 (JSON Schema 2020-12) — type (arrays, 3.0 `nullable`), enum, const, properties,
 * required, additionalProperties, patternProperties, propertyNames, min/maxProperties, dependentRequired,
 * dependentSchemas (and draft-7 `dependencies`), items/prefixItems (and draft-4 tuples with additionalItems),
 * min/maxItems, uniqueItems, contains/minContains/maxContains, min/maxLength, pattern, minimum/maximum/exclusive*
 * (3.0 boolean and 3.1 numeric), multipleOf, allOf/anyOf/oneOf/not, if/then/else, unevaluatedProperties and
 * unevaluatedItems (2020-12 annotation semantics: what adjacent keywords and the in-place subschemas that passed —
 * `allOf`, `$ref`, passing `anyOf`/`oneOf` branches, `if`/`then`/`else`, `dependentSchemas` — evaluated),
 * discriminator, local `$ref` (lazy, so recursive schemas work), formats date-time/date/time (ranges checked: month,
 * day of month, hour, minute, offset), uuid/email/uri (light checks), int32 and int64 (an int64 must be a safe
 * integer, ±(2^53 − 1): beyond that JSON numbers reach JavaScript rounded), readOnly (ignored in requests) and
 * writeOnly (ignored in responses). Not enforced: `$dynamicRef`/`$recursiveRef` (the generator warns), formats
 * other than those (annotations, as 2020-12 makes them by default), `content*` keywords (annotations).
 *
 * Hostile input: within a schema the cheap keywords run first (type, enum/const, lengths, bounds, counts) and the
 * first failing keyword ends that schema, so `pattern` never runs on a value that is already too long or of the
 * wrong type; values nested deeper than `maxDepth` fail instead of recursing further; at most `MAX_ISSUES` problems
 * are collected; patterns the generator found super-linear run on a linear-time matcher (see pattern.ts), and one
 * that is not a valid regex fails every string (fail closed). Within one validation each `$ref` target checks a
 * given object or array once (its answer, and its issues, are remembered), so unions that share recursive
 * subschemas stay linear in the value; and a validation may evaluate at most `maxValidationSteps` `$ref` targets
 * (not counting remembered answers), past which the value is refused as too costly to check.
 */
import { canonicalJson, nullRecord } from "./json.js";
import { cloneJson, resolvePointer, type Loc, type Schema, type SchemaDocument, type SchemaObject, type ValidationIssue } from "./schema.js";
import type { PatternOptions, RouterFeatures } from "./types.js";

/**
 * A compiled check. `path` is a shared, mutable location stack (pushed/popped while descending, copied only
 * when an error is recorded) so a valid value allocates nothing. `errors === null` means "just answer": used
 * when probing union branches.
 */
export type Check = (value: unknown, path: Loc, errors: ValidationIssue[] | null) => boolean;

/**
 * A request validator emitted as code at generate time (`server-validators.js`, src/emit/server-validators.ts):
 * `depth` is the length of the location path the value sits at, `fill` whether defaults are filled in (what the
 * closures do when they report, i.e. when `errors !== null`). It only answers valid or not: on `false` the closures
 * run again to report the same issues they always did.
 */
export type FastCheck = (value: unknown, depth: number, fill: boolean) => boolean;

/** What generated validators are given at router creation: settings and the helpers they share with the closures. */
export interface ValidatorEnv {
  maxDepth: number;
  /**
   * The steps a generated validator may still take (one per `$ref` target entered): the router sets `left` before each
   * validation, the code counts down, and an answer given with `left` below zero is not trusted — the closures, which
   * remember what they checked, decide instead (generated code does not remember: a recursive union costs it
   * exponential time, which this bounds).
   */
  budget: { left: number };
  /** The test of one pattern as the compiler runs it (`SchemaCompiler.patternTest`). */
  pattern(source: string): PatternTest | undefined;
  MATCH: typeof MATCH;
  UNCHECKED: typeof UNCHECKED;
  /** The test of a format of FORMAT_NAMES (strings) or NUMBER_FORMAT_NAMES (numbers). */
  format(name: string): (value: never) => boolean;
  /**
   * The closures' check of `schema`'s `unevaluatedProperties`/`unevaluatedItems` alone (they depend on what the
   * other keywords evaluated, which the closures work out), for generated code to call after the schema's other checks.
   */
  unevaluated(schema: SchemaObject): FastCheck;
  len(value: string): number;
  multipleOf(value: number, step: number): boolean;
  canon(value: unknown): string;
  clone<T>(value: T): T;
  unique(values: readonly unknown[]): boolean;
  /** Defines an own, enumerable key (`__proto__` must stay a key). */
  define(record: object, name: string, value: unknown): void;
}

/** The generated module's entry point: [path into `{ routes, document }`, validator of the schema there] pairs. */
export type GeneratedValidators = (env: ValidatorEnv) => [readonly (string | number)[], FastCheck][];

/**
 * Which side of the exchange a schema validates: readOnly props are ignored in requests, writeOnly in responses;
 * `value` is neither, as JSON Schema reads a schema (both are annotations, and no default is filled in).
 */
export type SchemaDirection = "request" | "response" | "value";

/** Copies a response value down to what its schema declares (see `SchemaCompiler.stripper`). */
export type Strip = (value: unknown) => unknown;

const accept: Check = () => true;
const never: Check = (_value, path, errors) => fail(errors, path, "never", "No value is allowed here");
const unchecked: PatternTest = () => UNCHECKED;
/** Cache keys of the boolean schema `false` (a WeakMap takes objects only). */
const FALSE_KEY = {};
const keep: Strip = (value) => value;

/** Bytes and streams a handler may answer with: nothing to strip. */
function isBinaryValue(value: object): boolean {
  return value instanceof Uint8Array || value instanceof ArrayBuffer || value instanceof ReadableStream || (typeof Blob !== "undefined" && value instanceof Blob);
}

/** Default of `maxDepth`: how deeply values may nest (objects and arrays inside each other). */
export const DEFAULT_MAX_DEPTH = 128;
/** Default work budget of the linear-time matcher per event-loop turn (see `PatternOptions.budget`). */
export const DEFAULT_PATTERN_BUDGET = 250_000;
/** Validation stops collecting problems after this many (a hostile body must not make a huge error answer). */
export const MAX_ISSUES = 100;
/**
 * A super-linear pattern that the linear-time matcher cannot run (backreferences, lookaround) and that no
 * `patterns.compile` replaces runs natively on strings up to this length only (backtracking stays cheap there).
 */
export const UNSAFE_PATTERN_MAX_INPUT = 20;

/**
 * Default of `maxValidationSteps`: how many `$ref` targets one validation may evaluate. Remembered answers are not
 * counted, so this bounds only schemas that evaluate a value many times over (diamonds of `allOf`s over a string);
 * a 1 MiB body of small objects, each checked through a few `$ref`s, stays well within it.
 */
export const DEFAULT_MAX_VALIDATION_STEPS = 1_000_000;

/**
 * Steps a generated validator may take per validation (`ValidatorEnv.budget`) before the closures decide instead. The
 * code remembers nothing, so a recursive union costs it time exponential in the nesting; the closures are a few times
 * slower per step but linear. 100,000 `$ref` entries is a few milliseconds, beyond what ordinary bodies take (a
 * 100 kB chat request takes a few thousand).
 */
const GENERATED_STEPS = 100_000;

/** Outcome of a pattern test: `MISMATCH`, `MATCH`, or `UNCHECKED` (not decided: string too long, work budget spent). */
export type PatternResult = 0 | 1 | 2;
export const MISMATCH = 0;
export const MATCH = 1;
export const UNCHECKED = 2;

/** A compiled pattern: `test` is `RegExp.prototype.test` semantics (a match anywhere, unless anchored). */
export type PatternTest = (value: string) => PatternResult;

/**
 * Work allowed to the linear matcher per event-loop turn, shared by every request served in that turn: however
 * many strings a request carries, matching them cannot keep the loop busy longer than the budget.
 */
export class PatternBudget {
  private left = 0;
  private armed = false;
  /** Steps per turn (one step: one instruction of the matcher's program visited at one position). */
  readonly steps: number;

  constructor(steps: number) {
    this.steps = steps;
  }

  /** Takes `steps` from this turn's budget; false when it is spent. */
  take(steps: number): boolean {
    if (!this.armed) {
      this.armed = true;
      this.left = this.steps;
      // Runs once the current task and the microtasks queued before it are done: the next turn starts afresh.
      queueMicrotask(() => {
        this.armed = false;
      });
    }
    this.left -= steps;
    return this.left >= 0;
  }
}

/** How a `SchemaCompiler` treats hostile values. */
export interface CompilerSettings {
  /** Deepest nesting of objects and arrays a value may have (default `DEFAULT_MAX_DEPTH`). */
  maxDepth?: number;
  /**
   * How many `$ref` targets one validation may evaluate (default `DEFAULT_MAX_VALIDATION_STEPS`); past that the value
   * fails with one issue of type `too_costly`.
   */
  maxValidationSteps?: number;
  /** Bounds and replacements for `pattern` matching. */
  patterns?: PatternOptions;
  /** Patterns the generator found super-linear (catastrophic backtracking): these never run on the native engine. */
  superLinearPatterns?: readonly string[];
  /** The linear-time matcher those run on (pattern.ts); without it, they run natively on short strings only. */
  linearPatterns?: RouterFeatures["linearPatterns"];
}

/** The names of the string formats the validator checks (the generator emits checks for these only). */
export const FORMAT_NAMES: readonly string[] = ["date-time", "date", "time", "uuid", "email", "uri"];
/** The names of the number formats the validator checks. */
export const NUMBER_FORMAT_NAMES: readonly string[] = ["int32", "int64"];

/** A remembered answer of one `$ref` target for one object or array, within one validation. */
interface Memo {
  /** The answer without reporting (a union's probe). */
  probe?: boolean;
  /** The answer when reporting, the issues it pushed, and the length of the location path they were found at. */
  report?: { ok: boolean; issues: ValidationIssue[]; depth: number };
}

/**
 * What the in-place keywords of a schema evaluated in an object or array (JSON Schema 2020-12 §11, the annotations
 * `unevaluatedProperties`/`unevaluatedItems` read): adds property names or item indices to `out`, or returns true when
 * every property (item) was evaluated.
 */
type Collect = (value: object, path: Loc, out: Set<string | number>) => boolean;
const collectsNothing: Collect = () => false;
const collectsAll: Collect = () => true;

/**
 * Compiles schemas of one document; caches by schema object and by `$ref`, so shared components compile once (a
 * `$ref` target is compiled on first use, once per direction, however many places point at it).
 */
export class SchemaCompiler {
  private readonly bySchema = { request: new WeakMap<object, Check>(), response: new WeakMap<object, Check>(), value: new WeakMap<object, Check>() };
  /** The checks `compile` hands out: each opens a validation (steps, memo) when it is not called from inside one. */
  private readonly entries = { request: new WeakMap<object, Check>(), response: new WeakMap<object, Check>(), value: new WeakMap<object, Check>() };
  private readonly byRef = { request: new Map<string, Check>(), response: new Map<string, Check>(), value: new Map<string, Check>() };
  private readonly collectors = { properties: new WeakMap<object, Collect>(), items: new WeakMap<object, Collect>() };
  /** Patterns that are not valid regexes (and that no `patterns.compile` took): they fail every string. */
  private readonly invalidPatterns = new Set<string>();
  /** Schema object → whether request validation against it may fill defaults (see `mayFillDefaults`). */
  private readonly fillsDefaults = new WeakMap<object, boolean>();
  private readonly patternTests = new Map<string, PatternTest>();
  private readonly superLinear: ReadonlySet<string>;
  private readonly budget: PatternBudget;
  private readonly strippers = new WeakMap<object, Strip>();
  /** Request validators generated as code, by schema object (`useGenerated`). */
  private fast: WeakMap<object, FastCheck> | undefined;
  /** Deepest nesting of objects and arrays a value may have. */
  readonly maxDepth: number;
  /** How many `$ref` targets one validation may evaluate. */
  readonly maxSteps: number;
  /** The validation under way (validation is synchronous: one at a time). */
  private running = false;
  private steps = 0;
  /** `$ref` check → object or array → remembered answers; made on first use in a validation, dropped at its end. */
  private memo: Map<Check, Map<object, Memo>> | undefined;
  /** The generated validators' step budget (`ValidatorEnv.budget`). */
  private readonly fastBudget = { left: 0 };

  readonly document: SchemaDocument;
  private readonly settings: CompilerSettings;

  constructor(document: SchemaDocument, settings: CompilerSettings = {}) {
    this.document = document;
    this.settings = settings;
    this.maxDepth = settings.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.maxSteps = settings.maxValidationSteps ?? DEFAULT_MAX_VALIDATION_STEPS;
    this.superLinear = new Set(settings.superLinearPatterns ?? []);
    this.budget = new PatternBudget(settings.patterns?.budget ?? DEFAULT_PATTERN_BUDGET);
  }

  /**
   * The test of one `pattern` (or `patternProperties` key), compiled once: the user's `patterns.compile` when it
   * gives one, the linear-time matcher for super-linear patterns, else the native engine; strings longer than
   * `patterns.maxInputLength` are not matched (UNCHECKED). A pattern that is not a valid regex (`(`, `(?i)…`) and
   * that `patterns.compile` does not take fails closed: every string is UNCHECKED (the generator warns about it).
   */
  patternTest(source: string): PatternTest {
    let test = this.patternTests.get(source);
    if (test === undefined) this.patternTests.set(source, (test = this.buildPatternTest(source)));
    return test;
  }

  /** Whether `source` is a pattern nothing can run (see `patternTest`), once its test was asked for. */
  isInvalidPattern(source: string): boolean {
    return this.invalidPatterns.has(source);
  }

  private buildPatternTest(source: string): PatternTest {
    const superLinear = this.superLinear.has(source);
    const options = this.settings.patterns ?? {};
    const maxInput = options.maxInputLength ?? Infinity;
    const custom = options.compile?.(source, { superLinear });
    let test: PatternTest | undefined;
    if (custom) test = (value) => (custom(value) ? MATCH : MISMATCH);
    else {
      const regex = compilePattern(source);
      if (!regex) {
        // An invalid pattern must neither take the server down nor let anything through.
        this.invalidPatterns.add(source);
        return unchecked;
      }
      if (!superLinear) test = (value) => (regex.test(value) ? MATCH : MISMATCH);
      else {
        test = this.settings.linearPatterns?.(source, regex.unicode, this.budget);
        test ??= (value) => (value.length > UNSAFE_PATTERN_MAX_INPUT ? UNCHECKED : regex.test(value) ? MATCH : MISMATCH);
      }
    }
    const bounded = test;
    const limited: PatternTest = maxInput === Infinity ? bounded : (value) => (value.length > maxInput ? UNCHECKED : bounded(value));
    // The last answer is remembered: a value a generated validator refused is checked again by the closures to report
    // why, and must not cost (or reach a `patterns.compile` matcher) twice. UNCHECKED depends on this turn's budget.
    let lastValue: string | undefined;
    let lastResult: PatternResult = UNCHECKED;
    return (value) => {
      if (value === lastValue) return lastResult;
      const result = limited(value);
      if (result !== UNCHECKED) [lastValue, lastResult] = [value, result];
      return result;
    };
  }

  /**
   * Whether `value` satisfies `schema` as a request value, without reporting or changing anything (the form
   * decoders ask it which reading of an ambiguous string to take). A bound method: decoders hold it alone.
   */
  readonly probe = (schema: Schema, value: unknown): boolean => this.compile(schema, "request")(value, [], null);

  /**
   * Returns the check for `schema`: `check(value, path, errors)` pushes the issues found (located below `path`) into
   * `errors` and answers whether the value is valid; with `errors === null` it only answers (and fills no default).
   * Each call is one validation, with its own step count and memo. Throws (at compile time) on an unresolvable `$ref`.
   */
  compile(schema: Schema | undefined, direction: SchemaDirection = "request"): Check {
    if (schema === undefined || schema === true) return accept;
    const entries = this.entries[direction];
    const key = typeof schema === "object" ? schema : FALSE_KEY;
    let entry = entries.get(key);
    if (!entry) entries.set(key, (entry = this.entry(this.check(schema, direction))));
    return entry;
  }

  /** A check that opens a validation when none is under way: steps counted from zero, an empty memo. */
  private entry(check: Check): Check {
    return (value, path, errors) => {
      if (this.running) return check(value, path, errors);
      this.running = true;
      this.steps = 0;
      const before = errors === null ? 0 : errors.length;
      try {
        const ok = check(value, path, errors);
        if (this.steps <= this.maxSteps) return ok;
        // Spent: whatever was found on the way is moot (a `not` over an unfinished check proves nothing).
        if (errors !== null) errors.length = before;
        return fail(errors, path, "too_costly", `Input is too costly to validate (more than ${this.maxSteps} schema evaluations)`);
      } finally {
        this.running = false;
        this.memo = undefined;
      }
    };
  }

  /** The check of `schema` inside a validation (what subschemas use): compiled once per schema object and direction. */
  private check(schema: Schema | undefined, direction: SchemaDirection): Check {
    if (schema === undefined || schema === true) return accept;
    if (schema === false) return never;
    const cache = this.bySchema[direction];
    const cached = cache.get(schema);
    if (cached) return cached;
    // Placeholder breaks cycles made of inline (non-$ref) object identity, e.g. a schema object reused in itself.
    let compiled: Check | undefined;
    cache.set(schema, (v, p, e) => compiled!(v, p, e));
    compiled = this.compileObject(schema, direction);
    const fast = direction === "request" ? this.fast?.get(schema) : undefined;
    if (fast) compiled = this.fronted(fast, compiled);
    cache.set(schema, compiled);
    return compiled;
  }

  /**
   * Fronts the closures of these schemas (request direction) with validators generated as code: they decide valid
   * or not, and fill defaults; the closures run only to report why a value is invalid. Call before compiling.
   */
  useGenerated(validators: ReadonlyMap<object, FastCheck>): void {
    this.fast = new WeakMap(validators);
  }

  /**
   * A generated validator in front of the closures: they run again only to report an invalid value's issues, or to
   * decide when the generated code ran out of steps (its answer is then not trusted).
   */
  private fronted(fast: FastCheck, slow: Check): Check {
    const budget = this.fastBudget;
    const steps = Math.min(this.maxSteps, GENERATED_STEPS);
    return (value, path, errors) => {
      budget.left = steps;
      const ok = fast(value, path.length, errors !== null);
      if (budget.left >= 0 && (ok || errors === null)) return ok;
      return slow(value, path, errors);
    };
  }

  /** The helpers and settings generated validators run with (see `ValidatorEnv`). */
  validatorEnv(): ValidatorEnv {
    return {
      maxDepth: this.maxDepth,
      budget: this.fastBudget,
      pattern: (source) => this.patternTest(source),
      MATCH,
      UNCHECKED,
      format: (name) => (FORMATS[name] ?? NUMBER_FORMATS[name]!).test as (value: never) => boolean,
      unevaluated: (schema) => {
        const check = this.unevaluatedCheck(schema, "request") ?? accept;
        return (value, depth, fill) => check(value, new Array<string>(depth).fill(""), fill ? [] : null);
      },
      len: codePointLength,
      multipleOf: isMultipleOf,
      canon: canonicalJson,
      clone: cloneJson,
      unique: uniqueJson,
      define: (record, name, value) => Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true }),
    };
  }

  /**
   * A lazy check for a `$ref`: the target is compiled on first use, which makes recursive schemas terminate. Within a
   * validation it remembers its answer (and issues) per object or array, so a value that recursive unions or `allOf`
   * diamonds reach many times is checked once; and it counts the steps (the evaluations it did not remember).
   */
  private compileRef(ref: string, direction: SchemaDirection): Check {
    const refs = this.byRef[direction];
    const existing = refs.get(ref);
    if (existing) return existing;
    const target = resolvePointer(this.document, ref);
    if (target === undefined) throw new Error(`Unresolvable $ref ${JSON.stringify(ref)}`);
    let resolved: Check | undefined;
    const lazy: Check = (value, path, errors) => {
      resolved ??= this.check(target, direction);
      if (value === null || typeof value !== "object") return ++this.steps > this.maxSteps ? false : resolved(value, path, errors);
      return this.remembered(lazy, resolved, value, path, errors);
    };
    refs.set(ref, lazy);
    return lazy;
  }

  /** `check(value, …)` through the memo of the validation under way (see `compileRef`). */
  private remembered(key: Check, check: Check, value: object, path: Loc, errors: ValidationIssue[] | null): boolean {
    const memos = (this.memo ??= new Map());
    let byValue = memos.get(key);
    if (byValue === undefined) memos.set(key, (byValue = new Map()));
    let memo = byValue.get(value);
    if (memo?.report !== undefined) {
      if (errors === null) return memo.report.ok;
      const { ok, issues, depth } = memo.report;
      for (const issue of issues) if (errors.length < MAX_ISSUES) errors.push({ ...issue, loc: path.concat(issue.loc.slice(depth)) });
      return ok;
    }
    if (errors === null && memo?.probe !== undefined) return memo.probe;
    if (++this.steps > this.maxSteps) return false;
    const before = errors === null ? 0 : errors.length;
    const ok = check(value, path, errors);
    if (memo === undefined) byValue.set(value, (memo = {}));
    if (errors === null) memo.probe = ok;
    // (Issues cut short by MAX_ISSUES are not a complete answer: not remembered.)
    else if (errors.length < MAX_ISSUES) memo.report = { ok, issues: errors.slice(before), depth: path.length };
    return ok;
  }

  private compileObject(schema: SchemaObject, direction: SchemaDirection): Check {
    const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? [...schema.type] : [];
    // 3.0 `nullable: true` short-circuits: null is valid whatever else the schema says (that is what users mean).
    const nullable = schema.nullable === true;
    const typeCheck = types.length > 0 ? compileTypeCheck(types) : undefined;
    const valueCheck = compileEnumConst(schema);

    // Cheapest first; the first keyword that fails ends the schema. `pattern` comes last of the assertions on the
    // value itself, so it only ever runs on a string that passed everything else (its length above all); the
    // unevaluated* keywords come after everything, since they read what the others evaluated.
    const checks: Check[] = [];
    for (const check of [compileStringKeywords(schema), compileNumberKeywords(schema)]) if (check) checks.push(check);
    for (const check of [this.compileArrayKeywords(schema, direction), this.compileObjectKeywords(schema, direction)]) if (check) checks.push(check);
    if (typeof schema.$ref === "string") checks.push(this.compileRef(schema.$ref, direction));
    for (const check of this.compileCompositions(schema, direction)) if (!checks.includes(check)) checks.push(check);
    if (typeof schema.pattern === "string") checks.push(this.compilePatternKeyword(schema.pattern));
    const unevaluated = this.unevaluatedCheck(schema, direction);
    if (unevaluated) checks.push(unevaluated);

    if (!nullable && !typeCheck && !valueCheck) {
      if (checks.length === 0) return accept;
      if (checks.length === 1) return checks[0];
    }
    const count = checks.length;
    return (value, path, errors) => {
      if (nullable && value === null) return true;
      if (typeCheck && !typeCheck(value, path, errors)) return false;
      if (valueCheck && !valueCheck(value, path, errors)) return false;
      for (let i = 0; i < count; i++) if (!checks[i](value, path, errors)) return false;
      return true;
    };
  }

  private compilePatternKeyword(source: string): Check {
    const test = this.patternTest(source);
    const mismatch = `String should match pattern '${source}'`;
    const unchecked = this.isInvalidPattern(source)
      ? `String cannot be checked against pattern '${source}': it is not a valid regular expression`
      : `String is too long or too costly to check against pattern '${source}'`;
    return (value, path, errors) => {
      if (typeof value !== "string") return true;
      const result = test(value);
      if (result === MATCH) return true;
      return result === MISMATCH ? fail(errors, path, "string_pattern_mismatch", mismatch) : fail(errors, path, "string_pattern_unchecked", unchecked);
    };
  }

  private compileArrayKeywords(schema: SchemaObject, direction: SchemaDirection): Check | undefined {
    const { minItems, maxItems, uniqueItems } = schema;
    const tuple = schema.prefixItems ?? (Array.isArray(schema.items) ? (schema.items as readonly Schema[]) : undefined);
    const tupleChecks = tuple?.map((s) => this.check(s, direction));
    // After a draft-4 tuple (`items: [...]`), `additionalItems` is the schema of the rest.
    const rest = Array.isArray(schema.items) ? schema.additionalItems : (schema.items as Schema | undefined);
    const itemCheck = rest === undefined || rest === true ? undefined : this.check(rest, direction);
    // `minContains`/`maxContains` mean nothing without `contains`; `contains` alone is `minContains: 1`.
    const contains = schema.contains === undefined ? undefined : this.check(schema.contains, direction);
    const minContains = contains === undefined ? 0 : typeof schema.minContains === "number" ? schema.minContains : 1;
    const maxContains = contains !== undefined && typeof schema.maxContains === "number" ? schema.maxContains : Infinity;
    const maxDepth = this.maxDepth;
    if (minItems === undefined && maxItems === undefined && !uniqueItems && !tupleChecks && !itemCheck && !contains) return undefined;
    return (value, path, errors) => {
      if (!Array.isArray(value)) return true;
      if (minItems !== undefined && value.length < minItems) {
        return fail(errors, path, "too_short", `List should have at least ${minItems} item${minItems === 1 ? "" : "s"}, not ${value.length}`);
      }
      if (maxItems !== undefined && value.length > maxItems) {
        return fail(errors, path, "too_long", `List should have at most ${maxItems} item${maxItems === 1 ? "" : "s"}, not ${value.length}`);
      }
      if (path.length > maxDepth) return tooDeep(errors, path, maxDepth);
      let ok = true;
      const start = tupleChecks ? Math.min(tupleChecks.length, value.length) : 0;
      for (let i = 0; i < start; i++) {
        path.push(i);
        const itemOk = tupleChecks![i](value[i], path, errors);
        path.pop();
        if (!itemOk) {
          ok = false;
          if (errors === null || errors.length >= MAX_ISSUES) return false;
        }
      }
      if (itemCheck) {
        for (let i = start; i < value.length; i++) {
          path.push(i);
          const itemOk = itemCheck(value[i], path, errors);
          path.pop();
          if (!itemOk) {
            ok = false;
            if (errors === null || errors.length >= MAX_ISSUES) return false;
          }
        }
      }
      if (!ok) return false;
      if (contains) {
        let count = 0;
        for (let i = 0; i < value.length && count <= maxContains && (count < minContains || maxContains !== Infinity); i++) {
          path.push(i);
          if (contains(value[i], path, null)) count++;
          path.pop();
        }
        if (count < minContains) {
          return fail(errors, path, "contains", `List should have at least ${minContains} item${minContains === 1 ? "" : "s"} matching the 'contains' schema, not ${count}`);
        }
        if (count > maxContains) {
          return fail(errors, path, "contains", `List should have at most ${maxContains} item${maxContains === 1 ? "" : "s"} matching the 'contains' schema`);
        }
      }
      if (uniqueItems && value.length > 1 && !uniqueJson(value)) return fail(errors, path, "unique_items", "List should have unique items");
      return true;
    };
  }

  private compileObjectKeywords(schema: SchemaObject, direction: SchemaDirection): Check | undefined {
    const ignored = direction === "request" ? "readOnly" : direction === "response" ? "writeOnly" : undefined;
    const properties: [string, Check, boolean][] = [];
    // Request bodies get pydantic-like defaults: openapi-typescript types defaulted properties as required.
    const defaults: [string, unknown, Check][] = [];
    const known = new Set<string>();
    // (`required: true` on a property is Swagger 2.0's spelling, meaningless in a 3.x schema: ignored, as JSON Schema does.)
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    for (const [name, propSchema] of Object.entries(schema.properties ?? {})) {
      known.add(name);
      // readOnly props in a request (writeOnly in a response) are neither required nor validated.
      if (ignored !== undefined && this.hasFlag(propSchema, ignored)) {
        required.delete(name);
        continue;
      }
      const check = this.check(propSchema, direction);
      properties.push([name, check, required.has(name)]);
      if (direction === "request" && typeof propSchema === "object" && propSchema.default !== undefined) {
        defaults.push([name, propSchema.default, check]);
      }
      required.delete(name);
    }
    const requiredOnly = [...required]; // required names without a property schema
    const patterns: [string, PatternTest, Check][] = [];
    for (const [source, propertySchema] of Object.entries(schema.patternProperties ?? {})) {
      patterns.push([source, this.patternTest(source), this.check(propertySchema, direction)]);
    }
    const additional = schema.additionalProperties;
    const additionalCheck = additional === undefined || additional === true ? undefined : additional === false ? false : this.check(additional, direction);
    const { minProperties, maxProperties } = schema;
    const dependent = dependentKeywords(schema).required;
    const propertyNames = schema.propertyNames === undefined || schema.propertyNames === true ? undefined : this.check(schema.propertyNames, direction);
    const walkExtras = additionalCheck !== undefined || patterns.length > 0;
    if (
      properties.length === 0 &&
      requiredOnly.length === 0 &&
      !walkExtras &&
      minProperties === undefined &&
      maxProperties === undefined &&
      dependent.length === 0 &&
      !propertyNames
    ) {
      return undefined;
    }
    // Parallel arrays and an indexed loop: this closure runs for every object of every body.
    const count = properties.length;
    const names = properties.map(([name]) => name);
    const checks = properties.map(([, check]) => check);
    const requiredFlags = properties.map(([, , isRequired]) => isRequired);
    // A value read as `undefined` is absent (JSON has no undefined; JSON.stringify drops it from a handler's result),
    // except for names an object inherits ("constructor", "toString", …): those need an own-property test.
    const inherited = names.map((name) => name in Object.prototype);
    const defaultInherited = defaults.map(([name]) => name in Object.prototype);
    // Whether each default satisfies its own property schema, found out on first use (the schema may be recursive).
    const defaultValid: (boolean | undefined)[] = [];
    const keyProblems = patterns.map(([source]) =>
      this.isInvalidPattern(source) ? `Key cannot be checked against pattern '${source}': it is not a valid regular expression` : `Key is too long or too costly to check against pattern '${source}'`,
    );
    const maxDepth = this.maxDepth;
    return (value, path, errors) => {
      if (value === null || typeof value !== "object" || Array.isArray(value)) return true;
      const record = value as Record<string, unknown>;
      if (path.length > maxDepth) return tooDeep(errors, path, maxDepth);
      const keys = walkExtras || propertyNames || minProperties !== undefined || maxProperties !== undefined ? Object.keys(record) : undefined;
      if (minProperties !== undefined && keys!.length < minProperties) {
        return fail(errors, path, "too_short", `Object should have at least ${minProperties} propert${minProperties === 1 ? "y" : "ies"}`);
      }
      if (maxProperties !== undefined && keys!.length > maxProperties) {
        return fail(errors, path, "too_long", `Object should have at most ${maxProperties} propert${maxProperties === 1 ? "y" : "ies"}`);
      }
      let ok = true;
      // Only the reporting pass fills defaults; union probes (errors === null) must not mutate the input.
      if (errors !== null) {
        for (let i = 0; i < defaults.length; i++) {
          const [name, fallback, check] = defaults[i]!;
          if (!(defaultInherited[i] ? !Object.hasOwn(record, name) : record[name] === undefined)) continue;
          // A default its own schema refuses (Kubernetes writes `default: {}` on timestamps) is not filled in: it
          // would turn a valid request into an invalid one.
          if (!(defaultValid[i] ??= check(cloneJson(fallback), [], null))) continue;
          // A request body is validated before its prototypes are removed (body.ts): "__proto__" must stay a key.
          if (name === "__proto__") Object.defineProperty(record, name, { value: cloneJson(fallback), enumerable: true, writable: true, configurable: true });
          else record[name] = cloneJson(fallback);
        }
      }
      for (let i = 0; i < count; i++) {
        const name = names[i]!;
        const property = inherited[i] && !Object.hasOwn(record, name) ? undefined : record[name];
        if (property === undefined) {
          if (requiredFlags[i]) {
            path.push(name);
            ok = fail(errors, path, "missing", "Field required");
            path.pop();
          }
        } else {
          path.push(name);
          if (!checks[i]!(property, path, errors)) ok = false;
          path.pop();
        }
        if (!ok && (errors === null || errors.length >= MAX_ISSUES)) return false;
      }
      for (const name of requiredOnly) {
        if (!Object.hasOwn(record, name)) {
          path.push(name);
          ok = fail(errors, path, "missing", "Field required");
          path.pop();
          if (errors === null || errors.length >= MAX_ISSUES) return false;
        }
      }
      for (const [name, needed] of dependent) {
        if (!Object.hasOwn(record, name)) continue;
        for (const other of needed) {
          if (Object.hasOwn(record, other)) continue;
          path.push(other);
          ok = fail(errors, path, "missing", `Field required when '${name}' is present`);
          path.pop();
          if (errors === null || errors.length >= MAX_ISSUES) return false;
        }
      }
      // Unknown keys are reported with the missing and invalid ones: all of them are problems of single fields.
      if (walkExtras) {
        for (const key of keys!) {
          if (known.has(key)) continue;
          path.push(key);
          let matched = false;
          for (let p = 0; p < patterns.length; p++) {
            const [, test, check] = patterns[p]!;
            const result = test(key);
            if (result === UNCHECKED) {
              ok = fail(errors, path, "string_pattern_unchecked", keyProblems[p]!);
              matched = true;
              break;
            }
            if (result === MATCH) {
              matched = true;
              if (!check(record[key], path, errors)) ok = false;
            }
          }
          if (!matched && additionalCheck !== undefined) {
            if (additionalCheck === false) ok = fail(errors, path, "extra_forbidden", "Extra inputs are not permitted");
            else if (!additionalCheck(record[key], path, errors)) ok = false;
          }
          path.pop();
          if (!ok && (errors === null || errors.length >= MAX_ISSUES)) return false;
        }
      }
      if (propertyNames) {
        for (const key of keys!) {
          path.push(key);
          const problems: ValidationIssue[] | null = errors === null ? null : [];
          if (!propertyNames(key, path, problems)) ok = fail(errors, path, "invalid_key", `Property name is not allowed: ${problems?.[0]?.msg ?? ""}`);
          path.pop();
          if (!ok && (errors === null || errors.length >= MAX_ISSUES)) return false;
        }
      }
      return ok;
    };
  }

  private compileCompositions(schema: SchemaObject, direction: SchemaDirection): Check[] {
    const checks: Check[] = [];
    // (`allOf: [$ref: X, $ref: X]` is one check: the same `$ref` compiles to one function.)
    for (const sub of schema.allOf ?? []) {
      const check = this.check(sub, direction);
      if (!checks.includes(check)) checks.push(check);
    }
    const discriminated = schema.discriminator ? this.compileDiscriminator(schema, direction) : undefined;
    if (discriminated) checks.push(discriminated);
    else {
      if (schema.anyOf) checks.push(this.compileUnion(schema.anyOf, direction, false));
      if (schema.oneOf) checks.push(this.compileUnion(schema.oneOf, direction, true));
    }
    if (schema.not !== undefined) {
      const not = this.check(schema.not, direction);
      checks.push((value, path, errors) => !not(value, path, null) || fail(errors, path, "not", "Input should not match the excluded schema"));
    }
    // `if` only chooses (its failure is no error); without `then` and `else` it asserts nothing.
    if (schema.if !== undefined && (schema.then !== undefined || schema.else !== undefined)) {
      const condition = this.check(schema.if, direction);
      const then = this.check(schema.then, direction);
      const otherwise = this.check(schema.else, direction);
      checks.push((value, path, errors) => (condition(value, path, null) ? then(value, path, errors) : otherwise(value, path, errors)));
    }
    const dependent = dependentKeywords(schema).schemas.map(([name, sub]) => [name, this.check(sub, direction)] as const);
    if (dependent.length > 0) {
      checks.push((value, path, errors) => {
        if (value === null || typeof value !== "object" || Array.isArray(value)) return true;
        for (const [name, check] of dependent) if (Object.hasOwn(value, name) && !check(value, path, errors)) return false;
        return true;
      });
    }
    return checks;
  }

  /**
   * The check of `unevaluatedProperties` and `unevaluatedItems` of `schema` (undefined when it has neither): the
   * properties (items) that none of the schema's other keywords evaluated — nor its in-place subschemas that passed
   * (see `collector`) — must satisfy the keyword's schema. Runs after every other keyword of the schema passed.
   */
  unevaluatedCheck(schema: SchemaObject, direction: SchemaDirection): Check | undefined {
    const checks: Check[] = [];
    const maxDepth = this.maxDepth;
    if (schema.unevaluatedProperties !== undefined && schema.unevaluatedProperties !== true) {
      const rest = this.check(schema.unevaluatedProperties, direction);
      const forbidden = schema.unevaluatedProperties === false;
      let collect: Collect | undefined;
      checks.push((value, path, errors) => {
        if (value === null || typeof value !== "object" || Array.isArray(value)) return true;
        const evaluated = new Set<string | number>();
        if ((collect ??= this.collectorParts(schema, "properties", direction))(value, path, evaluated)) return true;
        if (path.length > maxDepth) return tooDeep(errors, path, maxDepth);
        let ok = true;
        for (const key of Object.keys(value)) {
          if (evaluated.has(key)) continue;
          path.push(key);
          if (forbidden) ok = fail(errors, path, "extra_forbidden", "Extra inputs are not permitted");
          else if (!rest((value as Record<string, unknown>)[key], path, errors)) ok = false;
          path.pop();
          if (!ok && (errors === null || errors.length >= MAX_ISSUES)) return false;
        }
        return ok;
      });
    }
    if (schema.unevaluatedItems !== undefined && schema.unevaluatedItems !== true) {
      const rest = this.check(schema.unevaluatedItems, direction);
      const forbidden = schema.unevaluatedItems === false;
      let collect: Collect | undefined;
      checks.push((value, path, errors) => {
        if (!Array.isArray(value)) return true;
        const evaluated = new Set<string | number>();
        if ((collect ??= this.collectorParts(schema, "items", direction))(value, path, evaluated)) return true;
        if (path.length > maxDepth) return tooDeep(errors, path, maxDepth);
        let ok = true;
        for (let i = 0; i < value.length; i++) {
          if (evaluated.has(i)) continue;
          path.push(i);
          if (forbidden) ok = fail(errors, path, "extra_forbidden", "Extra items are not permitted");
          else if (!rest(value[i], path, errors)) ok = false;
          path.pop();
          if (!ok && (errors === null || errors.length >= MAX_ISSUES)) return false;
        }
        return ok;
      });
    }
    if (checks.length === 0) return undefined;
    if (checks.length === 1) return checks[0];
    const [properties, items] = checks as [Check, Check];
    return (value, path, errors) => properties(value, path, errors) && items(value, path, errors);
  }

  /**
   * What `schema` evaluates in a value it validated, for the unevaluated* keywords of a schema that applies it in
   * place: everything when it has its own `unevaluatedProperties` (`unevaluatedItems`), else what its other keywords do.
   */
  private collector(schema: Schema | undefined, kind: "properties" | "items", direction: SchemaDirection): Collect {
    if (typeof schema !== "object" || schema === null) return collectsNothing; // boolean schemas annotate nothing
    if ((kind === "properties" ? schema.unevaluatedProperties : schema.unevaluatedItems) !== undefined) return collectsAll;
    const cache = this.collectors[kind];
    let collect = cache.get(schema);
    if (collect === undefined) {
      // Lazy, like `$ref` checks: a recursive schema's collector refers to itself.
      let built: Collect | undefined;
      collect = (value, path, out) => (built ??= this.collectorParts(schema, kind, direction))(value, path, out);
      cache.set(schema, collect);
    }
    return collect;
  }

  /**
   * What the keywords of `schema` other than its own unevaluated* evaluate (JSON Schema 2020-12 §10.3, §11): for
   * properties, `properties` (the names present), `patternProperties` (the names matching), `additionalProperties`
   * (all the rest, so all); for items, `prefixItems` (or a draft-4 tuple) by index, `items` after them (so all),
   * `contains` (the indices that match); and in both cases what the in-place subschemas evaluate — `$ref`, `allOf`,
   * the `anyOf`/`oneOf` branches the value passes, `if` with `then` when it passes and `else` when not,
   * `dependentSchemas` of the names present. Only subschemas that passed count: `not` never does.
   */
  private collectorParts(schema: SchemaObject, kind: "properties" | "items", direction: SchemaDirection): Collect {
    const parts: Collect[] = [];
    if (kind === "properties") {
      if (schema.additionalProperties !== undefined) return collectsAll;
      const names = Object.keys(schema.properties ?? {});
      if (names.length > 0) {
        parts.push((value, _path, out) => {
          for (const name of names) if (Object.hasOwn(value, name)) out.add(name);
          return false;
        });
      }
      const tests = Object.keys(schema.patternProperties ?? {}).map((source) => this.patternTest(source));
      if (tests.length > 0) {
        parts.push((value, _path, out) => {
          for (const key of Object.keys(value)) if (tests.some((test) => test(key) === MATCH)) out.add(key);
          return false;
        });
      }
    } else {
      const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
      if (rest !== undefined) return collectsAll;
      const tuple = schema.prefixItems ?? (Array.isArray(schema.items) ? (schema.items as readonly Schema[]) : undefined);
      if (tuple && tuple.length > 0) {
        const length = tuple.length;
        parts.push((value, _path, out) => {
          for (let i = 0; i < Math.min(length, (value as unknown[]).length); i++) out.add(i);
          return false;
        });
      }
      if (schema.contains !== undefined) {
        const contains = this.check(schema.contains, direction);
        parts.push((value, path, out) => {
          const items = value as unknown[];
          for (let i = 0; i < items.length; i++) {
            path.push(i);
            if (contains(items[i], path, null)) out.add(i);
            path.pop();
          }
          return false;
        });
      }
    }
    const inPlace = (sub: Schema | undefined): Collect => this.collector(sub, kind, direction);
    if (typeof schema.$ref === "string") {
      const target = resolvePointer(this.document, schema.$ref);
      parts.push(inPlace(target));
    }
    for (const member of schema.allOf ?? []) parts.push(inPlace(member));
    for (const branches of [schema.anyOf, schema.oneOf]) {
      for (const branch of branches ?? []) {
        const passes = this.check(branch, direction);
        const collect = inPlace(branch);
        parts.push((value, path, out) => passes(value, path, null) && collect(value, path, out));
      }
    }
    if (schema.if !== undefined) {
      const condition = this.check(schema.if, direction);
      const [ifPart, thenPart, elsePart] = [inPlace(schema.if), inPlace(schema.then), inPlace(schema.else)];
      parts.push((value, path, out) => (condition(value, path, null) ? ifPart(value, path, out) || thenPart(value, path, out) : elsePart(value, path, out)));
    }
    for (const [name, sub] of dependentKeywords(schema).schemas) {
      const collect = inPlace(sub);
      parts.push((value, path, out) => Object.hasOwn(value, name) && collect(value, path, out));
    }
    if (parts.length === 0) return collectsNothing;
    if (parts.length === 1) return parts[0]!;
    return (value, path, out) => {
      for (const part of parts) if (part(value, path, out)) return true;
      return false;
    };
  }

  /**
   * With a discriminator the tag picks the one branch to validate, so errors name that branch's fields instead
   * of a confusing mix from every branch. Tags come from `mapping`, then from each `$ref` branch's schema name,
   * then from a branch's `const`/single-`enum` tag property.
   */
  private compileDiscriminator(schema: SchemaObject, direction: SchemaDirection): Check | undefined {
    const branches = schema.oneOf ?? schema.anyOf;
    const propertyName = schema.discriminator?.propertyName;
    if (!branches || !propertyName) return undefined;
    const byTag = new Map<string, Check>();
    for (const [tag, ref] of Object.entries(schema.discriminator?.mapping ?? {})) {
      const pointer = ref.startsWith("#") ? ref : `#/components/schemas/${ref}`;
      byTag.set(tag, this.compileRef(pointer, direction));
    }
    for (const branch of branches) {
      if (typeof branch !== "object") continue;
      const check = this.check(branch, direction);
      if (typeof branch.$ref === "string") {
        const name = branch.$ref.slice(branch.$ref.lastIndexOf("/") + 1);
        const alreadyMapped = [...Object.values(schema.discriminator?.mapping ?? {})].some((r) => r === branch.$ref || r === name);
        if (!alreadyMapped && !byTag.has(name)) byTag.set(name, check);
      }
      const target = typeof branch.$ref === "string" ? resolvePointer(this.document, branch.$ref) : branch;
      const tagSchema = typeof target === "object" ? target.properties?.[propertyName] : undefined;
      if (typeof tagSchema === "object") {
        const tags = tagSchema.const !== undefined ? [tagSchema.const] : tagSchema.enum ?? [];
        for (const tag of tags) if (typeof tag === "string" && !byTag.has(tag)) byTag.set(tag, check);
      }
    }
    // OpenAPI 3.2: a value without a tag, or with one the mapping does not name, is the default schema's.
    const defaultRef = schema.discriminator?.defaultMapping;
    const fallback = typeof defaultRef === "string" ? this.compileRef(defaultRef.startsWith("#") ? defaultRef : `#/components/schemas/${defaultRef}`, direction) : undefined;
    if (byTag.size === 0 && !fallback) return undefined;
    const expected = [...byTag.keys()].map((t) => `'${t}'`).join(", ");
    const tagInherited = propertyName in Object.prototype;
    return (value, path, errors) => {
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        return fail(errors, path, "dict_type", "Input should be a valid dictionary or object to extract fields from");
      }
      // An ordinary object (a request body before its prototypes are removed) inherits "constructor" and the like.
      const tag = tagInherited && !Object.hasOwn(value, propertyName) ? undefined : (value as Record<string, unknown>)[propertyName];
      if (tag === undefined) {
        if (fallback) return fallback(value, path, errors);
        return fail(errors, path, "union_tag_not_found", `Unable to extract tag using discriminator '${propertyName}'`);
      }
      const branch = (typeof tag === "string" ? byTag.get(tag) : undefined) ?? fallback;
      if (!branch) {
        return fail(
          errors,
          path,
          "union_tag_invalid",
          `Input tag '${String(tag)}' found using '${propertyName}' does not match any of the expected tags: ${expected}`,
        );
      }
      return branch(value, path, errors);
    };
  }

  private compileUnion(schemas: readonly Schema[], direction: SchemaDirection, exactlyOne: boolean): Check {
    let fills: boolean[] | undefined;
    // Decided on first use (a union of $refs may reach far into the document).
    const mayFillDefaults = (branch: number) => (fills ??= schemas.map((s) => this.mayFillDefaults(s, direction)))[branch];
    const branches = schemas.map((s) => this.check(s, direction));
    const general = compileUnion(branches, exactlyOne, mayFillDefaults);
    // `anyOf: [X, {type: "null"}]` is how FastAPI writes Optional[X]. A value other than null can only be X: check X
    // once, directly (no probe and then a second, default-filling pass). Null matches at once in an anyOf.
    const nullOnly = schemas.map(isNullOnlySchema);
    const others = branches.filter((_, i) => !nullOnly[i]);
    if (others.length !== 1 || others.length === branches.length) return general;
    const only = others[0]!;
    return (value, path, errors) => (value === null ? !exactlyOne || general(value, path, errors) : only(value, path, errors));
  }

  /**
   * A function that copies a response value keeping only what `schema` declares, as FastAPI's `response_model`
   * does: object properties the schema (with its `$ref`s and `allOf`s) does not declare are dropped unless
   * `additionalProperties` allows them, and so are `writeOnly` ones; an object schema that declares no properties
   * at all keeps everything. For `anyOf`/`oneOf` the first branch the value validates against decides. Values are
   * copied, never changed in place.
   */
  stripper(schema: Schema | undefined): Strip {
    if (schema === undefined || typeof schema !== "object") return keep;
    const cached = this.strippers.get(schema);
    if (cached) return cached;
    let built: Strip | undefined;
    // Compiled on first use: recursive schemas terminate, and only the shapes handlers really return are built.
    const lazy: Strip = (value) => (built ??= this.buildStripper(schema))(value);
    this.strippers.set(schema, lazy);
    return lazy;
  }

  private buildStripper(schema: SchemaObject): Strip {
    const parts = this.schemaParts(schema);
    const union = parts.map((part) => part.anyOf ?? part.oneOf).find((branches) => branches !== undefined);
    const base = this.stripByParts(parts);
    if (!union) return base;
    const branches = union.map((branch) => {
      const check = this.compile(branch, "response");
      const branchParts = typeof branch === "object" ? [...parts, ...this.schemaParts(branch)] : parts;
      let strip: Strip | undefined;
      return { check, strip: (value: unknown) => (strip ??= this.stripByParts(branchParts))(value) };
    });
    const anyBranch = this.stripByParts([...parts, ...union.flatMap((branch) => (typeof branch === "object" ? this.schemaParts(branch) : []))]);
    return (value) => {
      if (value === null || typeof value !== "object") return value;
      for (const branch of branches) if (branch.check(value, [], null)) return branch.strip(value);
      return anyBranch(value);
    };
  }

  /** A schema with its `$ref` targets and `allOf` members, flattened (each object once). */
  private schemaParts(schema: SchemaObject, parts: SchemaObject[] = []): SchemaObject[] {
    if (parts.includes(schema)) return parts;
    parts.push(schema);
    if (typeof schema.$ref === "string") {
      const target = resolvePointer(this.document, schema.$ref);
      if (typeof target === "object") this.schemaParts(target, parts);
    }
    for (const member of schema.allOf ?? []) if (typeof member === "object") this.schemaParts(member, parts);
    return parts;
  }

  private stripByParts(parts: SchemaObject[]): Strip {
    const properties = new Map<string, Schema[]>();
    const dropped = new Set<string>();
    const patterns: [PatternTest, Schema][] = [];
    let declaresKeys = false;
    let additional: "keep" | "drop" | Schema[] = "keep";
    const additionalSchemas: Schema[] = [];
    let closed = false;
    const items: Schema[] = [];
    for (const part of parts) {
      for (const [name, propertySchema] of Object.entries(part.properties ?? {})) {
        declaresKeys = true;
        if (this.hasFlag(propertySchema, "writeOnly")) dropped.add(name);
        else properties.set(name, [...(properties.get(name) ?? []), propertySchema]);
      }
      for (const [source, propertySchema] of Object.entries(part.patternProperties ?? {})) {
        declaresKeys = true;
        const test = this.patternTest(source);
        if (test) patterns.push([test, propertySchema]);
      }
      // (`unevaluatedProperties` closes or opens the object the way `additionalProperties` does, for what it declares.)
      for (const rest of [part.additionalProperties, part.unevaluatedProperties]) {
        if (rest === false) closed = true;
        else if (typeof rest === "object") additionalSchemas.push(rest);
        else if (rest === true) additionalSchemas.push(true);
      }
      if (part.items !== undefined && !Array.isArray(part.items)) items.push(part.items as Schema);
    }
    for (const name of dropped) properties.delete(name);
    if (closed) additional = "drop";
    else if (additionalSchemas.length > 0) additional = additionalSchemas;
    else additional = declaresKeys || dropped.size > 0 ? "drop" : "keep";
    const strips = new Map<string, Strip>();
    for (const [name, schemas] of properties) strips.set(name, this.stripperOfAll(schemas));
    const patternStrips = patterns.map(([test, propertySchema]) => [test, this.stripper(propertySchema)] as const);
    const additionalStrip = Array.isArray(additional) ? this.stripperOfAll(additional) : undefined;
    const itemStrip = items.length > 0 ? this.stripperOfAll(items) : keep;
    return (value) => {
      if (value === null || typeof value !== "object") return value;
      if (Array.isArray(value)) return value.map((item) => itemStrip(item));
      if (isBinaryValue(value)) return value;
      const out: Record<string, unknown> = nullRecord();
      for (const key of Object.keys(value)) {
        const field = (value as Record<string, unknown>)[key];
        let strip = strips.get(key);
        if (strip === undefined && !dropped.has(key)) {
          for (const [test, patternStrip] of patternStrips) {
            if (test(key) === MATCH) {
              strip = patternStrip;
              break;
            }
          }
          if (strip === undefined && additional === "keep") strip = keep;
          strip ??= additionalStrip;
        }
        if (strip !== undefined) out[key] = strip(field);
      }
      return out;
    };
  }

  private stripperOfAll(schemas: Schema[]): Strip {
    return schemas.length === 1 ? this.stripper(schemas[0]) : this.stripper({ allOf: schemas });
  }

  /**
   * Whether validating a request value against `schema` may fill in `default`s (mutate the value): some
   * property schema reachable from it (through $refs, compositions, items, …) has a `default`. Responses are
   * never filled.
   */
  mayFillDefaults(schema: Schema, direction: SchemaDirection): boolean {
    if (direction !== "request") return false;
    const visited = new Set<object>();
    const found = this.reachesDefault(schema, visited);
    // A search that found nothing explored everything reachable from each node it visited.
    if (!found) for (const node of visited) this.fillsDefaults.set(node, false);
    return found;
  }

  private reachesDefault(schema: Schema | undefined, visited: Set<object>): boolean {
    if (typeof schema !== "object" || schema === null) return false;
    const known = this.fillsDefaults.get(schema);
    if (known !== undefined) return known;
    if (visited.has(schema)) return false;
    visited.add(schema);
    const children: (Schema | undefined)[] = [];
    if (typeof schema.$ref === "string") children.push(resolvePointer(this.document, schema.$ref));
    for (const property of Object.values(schema.properties ?? {})) {
      if (typeof property === "object" && property.default !== undefined) {
        this.fillsDefaults.set(schema, true);
        return true;
      }
      children.push(property);
    }
    // (Subschemas that only probe — `not`, `if`, `contains`, `propertyNames` — fill nothing; `not` is kept as it was.)
    children.push(...Object.values(schema.patternProperties ?? {}), schema.additionalProperties, schema.not, schema.then, schema.else);
    children.push(schema.unevaluatedProperties, schema.unevaluatedItems, schema.additionalItems, ...dependentKeywords(schema).schemas.map(([, sub]) => sub));
    if (Array.isArray(schema.items)) children.push(...(schema.items as readonly Schema[]));
    else children.push(schema.items as Schema | undefined);
    children.push(...(schema.prefixItems ?? []), ...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? []));
    for (const ref of [...Object.values(schema.discriminator?.mapping ?? {}), ...(schema.discriminator?.defaultMapping ? [schema.discriminator.defaultMapping] : [])]) {
      children.push(resolvePointer(this.document, ref.startsWith("#") ? ref : `#/components/schemas/${ref}`));
    }
    for (const child of children) {
      if (this.reachesDefault(child, visited)) {
        this.fillsDefaults.set(schema, true);
        return true;
      }
    }
    return false;
  }

  /** Whether a property schema says `flag`: itself, through its `$ref`, or in an `allOf` member (`allOf: [$ref, {readOnly: true}]`). */
  hasFlag(schema: Schema, flag: "readOnly" | "writeOnly", depth = 0): boolean {
    if (typeof schema !== "object" || depth > 8) return false;
    if (schema[flag] === true) return true;
    if (typeof schema.$ref === "string") {
      const target = resolvePointer(this.document, schema.$ref);
      if (target !== undefined && this.hasFlag(target, flag, depth + 1)) return true;
    }
    return (schema.allOf ?? []).some((member) => this.hasFlag(member, flag, depth + 1));
  }
}

/**
 * Convenience: compile `schema` once and get a function returning the list of issues (empty when valid).
 * `loc` prefixes every error location (e.g. `["body"]`).
 */
export function compileValidator(
  schema: Schema | undefined,
  document: SchemaDocument = {},
  options: { direction?: SchemaDirection; compiler?: SchemaCompiler } = {},
): (value: unknown, loc?: Loc) => ValidationIssue[] {
  const compiler = options.compiler ?? new SchemaCompiler(document);
  const check = compiler.compile(schema, options.direction ?? "request");
  return (value, loc = []) => {
    const errors: ValidationIssue[] = [];
    check(value, [...loc], errors);
    return errors;
  };
}

/**
 * `dependentRequired` and `dependentSchemas`, with draft 7's `dependencies` (a list of names, or a schema) read as
 * whichever it is, as Ajv does: the names that require others when present, and the schemas that then apply.
 */
export function dependentKeywords(schema: SchemaObject): { required: [string, readonly string[]][]; schemas: [string, Schema][] } {
  const required: [string, readonly string[]][] = [];
  const schemas: [string, Schema][] = [];
  const entries = (map: unknown) => (map !== null && typeof map === "object" && !Array.isArray(map) ? Object.entries(map as Record<string, unknown>) : []);
  for (const [name, value] of [...entries(schema.dependencies), ...entries(schema.dependentRequired)]) {
    if (Array.isArray(value)) required.push([name, value.filter((other): other is string => typeof other === "string")]);
  }
  for (const [name, value] of [...entries(schema.dependencies), ...entries(schema.dependentSchemas)]) {
    if (typeof value === "boolean" || (value !== null && typeof value === "object" && !Array.isArray(value))) schemas.push([name, value as Schema]);
  }
  return { required, schemas };
}

/** Whether no two items are equal JSON (`uniqueItems`). */
function uniqueJson(values: readonly unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of values) {
    const key = canonicalJson(item);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

/** Records an error (unless probing) and returns false, so call sites can `return fail(...)`. */
function fail(errors: ValidationIssue[] | null, path: Loc, type: string, msg: string): false {
  if (errors && errors.length < MAX_ISSUES) errors.push({ loc: path.slice(), msg, type });
  return false;
}

/** A value nested deeper than allowed: reported where the limit was crossed, never descended into. */
function tooDeep(errors: ValidationIssue[] | null, path: Loc, maxDepth: number): false {
  return fail(errors, path, "too_deep", `Input is nested more than ${maxDepth} levels deep`);
}

const TYPE_ERRORS: Record<string, [string, string]> = {
  string: ["string_type", "Input should be a valid string"],
  integer: ["int_type", "Input should be a valid integer"],
  number: ["float_type", "Input should be a valid number"],
  boolean: ["bool_type", "Input should be a valid boolean"],
  array: ["list_type", "Input should be a valid list"],
  object: ["dict_type", "Input should be a valid dictionary"],
  null: ["none_required", "Input should be null"],
};

/** One predicate per type name, so a single-type check does not switch on the name per value. */
const TYPE_TESTS: Record<string, Check> = {
  string: (value) => typeof value === "string",
  integer: (value) => typeof value === "number" && Number.isInteger(value),
  number: (value) => typeof value === "number" && Number.isFinite(value),
  boolean: (value) => typeof value === "boolean",
  array: (value) => Array.isArray(value),
  object: (value) => value !== null && typeof value === "object" && !Array.isArray(value),
  null: (value) => value === null,
};

function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value);
    case "null":
      return value === null;
    default:
      return true; // unknown type names (e.g. "file" in old specs) are not enforced
  }
}

function compileTypeCheck(types: string[]): Check {
  // Report the first non-null type: "Input should be a valid string" reads better than "should be null".
  const primary = types.find((t) => t !== "null") ?? types[0];
  const [type, msg] = TYPE_ERRORS[primary] ?? ["type_error", `Input should be of type ${primary}`];
  if (primary === "integer") {
    return (value, path, errors) => {
      for (const t of types) if (matchesType(value, t)) return true;
      if (typeof value === "number" && Number.isFinite(value)) {
        return fail(errors, path, "int_from_float", "Input should be a valid integer, got a number with a fractional part");
      }
      return fail(errors, path, type, msg);
    };
  }
  if (types.length === 1) {
    const is = Object.hasOwn(TYPE_TESTS, types[0]!) ? TYPE_TESTS[types[0]!]! : accept;
    return (value, path, errors) => is(value, path, null) || fail(errors, path, type, msg);
  }
  return (value, path, errors) => {
    for (const t of types) if (matchesType(value, t)) return true;
    return fail(errors, path, type, msg);
  };
}

function compileEnumConst(schema: SchemaObject): Check | undefined {
  if (schema.const !== undefined || Object.hasOwn(schema, "const")) {
    const expected = schema.const;
    const key = canonicalJson(expected);
    const msg = `Input should be ${describeValue(expected)}`;
    if (expected === null || typeof expected !== "object") {
      return (value, path, errors) => value === expected || fail(errors, path, "literal_error", msg);
    }
    return (value, path, errors) => canonicalJson(value) === key || fail(errors, path, "literal_error", msg);
  }
  if (!Array.isArray(schema.enum)) return undefined;
  const values = schema.enum;
  const msg = `Input should be ${joinOr(values.map(describeValue))}`;
  const primitives = new Set(values.filter((v) => v === null || typeof v !== "object"));
  const structured = new Set(values.filter((v) => v !== null && typeof v === "object").map(canonicalJson));
  // 3.0 `nullable: true` with an enum that does not list null still admits null (handled by the caller).
  return (value, path, errors) => {
    if (primitives.has(value)) return true;
    if (structured.size > 0 && value !== null && typeof value === "object" && structured.has(canonicalJson(value))) return true;
    return fail(errors, path, "enum", msg);
  };
}

/** Length and format (`pattern` is compiled on its own, to run after every other keyword). */
function compileStringKeywords(schema: SchemaObject): Check | undefined {
  const { minLength, maxLength } = schema;
  const format = typeof schema.format === "string" && Object.hasOwn(FORMATS, schema.format) ? FORMATS[schema.format] : undefined;
  if (minLength === undefined && maxLength === undefined && !format) return undefined;
  return (value, path, errors) => {
    if (typeof value !== "string") return true;
    if (minLength !== undefined || maxLength !== undefined) {
      // A string over maxLength code points is over it in UTF-16 units too: no need to count a huge one.
      const length = maxLength !== undefined && value.length > maxLength * 2 ? Infinity : codePointLength(value);
      if (minLength !== undefined && length < minLength) {
        return fail(errors, path, "string_too_short", `String should have at least ${minLength} character${minLength === 1 ? "" : "s"}`);
      }
      if (maxLength !== undefined && length > maxLength) {
        return fail(errors, path, "string_too_long", `String should have at most ${maxLength} character${maxLength === 1 ? "" : "s"}`);
      }
    }
    if (format && !format.test(value)) return fail(errors, path, format.type, format.msg);
    return true;
  };
}

function compileNumberKeywords(schema: SchemaObject): Check | undefined {
  let { minimum, maximum } = schema;
  let exclusiveMinimum: number | undefined;
  let exclusiveMaximum: number | undefined;
  // 3.0: `exclusiveMinimum: true` turns `minimum` exclusive. 3.1: `exclusiveMinimum` is the bound itself.
  if (schema.exclusiveMinimum === true && minimum !== undefined) [exclusiveMinimum, minimum] = [minimum, undefined];
  else if (typeof schema.exclusiveMinimum === "number") exclusiveMinimum = schema.exclusiveMinimum;
  if (schema.exclusiveMaximum === true && maximum !== undefined) [exclusiveMaximum, maximum] = [maximum, undefined];
  else if (typeof schema.exclusiveMaximum === "number") exclusiveMaximum = schema.exclusiveMaximum;
  const multipleOf = typeof schema.multipleOf === "number" && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  const format = typeof schema.format === "string" && Object.hasOwn(NUMBER_FORMATS, schema.format) ? NUMBER_FORMATS[schema.format] : undefined;
  if (minimum === undefined && maximum === undefined && exclusiveMinimum === undefined && exclusiveMaximum === undefined && !multipleOf && !format) {
    return undefined;
  }
  return (value, path, errors) => {
    if (typeof value !== "number") return true;
    if (format && !format.test(value)) return fail(errors, path, format.type, format.msg);
    if (minimum !== undefined && value < minimum) return fail(errors, path, "greater_than_equal", `Input should be greater than or equal to ${minimum}`);
    if (exclusiveMinimum !== undefined && value <= exclusiveMinimum) return fail(errors, path, "greater_than", `Input should be greater than ${exclusiveMinimum}`);
    if (maximum !== undefined && value > maximum) return fail(errors, path, "less_than_equal", `Input should be less than or equal to ${maximum}`);
    if (exclusiveMaximum !== undefined && value >= exclusiveMaximum) return fail(errors, path, "less_than", `Input should be less than ${exclusiveMaximum}`);
    if (multipleOf !== undefined && !isMultipleOf(value, multipleOf)) return fail(errors, path, "multiple_of", `Input should be a multiple of ${multipleOf}`);
    return true;
  };
}

function isMultipleOf(value: number, step: number): boolean {
  const quotient = value / step;
  // Tolerate float noise (0.3 / 0.1 = 2.9999999999999996).
  return Math.abs(quotient - Math.round(quotient)) < 1e-9 * Math.max(1, Math.abs(quotient));
}

/**
 * anyOf / oneOf. Probes branches without collecting errors; only on failure re-runs them to report the most
 * plausible branch's errors (one that got past its type check, with the fewest errors) — pydantic's
 * "smart union" reporting in miniature.
 */
/** `{type: "null"}` (annotations aside): a branch that accepts null and nothing else. */
export function isNullOnlySchema(schema: Schema): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  const type = schema.type;
  if (type !== "null" && !(Array.isArray(type) && type.length === 1 && type[0] === "null")) return false;
  return Object.keys(schema).every((key) => key === "type" || key === "description" || key === "title");
}

function compileUnion(branches: Check[], exactlyOne: boolean, mayFillDefaults: (branch: number) => boolean): Check {
  return (value, path, errors) => {
    let matches = 0;
    let winner = -1;
    for (let i = 0; i < branches.length; i++) {
      if (branches[i](value, path, null)) {
        if (matches === 0) winner = i;
        matches++;
        if (!exactlyOne || matches > 1) break;
      }
    }
    if (exactlyOne ? matches === 1 : matches > 0) {
      // Reporting pass: re-run the winning branch so it can fill its defaults (probes never mutate) — when it has any.
      if (errors !== null && mayFillDefaults(winner)) branches[winner](value, path, []);
      return true;
    }
    if (errors === null) return false;
    if (matches > 1) return fail(errors, path, "one_of_multiple", "Input matches more than one of the allowed schemas (oneOf)");
    let best: ValidationIssue[] | undefined;
    let bestScore = Infinity;
    for (const branch of branches) {
      const branchErrors: ValidationIssue[] = [];
      branch(value, path, branchErrors);
      const rejectedAtRoot = branchErrors.some((e) => e.loc.length === path.length && ROOT_REJECTIONS.has(e.type));
      const score = (rejectedAtRoot ? 1_000_000 : 0) + branchErrors.length;
      if (score < bestScore) [best, bestScore] = [branchErrors, score];
    }
    if (best && best.length > 0) errors.push(...best);
    else fail(errors, path, "union_no_match", "Input does not match any of the allowed schemas");
    return false;
  };
}

const ROOT_REJECTIONS = new Set([
  "string_type", "int_type", "int_from_float", "float_type", "bool_type", "list_type", "dict_type", "none_required",
  "literal_error", "enum", "union_tag_invalid", "union_tag_not_found", "never", "type_error",
]);

/** Compiles a spec regex once. ECMA-262 with the `u` flag first; some specs need the legacy flavour. */
function compilePattern(source: string): RegExp | undefined {
  try {
    return new RegExp(source, "u");
  } catch {
    try {
      return new RegExp(source);
    } catch {
      return undefined; // an invalid pattern in the spec must not take the whole server down
    }
  }
}

interface FormatCheck<T = string> {
  test(value: T): boolean;
  type: string;
  msg: string;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):?(\d{2}))$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):?(\d{2}))?$/;
const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A calendar date (RFC 3339 full-date): month 1–12, a day that month has (29 February in leap years only). */
function validDate(y: string, m: string, d: string): boolean {
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month]!);
}

/**
 * A time of day (RFC 3339 partial-time and time-offset): hour ≤ 23, minute ≤ 59, second ≤ 59 — 60 only for a leap
 * second, which is 23:59:60 UTC — and an offset of at most 23:59 (`+99:99` is no offset). As ajv-formats checks it.
 */
function validClock(h: string, m: string, s: string, sign: string | undefined, offsetHours: string | undefined, offsetMinutes: string | undefined): boolean {
  const [hour, minute, second] = [Number(h), Number(m), Number(s)];
  const [tzHours, tzMinutes] = [Number(offsetHours ?? 0), Number(offsetMinutes ?? 0)];
  if (tzHours > 23 || tzMinutes > 59) return false;
  if (hour <= 23 && minute <= 59 && second <= 59) return true;
  const direction = sign === "-" ? -1 : 1;
  const utcMinute = minute - tzMinutes * direction;
  const utcHour = hour - tzHours * direction - (utcMinute < 0 ? 1 : 0);
  return second === 60 && (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1);
}

/** Light format checks: catch obvious garbage, never reject what a reasonable client sends. */
const FORMATS: Record<string, FormatCheck> = {
  "date-time": {
    test: (v) => {
      const m = DATE_TIME.exec(v);
      return !!m && validDate(m[1]!, m[2]!, m[3]!) && validClock(m[4]!, m[5]!, m[6]!, m[9], m[10], m[11]);
    },
    type: "datetime_parsing",
    msg: "Input should be a valid datetime",
  },
  date: {
    test: (v) => {
      const m = DATE.exec(v);
      return !!m && validDate(m[1]!, m[2]!, m[3]!);
    },
    type: "date_parsing",
    msg: "Input should be a valid date",
  },
  time: {
    test: (v) => {
      const m = TIME.exec(v);
      return !!m && validClock(m[1]!, m[2]!, m[3]!, m[6], m[7], m[8]);
    },
    type: "time_parsing",
    msg: "Input should be a valid time",
  },
  uuid: {
    test: (v) => /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(v),
    type: "uuid_parsing",
    msg: "Input should be a valid UUID",
  },
  email: {
    test: (v) => /^[^\s@]+@[^\s@]+$/.test(v),
    type: "value_error",
    msg: "value is not a valid email address",
  },
  uri: {
    test: (v) => /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/.test(v),
    type: "url_parsing",
    msg: "Input should be a valid URL",
  },
};

/**
 * OpenAPI's integer formats. An int64 must be a safe integer: JSON numbers beyond ±(2^53 − 1) reach JavaScript
 * rounded (9007199254740993 arrives as …992), so a handler would get another id than the one sent — refused rather
 * than handed over wrong (values beyond int64's own range are beyond that too).
 */
const NUMBER_FORMATS: Record<string, FormatCheck<number>> = {
  int32: {
    test: (v) => Number.isInteger(v) && v >= -2147483648 && v <= 2147483647,
    type: "int_range",
    msg: "Input should be a 32-bit integer (from -2147483648 to 2147483647)",
  },
  int64: {
    test: (v) => Number.isSafeInteger(v),
    type: "int_range",
    msg: "Input should be an integer from -9007199254740991 to 9007199254740991 (larger int64 values cannot be received exactly)",
  },
};

function codePointLength(value: string): number {
  let length = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < value.length) i++; // surrogate pair = one character
    length++;
  }
  return length;
}


export { canonicalJson };

function describeValue(value: unknown): string {
  return typeof value === "string" ? `'${value}'` : JSON.stringify(value);
}

function joinOr(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

