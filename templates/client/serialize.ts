/**
 * Turns call parameters and bodies into URL, headers and request body, following OpenAPI 3.x parameter
 * serialisation (https://spec.openapis.org/oas/v3.1.1.html#style-values).
 */
import type { ParamSpec } from "./types.js";

/** Parameter values by name, as the caller passed them. */
export type ParamValues = Readonly<Record<string, unknown>>;

/** A body `fetch` can send, reusable across retries unless it is a `ReadableStream`. */
export type SerializedBody = string | Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array> | URLSearchParams | FormData;

// ---------------------------------------------------------------------------------------------------------------
// Parameters
// ---------------------------------------------------------------------------------------------------------------

/** Replaces each `{name}` of `template` with the serialised path parameter; throws when one is missing. */
export function serializePath(template: string, specs: ReadonlyMap<string, ParamSpec>, values: ParamValues = {}): string {
  return pathSerializer(template, specs)(values);
}

/**
 * `serializePath` for one template, split once: literal parts and parameter names alternate, so a call only
 * concatenates (an operation's path is built on every call).
 */
export function pathSerializer(template: string, specs: ReadonlyMap<string, ParamSpec>): (values?: ParamValues) => string {
  const parts = template.split(/\{([^}]+)\}/); // literal, name, literal, name, …, literal
  if (parts.length === 1) return () => template;
  const params = parts.map((part, i) => (i % 2 === 1 ? (specs.get(part) ?? { name: part }) : undefined));
  return (values = {}) => {
    let out = parts[0]!;
    for (let i = 1; i < parts.length; i += 2) {
      const name = parts[i]!;
      const value = values[name];
      if (value === undefined || value === null) throw new TypeError(`Missing path parameter "${name}"`);
      out += pathValue(params[i]!, value) + parts[i + 1]!;
    }
    return out;
  };
}

function pathValue(spec: ParamSpec, value: unknown): string {
  const encode = encodeURIComponent;
  if (spec.content) return encode(contentValue(value));
  const style = spec.style ?? "simple";
  const explode = spec.explode ?? false;
  // label: ".a.b" / ".a,b"; matrix: ";n=a;n=b" / ";n=a,b"; simple: "a,b".
  const prefix = style === "label" ? "." : "";
  const named = (text: string) => (style === "matrix" ? `;${spec.name}=${text}` : prefix + text);
  if (Array.isArray(value)) {
    const items = value.filter(isPresent).map((item) => encode(text(item)));
    if (!explode) return named(items.join(","));
    return style === "matrix" ? items.map(named).join("") : prefix + items.join(style === "label" ? "." : ",");
  }
  if (isRecord(value)) {
    const entries = presentEntries(value);
    if (!explode) return named(entries.flatMap(([k, v]) => [encode(k), encode(text(v))]).join(","));
    const pairs = entries.map(([k, v]) => `${encode(k)}=${encode(text(v))}`);
    return style === "matrix" ? pairs.map((pair) => `;${pair}`).join("") : prefix + pairs.join(style === "label" ? "." : ",");
  }
  return named(encode(text(value)));
}

/**
 * Serialises query parameters in the order the caller gave them; `null`/`undefined` values are left out. A key the
 * spec does not list is sent with the default style (form, exploded).
 */
export function serializeQuery(specs: ReadonlyMap<string, ParamSpec>, values: ParamValues = {}): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (isPresent(value)) queryValue(specs.get(name) ?? { name }, value, parts);
  }
  return parts.join("&");
}

function queryValue(spec: ParamSpec, value: unknown, out: string[]): void {
  const encode = spec.allowReserved ? encodeAllowReserved : encodeURIComponent;
  const name = encodeURIComponent(spec.name);
  if (spec.content) {
    out.push(`${name}=${encode(contentValue(value))}`);
    return;
  }
  const style = spec.style ?? "form";
  if (style === "deepObject") {
    deepObject(name, value, encode, out);
    return;
  }
  const explode = spec.explode ?? style === "form";
  const delimiter = style === "spaceDelimited" ? "%20" : style === "pipeDelimited" ? "|" : ",";
  if (Array.isArray(value)) {
    const items = value.filter(isPresent).map((item) => encode(text(item)));
    if (explode) for (const item of items) out.push(`${name}=${item}`);
    else out.push(`${name}=${items.join(delimiter)}`);
  } else if (isRecord(value)) {
    const entries = presentEntries(value);
    if (explode) for (const [k, v] of entries) out.push(`${encodeURIComponent(k)}=${encode(text(v))}`);
    else out.push(`${name}=${entries.flatMap(([k, v]) => [encode(k), encode(text(v))]).join(delimiter)}`);
  } else {
    out.push(`${name}=${encode(text(value))}`);
  }
}

/**
 * `name[key]=value`. OpenAPI defines deepObject for flat objects only; nested objects continue the brackets and
 * arrays are indexed (`name[tags][0]=a`), the form Stripe and Rails-style servers read.
 */
function deepObject(prefix: string, value: unknown, encode: (text: string) => string, out: string[]): void {
  if (Array.isArray(value)) value.forEach((item, i) => isPresent(item) && deepObject(`${prefix}[${i}]`, item, encode, out));
  else if (isRecord(value)) for (const [k, v] of presentEntries(value)) deepObject(`${prefix}[${encodeURIComponent(k)}]`, v, encode, out);
  else out.push(`${prefix}=${encode(text(value))}`);
}

/** Sets header parameters (style simple: arrays and objects comma-joined) on `headers`. */
export function serializeHeaders(specs: ReadonlyMap<string, ParamSpec>, values: ParamValues | undefined, headers: Headers): void {
  for (const [name, value] of Object.entries(values ?? {})) {
    if (!isPresent(value)) continue;
    const spec = specs.get(name) ?? { name };
    headers.set(spec.name, spec.content ? contentValue(value) : simpleValue(value, spec.explode ?? false));
  }
}

/**
 * The `Cookie` header for cookie parameters (style form), or `undefined` when none are set. Browsers do not let
 * scripts set this header; there the cookies of the page's origin are sent instead.
 */
export function serializeCookies(specs: ReadonlyMap<string, ParamSpec>, values: ParamValues = {}): string | undefined {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (!isPresent(value)) continue;
    const spec = specs.get(name) ?? { name };
    const serialized = spec.content ? contentValue(value) : simpleValue(value, false);
    pairs.push(`${spec.name}=${encodeURIComponent(serialized)}`);
  }
  return pairs.length > 0 ? pairs.join("; ") : undefined;
}

function simpleValue(value: unknown, explode: boolean): string {
  if (Array.isArray(value)) return value.filter(isPresent).map(text).join(",");
  if (isRecord(value)) {
    const entries = presentEntries(value);
    return (explode ? entries.map(([k, v]) => `${k}=${text(v)}`) : entries.flatMap(([k, v]) => [k, text(v)])).join(",");
  }
  return text(value);
}

/** A parameter declared with `content` (a media type instead of a style): JSON unless it is already a string. */
function contentValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** `allowReserved`: keep `:/?[]@!$'()*+,;` literal; `#`, `&` and `=` stay encoded because they would end the value. */
function encodeAllowReserved(value: string): string {
  return encodeURIComponent(value).replace(/%(3A|2F|3F|5B|5D|40|24|2B|2C|3B)/gi, (escape) => decodeURIComponent(escape));
}

// ---------------------------------------------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------------------------------------------

/** True for `application/json` and structured-syntax JSON types such as `application/problem+json`. */
export function isJsonMediaType(mediaType: string): boolean {
  const essence = mediaTypeEssence(mediaType);
  return essence === "application/json" || essence.endsWith("+json");
}

/** `"Application/JSON; charset=utf-8"` → `"application/json"`. */
export function mediaTypeEssence(mediaType: string): string {
  return mediaType.split(";", 1)[0]!.trim().toLowerCase();
}

/**
 * Serialises `value` as `mediaType`. `contentType` is `undefined` for multipart, whose header (with its boundary) fetch
 * writes itself.
 */
export function serializeBody(mediaType: string, value: unknown): { body: SerializedBody; contentType: string | undefined } {
  const essence = mediaTypeEssence(mediaType);
  if (isJsonMediaType(essence)) return { body: JSON.stringify(value), contentType: mediaType };
  if (essence === "application/x-www-form-urlencoded") {
    return { body: value instanceof URLSearchParams ? value : formUrlEncoded(value), contentType: mediaType };
  }
  if (essence.startsWith("multipart/")) {
    return { body: value instanceof FormData ? value : multipart(value), contentType: undefined };
  }
  if (isBodyInit(value)) {
    // A wildcard such as "image/*" is no Content-Type; prefer the Blob's own type.
    const contentType = essence.includes("*") ? (value instanceof Blob && value.type) || "application/octet-stream" : mediaType;
    return { body: value, contentType };
  }
  return { body: essence.startsWith("text/") ? text(value) : JSON.stringify(value), contentType: mediaType };
}

function formUrlEncoded(value: unknown): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, field] of presentEntries(value)) {
    for (const item of Array.isArray(field) ? field : [field]) if (isPresent(item)) params.append(name, text(item));
  }
  return params;
}

/** Blobs (and Files) become file parts, arrays repeat the field, objects are sent as JSON text. */
function multipart(value: unknown): FormData {
  const form = new FormData();
  for (const [name, field] of presentEntries(value)) {
    for (const item of Array.isArray(field) ? field : [field]) {
      if (!isPresent(item)) continue;
      if (item instanceof Blob) form.append(name, item);
      else if (item instanceof ArrayBuffer || ArrayBuffer.isView(item)) form.append(name, new Blob([copyBytes(item)]));
      else form.append(name, text(item));
    }
  }
  return form;
}

function isBodyInit(value: unknown): value is SerializedBody {
  return (
    typeof value === "string" ||
    value instanceof Blob ||
    value instanceof ArrayBuffer ||
    ArrayBuffer.isView(value) ||
    value instanceof ReadableStream ||
    value instanceof URLSearchParams ||
    value instanceof FormData
  );
}

/** A copy of binary data in a fresh buffer: a Blob part may not be a view of shared memory. */
function copyBytes(data: ArrayBuffer | ArrayBufferView) {
  const view = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const copy = new Uint8Array(view.byteLength);
  copy.set(view);
  return copy;
}

// ---------------------------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------------------------

/** One value as text: dates as ISO 8601, objects as JSON, everything else by `String`. */
function text(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return String(value);
}

function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !(value instanceof Date) && !Array.isArray(value);
}

function presentEntries(value: unknown): [string, unknown][] {
  return isRecord(value) ? Object.entries(value).filter(([, v]) => isPresent(v)) : [];
}
