/**
 * Request body handling: content-type negotiation against the declared media types, a size-limited read that
 * stops (and cancels the stream) as soon as the limit is crossed, and per-media-type parsing.
 */
import { compileFormDecoder, declaredProperties, parseUrlEncoded, setOwn, type EncodingSpec, type PartHeaderSpec } from "./form.js";
import { CHARSET_FIELD, MULTIPART_LIMITS, parseFormData, parseMultipartParts, type MultipartFields, type MultipartLimits, type PartHeaders } from "./multipart.js";
import { compileParam, type ParamDecoder, type RawParams } from "./params.js";
import type { Schema, ValidationIssue } from "./schema.js";
import type { Incoming } from "./incoming.js";
import { depthExceededAt, nullRecord, parseClientJson, removePrototypes } from "./json.js";
import type { Check, SchemaCompiler } from "./validate.js";
import type { PositionalHeaderSpec, RequestBodySpec } from "./types.js";

/** An error that maps straight to an HTTP error response (413, 415, ...). */
export class HttpError extends Error {
  readonly status: number;
  readonly type: string;
  readonly headers: Record<string, string> | undefined;

  constructor(status: number, type: string, message: string, headers?: Record<string, string>) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.type = type;
    this.headers = headers;
  }
}

/** Parsed body of one request. */
export interface ParsedBody {
  value: unknown;
  /** The declared media type key the request matched. */
  contentType: string | undefined;
  /**
   * The declared part headers: `multipart/form-data`'s by property, one record per part (see `compilePartHeaders`);
   * parts by position, one record per part in order (see `compilePositionalHeaders`).
   */
  partHeaders?: Record<string, Record<string, unknown>[]> | Record<string, unknown>[];
}

/** Reads and validates the body of one request; prepared once per route. */
export type BodyDecoder = (request: Incoming, maxBytes: number, errors: ValidationIssue[]) => Promise<ParsedBody>;

/**
 * Parses the body of one media type; JSON is `parseJson`'s and never reaches a Parser. What is read beside the body
 * (multipart part headers) goes into `extra`.
 */
type Parser = (bytes: Uint8Array, mediaType: string, rawContentType: string, errors: ValidationIssue[], extra: Pick<ParsedBody, "partHeaders">) => Promise<unknown> | unknown;

interface MediaEntry {
  /** Declared key, e.g. "application/json" or "image/*". */
  key: string;
  /** The key in lower case without parameters, which a request's media type is compared with. */
  essence: string;
  /** Whether the declared type is JSON; undefined for a wildcard, where the request's own type decides. */
  json: boolean | undefined;
  parse: Parser;
  check: Check;
  /** multipart: File values are validated as "" (they satisfy `type: string, format: binary`). */
  multipart: boolean;
}

const BODY_LOC = "body";

const NO_BODY: ParsedBody = Object.freeze({ value: undefined, contentType: undefined });

/** Compiles the body decoder of a route (validators and form coercion decided here, once). */
export function compileBody(spec: RequestBodySpec, compiler: SchemaCompiler, multipartLimits?: Partial<MultipartLimits>): BodyDecoder {
  const limits = multipartLimits && { ...MULTIPART_LIMITS, ...multipartLimits };
  const entries: MediaEntry[] = Object.entries(spec.content).map(([key, media]) => {
    const schema: Schema = media.schema ?? true;
    const check = compiler.compile(schema, "request");
    const declared = key.toLowerCase();
    return {
      key,
      essence: declared.split(";", 1)[0].trim(),
      json: declared.includes("*") ? undefined : isJson(declared),
      parse: parserFor(declared, schema, media.encoding, media.positionalHeaders, compiler, limits),
      check,
      multipart: declared.startsWith("multipart/"),
    };
  });
  const expected = entries.map((e) => e.key).join(", ");
  const maxDepth = compiler.maxDepth;

  /** The body once read: parsed, validated, and (JSON) with its prototypes removed. Synchronous for JSON. */
  const decode = (entry: MediaEntry, bytes: Uint8Array, mediaType: string, rawType: string, errors: ValidationIssue[]): ParsedBody | Promise<ParsedBody> => {
    if (bytes.length === 0) {
      if (spec.required) errors.push({ loc: [BODY_LOC], msg: "Field required", type: "missing" });
      return { value: undefined, contentType: entry.key };
    }
    if (entry.json ?? isJson(mediaType)) return { value: parseJson(bytes, entry.check, maxDepth, errors), contentType: entry.key };
    const before = errors.length;
    const extra: Pick<ParsedBody, "partHeaders"> = {};
    const parsed = entry.parse(bytes, mediaType, rawType, errors, extra);
    const finish = (value: unknown): ParsedBody => {
      if (errors.length > before) return { value: undefined, contentType: entry.key };
      // Bytes (application/octet-stream, images, …) are what `format: binary` describes: there is nothing to validate.
      if (value instanceof Uint8Array) return { value, contentType: entry.key };
      const toCheck = entry.multipart ? withoutFiles(value) : value;
      entry.check(toCheck, [BODY_LOC], errors);
      if (entry.multipart && toCheck !== value) copyDefaults(toCheck, value);
      return extra.partHeaders ? { value, contentType: entry.key, partHeaders: extra.partHeaders } : { value, contentType: entry.key };
    };
    return parsed instanceof Promise ? parsed.then(finish) : finish(parsed);
  };

  return (request, maxBytes, errors) => {
    const rawType = request.header("content-type") ?? "";
    const mediaType = rawType.split(";", 1)[0].trim().toLowerCase();
    const hasBody = request.hasBody;
    if (!hasBody && !spec.required) return Promise.resolve(NO_BODY);
    const entry = mediaType ? pickMedia(entries, mediaType) : undefined;
    if (!entry) {
      if (!hasBody && !mediaType) {
        errors.push({ loc: [BODY_LOC], msg: "Field required", type: "missing" });
        return Promise.resolve(NO_BODY);
      }
      const unsupported = new HttpError(
        415,
        "unsupported_media_type",
        mediaType ? `Unsupported Content-Type '${mediaType}'; expected ${expected}` : `Missing Content-Type; expected ${expected}`,
      );
      return request.discardBody().then(() => Promise.reject(unsupported));
    }
    return request.readBody(maxBytes).then((bytes) => decode(entry, bytes, mediaType, rawType, errors));
  };
}

/**
 * A JSON body: parsed, validated as `JSON.parse` made it (see `parseClientJson`), then every object made to inherit
 * nothing in the same walk that bounds its nesting. A body nested too deeply is refused with that one issue, whatever
 * the validators found in it (they bound their own recursion).
 */
function parseJson(bytes: Uint8Array, check: Check, maxDepth: number, errors: ValidationIssue[]): unknown {
  const text = decodeText(bytes, errors, "json_invalid");
  if (text === undefined) return undefined;
  const parsed = parseClientJson(text, maxDepth, true);
  if (!parsed.ok) {
    const msg = parsed.tooDeep ? `JSON is nested more than ${maxDepth} levels deep` : "JSON decode error";
    errors.push({ loc: parsed.position === undefined ? [BODY_LOC] : [BODY_LOC, parsed.position], msg, type: parsed.tooDeep ? "too_deep" : "json_invalid" });
    return undefined;
  }
  const before = errors.length;
  const value = parsed.value;
  check(value, [BODY_LOC], errors);
  if (removePrototypes(value, maxDepth)) return value;
  const at = depthExceededAt(text, maxDepth);
  if (at < 0) {
    // Only defaults the validators filled in go deeper (the limit is the client's): finish the walk. (It resumes
    // where it stopped: an object inherits nothing only once all of its own objects do.)
    removePrototypes(value, Infinity);
    return value;
  }
  errors.length = before;
  errors.push({ loc: [BODY_LOC, at], msg: `JSON is nested more than ${maxDepth} levels deep`, type: "too_deep" });
  return undefined;
}

function pickMedia(entries: MediaEntry[], mediaType: string): MediaEntry | undefined {
  let wildcard: MediaEntry | undefined;
  const major = mediaType.slice(0, mediaType.indexOf("/") + 1);
  for (const entry of entries) {
    const key = entry.essence;
    if (key === mediaType) return entry;
    if (!wildcard && (key === "*/*" || (key.endsWith("/*") && key.slice(0, -1) === major))) wildcard = entry;
  }
  return wildcard;
}

/** The 413 for a body over `maxBytes`. */
export function bodyTooLarge(maxBytes: number): HttpError {
  return new HttpError(413, "payload_too_large", `Request body exceeds ${maxBytes} bytes`);
}

/**
 * Reads the whole body, refusing more than `maxBytes`: first by `Content-Length`, then by counting while
 * streaming — the reader is cancelled the moment the limit is crossed, so the rest is never read.
 */
export async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => bodyTooLarge(maxBytes);
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return concatBytes(chunks, total);
}

/** The chunks as one array (the chunk itself when there is one). `total` is the sum of their lengths. */
export function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decodeText(bytes: Uint8Array, errors: ValidationIssue[], type: string): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    errors.push({ loc: [BODY_LOC], msg: "Body is not valid UTF-8", type });
    return undefined;
  }
}

/** Whether a media type (lower case, without parameters) is parsed as JSON. */
function isJson(mediaType: string): boolean {
  return mediaType === "application/json" || mediaType.endsWith("+json") || mediaType.endsWith("/json") || mediaType === "*/*" || mediaType === "application/*";
}

/** The parser of a declared media type (lower case) other than JSON. */
function parserFor(
  declared: string,
  schema: Schema,
  encoding: Record<string, EncodingSpec> | undefined,
  positional: PositionalHeaderSpec | undefined,
  compiler: SchemaCompiler,
  limits: MultipartLimits | undefined,
): Parser {
  // Form and multipart fields are read per the media type's `encoding` (see form.ts).
  const form = compileFormDecoder(schema, encoding, compiler.document, [BODY_LOC], compiler.probe);
  const partHeaders = compilePartHeaders(encoding, compiler);
  const positionalHeaders = compilePositionalHeaders(positional, compiler);
  // `_charset_` (RFC 7578 §4.6) only sets the charset of the other fields, unless the schema makes it one of them.
  const keepCharsetField = (declared.startsWith("multipart/form-data") || declared.includes("*")) && Object.hasOwn(declaredProperties(schema, compiler.document), CHARSET_FIELD);
  return (bytes, mediaType, rawType, errors, extra) => {
    // With a wildcard declaration, the request's own type decides the parser.
    const effective = declared.includes("*") ? mediaType : declared;
    if (effective === "application/x-www-form-urlencoded") {
      const text = decodeText(bytes, errors, "value_error");
      const fields = text === undefined ? undefined : parseUrlEncoded(text, [BODY_LOC], errors);
      return fields === undefined ? undefined : form(fields, errors);
    }
    if (effective.startsWith("multipart/form-data")) {
      const data = parseFormData(bytes, rawType, errors, limits, keepCharsetField);
      if (data === undefined) return undefined;
      if (partHeaders) extra.partHeaders = partHeaders(data, errors);
      return form(data, errors);
    }
    // Parts by position (multipart/mixed, OpenAPI 3.2): an array of the decoded parts.
    if (effective.startsWith("multipart/")) {
      if (!positionalHeaders) return parseMultipartParts(bytes, rawType, compiler.maxDepth, errors, limits);
      const headers: PartHeaders[] = [];
      const parts = parseMultipartParts(bytes, rawType, compiler.maxDepth, errors, limits, headers);
      if (parts !== undefined) extra.partHeaders = positionalHeaders(headers, errors);
      return parts;
    }
    if (effective.startsWith("text/")) return decodeText(bytes, errors, "value_error");
    return bytes;
  };
}

/**
 * The reader of the part headers a `multipart/form-data` media type declares (`encoding.{property}.headers`), or
 * undefined when it declares none. Each declared header is decoded and validated as a header parameter of style
 * `simple` would be (params.ts), per part of that property, and its issues are moved to `["body", property,
 * "headers", name]` (`["body", property, index, "headers", name]` when the property has several parts). The result
 * has, per property sent, one record per part in the order sent: the declared headers, coerced, by their spec name.
 */
function compilePartHeaders(encoding: Record<string, EncodingSpec> | undefined, compiler: SchemaCompiler): ((data: MultipartFields, errors: ValidationIssue[]) => Record<string, Record<string, unknown>[]>) | undefined {
  const declared: [string, ParamDecoder[]][] = [];
  for (const [property, spec] of Object.entries(encoding ?? {})) {
    const decoders = headerDecoders(spec.headers, compiler);
    if (decoders.length > 0) declared.push([property, decoders]);
  }
  if (declared.length === 0) return undefined;
  return (data, errors) => {
    const out = nullRecord<Record<string, unknown>[]>();
    for (const [property, decoders] of declared) {
      const parts = data.headersOf(property);
      if (parts.length === 0) continue;
      setOwn(
        out,
        property,
        parts.map((headers, index) => readPartHeaders(decoders, headers, parts.length > 1 ? [BODY_LOC, property, index, "headers"] : [BODY_LOC, property, "headers"], errors)),
      );
    }
    return out;
  };
}

/**
 * The reader of the part headers of a multipart body by position (OpenAPI 3.2 `prefixEncoding`, `itemEncoding`),
 * or undefined when no position declares any: one record per part in order (empty for a part whose encoding declares
 * none), validated as `compilePartHeaders` does, issues at `["body", index, "headers", name]` (the part's place in
 * the body's array).
 */
function compilePositionalHeaders(positional: PositionalHeaderSpec | undefined, compiler: SchemaCompiler): ((parts: PartHeaders[], errors: ValidationIssue[]) => Record<string, unknown>[]) | undefined {
  if (positional === undefined) return undefined;
  const prefix = (positional.prefix ?? []).map((headers) => headerDecoders(headers, compiler));
  const items = headerDecoders(positional.items, compiler);
  if (items.length === 0 && prefix.every((decoders) => decoders.length === 0)) return undefined;
  return (parts, errors) => parts.map((headers, index) => readPartHeaders(index < prefix.length ? prefix[index]! : items, headers, [BODY_LOC, index, "headers"], errors));
}

/** The decoders of one Encoding Object's declared headers (each as a header parameter of style `simple`). */
function headerDecoders(headers: Record<string, PartHeaderSpec> | undefined, compiler: SchemaCompiler): ParamDecoder[] {
  const decoders: ParamDecoder[] = [];
  for (const [name, header] of Object.entries(headers ?? {})) {
    const decoder = compileParam({ name, required: header.required, ...(header.schema !== undefined ? { schema: header.schema } : {}) }, "header", compiler);
    if (decoder) decoders.push(decoder);
  }
  return decoders;
}

/** One part's declared headers, decoded into a record; their issues moved under `at` (the part's place in the body). */
function readPartHeaders(decoders: readonly ParamDecoder[], headers: PartHeaders, at: readonly (string | number)[], errors: ValidationIssue[]): Record<string, unknown> {
  const record = nullRecord();
  const raw: RawParams = { path: NO_PATH, query: NO_QUERY, headers: { header: (name) => joinedHeader(headers, name) }, cookies: undefined };
  const before = errors.length;
  for (const decode of decoders) decode(raw, record, errors);
  for (let i = before; i < errors.length; i++) errors[i] = { ...errors[i]!, loc: [...at, ...errors[i]!.loc.slice(1)] };
  return record;
}

const NO_PATH: Record<string, string> = Object.freeze(nullRecord<string>());
const NO_QUERY = new URLSearchParams();

/** A part header as `Headers.get` reads one: repeated ones joined with ", "; null when absent. */
function joinedHeader(headers: PartHeaders, name: string): string | null {
  let value: string | null = null;
  for (const [key, text] of headers) if (key === name) value = value === null ? text : `${value}, ${text}`;
  return value;
}

/** A shallow copy with uploaded files replaced by "" so `type: string, format: binary` fields validate. */
function withoutFiles(value: unknown): unknown {
  // Parts by position: a binary part stands for `type: string, format: binary` as a file does.
  if (Array.isArray(value)) return value.some(isBinaryPart) ? value.map((part) => (isBinaryPart(part) ? "" : part)) : value;
  if (value === null || typeof value !== "object") return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(value)) {
    const replaced = isBlob(field) ? "" : Array.isArray(field) && field.some(isBlob) ? field.map((f) => (isBlob(f) ? "" : f)) : field;
    if (replaced !== field) (copy ??= { ...(value as Record<string, unknown>) })[key] = replaced;
  }
  return copy ?? value;
}

function copyDefaults(from: unknown, to: unknown): void {
  if (from === null || typeof from !== "object" || to === null || typeof to !== "object") return;
  for (const [key, field] of Object.entries(from)) if (!Object.hasOwn(to, key)) (to as Record<string, unknown>)[key] = field;
}

function isBlob(value: unknown): boolean {
  return typeof Blob !== "undefined" && value instanceof Blob;
}

function isBinaryPart(value: unknown): boolean {
  return value instanceof Uint8Array || isBlob(value);
}
