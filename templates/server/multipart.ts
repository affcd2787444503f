/**
 * Multipart bodies whose parts have no names (`multipart/mixed` and its kin, RFC 2046): OpenAPI 3.2 models them as
 * an array, one item per part in order (`prefixEncoding` / `itemEncoding` say how each was encoded). Each part is
 * decoded by its own Content-Type: JSON parsed (depth-limited, no prototypes), text as a string, anything else as
 * its bytes. The body was read whole under `maxBodyBytes` before this runs.
 */
import { parseClientJson } from "./json.js";
import type { ValidationIssue } from "./schema.js";

const LOC = "body";
const latin1 = new TextDecoder("latin1");
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The boundary of a multipart Content-Type (`multipart/mixed; boundary="x"`), if it has a usable one. */
export function multipartBoundary(contentType: string): string | undefined {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/**
 * The parts of a multipart body, each decoded by its Content-Type (RFC 2046's default is `text/plain`). A body that
 * is not multipart as its Content-Type says (no boundary, no closing delimiter, a part without its blank line) is a
 * validation error, not a crash.
 */
export function parseMultipartParts(bytes: Uint8Array, contentType: string, maxDepth: number, errors: ValidationIssue[]): unknown[] | undefined {
  const boundary = multipartBoundary(contentType);
  if (boundary === undefined) {
    errors.push({ loc: [LOC], msg: "Multipart body without a boundary parameter", type: "value_error" });
    return undefined;
  }
  const delimiter = ascii(`--${boundary}`);
  const parts: unknown[] = [];
  // The first delimiter opens the body (whatever precedes it is a preamble); each later one follows a CRLF.
  let at = indexOf(bytes, delimiter, 0);
  if (at < 0) return invalid(errors, "no delimiter");
  for (;;) {
    let cursor = at + delimiter.length;
    if (bytes[cursor] === 0x2d && bytes[cursor + 1] === 0x2d) return parts; // `--boundary--`: the end (an epilogue may follow)
    cursor = skipLine(bytes, cursor);
    if (cursor < 0) return invalid(errors, "a delimiter line does not end");
    const headersEnd = indexOf(bytes, CRLFCRLF, cursor - 2);
    if (headersEnd < 0) return invalid(errors, `part ${parts.length} has no blank line after its headers`);
    const headers = latin1.decode(bytes.subarray(cursor, Math.max(cursor, headersEnd)));
    const bodyStart = headersEnd + 4;
    const next = indexOf(bytes, concat(CRLF, delimiter), bodyStart - 2);
    if (next < 0) return invalid(errors, `part ${parts.length} is not closed by a delimiter`);
    const body = bytes.slice(bodyStart, Math.max(bodyStart, next));
    const decoded = decodePart(body, partType(headers), parts.length, maxDepth, errors);
    if (decoded === INVALID) return undefined;
    parts.push(decoded);
    at = next + 2;
  }
}

const INVALID = Symbol("invalid");
const CRLF = ascii("\r\n");
const CRLFCRLF = ascii("\r\n\r\n");

function decodePart(body: Uint8Array, type: string, index: number, maxDepth: number, errors: ValidationIssue[]): unknown {
  const essence = type.split(";", 1)[0]!.trim().toLowerCase();
  if (essence === "application/json" || essence.endsWith("+json")) {
    const text = text8(body);
    const parsed = text === undefined ? undefined : parseClientJson(text, maxDepth);
    if (parsed?.ok) return parsed.value;
    errors.push({ loc: [LOC, index], msg: parsed?.tooDeep ? `JSON is nested more than ${maxDepth} levels deep` : "JSON decode error", type: parsed?.tooDeep ? "too_deep" : "json_invalid" });
    return INVALID;
  }
  if (essence.startsWith("text/")) {
    const text = text8(body);
    if (text !== undefined) return text;
    errors.push({ loc: [LOC, index], msg: "Part is not valid UTF-8", type: "value_error" });
    return INVALID;
  }
  return body;
}

/** A part's Content-Type header, else RFC 2046's default. */
function partType(headers: string): string {
  for (const line of headers.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === "content-type") return line.slice(colon + 1).trim();
  }
  return "text/plain";
}

function invalid(errors: ValidationIssue[], why: string): undefined {
  errors.push({ loc: [LOC], msg: `Invalid multipart body: ${why}`, type: "value_error" });
  return undefined;
}

function text8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The index after the CRLF that ends the line at `from` (transport padding allowed), or -1. */
function skipLine(bytes: Uint8Array, from: number): number {
  const end = indexOf(bytes, CRLF, from);
  return end < 0 ? -1 : end + 2;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  for (let i = haystack.indexOf(first, Math.max(0, from)); i >= 0 && i <= haystack.length - needle.length; i = haystack.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
