/**
 * The spec's schemas as Standard Schemas, validated by the router's engine (../server/validate.ts: the same
 * keywords, formats, limits and messages as the router's request validation).
 *
 * Each generated schema is a plain object literal (`SpecSchema`): its JSON text, the schemas it `$ref`s and a
 * `validate` that calls `validateSchema` here. Bundlers drop an object literal nobody uses, so a module that imports
 * one schema ships that schema, what it `$ref`s, and this engine — not the rest of the spec. A schema is compiled on
 * its first validation: the schemas it reaches are parsed and put where their `$ref`s point, in one document that
 * every schema of this output shares, and compiled once by one compiler (its caches are by schema object and `$ref`).
 */
import { cloneJson, resolvePointer, type Schema, type SchemaDocument, type ValidationIssue } from "../server/schema.js";
import { SchemaCompiler, type Check, type SchemaDirection } from "../server/validate.js";
import type { SpecSchema, SpecSchemaProps, StandardSchemaIssue, StandardSchemaResult } from "./types.js";

type AnySchema = SpecSchema<unknown>;

/** The schemas placed so far, at the pointers their `$ref`s name. */
const document: SchemaDocument = {};
const placed = new WeakSet<AnySchema>();
const compiled = new WeakMap<AnySchema, Compiled>();
/** The super-linear patterns of every schema placed (the compiler runs them on the linear-time matcher). */
const superLinearPatterns: string[] = [];
let compiler: SchemaCompiler | undefined;

interface Compiled {
  check: Check;
  /** Whether reporting may fill in `default`s (request schemas): it then runs on a copy. */
  fills: boolean;
}

const props = new WeakMap<AnySchema, SpecSchemaProps<unknown>>();

/** The `~standard` property of a generated schema (its getter's answer, made once). */
export function standard<T>(schema: SpecSchema<T>): SpecSchemaProps<T> {
  let found = props.get(schema) as SpecSchemaProps<T> | undefined;
  if (found === undefined) {
    found = { version: 1, vendor: "specforge", validate: (value) => validateSchema(schema, value) };
    props.set(schema, found);
  }
  return found;
}

/**
 * Validates `value` against `schema`: `{ value }` when it is valid, else `{ issues }`. The value answered is the
 * value itself, except for a request part whose schema has `default`s that the value leaves out: the router fills
 * them in, so they are filled in here too, on a copy (the caller's value is never changed).
 */
export function validateSchema<T>(schema: SpecSchema<T>, value: unknown): StandardSchemaResult<T> {
  let entry = compiled.get(schema);
  if (entry === undefined) compiled.set(schema, (entry = compile(schema)));
  // The answer first, with nothing collected or changed; the issues only for a value that fails. (Defaults are filled
  // in by the reporting pass only.)
  if (!entry.fills && entry.check(value, [], null)) return { value: value as T };
  const issues: ValidationIssue[] = [];
  const checked = entry.fills ? cloneJson(value) : value;
  entry.check(checked, [], issues);
  if (issues.length === 0) return { value: checked as T };
  return { issues: issues.map(toStandardIssue) };
}

function compile(schema: AnySchema): Compiled {
  place(schema);
  compiler ??= new SchemaCompiler(document, { superLinearPatterns });
  const root = schema.at !== undefined ? resolvePointer(document, schema.at)! : (JSON.parse(schema.json) as Schema);
  const direction: SchemaDirection = schema.use ?? "value";
  return { check: compiler.compile(root, direction), fills: compiler.mayFillDefaults(root, direction) };
}

/** Puts `schema` and every schema it reaches into the shared document (each once). */
function place(schema: AnySchema): void {
  const pending: AnySchema[] = [schema];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (placed.has(next)) continue;
    placed.add(next);
    if (next.at !== undefined) insert(next.at, JSON.parse(next.json));
    if (next.slow) superLinearPatterns.push(...next.slow);
    if (next.refs) pending.push(...next.refs());
  }
}

/** The segments of a local JSON pointer (`#/components/schemas/Pet`), unescaped as `$ref`s are resolved. */
function segments(pointer: string): string[] {
  return pointer
    .slice(2)
    .split("/")
    .map((raw) => {
      const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      try {
        return decodeURIComponent(token);
      } catch {
        return token;
      }
    });
}

function insert(pointer: string, value: unknown): void {
  let node = document as Record<string, unknown>;
  const path = segments(pointer);
  path.forEach((segment, i) => {
    const last = i === path.length - 1;
    if (!last && Object.hasOwn(node, segment)) node = node[segment] as Record<string, unknown>;
    else {
      // (Own keys whatever their names: a schema called `__proto__` is a key, not the prototype.)
      const child = last ? value : {};
      Object.defineProperty(node, segment, { value: child, enumerable: true, writable: true, configurable: true });
      node = child as Record<string, unknown>;
    }
  });
}

function toStandardIssue(issue: ValidationIssue): StandardSchemaIssue {
  return { message: issue.msg, path: issue.loc };
}
