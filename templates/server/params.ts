/**
 * Parameter decoding: turns the strings of a URL/headers/cookies into typed values following the parameter's
 * schema and OpenAPI style/explode, then validates them. Everything schema-dependent is decided once in
 * `compileParam`; per request only the returned closure runs.
 */
import { coerceRaw, coerceString, gatherBracketed, type Probe } from "./form.js";
import { nullRecord, parseClientJson } from "./json.js";
import { cloneJson, derefSchema, schemaTypes, type Loc, type Schema, type SchemaDocument, type ValidationIssue } from "./schema.js";
import type { SchemaCompiler } from "./validate.js";
import type { ParamSpec } from "./types.js";

/** Where a parameter lives; also the first element of its error `loc`. */
export type ParamLocation = "path" | "query" | "header" | "cookie";

/** Raw inputs of one request, prepared once per request and shared by all parameter decoders. */
export interface RawParams {
  /** Path parameters, percent-decoded. */
  path: Record<string, string>;
  /** Path parameters as captured, still percent-encoded: arrays and objects are split on their delimiters first. */
  pathRaw?: Record<string, string>;
  query: URLSearchParams;
  /** Headers, read like `Headers.get` (lower-case name; repeated headers joined with ", "). */
  headers: { header(name: string): string | null };
  cookies: Map<string, string> | undefined;
  /** Every cookie of the `Cookie` header by name, as sent (not percent-decoded), for `style: cookie` (OpenAPI 3.2). */
  rawCookies?: Map<string, string[]>;
}

/** Decodes one parameter into `out[name]`, pushing issues on failure. */
export type ParamDecoder = (raw: RawParams, out: Record<string, unknown>, errors: ValidationIssue[]) => void;

/** Header parameters OpenAPI says to ignore (they are governed by other spec fields). */
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);

/** Builds the decoder of one parameter. Called at router creation. */
export function compileParam(spec: ParamSpec, location: ParamLocation, compiler: SchemaCompiler): ParamDecoder | undefined {
  if (location === "header" && IGNORED_HEADERS.has(spec.name.toLowerCase())) return undefined;
  const document = compiler.document;
  const schema: Schema = spec.schema ?? true;
  const check = compiler.compile(schema, "request");
  const name = spec.name;
  const style = spec.style ?? (location === "query" || location === "cookie" ? "form" : "simple");
  const explode = spec.explode ?? (style === "form" || style === "cookie");
  const defaultValue = defaultOf(schema, document);
  const types = schemaTypes(schema, document);
  const json = spec.contentType !== undefined && /json/i.test(spec.contentType);

  if (location === "query" && style === "deepObject" && !json) {
    // `name[key]=…`, nested and indexed the way the client (and Stripe, qs, Rails) write it; see form.ts.
    return (raw, out, errors) => {
      const path: Loc = [location, name];
      const before = errors.length;
      const value = gatherBracketed(raw.query, name, path, errors);
      if (errors.length > before) return;
      if (value === undefined) {
        if (defaultValue !== undefined) out[name] = cloneDefault(defaultValue);
        else if (spec.required) errors.push({ loc: path, msg: "Field required", type: "missing" });
        return;
      }
      const coerced = coerceRaw(value, schema, document, path, errors, false, compiler.probe);
      if (errors.length > before) return;
      if (check(coerced, path, errors)) out[name] = coerced;
    };
  }

  // Content-serialized params are one opaque string, whatever the schema says.
  const read = rawReader(spec, location, json ? "simple" : style, json ? false : explode, json ? new Set(["string"]) : types, document);
  // Path arrays and objects arrive already split (see `splitPathValue`).
  // (`style: cookie` differs from `form` only in how the cookie is read: its values split and pair up alike.)
  const coerce = json
    ? jsonCoercion(compiler.maxDepth)
    : compileCoercion(schema, document, types, style === "cookie" ? "form" : style, location === "path" ? true : explode, compiler.probe);

  // The location stack coercion and validation descend with (pushed and popped, copied into an issue only when one
  // is recorded): one per parameter, not one per request.
  const path: Loc = [location, name];
  return (raw, out, errors) => {
    const value = read(raw);
    if (value === undefined) {
      if (defaultValue !== undefined) out[name] = cloneDefault(defaultValue);
      else if (spec.required) errors.push({ loc: [location, name], msg: "Field required", type: "missing" });
      return;
    }
    path.length = 2; // (a check that threw half-way would have left its last step on the stack)
    const before = errors.length;
    const coerced = coerce(value, path, errors);
    if (errors.length > before) return;
    if (check(coerced, path, errors)) out[name] = coerced;
  };
}

/**
 * The raw value: a string, a list of strings (repeated query keys) or key/value pairs (an exploded object, where a
 * property that is a list repeats its key).
 */
type RawValue = string | string[] | Map<string, string | string[]>;

function rawReader(
  spec: ParamSpec,
  location: ParamLocation,
  style: string,
  explode: boolean,
  types: Set<string>,
  document: SchemaDocument,
): (raw: RawParams) => RawValue | undefined {
  const name = spec.name;
  switch (location) {
    case "path": {
      const shape = pathShape(types);
      if (!splitsRawPath(style, shape)) return (raw) => raw.path[name];
      return (raw) => {
        const text = raw.pathRaw?.[name];
        return text === undefined ? raw.path[name] : splitPathValue(text, name, style, explode, shape);
      };
    }
    case "header": {
      const lower = name.toLowerCase();
      return (raw) => raw.headers.header(lower) ?? undefined;
    }
    case "cookie":
      return style === "cookie" ? rfc6265Reader(spec, explode, types, document) : (raw) => raw.cookies?.get(name);
    case "query": {
      const isArray = types.has("array") && !types.has("string");
      const isObject = types.has("object") && !types.has("array") && !types.has("string");
      if (isObject && explode && style === "form") {
        // Exploded form objects put each property at the top level: `?a=1&b=2`.
        return explodedObjectReader(spec, document, (raw, key, list) => {
          if (!list) return raw.query.get(key) ?? undefined;
          const values = raw.query.getAll(key);
          return values.length > 0 ? values : undefined;
        });
      }
      if (isArray && explode) {
        return (raw) => {
          const values = raw.query.getAll(name);
          return values.length > 0 ? values : undefined;
        };
      }
      if (types.has("array") && explode) {
        // A string or a list (GitHub's `has`, Discord's `tag`): a repeated key is the list, whole; one value, the
        // string it is on the wire.
        return (raw) => {
          const values = raw.query.getAll(name);
          return values.length > 1 ? values : values[0];
        };
      }
      return (raw) => raw.query.get(name) ?? undefined;
    }
  }
}

function pathShape(types: Set<string>): "array" | "object" | "scalar" {
  return types.has("array") && !types.has("string") ? "array" : types.has("object") && !types.has("string") ? "object" : "scalar";
}

/** Whether a path value is split on its delimiters (so read undecoded, from `pathRaw`) rather than read whole. */
function splitsRawPath(style: string, shape: "array" | "object" | "scalar"): boolean {
  return style !== "simple" || shape !== "scalar";
}

/**
 * Whether the decoder of a path parameter reads `RawParams.pathRaw` (label and matrix styles, arrays, objects); the
 * router builds that record only for routes where one does.
 */
export function readsRawPath(spec: ParamSpec, compiler: SchemaCompiler): boolean {
  if (spec.contentType !== undefined && /json/i.test(spec.contentType)) return false; // one opaque string
  return splitsRawPath(spec.style ?? "simple", pathShape(schemaTypes(spec.schema ?? true, compiler.document)));
}

/**
 * A path segment in `simple`, `label` (`.a.b`, `.a,b`, `.x=1.y=2`) or `matrix` (`;id=1,2`, `;id=1;id=2`, `;x=1;y=2`)
 * style, split on its delimiters before percent-decoding, so an encoded `,`, `.` or `;` stays inside a value.
 */
export function splitPathValue(text: string, name: string, style: string, explode: boolean, shape: "array" | "object" | "scalar"): RawValue {
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const named = `;${encodeURIComponent(name)}=`;
  let body = text;
  let delimiter = ",";
  if (style === "label") {
    body = text.startsWith(".") ? text.slice(1) : text;
    if (explode) delimiter = ".";
  } else if (style === "matrix") {
    if (explode && shape !== "scalar") {
      // `;id=1;id=2` → values; `;x=1;y=2` → pairs
      const parts = text.split(";").filter(Boolean);
      if (shape === "object") return new Map(parts.map((p) => pairOf(p, decode)));
      return parts.map((p) => decode(p.slice(p.indexOf("=") + 1)));
    }
    body = text.startsWith(named) ? text.slice(named.length) : text.startsWith(";") ? text.slice(text.indexOf("=") + 1) : text;
  }
  if (shape === "scalar") return decode(body);
  const parts = body === "" ? [] : body.split(delimiter);
  if (shape === "array") return parts.map(decode);
  if (explode) return new Map(parts.map((p) => pairOf(p, decode)));
  const pairs = new Map<string, string>();
  for (let i = 0; i + 1 < parts.length; i += 2) pairs.set(decode(parts[i]), decode(parts[i + 1]));
  return pairs;
}

function pairOf(part: string, decode: (text: string) => string): [string, string] {
  const eq = part.indexOf("=");
  return eq < 0 ? [decode(part), ""] : [decode(part.slice(0, eq)), decode(part.slice(eq + 1))];
}

type Coerce = (value: RawValue, path: Loc, errors: ValidationIssue[]) => unknown;

function jsonCoercion(maxDepth: number): Coerce {
  return (value, path, errors) => {
    const text = typeof value === "string" ? value : Array.isArray(value) ? value[0] : "";
    const parsed = parseClientJson(text, maxDepth);
    if (parsed.ok) return parsed.value;
    errors.push({ loc: path.slice(), msg: parsed.tooDeep ? `JSON is nested more than ${maxDepth} levels deep` : "Invalid JSON", type: parsed.tooDeep ? "too_deep" : "json_invalid" });
    return undefined;
  };
}

/** Picks how to coerce from the schema's admitted types: arrays split, objects pair up, scalars parse. */
function compileCoercion(schema: Schema, document: SchemaDocument, types: Set<string>, style: string, explode: boolean, probe: Probe): Coerce {
  const wantsString = types.has("string") || types.has("any");
  const separator = style === "spaceDelimited" ? " " : style === "pipeDelimited" ? "|" : ",";
  let list: Coerce | undefined;
  if (types.has("array")) {
    const itemSchema = arrayItemsOf(schema, document);
    const itemCoerce = scalarCoercion(schemaTypes(itemSchema, document));
    list = (value, path, errors) => {
      const parts = Array.isArray(value) ? (explode ? value : value.flatMap((v) => v.split(separator))) : typeof value === "string" ? (value === "" ? [] : value.split(separator)) : [];
      if (separator === ",") for (let i = 0; i < parts.length; i++) parts[i] = parts[i].trim();
      const out: unknown[] = [];
      for (let i = 0; i < parts.length; i++) out.push(itemCoerce(parts[i], [...path, i], errors));
      return out;
    };
    if (!wantsString) return list;
  }
  if (types.has("object") && !wantsString) {
    const properties = objectPropertiesOf(schema, document);
    return (value, path, errors) => {
      let pairs: Map<string, string | string[]>;
      if (value instanceof Map) pairs = value;
      else {
        const parts = (Array.isArray(value) ? value[0] : value).split(separator);
        pairs = new Map();
        if (explode && style === "simple") {
          // Exploded simple objects (headers): "key1=value1,key2=value2".
          for (const part of parts) {
            const eq = part.indexOf("=");
            if (eq > 0) pairs.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
          }
        } else {
          // Non-exploded objects: "key1,value1,key2,value2" (`|` or ` ` for pipe- and spaceDelimited).
          for (let i = 0; i + 1 < parts.length; i += 2) pairs.set(parts[i], parts[i + 1]);
        }
      }
      const out = nullRecord(); // keys are the client's: "__proto__" must stay a key
      for (const [key, raw] of pairs) {
        const propertySchema = Object.hasOwn(properties, key) ? properties[key] : undefined;
        if (propertySchema === undefined) out[key] = raw;
        else if (Array.isArray(raw)) {
          // A list property of an exploded object: its key repeated, one item each.
          const items = arrayItemsOf(propertySchema, document);
          const itemTypes = schemaTypes(items, document);
          out[key] = raw.map((item, i) => coerceString(item, itemTypes, [...path, key, i], errors, false, (v) => probe(items, v)));
        } else {
          const types = schemaTypes(propertySchema, document);
          const typedToo = types.has("integer") || types.has("number") || types.has("boolean") || types.has("null");
          // As in a form body: an object (or list) property is JSON; a string where other scalars are admitted too is
          // typed only if the text does not fit (Stripe's `anyOf: [integer, {enum: [""]}]`).
          if ((types.has("object") || types.has("array")) && !types.has("string")) out[key] = coerceString(raw, types, [...path, key], errors);
          else if (types.has("string") && typedToo) out[key] = coerceString(raw, types, [...path, key], errors, false, (v) => probe(propertySchema, v));
          else out[key] = scalarCoercion(types)(raw, [...path, key], errors);
        }
      }
      return out;
    };
  }
  const scalar = scalarCoercion(types);
  const listToo = list;
  // (Several values reach here only for a schema that admits a list: see the query reader.)
  return (value, path, errors) =>
    Array.isArray(value) && value.length > 1 && listToo ? listToo(value, path, errors) : scalar(Array.isArray(value) ? value[0] : value instanceof Map ? "" : value, path, errors);
}

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const TRUE = new Set(["true", "1", "yes", "on"]);
const FALSE = new Set(["false", "0", "no", "off"]);

/** Coerces one string to the first admitted type it parses as; reports pydantic's *_parsing errors otherwise. */
function scalarCoercion(types: Set<string>): (value: string, path: Loc, errors: ValidationIssue[]) => unknown {
  const wantsInteger = types.has("integer");
  const wantsNumber = types.has("number");
  const wantsBoolean = types.has("boolean");
  const wantsString = types.has("string") || types.has("any") || types.size === 0;
  const wantsNull = types.has("null");
  return (value, path, errors) => {
    if (wantsInteger && INTEGER.test(value)) return Number(value);
    if (wantsNumber && NUMBER.test(value)) return Number(value);
    if (wantsBoolean) {
      const lower = value.toLowerCase();
      if (TRUE.has(lower)) return true;
      if (FALSE.has(lower)) return false;
    }
    if (wantsString) return value;
    if (wantsNull && (value === "" || value === "null")) return null;
    if (wantsInteger) {
      errors.push({ loc: path.slice(), msg: "Input should be a valid integer, unable to parse string as an integer", type: "int_parsing" });
    } else if (wantsNumber) {
      errors.push({ loc: path.slice(), msg: "Input should be a valid number, unable to parse string as a number", type: "float_parsing" });
    } else if (wantsBoolean) {
      errors.push({ loc: path.slice(), msg: "Input should be a valid boolean, unable to interpret input", type: "bool_parsing" });
    } else {
      return value; // e.g. object/array schema given a scalar: let the validator report the type error
    }
    return undefined;
  };
}

/** The `items` schema of the (first) array branch of `schema`. */
function arrayItemsOf(schema: Schema, document: SchemaDocument): Schema {
  const resolved = derefSchema(schema, document);
  if (typeof resolved !== "object") return true;
  if (resolved.items !== undefined && !Array.isArray(resolved.items)) return resolved.items as Schema;
  for (const branch of [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.allOf ?? [])]) {
    const types = schemaTypes(branch, document);
    if (types.has("array")) return arrayItemsOf(branch, document);
  }
  return true;
}

/** Whether a property is a list (so an exploded object repeats its key): an array schema that does not admit a string. */
function isListSchema(schema: Schema, document: SchemaDocument): boolean {
  const types = schemaTypes(schema, document);
  return types.has("array") && !types.has("string");
}

/** The properties an object schema declares, through `$ref`s and `allOf`/`anyOf`/`oneOf` (each schema read once). */
function objectPropertiesOf(schema: Schema, document: SchemaDocument, seen: Set<Schema> = new Set()): Record<string, Schema> {
  const resolved = derefSchema(schema, document);
  if (typeof resolved !== "object" || seen.has(resolved)) return {};
  seen.add(resolved);
  const out: Record<string, Schema> = { ...(resolved.properties ?? {}) };
  for (const branch of [...(resolved.allOf ?? []), ...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])]) {
    Object.assign(out, objectPropertiesOf(branch, document, seen));
  }
  return out;
}

function defaultOf(schema: Schema, document: SchemaDocument): unknown {
  if (typeof schema !== "object") return undefined;
  if (schema.default !== undefined) return schema.default;
  const resolved = derefSchema(schema, document);
  return typeof resolved === "object" ? resolved.default : undefined;
}

/** Defaults are shared spec values: hand out copies so a handler mutating one cannot change the next request. */
export function cloneDefault<T>(value: T): T {
  return cloneJson(value);
}

/**
 * An exploded object whose properties arrive as parameters of their own (`?a=1&b=2`, cookies `a=1; b=2`): only the
 * declared properties count, found through `$ref`s and compositions (hey-api's `oneOf: [{$ref: Model}, {type: "null"}]`);
 * `valueOf` reads one property where its style puts it (a list for an array-typed property).
 */
function explodedObjectReader(
  spec: ParamSpec,
  document: SchemaDocument,
  valueOf: (raw: RawParams, key: string, list: boolean) => string | string[] | undefined,
): (raw: RawParams) => RawValue | undefined {
  const properties = objectPropertiesOf(spec.schema ?? true, document);
  const keys = Object.keys(properties);
  const lists = new Set(keys.filter((key) => isListSchema(properties[key]!, document)));
  return (raw) => {
    let found: Map<string, string | string[]> | undefined;
    for (const key of keys) {
      const value = valueOf(raw, key, lists.has(key));
      if (value !== undefined) (found ??= new Map()).set(key, value);
    }
    return found;
  };
}

/**
 * OpenAPI 3.2's `style: cookie`: the values as RFC 6265 sends them, never percent-decoded. A scalar or an unexploded
 * list or object is one cookie (`color=blue,black`, `color=R,100,G,200`); an exploded list is the cookie repeated
 * (`color=blue; color=black`), an exploded object one cookie per property (`R=100; G=200`, declared properties only).
 */
function rfc6265Reader(spec: ParamSpec, explode: boolean, types: Set<string>, document: SchemaDocument): (raw: RawParams) => RawValue | undefined {
  const name = spec.name;
  const isArray = types.has("array") && !types.has("string");
  const isObject = types.has("object") && !types.has("array") && !types.has("string");
  if (explode && isObject) {
    return explodedObjectReader(spec, document, (raw, key, list) => {
      const values = raw.rawCookies?.get(key);
      return values === undefined || list ? values : values[0];
    });
  }
  if (explode && isArray) return (raw) => raw.rawCookies?.get(name);
  return (raw) => raw.rawCookies?.get(name)?.[0];
}

/** Each `name=value` of a `Cookie` header in order, the name trimmed, a quoted value unquoted; nameless ones skipped. */
function forEachCookie(header: string, use: (key: string, value: string) => void): void {
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    if (!key) continue;
    const value = part.slice(eq + 1).trim();
    use(key, value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value);
  }
}

/** Every cookie of a `Cookie` header (`a=1; b=2; a=3`), by name, in order, as sent (a quoted value unquoted). */
export function parseRawCookies(header: string | null): Map<string, string[]> {
  const cookies = new Map<string, string[]>();
  if (header)
    forEachCookie(header, (key, value) => {
      const list = cookies.get(key);
      if (list) list.push(value);
      else cookies.set(key, [value]);
    });
  return cookies;
}

/** Whether a cookie parameter is read with `style: cookie` (the router then parses the header's raw cookies too). */
export function readsRawCookies(spec: ParamSpec): boolean {
  return spec.style === "cookie" && spec.contentType === undefined;
}

/** Parses a `Cookie` header into name → value (first occurrence wins, values percent-decoded when possible). */
export function parseCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  if (header)
    forEachCookie(header, (key, value) => {
      if (cookies.has(key)) return;
      try {
        value = decodeURIComponent(value);
      } catch {
        // keep the raw value
      }
      cookies.set(key, value);
    });
  return cookies;
}
