/**
 * Form decoding shared by bodies (`application/x-www-form-urlencoded`, `multipart/form-data`) and deepObject query
 * parameters: fields are read per the spec's Encoding Objects (deepObject brackets into nested objects and arrays,
 * exploded and delimited arrays, JSON parts) and their strings coerced to the types the schema admits — the
 * inverse of the generated client's serialisation, so a handler sees the values the client was given.
 *
 * Hostile input: nesting is bounded (`MAX_DEPTH`), array indices never allocate more than the fields sent (arrays
 * are compacted), and every key is an own data property (`__proto__` stays a key, never a prototype).
 */
import { nullRecord, parseClientJson } from "./json.js";
import { DEFAULT_MAX_DEPTH } from "./validate.js";
import { derefSchema, schemaTypes, type Loc, type Schema, type SchemaDocument, type SchemaObject, type ValidationIssue } from "./schema.js";

/** Deepest bracket nesting read from a field name (`a[b][c]…`); deeper fields are a validation error. */
export const MAX_DEPTH = 32;

/** One property's Encoding Object, as the emitter passes it (see `MediaSpec.encoding`). */
export interface EncodingSpec {
  style?: string;
  explode?: boolean;
  allowReserved?: boolean;
  contentType?: string;
  /**
   * `multipart/form-data`: the part headers the spec declares for this property's parts, by name as spelled in the
   * spec (matched case-insensitively), each read and validated like a header parameter of style `simple`.
   */
  headers?: Record<string, PartHeaderSpec>;
}

/** One declared part header (`encoding.{property}.headers.{name}`). */
export interface PartHeaderSpec {
  required: boolean;
  schema?: Schema;
}

/**
 * Whether a value satisfies a schema (the router's validator, in probe mode). With it, a string field of a schema that
 * admits a string and other scalars is typed only when the text itself does not fit: Stripe's `anyOf: [integer,
 * {enum: [""]}]` reads `6` as the number 6, and `""` stays the empty string.
 */
export type Probe = (schema: Schema, value: unknown) => boolean;

/** The fields of a form: `URLSearchParams` and `FormData` both fit. */
export interface FormFields {
  getAll(name: string): (string | File)[];
  keys(): IterableIterator<string>;
}

/** A field value as read from a form: a string, an uploaded file, or brackets already gathered into a tree. */
type Raw = string | File | Tree;
/** Gathered brackets: keys in the order they came, values raw (arrays are still index → value here). */
interface Tree {
  readonly tree: true;
  entries: Map<string, Raw>;
  /** Values appended with `[]`. */
  appended: Raw[];
}

function newTree(): Tree {
  return { tree: true, entries: new Map(), appended: [] };
}

function isTree(value: unknown): value is Tree {
  return typeof value === "object" && value !== null && (value as Tree).tree === true && !(value instanceof Blob);
}

/**
 * Splits `base[a][0][]` into `["a", "0", ""]` after `base`; `undefined` when `key` is not `base` followed by
 * brackets only.
 */
function bracketPath(key: string, base: string): string[] | undefined {
  if (key.length <= base.length + 1 || !key.startsWith(base) || key[base.length] !== "[") return undefined;
  const path: string[] = [];
  let i = base.length;
  while (i < key.length) {
    if (key[i] !== "[") return undefined;
    const close = key.indexOf("]", i + 1);
    if (close === -1) return undefined;
    path.push(key.slice(i + 1, close));
    i = close + 1;
  }
  return path;
}

/**
 * Gathers the fields `base[…]` of a form (and a plain `base` field, which a scalar deepObject value is sent as) into
 * one raw value. `undefined` when there is none.
 */
export function gatherBracketed(fields: Iterable<[string, string | File]>, base: string, loc: Loc, errors: ValidationIssue[]): Raw | undefined {
  let root: Tree | undefined;
  let plain: string | File | undefined;
  for (const [key, value] of fields) {
    if (key === base) {
      if (plain !== undefined) return oneValue(loc, errors);
      plain = value;
      continue;
    }
    const path = bracketPath(key, base);
    if (!path) continue;
    if (path.length > MAX_DEPTH) {
      errors.push({ loc: [...loc], msg: `Nested deeper than ${MAX_DEPTH} levels`, type: "value_error" });
      return undefined;
    }
    root ??= newTree();
    let node = root;
    for (let i = 0; i < path.length; i++) {
      const segment = path[i]!;
      const last = i === path.length - 1;
      if (segment === "") {
        // `name[]=a`: append (a further level after `[]` starts a new element).
        if (last) node.appended.push(value);
        else {
          const child = newTree();
          node.appended.push(child);
          node = child;
        }
        continue;
      }
      if (last) {
        // (The same field twice is ambiguous, as a repeated scalar query parameter is: refused, not one picked.)
        if (node.entries.has(segment)) return oneValue([...loc, ...path], errors);
        node.entries.set(segment, value);
        continue;
      }
      const existing = node.entries.get(segment);
      if (isTree(existing)) node = existing;
      else if (existing === undefined) {
        const child = newTree();
        node.entries.set(segment, child);
        node = child;
      } else {
        errors.push({ loc: [...loc, ...path.slice(0, i + 1)], msg: "A field is given both as a value and as an object", type: "value_error" });
        return undefined;
      }
    }
  }
  return root ?? plain;
}

/** The issue of a field that takes one value and was sent several times; returns undefined (nothing was read). */
function oneValue(loc: Loc, errors: ValidationIssue[], count = 2): undefined {
  const name = loc.at(-1);
  errors.push({ loc: [...loc], msg: `Expected one value for '${String(name)}', got ${count}`, type: "multiple_values" });
  return undefined;
}

/**
 * The fields of an `application/x-www-form-urlencoded` text (WHATWG URL's parsing: `&`-separated, `+` is a space),
 * percent-decoded strictly: a sequence that is not UTF-8, or a `%` not followed by two hex digits, is an issue at `loc`
 * (where URLSearchParams would put U+FFFD in, or keep the `%`), and the result is undefined.
 */
export function parseUrlEncoded(text: string, loc: Loc, errors: ValidationIssue[]): URLSearchParams | undefined {
  const fields = new URLSearchParams();
  for (const piece of text.split("&")) {
    if (piece === "") continue;
    const equals = piece.indexOf("=");
    const name = decodeFormComponent(equals === -1 ? piece : piece.slice(0, equals));
    const value = equals === -1 ? "" : decodeFormComponent(piece.slice(equals + 1));
    if (name === undefined || value === undefined) {
      errors.push({ loc: name === undefined ? [...loc] : [...loc, name], msg: "Invalid percent-encoding (not UTF-8)", type: "value_error" });
      return undefined;
    }
    fields.append(name, value);
  }
  return fields;
}

function decodeFormComponent(text: string): string | undefined {
  const spaced = text.includes("+") ? text.replaceAll("+", " ") : text;
  if (!spaced.includes("%")) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}

/** Array indices as deepObject writes them: a canonical non-negative integer. */
const INDEX = /^(?:0|[1-9]\d{0,8})$/;

/**
 * Turns a raw value into the value the schema describes: gathered brackets become objects, or arrays (ordered by
 * index, gaps closed) where the schema wants an array or says nothing and every key is an index; strings become
 * integers, numbers, booleans or null where the schema admits those and not a string.
 */
export function coerceRaw(value: Raw, schema: Schema | undefined, document: SchemaDocument, loc: Loc, errors: ValidationIssue[], json = false, probe?: Probe): unknown {
  const types = schema === undefined ? new Set(["any"]) : schemaTypes(schema, document);
  if (isTree(value)) {
    const keys = [...value.entries.keys()];
    const indexed = keys.every((key) => INDEX.test(key));
    const wantsArray = types.has("array") && (!types.has("object") || (indexed && keys.length > 0));
    if (wantsArray || (!types.has("object") && indexed && (keys.length > 0 || value.appended.length > 0))) {
      if (!indexed) {
        errors.push({ loc: [...loc], msg: "Input should be a valid array", type: "list_type" });
        return undefined;
      }
      const items = [...value.entries].sort((a, b) => Number(a[0]) - Number(b[0])).map(([, item]) => item);
      items.push(...value.appended);
      const itemSchema = schema === undefined ? undefined : arrayItems(schema, document);
      return items.map((item, i) => coerceRaw(item, itemSchema, document, [...loc, i], errors, false, probe));
    }
    const out = nullRecord();
    for (const [key, item] of value.entries) setOwn(out, key, coerceRaw(item, schema === undefined ? undefined : propertySchema(schema, key, document), document, [...loc, key], errors, false, probe));
    if (value.appended.length > 0) {
      errors.push({ loc: [...loc], msg: "Input should be an object, not a list", type: "dict_type" });
      return undefined;
    }
    return out;
  }
  if (typeof value !== "string") return value; // an uploaded file
  return coerceString(value, types, loc, errors, json, fitsOf(schema, probe));
}

/** The probe of one schema, when there is a schema to probe. */
function fitsOf(schema: Schema | undefined, probe: Probe | undefined): ((value: unknown) => boolean) | undefined {
  return schema === undefined || probe === undefined ? undefined : (value) => probe(schema, value);
}

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * One string as the admitted types want it. With `json` (a part or field whose content type is JSON) it is parsed as
 * JSON; an object or array schema that does not admit a string reads a string as JSON too (OpenAPI's default
 * content type for such fields).
 */
export function coerceString(value: string, types: Set<string>, loc: Loc, errors: ValidationIssue[], json = false, fits?: (value: unknown) => boolean): unknown {
  const wantsString = types.has("string") || types.has("any") || types.size === 0;
  if (json || (!wantsString && (types.has("object") || types.has("array")))) {
    // Parts and fields are bounded like JSON bodies: nesting past the limit is refused before parsing.
    const parsed = parseClientJson(value, DEFAULT_MAX_DEPTH);
    if (parsed.ok) return parsed.value;
    errors.push({ loc: [...loc], msg: parsed.tooDeep ? `JSON is nested more than ${DEFAULT_MAX_DEPTH} levels deep` : "Invalid JSON", type: parsed.tooDeep ? "too_deep" : "json_invalid" });
    return undefined;
  }
  if (wantsString) {
    // A string is also another scalar here (`anyOf: [integer, {enum: [""]}]`): the text stays text if it fits.
    if (fits && !types.has("any") && (types.has("integer") || types.has("number") || types.has("boolean") || types.has("null")) && !fits(value)) {
      const typed = typedScalar(value, types);
      if (typed !== NOT_TYPED && fits(typed)) return typed;
    }
    return value;
  }
  if (types.has("integer") && INTEGER.test(value)) return Number(value);
  if (types.has("number") && NUMBER.test(value)) return Number(value);
  if (types.has("boolean") && (value === "true" || value === "false")) return value === "true";
  if (types.has("null") && (value === "" || value === "null")) return null;
  if (types.has("integer")) errors.push({ loc: [...loc], msg: "Input should be a valid integer, unable to parse string as an integer", type: "int_parsing" });
  else if (types.has("number")) errors.push({ loc: [...loc], msg: "Input should be a valid number, unable to parse string as a number", type: "float_parsing" });
  else if (types.has("boolean")) errors.push({ loc: [...loc], msg: "Input should be a valid boolean, unable to interpret input", type: "bool_parsing" });
  else return value;
  return undefined;
}

const NOT_TYPED = Symbol("not typed");

/** `value` read as the first non-string scalar type it parses as, else NOT_TYPED. */
function typedScalar(value: string, types: Set<string>): unknown {
  if (types.has("integer") && INTEGER.test(value)) return Number(value);
  if (types.has("number") && NUMBER.test(value)) return Number(value);
  if (types.has("boolean") && (value === "true" || value === "false")) return value === "true";
  if (types.has("null") && (value === "" || value === "null")) return null;
  return NOT_TYPED;
}

/**
 * The schema of property `key` of an object schema: `properties` (through allOf/anyOf/oneOf, each schema looked at
 * once), else `additionalProperties`.
 */
export function propertySchema(schema: Schema, key: string, document: SchemaDocument, seen: Set<object> = new Set()): Schema | undefined {
  const resolved = resolveSafe(schema, document);
  if (typeof resolved !== "object" || seen.has(resolved)) return undefined;
  seen.add(resolved);
  if (resolved.properties && Object.hasOwn(resolved.properties, key)) return resolved.properties[key];
  for (const branch of [...(resolved.allOf ?? []), ...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])]) {
    const found = propertySchema(branch, key, document, seen);
    if (found !== undefined) return found;
  }
  if (resolved.additionalProperties !== undefined && typeof resolved.additionalProperties === "object") return resolved.additionalProperties;
  return undefined;
}

/** The `items` schema of `schema` or of its first array branch. */
export function arrayItems(schema: Schema, document: SchemaDocument, depth = 0): Schema | undefined {
  const resolved = resolveSafe(schema, document);
  if (typeof resolved !== "object" || depth > MAX_DEPTH) return undefined;
  if (resolved.items !== undefined && !Array.isArray(resolved.items)) return resolved.items as Schema;
  for (const branch of [...(resolved.allOf ?? []), ...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])]) {
    if (schemaTypes(branch, document).has("array")) return arrayItems(branch, document, depth + 1);
  }
  return undefined;
}

function resolveSafe(schema: Schema, document: SchemaDocument): Schema | undefined {
  try {
    return derefSchema(schema, document);
  } catch {
    return undefined;
  }
}

/** Sets an own, enumerable data property: `__proto__` from a request is a key like any other. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  return contentType.split(",").some((range) => {
    const essence = range.split(";", 1)[0]!.trim().toLowerCase();
    return essence === "application/json" || essence.endsWith("+json");
  });
}

/** True when the Encoding Object asks for query-style serialisation. */
function isStyled(encoding: EncodingSpec | undefined): encoding is EncodingSpec {
  return encoding !== undefined && (encoding.style !== undefined || encoding.explode !== undefined || encoding.allowReserved !== undefined);
}

/**
 * Compiles the decoder of a form body (urlencoded or multipart) whose schema is `schema`: per declared property,
 * its Encoding Object decides how its fields are read; fields the schema does not declare are kept as strings (a
 * repeated one as a list), without bracket parsing.
 */
export function compileFormDecoder(
  schema: Schema,
  encoding: Readonly<Record<string, EncodingSpec>> | undefined,
  document: SchemaDocument,
  loc: Loc,
  probe?: Probe,
): (fields: FormFields, errors: ValidationIssue[]) => Record<string, unknown> {
  const resolved = resolveSafe(schema, document);
  const properties: Record<string, Schema> = {};
  if (typeof resolved === "object") collectProperties(resolved, document, properties, new Set());
  const names = Object.keys(properties);
  const encodingOf = (name: string) => (encoding && Object.hasOwn(encoding, name) ? encoding[name] : undefined);
  const styled = names.filter((name) => isStyled(encodingOf(name)));
  const deep = styled.filter((name) => encodingOf(name)!.style === "deepObject");
  // Exploded form objects put their properties at the top level (`R=100&G=200`): those keys belong to them.
  const spread = new Map<string, string>();
  for (const name of styled) {
    const enc = encodingOf(name)!;
    const style = enc.style ?? "form";
    const types = schemaTypes(properties[name]!, document);
    if (style === "form" && (enc.explode ?? true) && types.has("object") && !types.has("array")) {
      // (Through `$ref`s and compositions: hey-api's `oneOf: [{$ref: Model}, {type: "null"}]`.)
      for (const key of Object.keys(declaredProperties(properties[name]!, document))) if (!Object.hasOwn(properties, key)) spread.set(key, name);
    }
  }

  return (fields, errors) => {
    const out = nullRecord();
    const keys = [...new Set(fields.keys())];
    const entries = deep.length > 0 ? keys.flatMap((key) => fields.getAll(key).map((value): [string, string | File] => [key, value])) : [];
    const claimed = new Set<string>();
    for (const name of deep) {
      const raw = gatherBracketed(entries, name, [...loc, name], errors);
      for (const key of keys) if (key === name || bracketPath(key, name)) claimed.add(key);
      if (raw !== undefined) setOwn(out, name, coerceRaw(raw, properties[name], document, [...loc, name], errors, false, probe));
    }
    const spreadValues = new Map<string, Record<string, unknown>>();
    for (const key of keys) {
      if (claimed.has(key)) continue;
      const values = fields.getAll(key);
      const owner = Object.hasOwn(properties, key) ? undefined : spread.get(key);
      if (owner !== undefined) {
        let target = spreadValues.get(owner);
        if (!target) spreadValues.set(owner, (target = {}));
        const propSchema = propertySchema(properties[owner]!, key, document);
        const first = values[0]!;
        const types = propSchema === undefined ? new Set(["any"]) : schemaTypes(propSchema, document);
        if (propSchema !== undefined && types.has("array") && !types.has("string")) {
          // A list property of the exploded object repeats its field, one item each (as the client writes it).
          const items = arrayItems(propSchema, document);
          const itemTypes = items === undefined ? new Set(["any"]) : schemaTypes(items, document);
          setOwn(target, key, values.map((value, i) => (typeof value === "string" ? coerceString(value, itemTypes, [...loc, owner, key, i], errors, false, fitsOf(items, probe)) : value)));
        } else if (values.length > 1) oneValue([...loc, owner, key], errors, values.length);
        else setOwn(target, key, typeof first === "string" ? coerceString(first, types, [...loc, owner, key], errors, false, fitsOf(propSchema, probe)) : first);
        continue;
      }
      if (!Object.hasOwn(properties, key)) {
        setOwn(out, key, values.length > 1 ? values : values[0]);
        continue;
      }
      setOwn(out, key, decodeField(values, properties[key]!, encodingOf(key), document, [...loc, key], errors, probe));
    }
    for (const [owner, value] of spreadValues) setOwn(out, owner, value);
    return out;
  };
}

/** The properties an object schema declares, through `$ref`s and `allOf`/`anyOf`/`oneOf` (each schema read once). */
export function declaredProperties(schema: Schema, document: SchemaDocument, seen: Set<Schema> = new Set(), out: Record<string, Schema> = {}): Record<string, Schema> {
  const resolved = resolveSafe(schema, document);
  if (typeof resolved !== "object" || seen.has(resolved) || seen.size > MAX_DEPTH * 8) return out;
  seen.add(resolved);
  for (const [name, property] of Object.entries(resolved.properties ?? {})) if (!Object.hasOwn(out, name)) setOwn(out, name, property);
  for (const branch of [...(resolved.allOf ?? []), ...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])]) declaredProperties(branch, document, seen, out);
  return out;
}

/** The properties of `schema` and of its `allOf` members, each schema read once (an `allOf` diamond is not a tree to walk). */
function collectProperties(schema: SchemaObject, document: SchemaDocument, out: Record<string, Schema>, seen: Set<SchemaObject>): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  for (const [name, property] of Object.entries(schema.properties ?? {})) if (!Object.hasOwn(out, name)) setOwn(out, name, property);
  for (const branch of schema.allOf ?? []) {
    const resolved = resolveSafe(branch, document);
    if (typeof resolved === "object") collectProperties(resolved, document, out, seen);
  }
}

/** One declared property's values (a field may repeat) as its Encoding Object and schema say. */
function decodeField(
  values: (string | File)[],
  schema: Schema,
  encoding: EncodingSpec | undefined,
  document: SchemaDocument,
  loc: Loc,
  errors: ValidationIssue[],
  probe: Probe | undefined,
): unknown {
  const types = schemaTypes(schema, document);
  const isArray = types.has("array") && !types.has("string");
  const json = isJsonType(encoding?.contentType);
  // Only a list (not sent as one JSON part) reads every value of its field.
  if (values.length > 1 && !(isArray && (!json || isStyled(encoding)))) return oneValue(loc, errors, values.length);
  if (isStyled(encoding)) {
    const style = encoding.style ?? "form";
    const explode = encoding.explode ?? style === "form";
    const strings = values.filter((v): v is string => typeof v === "string");
    if (isArray) {
      const delimiter = style === "spaceDelimited" ? " " : style === "pipeDelimited" ? "|" : ",";
      const parts = explode ? strings : strings.flatMap((v) => (v === "" ? [] : v.split(delimiter)));
      const itemTypes = itemTypesOf(schema, document);
      const fits = fitsOf(arrayItems(schema, document), probe);
      return parts.map((part, i) => coerceString(part, itemTypes, [...loc, i], errors, false, fits));
    }
    if (types.has("object") && !types.has("string")) {
      // Not exploded: `key,value,key,value` with the style's delimiter.
      const delimiter = style === "spaceDelimited" ? " " : style === "pipeDelimited" ? "|" : ",";
      const parts = (strings[0] ?? "").split(delimiter);
      const out = nullRecord();
      for (let i = 0; i + 1 < parts.length; i += 2) {
        const propSchema = propertySchema(schema, parts[i]!, document);
        const types = propSchema === undefined ? new Set(["any"]) : schemaTypes(propSchema, document);
        setOwn(out, parts[i]!, coerceString(parts[i + 1]!, types, [...loc, parts[i]!], errors, false, fitsOf(propSchema, probe)));
      }
      return out;
    }
    return coerceRaw(values[0]!, schema, document, loc, errors, false, probe);
  }
  if (isArray && !json) {
    const itemTypes = itemTypesOf(schema, document);
    const fits = fitsOf(arrayItems(schema, document), probe);
    return values.map((value, i) => (typeof value === "string" ? coerceString(value, itemTypes, [...loc, i], errors, false, fits) : value));
  }
  const first = values[0]!;
  return typeof first === "string" ? coerceString(first, types, loc, errors, json, fitsOf(schema, probe)) : first;
}

function itemTypesOf(schema: Schema, document: SchemaDocument): Set<string> {
  const items = arrayItems(schema, document);
  return items === undefined ? new Set(["string"]) : schemaTypes(items, document);
}
