/**
 * Request body handling: content-type negotiation against the declared media types, a size-limited read that
 * stops (and cancels the stream) as soon as the limit is crossed, and per-media-type parsing.
 */
import { compileFormDecoder, type EncodingSpec } from "./form.js";
import { parseMultipartParts } from "./multipart.js";
import type { Schema, ValidationIssue } from "./schema.js";
import type { Incoming } from "./incoming.js";
import { nullRecord, parseClientJson } from "./json.js";
import type { Check, SchemaCompiler } from "./validate.js";
import type { RequestBodySpec } from "./types.js";

/** An error that maps straight to an HTTP error response (413, 415, ...). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/** Parsed body of one request. */
export interface ParsedBody {
  value: unknown;
  /** The declared media type key the request matched. */
  contentType: string | undefined;
}

/** Reads and validates the body of one request; prepared once per route. */
export type BodyDecoder = (request: Incoming, maxBytes: number, errors: ValidationIssue[]) => Promise<ParsedBody>;

type Parser = (bytes: Uint8Array, mediaType: string, rawContentType: string, errors: ValidationIssue[]) => Promise<unknown> | unknown;

interface MediaEntry {
  /** Declared key, e.g. "application/json" or "image/*". */
  key: string;
  parse: Parser;
  check: Check;
  /** multipart: File values are validated as "" (they satisfy `type: string, format: binary`). */
  multipart: boolean;
}

const BODY_LOC = "body";

/** Compiles the body decoder of a route (validators and form coercion decided here, once). */
export function compileBody(spec: RequestBodySpec, compiler: SchemaCompiler): BodyDecoder {
  const entries: MediaEntry[] = Object.entries(spec.content).map(([key, media]) => {
    const schema: Schema = media.schema ?? true;
    const check = compiler.compile(schema, "request");
    return { key, parse: parserFor(key, schema, media.encoding, compiler), check, multipart: key.toLowerCase().startsWith("multipart/") };
  });
  const expected = entries.map((e) => e.key).join(", ");

  return async (request, maxBytes, errors) => {
    const rawType = request.header("content-type") ?? "";
    const mediaType = rawType.split(";", 1)[0].trim().toLowerCase();
    const hasBody = request.hasBody;
    if (!hasBody && !spec.required) return { value: undefined, contentType: undefined };
    const entry = mediaType ? pickMedia(entries, mediaType) : undefined;
    if (!entry) {
      if (!hasBody && !mediaType) {
        errors.push({ loc: [BODY_LOC], msg: "Field required", type: "missing" });
        return { value: undefined, contentType: undefined };
      }
      await request.discardBody();
      throw new HttpError(
        415,
        "unsupported_media_type",
        mediaType ? `Unsupported Content-Type '${mediaType}'; expected ${expected}` : `Missing Content-Type; expected ${expected}`,
      );
    }
    const bytes = await request.readBody(maxBytes);
    if (bytes.length === 0) {
      if (spec.required) errors.push({ loc: [BODY_LOC], msg: "Field required", type: "missing" });
      return { value: undefined, contentType: entry.key };
    }
    const before = errors.length;
    const value = await entry.parse(bytes, mediaType, rawType, errors);
    if (errors.length > before) return { value: undefined, contentType: entry.key };
    // Bytes (application/octet-stream, images, …) are what `format: binary` describes: there is nothing to validate.
    if (value instanceof Uint8Array) return { value, contentType: entry.key };
    const toCheck = entry.multipart ? withoutFiles(value) : value;
    entry.check(toCheck, [BODY_LOC], errors);
    if (entry.multipart && toCheck !== value) copyDefaults(toCheck, value);
    return { value, contentType: entry.key };
  };
}

function pickMedia(entries: MediaEntry[], mediaType: string): MediaEntry | undefined {
  let wildcard: MediaEntry | undefined;
  const major = mediaType.slice(0, mediaType.indexOf("/") + 1);
  for (const entry of entries) {
    const key = entry.key.toLowerCase().split(";", 1)[0].trim();
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

function isJsonMedia(mediaType: string): boolean {
  return mediaType === "application/json" || mediaType.endsWith("+json") || mediaType === "*/*" || mediaType === "application/*";
}

function parserFor(key: string, schema: Schema, encoding: Record<string, EncodingSpec> | undefined, compiler: SchemaCompiler): Parser {
  const declared = key.toLowerCase();
  // Form and multipart fields are read per the media type's `encoding` (see form.ts).
  const form = compileFormDecoder(schema, encoding, compiler.document, [BODY_LOC], compiler.probe);
  return async (bytes, mediaType, rawType, errors) => {
    // With a wildcard declaration, the request's own type decides the parser.
    const effective = declared.includes("*") ? mediaType : declared;
    if (isJsonMedia(effective) || effective.endsWith("/json")) {
      const text = decodeText(bytes, errors, "json_invalid");
      if (text === undefined) return undefined;
      const parsed = parseClientJson(text, compiler.maxDepth);
      if (parsed.ok) return parsed.value;
      const msg = parsed.tooDeep ? `JSON is nested more than ${compiler.maxDepth} levels deep` : "JSON decode error";
      errors.push({ loc: parsed.position === undefined ? [BODY_LOC] : [BODY_LOC, parsed.position], msg, type: parsed.tooDeep ? "too_deep" : "json_invalid" });
      return undefined;
    }
    if (effective === "application/x-www-form-urlencoded") {
      const text = decodeText(bytes, errors, "value_error");
      return text === undefined ? undefined : form(new URLSearchParams(text), errors);
    }
    if (effective.startsWith("multipart/form-data")) {
      try {
        const data = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": rawType } }).formData();
        return form(data, errors);
      } catch {
        errors.push({ loc: [BODY_LOC], msg: "Invalid multipart body", type: "value_error" });
        return undefined;
      }
    }
    // Parts by position (multipart/mixed, OpenAPI 3.2): an array of the decoded parts.
    if (effective.startsWith("multipart/")) return parseMultipartParts(bytes, rawType, compiler.maxDepth, errors);
    if (effective.startsWith("text/")) return decodeText(bytes, errors, "value_error");
    return bytes;
  };
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
