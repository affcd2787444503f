import { parsePointer, resolvePointer } from "../openapi/pointer.js";

/**
 * Sequential media types (OpenAPI 3.2 §"Sequential Media Types"): a body that is a stream of items. specforge
 * streams three families: Server-Sent Events, JSON Lines / NDJSON and JSON Text Sequences (RFC 7464). This module
 * decides, once, what one item of such a body is; the model (what the client parses and the router frames), the
 * types handed to openapi-typescript and the router's validation and mock answers all read the same answer.
 *
 * - `itemSchema` (3.2) describes one item. For `text/event-stream` the specification reads it as one *event*,
 *   `{ event, data, id, retry }`, whose `data` is a string that `contentMediaType` / `contentSchema` may say is
 *   JSON: such an item is yielded as the event with its `data` decoded. An `itemSchema` without a `data` property
 *   (Scalar's Galaxy writes its event payload there) describes the `data` itself, as 3.1 documents did.
 * - Without `itemSchema`, the `schema` of an event stream is its events' `data` (what 3.1 documents wrote, and
 *   what specforge has always read), and the `schema` of a JSON sequence is an array of items (3.2) or one item.
 */

type JsonObject = Record<string, unknown>;
type Schema = JsonObject | boolean;

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);

export type SequenceFormat = "sse" | "jsonl" | "json-seq";

/** The JSON Lines media types in use (none is IANA-registered; `application/jsonl` and NDJSON's are the common ones). */
export const JSON_LINES_TYPES = ["application/jsonl", "application/x-jsonl", "application/jsonlines", "application/x-jsonlines", "application/x-ndjson", "application/ndjson"];

/** How a media type's body is a sequence of items, if it is one specforge streams. */
export function sequenceFormat(mediaType: string): SequenceFormat | undefined {
  const essence = mediaType.split(";", 1)[0]!.trim().toLowerCase();
  if (essence === "text/event-stream") return "sse";
  if (JSON_LINES_TYPES.includes(essence)) return "jsonl";
  if (essence === "application/json-seq" || essence.endsWith("+json-seq")) return "json-seq";
  return undefined;
}

/** Which of several sequential media types a client asks for: SSE, then JSON Lines, then JSON Text Sequences. */
export function preferredSequence(types: readonly string[]): string | undefined {
  const rank = (type: string) => ({ sse: 0, jsonl: 1, "json-seq": 2 })[sequenceFormat(type)!];
  return types.filter((type) => sequenceFormat(type) !== undefined).sort((a, b) => rank(a) - rank(b))[0];
}

/**
 * How the items of an event stream are read and written. `events`: an item is a whole event (`{ event?, data, id?,
 * retry? }`, fields present as sent); otherwise an item is one event's `data`. `json`: whether `data` is JSON, for
 * every event, for none, or by event name (`message` for an event without an `event` field).
 */
export interface SseItems {
  events: boolean;
  json: boolean | { byEvent: Record<string, boolean>; otherwise: boolean };
}

/** One item of a sequential body. */
export interface ItemView {
  format: SequenceFormat;
  /** The schema of one item as the client yields it and a handler returns it (an event's `data` decoded). */
  schema: Schema | undefined;
  /** Event streams only. */
  sse?: SseItems;
}

/** Follows internal `$ref`s of the bundled document (a bounded number of hops). */
export type Deref = (node: unknown) => unknown;

export function derefIn(document: JsonObject): Deref {
  // The document does not change while it is read: each `$ref` is resolved once.
  const targets = new Map<string, unknown>();
  const target = (ref: string): unknown => {
    if (targets.has(ref)) return targets.get(ref);
    const found = resolvePointer(document, parsePointer(ref.slice(1)));
    targets.set(ref, found);
    return found;
  };
  return (node) => {
    let current = node;
    for (let hops = 0; hops < 32 && isObject(current) && typeof current.$ref === "string" && current.$ref.startsWith("#"); hops++) {
      current = target(current.$ref);
    }
    return current;
  };
}

/** The item of a sequential Media Type Object (`media` as written in the bundled document). */
export function itemView(media: JsonObject, format: SequenceFormat, deref: Deref): ItemView {
  const itemSchema = media.itemSchema as Schema | undefined;
  const schema = media.schema as Schema | undefined;
  if (format !== "sse") {
    if (itemSchema !== undefined) return { format, schema: itemSchema };
    const whole = deref(schema);
    const items = isObject(whole) && (whole.type === "array" || (Array.isArray(whole.type) && whole.type.includes("array"))) && whole.items !== undefined && !Array.isArray(whole.items) ? (whole.items as Schema) : undefined;
    return { format, schema: items ?? (isBinaryString(whole) ? undefined : schema) };
  }
  if (itemSchema === undefined) return { format, schema, sse: { events: false, json: !isTextOnly(schema, deref) } };
  const variants = expand(flatten(itemSchema, deref, 0));
  if (!variants.some((variant) => variant.props.has("data"))) return { format, schema: itemSchema, sse: { events: false, json: !isTextOnly(itemSchema, deref) } };
  const decoded = variants.map((variant) => decodeEvent(variant, deref));
  const json = jsonPlan(decoded);
  const schemas = decoded.map((event) => event.schema);
  return { format, schema: schemas.length === 1 ? schemas[0] : { anyOf: schemas }, sse: { events: true, json } };
}

/** The properties and `required` of an object schema with its `allOf` parts merged, and its `oneOf`/`anyOf` branches. */
interface Flat {
  props: Map<string, unknown[]>;
  required: Set<string>;
  branches: Flat[] | undefined;
}

function flatten(node: unknown, deref: Deref, depth: number): Flat {
  const flat: Flat = { props: new Map(), required: new Set(), branches: undefined };
  const schema = deref(node);
  // Compositions nest a few levels in practice; a deeper or cyclic one is read no further.
  if (!isObject(schema) || depth > 16) return flat;
  if (isObject(schema.properties)) for (const [name, value] of Object.entries(schema.properties)) flat.props.set(name, [value]);
  if (Array.isArray(schema.required)) for (const name of schema.required) if (typeof name === "string") flat.required.add(name);
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const inner = flatten(part, deref, depth + 1);
    merge(flat, inner);
    if (inner.branches && !flat.branches) flat.branches = inner.branches;
  }
  const union = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (union && union.length > 0) flat.branches = union.map((branch) => flatten(branch, deref, depth + 1));
  return flat;
}

function merge(into: Flat, from: Flat): void {
  for (const [name, schemas] of from.props) into.props.set(name, [...(into.props.get(name) ?? []), ...schemas]);
  for (const name of from.required) into.required.add(name);
}

/** Every combination of the base with one branch (recursively): the kinds of event a stream may carry. */
function expand(flat: Flat, depth = 0): Flat[] {
  if (!flat.branches || depth > 8) return [flat];
  return flat.branches.flatMap((branch) =>
    expand(branch, depth + 1).map((variant) => {
      const combined: Flat = { props: new Map(flat.props), required: new Set(flat.required), branches: undefined };
      merge(combined, variant);
      return combined;
    }),
  );
}

interface DecodedEvent {
  schema: JsonObject;
  /** The `event` values this kind of event has, when its schema pins them. */
  names: string[] | undefined;
  json: boolean;
}

const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

/** One kind of event, as the item the client yields: `data` as the JSON it carries, or as its text. */
function decodeEvent(variant: Flat, deref: Deref): DecodedEvent {
  const data = (variant.props.get("data") ?? []).filter((schema) => schema !== true);
  const resolved = data.map(deref).filter(isObject);
  const declaresJson = resolved.some((schema) => typeof schema.contentMediaType === "string" && JSON_MEDIA.test(schema.contentMediaType));
  // `data: {type: object}` (the learn site's example) cannot be a string, so it is JSON too.
  const typed = resolved.filter((schema) => schema.type !== undefined);
  const notText = typed.length > 0 && typed.every((schema) => !(Array.isArray(schema.type) ? schema.type : [schema.type]).includes("string"));
  const json = declaresJson || notText;
  let dataSchema: Schema;
  if (declaresJson) {
    const content = resolved.find((schema) => schema.contentSchema !== undefined)?.contentSchema;
    dataSchema = (content as Schema | undefined) ?? true;
  } else {
    dataSchema = data.length === 0 ? { type: "string" } : data.length === 1 ? (data[0] as Schema) : { allOf: data };
  }
  const field = (name: string, fallback: JsonObject): Schema => {
    const schemas = variant.props.get(name) ?? [];
    return schemas.length === 0 ? fallback : schemas.length === 1 ? (schemas[0] as Schema) : { allOf: schemas };
  };
  const required = ["data", ...["event", "id", "retry"].filter((name) => variant.required.has(name))];
  const schema: JsonObject = {
    type: "object",
    properties: {
      event: field("event", { type: "string" }),
      data: dataSchema,
      id: field("id", { type: "string" }),
      retry: field("retry", { type: "integer", minimum: 0 }),
    },
    required,
  };
  return { schema, names: pinnedStrings(variant.props.get("event") ?? [], deref), json };
}

/** The strings an `event` property is pinned to (`const`, `enum`), if any of its schemas pins it. */
function pinnedStrings(schemas: unknown[], deref: Deref): string[] | undefined {
  for (const node of schemas) {
    const schema = deref(node);
    if (!isObject(schema)) continue;
    if (typeof schema.const === "string") return [schema.const];
    if (Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === "string")) return schema.enum as string[];
  }
  return undefined;
}

function jsonPlan(events: DecodedEvent[]): SseItems["json"] {
  if (events.every((event) => event.json)) return true;
  if (events.every((event) => !event.json)) return false;
  const byEvent: Record<string, boolean> = {};
  let otherwise = false;
  for (const event of events) {
    if (event.names === undefined) otherwise ||= event.json;
    else for (const name of event.names) if (!Object.hasOwn(byEvent, name)) byEvent[name] = event.json;
  }
  return { byEvent, otherwise };
}

/** A schema that only admits strings (and says nothing of JSON): an event's data is then its text. */
function isTextOnly(node: unknown, deref: Deref): boolean {
  const schema = deref(node);
  if (!isObject(schema)) return false;
  if (typeof schema.contentMediaType === "string" && JSON_MEDIA.test(schema.contentMediaType)) return false;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.length === 1 && types[0] === "string" && !isBinaryString(schema);
}

/** `{type: string, format: binary}` (or 3.1's `contentEncoding`/`contentMediaType` bytes): the whole body as bytes. */
function isBinaryString(schema: unknown): boolean {
  return isObject(schema) && schema.type === "string" && (schema.format === "binary" || schema.contentEncoding !== undefined);
}
