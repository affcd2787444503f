import { setAll } from "./discriminators.js";
import { DATA_KEYWORDS, NAME_MAPS, OAS31_METHODS } from "../openapi/vocabulary.js";
import { FIXED_METHODS, operationsOf } from "./operations.js";
import { derefIn, itemView, sequenceFormat } from "./sequential.js";

/**
 * openapi-typescript 7 (the types engine, in maintenance mode) reads OpenAPI 3.0 and 3.1. What 3.2 adds that it
 * cannot read is translated here into what it can, in a copy of the bundled document made for it alone:
 *
 * - A sequential media type's item (`itemSchema`, or the `data` of a 3.2 event, see sequential.ts) becomes the
 *   media type's `schema`, so `content["application/jsonl"]` is the item type, as `content["text/event-stream"]`
 *   always was for 3.1 documents. (openapi-typescript types a media type without `schema` as `unknown`.)
 * - An `in: querystring` parameter (its types come from its `content`) becomes a query parameter with a reserved
 *   name and that schema; the emitter moves it to `parameters.querystring` (see emit/types.ts).
 * - Operations openapi-typescript does not know (`query`, `additionalOperations`) are handed to it as the `get` of
 *   a path item under a reserved path; the emitter moves each to its own path as `paths[p]["query"]` or
 *   `paths[p]["COPY"]`, next to the path's other methods. A path item that is a `$ref` is inlined for that.
 *
 * - An Example Object's `dataValue` (3.2) is the media type's `example`, which openapi-typescript shows in JSDoc.
 * - A schema's `$defs` go: openapi-typescript writes them into the object type as a required `$defs` property,
 *   which no value on the wire has, and every `$ref` into them already points at the copy the bundler hoisted into
 *   `components.schemas`.
 *
 * Nothing else is changed; a document without these comes back as it is.
 */
export interface TypesTranslation {
  document: JsonObject;
  /** Operations moved to reserved paths: where each is, and the path and method it belongs to. */
  moved: { key: string; path: string; method: string }[];
  /** Whether any querystring parameter was renamed QUERYSTRING_MARKER. */
  querystring: boolean;
}

/** The name a querystring parameter gets as a query parameter: not one a spec can have (it starts with NUL). */
export const QUERYSTRING_MARKER = "\u0000querystring";

/** The reserved path an operation openapi-typescript does not know is handed over under. */
export function movedOperationKey(path: string, method: string): string {
  return `\u0000${method}\u0000${path}`;
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);

/** The methods openapi-typescript types in a path item. */

/** `defs: false`: the document has no `$defs` key anywhere (the loader knows), so none is looked for. */
export function translateForTypes(bundled: JsonObject, options: { defs?: boolean } = {}): TypesTranslation {
  const { defs = true } = options;
  const deref = derefIn(bundled);
  const updates: [string[], unknown][] = [];
  let querystring = false;

  const content = (value: unknown, pointer: string[]) => {
    if (!isObject(value)) return;
    for (const type of Object.keys(value)) {
      const written = value[type];
      if (!isObject(written)) continue;
      let media: JsonObject = written;
      const format = sequenceFormat(type);
      const example = dataValueExample(media);
      if (!format && !example) continue;
      if (example) media = { ...media, example: example.value };
      if (format) {
        const item = itemView(media, format, deref).schema;
        const { itemSchema: _item, ...rest } = media;
        media = { ...rest, schema: item ?? {} };
      }
      updates.push([[...pointer, type], media]);
    }
  };
  const parameter = (value: unknown, pointer: string[]) => {
    if (!isObject(value) || value.in !== "querystring" || !isObject(value.content)) return;
    const media = Object.values(value.content)[0];
    const { content: _content, ...rest } = value;
    querystring = true;
    updates.push([pointer, { ...rest, in: "query", name: QUERYSTRING_MARKER, schema: (isObject(media) ? media.schema : undefined) ?? {} }]);
  };
  const operation = (op: JsonObject, pointer: string[]) => {
    if (Array.isArray(op.parameters)) op.parameters.forEach((p, i) => parameter(p, [...pointer, "parameters", String(i)]));
    if (isObject(op.requestBody)) content(op.requestBody.content, [...pointer, "requestBody", "content"]);
    if (isObject(op.responses)) {
      for (const [status, response] of Object.entries(op.responses)) if (isObject(response)) content(response.content, [...pointer, "responses", status, "content"]);
    }
    if (isObject(op.callbacks)) {
      for (const [name, callback] of Object.entries(op.callbacks)) {
        if (isObject(callback)) for (const [expression, item] of Object.entries(callback)) pathItem(item, [...pointer, "callbacks", name, expression]);
      }
    }
  };
  const pathItem = (value: unknown, pointer: string[]) => {
    if (!isObject(value) || typeof value.$ref === "string") return;
    if (Array.isArray(value.parameters)) value.parameters.forEach((p, i) => parameter(p, [...pointer, "parameters", String(i)]));
    for (const { at, operation: op } of operationsOf(value).operations) operation(op, [...pointer, ...at]);
  };

  for (const root of ["paths", "webhooks"]) {
    const items = bundled[root];
    if (isObject(items)) for (const [key, item] of Object.entries(items)) pathItem(item, [root, key]);
  }
  const components = isObject(bundled.components) ? bundled.components : {};
  for (const [section, walk] of [
    ["responses", (v: unknown, p: string[]) => isObject(v) && content(v.content, [...p, "content"])],
    ["requestBodies", (v: unknown, p: string[]) => isObject(v) && content(v.content, [...p, "content"])],
    ["parameters", parameter],
    ["pathItems", pathItem],
  ] as const) {
    const entries = components[section];
    if (isObject(entries)) for (const [name, value] of Object.entries(entries)) walk(value, ["components", section, name]);
  }
  const callbacks = components.callbacks;
  if (isObject(callbacks)) {
    for (const [name, callback] of Object.entries(callbacks)) {
      if (isObject(callback)) for (const [expression, item] of Object.entries(callback)) pathItem(item, ["components", "callbacks", name, expression]);
    }
  }
  let document = setAll(bundled, updates);

  // Operations openapi-typescript skips: each as the `get` of a reserved path, with its path item's parameters.
  const moved: TypesTranslation["moved"] = [];
  const paths = isObject(document.paths) ? document.paths : {};
  const pathUpdates: [string[], unknown][] = [];
  const derefTranslated = derefIn(document);
  for (const [path, written] of Object.entries(paths)) {
    const item = derefTranslated(written);
    if (!isObject(item)) continue;
    const extra = operationsOf(item).operations.filter(({ method }) => !OAS31_METHODS.has(method));
    if (extra.length === 0) continue;
    // A `$ref`'d path item is typed as a reference; inlined, the path gets a type of its own to add methods to.
    if (item !== written) pathUpdates.push([["paths", path], item]);
    for (const { method, operation: op } of extra) {
      const key = movedOperationKey(path, method);
      pathUpdates.push([["paths", key], { ...(item.parameters !== undefined ? { parameters: item.parameters } : {}), get: op }]);
      moved.push({ key, path, method });
    }
  }
  document = setAll(document, pathUpdates);
  return { document: defs ? (withoutDefs(document) as JsonObject) : document, moved, querystring };
}

/**
 * The document without any schema's `$defs` (copied only where one is). Walks what `walkSchemaNodes` walks: not
 * data (`example`, `enum`, …, `x-` extensions), and the keys of name maps (`properties`, …) are names, not keywords.
 */
function withoutDefs(node: unknown, namesHere = false): unknown {
  if (node === null || typeof node !== "object") return node;
  if (Array.isArray(node)) {
    let copy: unknown[] | undefined;
    node.forEach((item, i) => {
      const next = withoutDefs(item);
      if (next !== item) (copy ??= [...node])[i] = next;
    });
    return copy ?? node;
  }
  const obj = node as JsonObject;
  let copy: JsonObject | undefined;
  for (const key in obj) {
    if (!namesHere && (DATA_KEYWORDS.has(key) || key.startsWith("x-"))) continue;
    const value = obj[key];
    if (value === null || typeof value !== "object") continue;
    if (!namesHere && key === "$defs") {
      copy ??= { ...obj };
      delete copy.$defs;
      continue;
    }
    const next = withoutDefs(value, !namesHere && NAME_MAPS.has(key));
    if (next !== value) (copy ??= { ...obj })[key] = next;
  }
  return copy ?? obj;
}

/**
 * A media type's first Example Object `dataValue` (OpenAPI 3.2), when it has no `example`: handed to
 * openapi-typescript as the `example` it shows in JSDoc (it reads no `examples`).
 */
function dataValueExample(media: JsonObject): { value: unknown } | undefined {
  if ("example" in media || !isObject(media.examples)) return undefined;
  const first = Object.values(media.examples)[0];
  return isObject(first) && "dataValue" in first ? { value: first.dataValue } : undefined;
}

/** Whether a path item method is one openapi-typescript types itself. */
export function isTypedMethod(method: string): boolean {
  return OAS31_METHODS.has(method);
}

export { FIXED_METHODS };
