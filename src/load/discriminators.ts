import { escapePointerSegment, parsePointer, resolvePointer, toJsonPointer } from "../openapi/pointer.js";
import { DATA_KEYWORDS, NAME_MAPS } from "../openapi/vocabulary.js";

/**
 * Compositions and discriminators, read the way the wire carries them.
 *
 * openapi-typescript (in maintenance mode, not patched) types a discriminator property as the schema name whenever
 * a branch is not in the `mapping`, also when the branch pins the property to another value (`role: {enum: [user]}`
 * typed `"ChatCompletionRequestUserMessage"`); it writes non-string mapping keys as strings (`use_custom: "True"`
 * for `const: true`); it reads any `allOf` of a discriminated schema as a subtype (inline ones included); it types
 * an `allOf` part that only lists `required` properties as `Record<string, never>`; and it mutates the document it
 * is given. specforge hands it a corrected copy instead (typesDocument) and none of its own discriminator handling.
 *
 * Two corrections apply to the bundled document every consumer reads (the loader runs them): inheritance cycles
 * through unions are broken (breakInheritanceCycles), and pinned branch tags are written into the mapping
 * (explicitMappings), so the router dispatches on what the types say.
 */

type JsonObject = Record<string, unknown>;
type Scalar = string | number | boolean;

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);

/** Keywords that describe a schema without constraining it. */
const ANNOTATIONS = new Set(["title", "description", "example", "examples", "externalDocs", "deprecated", "$comment", "xml", "readOnly", "writeOnly"]);

interface Discriminated {
  schema: JsonObject;
  /** JSON pointer of the schema, as a `$ref` string (`#/components/schemas/Pet`). */
  ref: string;
  propertyName: string;
}

/**
 * The document openapi-typescript is given: a copy of the bundled document in which the discriminator value of
 * every branch of a discriminated `oneOf`/`anyOf` (and every component schema that `allOf`-extends a discriminated
 * schema without branches) is written out as the branch's tag property, by these rules:
 *
 * 1. The branch pins the property itself (`const`, or `enum`, directly, through `$ref` or through an `allOf` part):
 *    those values are what the wire carries, whatever the mapping says. The branch needs no change.
 * 2. Otherwise the `mapping` keys that name the branch, as the property's type reads them (`"1"` is the number 1
 *    for an integer property, `"True"` the boolean true for a boolean one).
 * 3. Otherwise the schema's name (OpenAPI's implicit mapping).
 *
 * Nodes are copied only where a tag is written; the bundled document is never changed.
 */
export function typesDocument(bundled: JsonObject): JsonObject {
  const scan = scanSchemas(bundled);
  const document = hoistRequiredOnlyParts(bundled, scan.requiredOnly);
  const discriminated = document === bundled ? scan.discriminated : scanSchemas(document).discriminated;
  if (discriminated.length === 0) return document;
  const resolve = resolverIn(document);
  const subtypesOf = allOfSubtypes(document);

  /** ref of a branch → property → tag values to write. */
  const tags = new Map<string, Map<string, Scalar[]>>();
  for (const parent of discriminated) {
    const mapping = isObject(parent.schema.discriminator) && isObject((parent.schema.discriminator as JsonObject).mapping)
      ? ((parent.schema.discriminator as JsonObject).mapping as JsonObject)
      : {};
    const keysByRef = new Map<string, string[]>();
    for (const [key, target] of Object.entries(mapping)) {
      if (typeof target !== "string") continue;
      const ref = mappingRef(target);
      if (ref === undefined) continue;
      keysByRef.set(ref, [...(keysByRef.get(ref) ?? []), key]);
    }
    const branches = [...arrayOf(parent.schema.oneOf), ...arrayOf(parent.schema.anyOf)];
    const targets = new Set<string>();
    for (const branch of branches) if (isObject(branch) && typeof branch.$ref === "string") targets.add(branch.$ref);
    for (const ref of keysByRef.keys()) targets.add(ref);
    if (branches.length === 0) for (const ref of subtypesOf.get(parent.ref) ?? []) targets.add(ref);

    // OpenAPI 3.2: the defaultMapping schema takes any tag the mapping does not name (or none), so it gets no tag.
    const fallback = isObject(parent.schema.discriminator) ? (parent.schema.discriminator as JsonObject).defaultMapping : undefined;
    const fallbackRef = typeof fallback === "string" ? mappingRef(fallback) : undefined;
    for (const ref of targets) {
      if (ref === fallbackRef) continue;
      const target = resolve(ref);
      // A branch that is not an object (GitHub maps `array` to an array schema) has no property to carry a tag.
      if (!isObject(target) || target === parent.schema || !mayBeObject(target)) continue;
      if (pinnedValues(target, parent.propertyName, resolve, parent) !== undefined) continue;
      const keys = keysByRef.get(ref);
      const type = propertyType(target, parent.propertyName, resolve) ?? propertyType(parent.schema, parent.propertyName, resolve);
      const values: Scalar[] = keys ? keys.map((key) => asPropertyType(key, type)) : [schemaName(ref)];
      const byProperty = tags.get(ref) ?? new Map<string, Scalar[]>();
      const known = byProperty.get(parent.propertyName) ?? [];
      for (const value of values) if (!known.includes(value)) known.push(value);
      byProperty.set(parent.propertyName, known);
      tags.set(ref, byProperty);
    }
  }

  const updates: [string[], unknown][] = [];
  for (const [ref, byProperty] of tags) {
    const pointer = parsePointer(ref.slice(1));
    let schema = resolvePointer(document, pointer) as JsonObject;
    for (const [propertyName, values] of byProperty) schema = withTag(schema, propertyName, values);
    updates.push([pointer, schema]);
  }
  return setAll(document, updates);
}

/**
 * The bundled document with every `oneOf`/`anyOf` branch that pins the discriminator property to string values
 * (`const`, or `enum`, directly or through `$ref`/`allOf`) and is not in the `mapping` added to it under those
 * values. That is what the branch's schema already says (its own schema name could never validate against it), so
 * the router's validator and its mock answers dispatch on the tag the wire carries.
 */
export function explicitMappings(broken: JsonObject): JsonObject {
  const resolve = resolverIn(broken);
  const updates: [string[], unknown][] = [];
  for (const parent of scanSchemas(broken).discriminated) {
    const discriminator = parent.schema.discriminator as JsonObject;
    const mapping = isObject(discriminator.mapping) ? (discriminator.mapping as JsonObject) : {};
    const mapped = new Set(Object.values(mapping).flatMap((target) => (typeof target === "string" ? [mappingRef(target)] : [])));
    const added: Record<string, string> = {};
    for (const branch of [...arrayOf(parent.schema.oneOf), ...arrayOf(parent.schema.anyOf)]) {
      if (!isObject(branch) || typeof branch.$ref !== "string" || mapped.has(branch.$ref)) continue;
      const target = resolve(branch.$ref);
      if (!isObject(target) || target === parent.schema) continue;
      for (const value of pinnedValues(target, parent.propertyName, resolve, parent) ?? []) {
        if (typeof value === "string" && !(value in mapping) && !(value in added)) added[value] = branch.$ref;
      }
    }
    if (Object.keys(added).length === 0) continue;
    updates.push([parsePointer(parent.ref.slice(1)), { ...parent.schema, discriminator: { ...discriminator, mapping: { ...mapping, ...added } } }]);
  }
  return setAll(broken, updates);
}

/**
 * A child that `allOf`-extends its own parent while the parent lists it under `oneOf`/`anyOf` (with a
 * discriminator or not; `Pet: {oneOf: [Cat, Dog]}`, `Cat: {allOf: [Pet, …]}`) is a cycle: as types, `Pet` is `… & (Cat | Dog)` and
 * `Cat` is `Pet & …`, which TypeScript rejects (TS2502), and a validator following it never ends. What the child
 * means is "the parent's own constraints, and mine": its `allOf` entry for the parent is replaced by the parent
 * without `oneOf`/`anyOf`/`discriminator` (dropped when nothing else is left). A value valid for the child is
 * valid for the parent either way (the parent's union includes the child), so nothing that was accepted changes.
 *
 * Only edges that close such a cycle are rewritten; nodes are copied only where one is.
 */
export function breakInheritanceCycles(document: JsonObject): JsonObject {
  const components = isObject(document.components) && isObject(document.components.schemas) ? (document.components.schemas as JsonObject) : undefined;
  if (!components) return document;
  const prefix = "#/components/schemas/";
  const nameOf = (ref: string): string | undefined => {
    if (!ref.startsWith(prefix)) return undefined;
    const [name, ...rest] = parsePointer(ref.slice(prefix.length - 1));
    return rest.length === 0 && name !== undefined && Object.prototype.hasOwnProperty.call(components, name) ? name : undefined;
  };
  const isUnion = (schema: unknown) => isObject(schema) && (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf));

  let schemas = components;
  for (let round = 0; round < 100; round++) {
    // Composition edges between component schemas (through inline allOf/oneOf/anyOf parts, not through properties).
    const edges = new Map<string, { to: string; viaAllOf: boolean }[]>();
    for (const name of Object.keys(schemas)) {
      const list: { to: string; viaAllOf: boolean }[] = [];
      compositionRefs(schemas[name], true, (ref, viaAllOf) => {
        const to = nameOf(ref);
        if (to !== undefined) list.push({ to, viaAllOf });
      });
      edges.set(name, list);
    }
    const reaches = (from: string, target: string): boolean => {
      const seen = new Set<string>([from]);
      const stack = [from];
      while (stack.length > 0) {
        for (const edge of edges.get(stack.pop()!) ?? []) {
          if (edge.to === target) return true;
          if (!seen.has(edge.to)) {
            seen.add(edge.to);
            stack.push(edge.to);
          }
        }
      }
      return false;
    };
    let changed = false;
    for (const [name, list] of edges) {
      const parents = new Set(list.filter((e) => e.viaAllOf && e.to !== name && isUnion(schemas[e.to]) && reaches(e.to, name)).map((e) => e.to));
      if (parents.size === 0) continue;
      const rewritten = replaceAllOfRefs(schemas[name], (ref) => {
        const parent = nameOf(ref);
        if (parent === undefined || !parents.has(parent)) return undefined;
        const inherited = ownConstraints(schemas[parent] as JsonObject);
        if (inherited) inheritedFrom.set(inherited, prefix + escapePointerSegment(parent));
        return inherited;
      });
      if (rewritten !== schemas[name]) {
        if (schemas === components) schemas = { ...components };
        schemas[name] = rewritten;
        changed = true;
      }
    }
    if (!changed) break;
  }
  if (schemas === components) return document;
  return { ...document, components: { ...(document.components as JsonObject), schemas } };
}

/** The parent constraints breakInheritanceCycles put in a child's `allOf`, by the parent they come from. */
const inheritedFrom = new WeakMap<object, string>();

/** Every `$ref` reachable from a schema through allOf/oneOf/anyOf (inline parts followed, `$ref`s not). */
function compositionRefs(schema: unknown, viaAllOf: boolean, found: (ref: string, viaAllOf: boolean) => void, depth = 0): void {
  if (!isObject(schema) || depth > 64) return;
  for (const key of ["allOf", "oneOf", "anyOf"] as const) {
    for (const part of arrayOf(schema[key])) {
      if (!isObject(part)) continue;
      const allOfPath = viaAllOf && key === "allOf";
      if (typeof part.$ref === "string") found(part.$ref, allOfPath);
      else compositionRefs(part, allOfPath, found, depth + 1);
    }
  }
}

/** The schema with `allOf` entries that are `$ref`s replaced (or removed, for `null`) by `replace`; inline parts too. */
function replaceAllOfRefs(schema: unknown, replace: (ref: string) => JsonObject | null | undefined, depth = 0): unknown {
  if (!isObject(schema) || depth > 64) return schema;
  let copy: JsonObject | undefined;
  for (const key of ["allOf", "oneOf", "anyOf"] as const) {
    const parts = schema[key];
    if (!Array.isArray(parts)) continue;
    const next: unknown[] = [];
    let changed = false;
    for (const part of parts) {
      if (key === "allOf" && isObject(part) && typeof part.$ref === "string") {
        const replacement = replace(part.$ref);
        if (replacement !== undefined) {
          changed = true;
          if (replacement !== null) next.push(replacement);
          continue;
        }
      }
      const walked = key === "allOf" ? replaceAllOfRefs(part, replace, depth + 1) : part;
      if (walked !== part) changed = true;
      next.push(walked);
    }
    if (changed) (copy ??= { ...schema })[key] = next;
  }
  return copy ?? schema;
}

/** A schema without its union and discriminator: what a child that extends it inherits. `null` when nothing is left. */
function ownConstraints(schema: JsonObject): JsonObject | null {
  const { oneOf: _oneOf, anyOf: _anyOf, discriminator: _discriminator, ...rest } = schema;
  const constraining = Object.keys(rest).filter((key) => !ANNOTATIONS.has(key) && !key.startsWith("x-"));
  if (constraining.length === 0) return null;
  return Object.fromEntries(Object.entries(rest).filter(([key]) => !ANNOTATIONS.has(key)));
}

interface Scan {
  /** Every schema with a `discriminator.propertyName`, anywhere in the document, with its pointer. */
  discriminated: Discriminated[];
  /** Pointers of schemas with an `allOf` part that only makes properties required (see hoistRequiredOnlyParts). */
  requiredOnly: string[][];
}

/**
 * What scanSchemas found in each document. The loader's explicitMappings and the types' typesDocument are often given
 * the same document (when nothing between them changed it: GitHub's), the loader's markdownDescriptions walk finds
 * the same for the document it makes (SchemaScanner), and documents are not changed once made.
 */
const scans = new WeakMap<JsonObject, Scan>();

/** One walk over the document for what the discriminator and allOf corrections need. */
function scanSchemas(document: JsonObject): Scan {
  let scan = scans.get(document);
  if (scan === undefined) {
    const scanner = new SchemaScanner();
    const path: (string | number)[] = [];
    // The document is at most MAX_NESTING deep (checked by the loader); data keywords hold no schemas.
    const walk = (node: object, inNames: boolean) => {
      if (Array.isArray(node)) {
        for (let i = 0; i < node.length; i++) {
          const item: unknown = node[i];
          if (item === null || typeof item !== "object") continue;
          path.push(i);
          walk(item, false);
          path.pop();
        }
        return;
      }
      const obj = node as JsonObject;
      scanner.enter(obj, path);
      for (const key in obj) {
        const value = obj[key];
        if (value === null || typeof value !== "object" || !scanner.looksInto(key, inNames)) continue;
        path.push(key);
        walk(value, scanner.namesAt(key, value, inNames));
        path.pop();
      }
    };
    walk(document, false);
    scan = scanner.finish(document);
  }
  return scan;
}

/**
 * scanSchemas' findings, for a walk that visits the same objects in the same order (its own, and the loader's
 * markdownDescriptions, which makes the document the corrections then read): `enter` each object scanSchemas visits
 * (every object but those under `looksInto`'s skipped keys) before its children, `exit` it with the object that
 * stands in its place in the finished document, and `finish` with that document.
 */
export class SchemaScanner {
  private readonly scan: Scan = { discriminated: [], requiredOnly: [] };

  /**
   * Whether scanSchemas walks into a key's value: every entry of a map of names (a property called `example` is a
   * schema like any other); elsewhere not data keywords, `discriminator` or `x-` extensions, which hold no schemas.
   */
  looksInto(key: string, inNames: boolean): boolean {
    return inNames || (!SKIPPED.has(key) && !(key.charCodeAt(0) === 120 /* x */ && key.startsWith("x-")));
  }

  /** Whether the value scanSchemas walks into under `key` is a map of names (`properties`, `schemas`, …). */
  namesAt(key: string, value: object, inNames: boolean): boolean {
    return !inNames && NAME_MAPS.has(key) && !Array.isArray(value);
  }

  /** Records an object at `path`; what it returns is given to `exit`. */
  enter(obj: JsonObject, path: readonly (string | number)[]): Discriminated | undefined {
    const discriminator = obj.discriminator;
    let found: Discriminated | undefined;
    if (discriminator !== null && typeof discriminator === "object" && typeof (discriminator as JsonObject).propertyName === "string") {
      found = { schema: obj, ref: "#" + toJsonPointer(path), propertyName: (discriminator as JsonObject).propertyName as string };
      this.scan.discriminated.push(found);
    }
    if (Array.isArray(obj.allOf) && obj.allOf.some(isRequiredOnly)) this.scan.requiredOnly.push(path.map(String));
    return found;
  }

  /** The object `enter` recorded is `final` in the finished document (a copy, when the walk changed something in it). */
  exit(entered: Discriminated | undefined, final: JsonObject): void {
    if (entered) entered.schema = final;
  }

  /** What scanSchemas finds in `document`, the walk's result: remembered for it. */
  finish(document: JsonObject): Scan {
    scans.set(document, this.scan);
    return this.scan;
  }
}

/** `{type: object, required: [a]}` and nothing else that constrains: a part that only makes properties required. */
function isRequiredOnly(part: unknown): boolean {
  if (!isObject(part) || !Array.isArray(part.required) || part.required.length === 0) return false;
  return Object.keys(part).every((key) => key === "required" || (key === "type" && part.type === "object") || ANNOTATIONS.has(key) || key.startsWith("x-"));
}

/**
 * `allOf: [{$ref: Record}, {type: object, required: [priority]}]` — openapi-typescript types the second part as
 * `Record<string, never>`, so the intersection accepts nothing. The part's `required` means the same on the schema
 * that owns the `allOf` (one instance, one `required`), where openapi-typescript applies it to the `$ref`'d parts
 * (`WithRequired<…, "priority">`): it is moved there.
 */
function hoistRequiredOnlyParts(document: JsonObject, owners: readonly string[][]): JsonObject {
  if (owners.length === 0) return document;
  // An owner inside another owner's allOf: rewrite the inner one first, then the outer one around it.
  const nested = owners.some((a) => owners.some((b) => b.length > a.length && a.every((segment, i) => b[i] === segment)));
  if (nested) {
    return [...owners].sort((a, b) => b.length - a.length).reduce((doc, pointer) => hoistRequiredOnlyParts(doc, [pointer]), document);
  }
  const updates: [string[], unknown][] = [];
  for (const pointer of owners) {
    const owner = resolvePointer(document, pointer) as JsonObject;
    const parts = owner.allOf as unknown[];
    const required = new Set<unknown>(Array.isArray(owner.required) ? owner.required : []);
    for (const part of parts) if (isRequiredOnly(part)) for (const name of (part as JsonObject).required as unknown[]) required.add(name);
    const rest = parts.filter((part) => !isRequiredOnly(part));
    const { allOf: _allOf, ...others } = owner;
    updates.push([pointer, { ...others, required: [...required], ...(rest.length > 0 ? { allOf: rest } : {}) }]);
  }
  return setAll(document, updates);
}

const SKIPPED = new Set([...DATA_KEYWORDS, "discriminator"]);

/** Component schemas by the refs their `allOf` names directly: `#/components/schemas/Pet` → [refs of Cat, Dog]. */
function allOfSubtypes(document: JsonObject): Map<string, string[]> {
  const result = new Map<string, string[]>();
  const components = isObject(document.components) && isObject(document.components.schemas) ? (document.components.schemas as JsonObject) : {};
  for (const name of Object.keys(components)) {
    const schema = components[name];
    if (!isObject(schema)) continue;
    for (const part of arrayOf(schema.allOf)) {
      if (!isObject(part) || typeof part.$ref !== "string") continue;
      const ref = "#/components/schemas/" + escapePointerSegment(name);
      result.set(part.$ref, [...(result.get(part.$ref) ?? []), ref]);
    }
  }
  return result;
}

/** The values a schema pins `property` to (`const`, or a scalar `enum`), directly or through `$ref`/`allOf`. */
function pinnedValues(schema: JsonObject, property: string, resolve: (ref: string) => unknown, parent: Discriminated, depth = 0): Scalar[] | undefined {
  if (depth > 32) return undefined;
  const properties = schema.properties;
  if (isObject(properties) && Object.prototype.hasOwnProperty.call(properties, property)) {
    const values = pinnedBy(deref(properties[property], resolve));
    if (values) return values;
  }
  for (const part of arrayOf(schema.allOf)) {
    const resolved = deref(part, resolve);
    // The discriminated parent declares the property for every branch: it does not pin this branch's value.
    if (!isObject(resolved) || resolved === parent.schema || inheritedFrom.get(resolved) === parent.ref) continue;
    const values = pinnedValues(resolved, property, resolve, parent, depth + 1);
    if (values) return values;
  }
  return undefined;
}

function pinnedBy(schema: unknown): Scalar[] | undefined {
  if (!isObject(schema)) return undefined;
  if (isScalar(schema.const)) return [schema.const];
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.filter(isScalar);
    if (values.length > 0) return values;
  }
  return undefined;
}

/** The declared `type` of `property` in a schema (through `$ref`/`allOf`), for reading mapping keys. */
function propertyType(schema: JsonObject, property: string, resolve: (ref: string) => unknown, depth = 0): string | undefined {
  if (depth > 32) return undefined;
  const properties = schema.properties;
  if (isObject(properties) && Object.prototype.hasOwnProperty.call(properties, property)) {
    const declared = deref(properties[property], resolve);
    if (isObject(declared)) {
      if (typeof declared.type === "string") return declared.type;
      if (Array.isArray(declared.type)) return declared.type.find((t) => t !== "null") as string | undefined;
    }
  }
  for (const part of arrayOf(schema.allOf)) {
    const resolved = deref(part, resolve);
    if (!isObject(resolved)) continue;
    const type = propertyType(resolved, property, resolve, depth + 1);
    if (type) return type;
  }
  return undefined;
}

/** A mapping key as the value on the wire, for a property of type `type`. */
function asPropertyType(key: string, type: string | undefined): Scalar {
  if ((type === "integer" || type === "number") && key.trim() !== "" && Number.isFinite(Number(key))) return Number(key);
  if (type === "boolean" && /^(true|false)$/i.test(key)) return key.toLowerCase() === "true";
  return key;
}

/** A `mapping` value as a `$ref`: a JSON pointer stays, a bare name is a component schema. */
function mappingRef(target: string): string | undefined {
  if (target.startsWith("#")) return target;
  if (/^[A-Za-z0-9._-]+$/.test(target)) return "#/components/schemas/" + target;
  return undefined; // a reference into another file: the bundler has not rewritten mappings
}

/** The last segment of a `$ref`, unescaped: the implicit discriminator value. */
function schemaName(ref: string): string {
  const segments = parsePointer(ref.slice(1));
  return segments[segments.length - 1] ?? ref;
}

/** The schema with `property` required and typed as exactly `values` (keeping the property's description). */
function withTag(schema: JsonObject, property: string, values: Scalar[]): JsonObject {
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  const properties = isObject(schema.properties) ? schema.properties : undefined;
  const types = [...new Set(values.map((v) => (typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v)))];
  const tagSchema = { type: types.length === 1 ? types[0] : types.includes("number") ? types.map((t) => (t === "integer" ? "number" : t)).filter((t, i, all) => all.indexOf(t) === i) : types, enum: values };
  if (!Array.isArray(schema.allOf) && (properties || schema.type === "object")) {
    const declared = properties?.[property];
    const description = isObject(declared) && typeof declared.description === "string" ? { description: declared.description } : {};
    return {
      ...schema,
      properties: { ...properties, [property]: { ...description, ...tagSchema } },
      required: required.includes(property) ? required : [...required, property],
    };
  }
  const tag = { type: "object", required: [property], properties: { [property]: tagSchema } };
  return { ...schema, allOf: [...arrayOf(schema.allOf), tag] };
}

/** False for a schema that declares a `type` without `object` (an array, a string…). */
function mayBeObject(schema: JsonObject): boolean {
  const type = schema.type;
  if (typeof type === "string") return type === "object";
  if (Array.isArray(type)) return type.includes("object");
  return true;
}

/** What an internal `$ref` points at in `document` (undefined for any other); each ref is resolved once. */
function resolverIn(document: JsonObject): (ref: string) => unknown {
  const targets = new Map<string, unknown>();
  return (ref) => {
    if (!ref.startsWith("#")) return undefined;
    if (targets.has(ref)) return targets.get(ref);
    const target = resolvePointer(document, parsePointer(ref.slice(1)));
    targets.set(ref, target);
    return target;
  };
}

function deref(value: unknown, resolve: (ref: string) => unknown): unknown {
  let current = value;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string" && hops < 32; hops++) current = resolve(current.$ref);
  return current;
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isScalar(value: unknown): value is Scalar {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/**
 * A copy of `root` with the value at each pointer replaced; every object and array on the way to a replaced value is
 * copied once, however many values below it change, and nothing else is.
 */
export function setAll(root: JsonObject, updates: readonly [readonly string[], unknown][]): JsonObject {
  if (updates.length === 0) return root;
  interface Trie {
    value?: { set: unknown };
    children: Map<string, Trie>;
  }
  const trie: Trie = { children: new Map() };
  for (const [pointer, value] of updates) {
    let node = trie;
    for (const segment of pointer) {
      let next = node.children.get(segment);
      if (!next) node.children.set(segment, (next = { children: new Map() }));
      node = next;
    }
    node.value = { set: value };
  }
  const apply = (current: unknown, node: Trie): unknown => {
    if (node.value) return node.value.set;
    const copy: Record<string, unknown> | unknown[] = Array.isArray(current) ? [...current] : { ...(current as JsonObject) };
    for (const [segment, child] of node.children) (copy as Record<string, unknown>)[segment] = apply((current as Record<string, unknown>)[segment], child);
    return copy;
  };
  return apply(root, trie) as JsonObject;
}
