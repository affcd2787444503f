/**
 * Turns call parameters and bodies into URL, headers and request body, following OpenAPI 3.x parameter
 * serialisation (https://spec.openapis.org/oas/v3.1.1.html#style-values) and the Encoding Object for form and
 * multipart bodies (https://spec.openapis.org/oas/v3.1.1.html#encoding-object).
 *
 * Percent-encoding follows RFC 6570 as OpenAPI 3.1.1 asks: only unreserved characters (`A-Z a-z 0-9 - . _ ~`) stay
 * literal in names and values, and the delimiters of the non-RFC 6570 styles are encoded in URLs (`|` as `%7C`,
 * deepObject's brackets as `%5B` / `%5D`). Form bodies write deepObject brackets literally, as Stripe's SDK does (every
 * form decoder reads both the same).
 */
import { isBodyInit, plainBody } from "./plain.js";
import type { RequestParams, RuntimeFeatures } from "./runtime.js";
import type { BodySpec, EncodingSpec, OperationSpec, ParamSerializers, ParamSpec, ParamStyle } from "./types.js";
import {
  FormPart,
  encodeUnreserved,
  isJsonMediaType,
  isPresent,
  isRecord as isPlainRecord,
  mediaTypeEssence,
  pathSerializer,
  presentEntries as plainEntries,
  text,
  type EncodedBody,
  type FormPartOptions,
  type ParamValues,
  type SerializedBody,
} from "./values.js";

export { FormPart, encodeUnreserved, isJsonMediaType, mediaTypeEssence, type FormPartOptions, type ParamValues, type SerializedBody };

/**
 * The OpenAPI style table for every parameter location, for a client whose spec has a parameter the request engine's
 * defaults do not cover (a style, `explode`, `allowReserved`, `content`, or an `in: querystring` parameter).
 */
export const styles: ParamSerializers = {
  path: pathValue,
  query: queryPairs,
  header: (spec, value) => (spec.content ? contentValue(value, spec.content) : simpleValue(value, spec.explode ?? false)),
  cookie: (spec, value) =>
    spec.style === "cookie" && !spec.content ? rfc6265Cookies(spec, value) : [`${spec.name}=${encodeURIComponent(spec.content ? contentValue(value, spec.content) : simpleValue(value, false))}`],
  querystring: (spec, value) => serializeQuerystring(spec.content, value, spec.encoding),
};

/** The body encoder of a client whose spec has form, multipart or media-range bodies: `serializeBody` by the spec. */
export const encodeBody = (mediaType: string, value: unknown, spec: BodySpec): EncodedBody => serializeBody(mediaType, value, spec.encoding, spec.positional);

/** The whole style table, for `createRuntime`. */
export const stylesFeature: RuntimeFeatures = { params: styles, querystring: wholeQueryString };

/**
 * The whole query string of a call to an operation with an `in: querystring` parameter, when the call gives it
 * as a list of one (`RuntimeFeatures.querystring`); else `undefined`, and the call's query parameters are sent one by one.
 */
export function wholeQueryString(spec: OperationSpec, params: RequestParams): [string] | undefined {
  const querystring = spec.params?.querystring;
  return querystring && isPresent(params.querystring) ? [styles.querystring!(querystring, params.querystring)] : undefined;
}

/** Form, multipart and media-range bodies, for `createRuntime`. */
export const bodiesFeature: RuntimeFeatures = { body: encodeBody };

// ---------------------------------------------------------------------------------------------------------------
// Percent-encoding
// ---------------------------------------------------------------------------------------------------------------

/**
 * `allowReserved`: RFC 6570 reserved expansion, minus what a query string cannot hold literally. Reserved characters
 * that mean nothing in a form query (`: / ? @ ! $ ' ( ) * , ;`) and existing `%XX` triples pass unchanged; `[ ] #`
 * (not allowed in a query) and `& = +` (form delimiters) are still encoded, as OpenAPI 3.1.1 requires.
 */
export function encodeReserved(text: string): string {
  return text
    .split(/(%[0-9A-Fa-f]{2})/)
    .map((part, i) => (i % 2 === 1 ? part : encodeURIComponent(part).replace(/%(3A|2F|3F|40|24|2C|3B)/gi, (escape) => decodeURIComponent(escape))))
    .join("");
}

/** How one target writes names, values and the delimiters of the non-RFC 6570 styles. */
interface Flavour {
  name(text: string): string;
  value(text: string): string;
  open: string;
  close: string;
  pipe: string;
  space: string;
}

const identity = (text: string) => text;
const URL_QUERY: Flavour = { name: encodeUnreserved, value: encodeUnreserved, open: "%5B", close: "%5D", pipe: "%7C", space: "%20" };
const URL_QUERY_RESERVED: Flavour = { ...URL_QUERY, value: encodeReserved };
const FORM_BODY: Flavour = { name: encodeUnreserved, value: encodeUnreserved, open: "[", close: "]", pipe: "%7C", space: "%20" };
const FORM_BODY_RESERVED: Flavour = { ...FORM_BODY, value: encodeReserved };
/** Multipart part names and values are not percent-encoded (RFC 7578). */
const MULTIPART: Flavour = { name: identity, value: identity, open: "[", close: "]", pipe: "|", space: " " };

// ---------------------------------------------------------------------------------------------------------------
// Parameters
// ---------------------------------------------------------------------------------------------------------------

/** Replaces each `{name}` of `template` with the serialised path parameter; throws when one is missing. */
export function serializePath(template: string, specs: ReadonlyMap<string, ParamSpec>, values: ParamValues = {}): string {
  return pathSerializer(template, [...specs.values()], pathValue)(values);
}

/** simple: `a,b`; label: `.a.b` / `.a,b`; matrix: `;n=a;n=b` / `;n=a,b` (RFC 6570 `{x}`, `{.x}`, `{;x}`). */
function pathValue(spec: ParamSpec, value: unknown): string {
  const encode = encodeUnreserved;
  if (spec.content) return encode(contentValue(value, spec.content));
  const style = spec.style ?? "simple";
  const explode = spec.explode ?? false;
  const prefix = style === "label" ? "." : "";
  // RFC 6570: a matrix parameter with an empty value is `;name`, without `=`.
  const named = (text: string) => (style === "matrix" ? `;${encode(spec.name)}${text === "" ? "" : `=${text}`}` : prefix + text);
  if (Array.isArray(value)) {
    const items = value.filter(isPresent).map((item) => encode(text(item)));
    if (!explode) return named(items.join(","));
    return style === "matrix" ? items.map(named).join("") : prefix + items.join(style === "label" ? "." : ",");
  }
  if (isRecord(value)) {
    const entries = presentEntries(value);
    if (!explode) return named(entries.flatMap(([k, v]) => [encode(k), encode(text(v))]).join(","));
    const pairs = entries.map(([k, v]) => `${encode(k)}${style === "matrix" && text(v) === "" ? "" : `=${encode(text(v))}`}`);
    return style === "matrix" ? pairs.map((pair) => `;${pair}`).join("") : prefix + pairs.join(style === "label" ? "." : ",");
  }
  return named(encode(text(value)));
}

/**
 * Serialises query parameters in the order the caller gave them; `null`/`undefined` values (and, as RFC 6570 says,
 * empty arrays and objects) are left out. A key the spec does not list is sent with the default style (form,
 * exploded).
 */
export function serializeQuery(specs: ReadonlyMap<string, ParamSpec>, values: ParamValues = {}): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(values)) if (isPresent(value)) pairs.push(...queryPairs(specs.get(name) ?? { name }, value));
  return pairs.join("&");
}

/** The `name=value` pairs of one query parameter, percent-encoded. */
function queryPairs(spec: ParamSpec, value: unknown): string[] {
  if (spec.content) return [`${encodeUnreserved(spec.name)}=${(spec.allowReserved ? encodeReserved : encodeUnreserved)(contentValue(value, spec.content))}`];
  const style = spec.style ?? "form";
  return styledPairs(spec.name, value, style, spec.explode ?? style === "form", spec.allowReserved ? URL_QUERY_RESERVED : URL_QUERY).map(([k, v]) => `${k}=${v}`);
}

/**
 * The `name=value` pairs of one value in a query-string style (form, spaceDelimited, pipeDelimited, deepObject),
 * written with `flavour`'s encoding. Names and values are encoded separately, so a delimiter inside a value is
 * always encoded.
 */
function styledPairs(name: string, value: unknown, style: ParamStyle, explode: boolean, flavour: Flavour): [string, string][] {
  const out: [string, string][] = [];
  if (style === "deepObject") {
    deepObject(flavour.name(name), value, flavour, out);
    return out;
  }
  const delimiter = style === "spaceDelimited" ? flavour.space : style === "pipeDelimited" ? flavour.pipe : ",";
  const key = flavour.name(name);
  if (Array.isArray(value)) {
    const items = value.filter(isPresent).map((item) => flavour.value(text(item)));
    if (items.length === 0) return out;
    if (explode) for (const item of items) out.push([key, item]);
    else out.push([key, items.join(delimiter)]);
  } else if (isRecord(value)) {
    const entries = presentEntries(value);
    if (entries.length === 0) return out;
    if (explode) {
      // Each property is a field of its own (`R=100&G=200`). Where OpenAPI is silent, a property that is itself a list
      // repeats its field, as an exploded array does, and an object is JSON, as in a form body without encoding.
      for (const [k, v] of entries) {
        for (const item of Array.isArray(v) ? v.filter(isPresent) : [v]) out.push([flavour.name(k), flavour.value(text(item))]);
      }
    } else out.push([key, entries.flatMap(([k, v]) => [flavour.value(k), flavour.value(text(v))]).join(delimiter)]);
  } else {
    out.push([key, flavour.value(text(value))]);
  }
  return out;
}

/**
 * `name[key]=value`. OpenAPI defines deepObject for objects of scalars only; where it is silent this does what
 * Stripe's SDK (and qs, Rails, PHP) do: nested objects continue the brackets and arrays are indexed
 * (`name[tags][0]=a`). A scalar is sent as `name=value`.
 */
function deepObject(prefix: string, value: unknown, flavour: Flavour, out: [string, string][]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => isPresent(item) && deepObject(`${prefix}${flavour.open}${i}${flavour.close}`, item, flavour, out));
  } else if (isRecord(value)) {
    for (const [k, v] of presentEntries(value)) deepObject(`${prefix}${flavour.open}${flavour.name(k)}${flavour.close}`, v, flavour, out);
  } else {
    out.push([prefix, flavour.value(text(value))]);
  }
}

/** Sets header parameters (style simple: arrays and objects comma-joined, never percent-encoded) on `headers`. */
export function serializeHeaders(specs: ReadonlyMap<string, ParamSpec>, values: ParamValues | undefined, headers: Headers): void {
  for (const [name, value] of Object.entries(values ?? {})) if (isPresent(value)) headers.set(specs.get(name)?.name ?? name, styles.header(specs.get(name) ?? { name }, value));
}

/**
 * The `Cookie` header for cookie parameters (each in its style), or `undefined` when none are set. Browsers do not let
 * scripts set this header; there the cookies of the page's origin are sent instead.
 */
export function serializeCookies(specs: ReadonlyMap<string, ParamSpec>, values: ParamValues = {}): string | undefined {
  const pairs = Object.entries(values)
    .filter(([, value]) => isPresent(value))
    .flatMap(([name, value]) => styles.cookie(specs.get(name) ?? { name }, value));
  return pairs.length > 0 ? pairs.join("; ") : undefined;
}

/** RFC 6265's cookie-octet: what a cookie value may hold as it is (no space, `"`, `,`, `;` or `\\`). */
const COOKIE_OCTETS = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;
/** RFC 6265's cookie-name (an HTTP token), for the property names of an exploded object. */
const COOKIE_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;

/**
 * OpenAPI 3.2's `style: cookie`: the pairs RFC 6265 sends, never percent-encoded; exploded (the default) an array is
 * the cookie repeated and an object one cookie per property, else one cookie of comma-joined values. A value a cookie
 * cannot carry as it is would become another cookie on the wire, so it is refused instead.
 */
function rfc6265Cookies(spec: ParamSpec, value: unknown): string[] {
  const octets = (piece: unknown, pattern = COOKIE_OCTETS): string => {
    const written = text(piece);
    if (!pattern.test(written)) throw new TypeError(`Cookie parameter ${spec.name} (style: cookie): ${JSON.stringify(written)} cannot be sent without percent-encoding`);
    return written;
  };
  const explode = spec.explode ?? true;
  if (Array.isArray(value)) {
    const items = value.filter(isPresent).map((item) => octets(item));
    return explode ? items.map((item) => `${spec.name}=${item}`) : [`${spec.name}=${items.join(",")}`];
  }
  if (isRecord(value)) {
    const entries = presentEntries(value).map(([key, item]) => [octets(key, COOKIE_NAME), octets(item)]);
    return explode ? entries.map(([key, item]) => `${key}=${item}`) : [`${spec.name}=${entries.flat().join(",")}`];
  }
  return [`${spec.name}=${octets(value)}`];
}

function simpleValue(value: unknown, explode: boolean): string {
  if (Array.isArray(value)) return value.filter(isPresent).map(text).join(",");
  if (isRecord(value)) {
    const entries = presentEntries(value);
    return (explode ? entries.map(([k, v]) => `${k}=${text(v)}`) : entries.flatMap(([k, v]) => [k, text(v)])).join(",");
  }
  return text(value);
}

/**
 * A parameter declared with `content` (a media type instead of a style). openapi-typescript types such a parameter
 * as a string, so a string is taken as already serialised; any other value is written as JSON for JSON media types.
 */
function contentValue(value: unknown, mediaType: string): string {
  return typeof value === "string" ? value : isJsonMediaType(mediaType) ? JSON.stringify(value) : text(value);
}

/**
 * A body property written by its Encoding Object's `contentType`: JSON for JSON media types (a string too, `"id"`
 * with its quotes, as the OpenAPI examples show), else text (objects as JSON).
 */
function encodedValue(value: unknown, mediaType: string): string {
  return isJsonMediaType(mediaType) ? JSON.stringify(value) : text(value);
}

/**
 * The whole query string from an `in: querystring` parameter (OpenAPI 3.2), without the `?`: a form
 * (`application/x-www-form-urlencoded`, written like a form body with its Encoding Objects; a `URLSearchParams` as
 * it is) is query-ready already; any other media type is serialised as that type (JSON for JSON types, a string as
 * it is) and percent-encoded, as the specification's examples show (`%7B%22numbers%22%3A%5B1%2C2%5D%7D`).
 */
export function serializeQuerystring(mediaType: string, value: unknown, encoding: Readonly<Record<string, EncodingSpec>> = {}): string {
  const essence = mediaTypeEssence(mediaType);
  if (essence === "application/x-www-form-urlencoded") return value instanceof URLSearchParams ? value.toString() : formUrlEncoded(value, encoding, true);
  return encodeUnreserved(isJsonMediaType(essence) ? JSON.stringify(value) : text(value));
}

// ---------------------------------------------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------------------------------------------

/**
 * A multipart field value with its own file name, Content-Type or headers:
 * `body: { file: formPart(bytes, { filename: "a.png", contentType: "image/png" }) }`.
 */
export function formPart(value: unknown, options?: FormPartOptions): FormPart {
  return new FormPart(value, options);
}

/**
 * Serialises `value` as `mediaType`, form and multipart bodies property by property as `encoding` (the spec's
 * Encoding Objects) says. A `FormData` or `URLSearchParams` the caller built is sent as it is.
 */
export function serializeBody(
  mediaType: string,
  value: unknown,
  encoding: Readonly<Record<string, EncodingSpec>> = {},
  positional?: { prefix?: readonly EncodingSpec[] | undefined; items?: EncodingSpec | undefined },
): EncodedBody {
  const essence = mediaTypeEssence(mediaType);
  if (isJsonMediaType(essence)) return { body: JSON.stringify(value), contentType: mediaType };
  if (essence === "application/x-www-form-urlencoded") {
    // A string is a form the caller encoded; anything else that is not an object has no name=value form.
    if (value instanceof URLSearchParams || typeof value === "string") return { body: value, contentType: mediaType };
    if (!isRecord(value) || isBinaryValue(value)) throw new TypeError(`A form-urlencoded body is name=value pairs: give an object (or a URLSearchParams or string), not ${Array.isArray(value) ? "an array" : typeof value}`);
    return { body: formUrlEncoded(value, encoding), contentType: mediaType };
  }
  if (essence.startsWith("multipart/")) {
    // fetch writes the Content-Type of a FormData (with its boundary) itself.
    if (value instanceof FormData) return { body: value, contentType: undefined };
    // OpenAPI 3.2 models parts without names (multipart/mixed) as an array: one part per item, in order.
    if (Array.isArray(value)) return encodeMultipart(essence, positionalParts(value, positional));
    return encodeMultipart(essence, multipartParts(value, encoding));
  }
  if (essence.includes("*")) return rangeBody(essence, value);
  return plainBody(mediaType, value);
}

/**
 * A body declared with a media range (any type, `image/` anything, `text/` anything), which is no Content-Type to
 * send: a Blob goes with its own type, bytes as `application/octet-stream`, text as `text/plain` and any other value
 * as JSON (Kubernetes declares the any-type range for the JSON objects its API server reads), each where the range
 * admits it.
 */
function rangeBody(range: string, value: unknown): EncodedBody {
  if (typeof value === "string" && matchesRange("text/plain", range)) return { body: value, contentType: "text/plain;charset=UTF-8" };
  // fetch writes the Content-Type of these itself (a FormData's with its boundary).
  if (value instanceof FormData || value instanceof URLSearchParams) return { body: value, contentType: undefined };
  if (isBodyInit(value)) {
    const own = value instanceof Blob ? value.type : "";
    return { body: value, contentType: own && matchesRange(mediaTypeEssence(own), range) ? own : "application/octet-stream" };
  }
  if (matchesRange("application/json", range)) return { body: JSON.stringify(value), contentType: "application/json" };
  if (matchesRange("text/plain", range)) return { body: text(value), contentType: "text/plain;charset=UTF-8" };
  return { body: JSON.stringify(value), contentType: "application/octet-stream" };
}

/** True when the Encoding Object asks for RFC 6570-style serialisation (any of `style`, `explode`, `allowReserved`). */
function isStyled(encoding: EncodingSpec | undefined): boolean {
  return encoding !== undefined && (encoding.style !== undefined || encoding.explode !== undefined || encoding.allowReserved !== undefined);
}

/**
 * `application/x-www-form-urlencoded`: a property with `style`/`explode`/`allowReserved` is written like a query
 * parameter with those settings (deepObject: `metadata[plan]=pro`, `preferred_locales[0]=fr`); any other is written
 * by content type: objects as JSON, arrays as one field per item, scalars as text.
 */
function formUrlEncoded(value: unknown, encoding: Readonly<Record<string, EncodingSpec>>, inQuery = false): string {
  const pairs: string[] = [];
  for (const [name, field] of presentEntries(value)) {
    const spec = ownValue(encoding, name);
    if (spec && isStyled(spec)) {
      const style = spec.style ?? "form";
      // In a URL the brackets are encoded too (RFC 3986 does not allow them in a query).
      const flavour = inQuery ? (spec.allowReserved ? URL_QUERY_RESERVED : URL_QUERY) : spec.allowReserved ? FORM_BODY_RESERVED : FORM_BODY;
      for (const [k, v] of styledPairs(name, field, style, spec.explode ?? style === "form", flavour)) pairs.push(`${k}=${v}`);
      continue;
    }
    for (const item of Array.isArray(field) && !(spec?.contentType && isJsonMediaType(spec.contentType)) ? field : [field]) {
      if (!isPresent(item)) continue;
      if (item instanceof Blob || item instanceof ArrayBuffer || ArrayBuffer.isView(item)) {
        throw new TypeError(`Form field "${name}": a form-urlencoded body cannot carry binary data; send it base64-encoded as text`);
      }
      const serialized = spec?.contentType ? encodedValue(item, spec.contentType) : text(item);
      pairs.push(`${encodeUnreserved(name)}=${encodeUnreserved(serialized)}`);
    }
  }
  return pairs.join("&");
}

/** One part of a multipart body. */
export interface MultipartPart {
  /** The form field (`Content-Disposition: form-data; name`); parts by position (`multipart/mixed`) have none. */
  name?: string | undefined;
  value: string | Blob;
  filename?: string | undefined;
  contentType?: string | undefined;
  headers?: readonly (readonly [string, string])[] | undefined;
}

/**
 * The parts of a multipart body: arrays repeat the field (one part per item); Blobs, Files and bytes are file parts;
 * objects are JSON parts (`Content-Type: application/json`); scalars are text parts. The spec's `encoding` sets a
 * part's Content-Type and headers, or (with `style`) splits a value into `name[key]` text parts.
 */
export function multipartParts(value: unknown, encoding: Readonly<Record<string, EncodingSpec>> = {}): MultipartPart[] {
  const parts: MultipartPart[] = [];
  for (const [name, field] of presentEntries(value)) {
    const spec = ownValue(encoding, name);
    // (A file is a part whatever the style: OpenAPI's styles serialise values, and bytes have no text form.)
    if (spec && isStyled(spec) && !(field instanceof FormPart) && !isBinaryValue(field) && !(Array.isArray(field) && field.some(isBinaryValue))) {
      const style = spec.style ?? "form";
      for (const [k, v] of styledPairs(name, field, style, spec.explode ?? style === "form", MULTIPART)) parts.push({ name: k, value: v });
      continue;
    }
    const items = Array.isArray(field) && !(spec?.contentType && isJsonMediaType(spec.contentType)) ? field : [field];
    for (const item of items) if (isPresent(item)) parts.push(multipartPart(name, item, spec));
  }
  return parts;
}

/**
 * The parts of a multipart body given by position (OpenAPI 3.2): item `i` is encoded by `prefix[i]`, later items by
 * `items`; each part carries its Content-Type (and the headers its Encoding Object pins), no name.
 */
export function positionalParts(values: readonly unknown[], positional: { prefix?: readonly EncodingSpec[] | undefined; items?: EncodingSpec | undefined } = {}): MultipartPart[] {
  return values.map((item, i) => {
    const part = multipartPart(undefined, item, positional.prefix?.[i] ?? positional.items);
    return { ...part, filename: undefined };
  });
}

function multipartPart(name: string | undefined, item: unknown, spec: EncodingSpec | undefined): MultipartPart {
  const part = item instanceof FormPart ? item : undefined;
  const value = part ? part.value : item;
  const declared = spec?.contentType;
  // formPart's own headers replace the spec's pinned values of the same name (a default the caller overrides).
  const own = Object.entries(part?.headers ?? {});
  const pinned = Object.entries(spec?.headers ?? {}).filter(([name]) => !own.some(([key]) => key.toLowerCase() === name.toLowerCase()));
  const headers: [string, string][] = [...pinned, ...own];
  let body: string | Blob;
  let contentType: string | undefined;
  let filename = part?.filename;
  if (value instanceof Blob || value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    body = value instanceof Blob ? value : new Blob([copyBytes(value)]);
    contentType = part?.contentType ?? binaryContentType(body, declared);
    filename ??= typeof File !== "undefined" && body instanceof File ? body.name : "blob";
  } else if (part?.contentType || declared) {
    contentType = part?.contentType ?? concreteType(declared!);
    body = contentType && isJsonMediaType(contentType) ? JSON.stringify(value) : text(value);
  } else if (isRecord(value) || Array.isArray(value)) {
    body = JSON.stringify(value);
    contentType = "application/json";
  } else {
    body = text(value);
  }
  return { name, value: body, filename, contentType, headers: headers.length > 0 ? headers : undefined };
}

/** A Blob's Content-Type: the declared one when it names one type, else the Blob's own when the declaration admits it. */
function binaryContentType(blob: Blob, declared: string | undefined): string {
  if (declared === undefined) return blob.type || "application/octet-stream";
  const ranges = declared.split(",").map((range) => range.trim()).filter(Boolean);
  const own = mediaTypeEssence(blob.type);
  if (own && ranges.some((range) => matchesRange(own, mediaTypeEssence(range)))) return blob.type;
  return ranges.find((range) => !range.includes("*")) ?? (blob.type || "application/octet-stream");
}

/** The first concrete media type of a declaration such as `image/png, image/*`; `undefined` for wildcards only. */
function concreteType(declared: string): string | undefined {
  return declared
    .split(",")
    .map((range) => range.trim())
    .find((range) => range !== "" && !range.includes("*"));
}

function matchesRange(type: string, range: string): boolean {
  return range === "*/*" || range === type || (range.endsWith("/*") && type.startsWith(range.slice(0, -1)));
}

/**
 * A multipart body as one Blob (file parts are not read until it is sent), with a random boundary, names and file
 * names escaped as the HTML standard does (`"` → `%22`, CR → `%0D`, LF → `%0A`). Values are sent byte for byte.
 */
export function encodeMultipart(mediaType: string, parts: readonly MultipartPart[]): { body: Blob; contentType: string } {
  const random = new Uint8Array(16);
  crypto.getRandomValues(random);
  const boundary = `----specforge${Array.from(random, (b) => b.toString(16).padStart(2, "0")).join("")}`;
  const chunks: (string | Blob)[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\n`;
    if (part.name !== undefined) {
      head += `Content-Disposition: form-data; name="${escapeQuoted(part.name)}"`;
      if (part.filename !== undefined) head += `; filename="${escapeQuoted(part.filename)}"`;
      head += "\r\n";
    }
    if (part.contentType) head += `Content-Type: ${headerValue("Content-Type", part.contentType)}\r\n`;
    for (const [name, value] of part.headers ?? []) {
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new TypeError(`Invalid multipart part header name ${JSON.stringify(name)}`);
      // The part's own Content-Disposition and Content-Type are written above; a second one (pinned by a spec's
      // `encoding.headers`, or given to formPart) would contradict them, and receivers read either.
      const lower = name.toLowerCase();
      if ((lower === "content-disposition" && part.name !== undefined) || (lower === "content-type" && part.contentType)) continue;
      head += `${name}: ${headerValue(name, value)}\r\n`;
    }
    chunks.push(`${head}\r\n`, part.value, "\r\n");
  }
  chunks.push(`--${boundary}--\r\n`);
  return { body: new Blob(chunks), contentType: `${mediaType}; boundary=${boundary}` };
}

function escapeQuoted(text: string): string {
  return text.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** A header value may not contain line breaks (they would start another header). */
function headerValue(name: string, value: string): string {
  if (/[\r\n\0]/.test(value)) throw new TypeError(`Invalid value for multipart part header ${name}: it contains a line break`);
  return value;
}

function isBinaryValue(value: unknown): boolean {
  return value instanceof Blob || value instanceof ArrayBuffer || ArrayBuffer.isView(value);
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return isPlainRecord(value, FormPart);
}

function presentEntries(value: unknown): [string, unknown][] {
  return plainEntries(value, FormPart);
}

/** `record[key]` when it is the record's own property (a property named `constructor` must not find Object's). */
function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
