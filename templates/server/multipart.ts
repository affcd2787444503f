/**
 * Multipart bodies (RFC 2046), read by the router itself from the bytes it has already read under `maxBodyBytes`:
 *
 * - `multipart/form-data` (RFC 7578): fields by name, each part's Content-Disposition read with quoted-string escapes
 *   and RFC 8187's `filename*=UTF-8''…` (preferred over `filename`), its headers kept for the spec's
 *   `encoding.{property}.headers`. A web-standard `FormData` (undici's in Node) refuses `filename*` and exposes no
 *   part headers, so it is not used.
 * - Parts by position (`multipart/mixed` and its kin): OpenAPI 3.2 models them as an array, one item per part in
 *   order, each decoded by its own Content-Type (JSON parsed, depth-limited; text as a string; else its bytes).
 *
 * Hostile input is bounded (`MULTIPART_LIMITS`): parts, headers per part, a header line and a part's header block,
 * and the boundary (RFC 2046: 1 to 70 characters). Delimiters are found by a byte search that starts at the previous
 * one, so the work is linear in the body. Lines end in CRLF, as RFC 2046 requires and undici and busboy read them: a
 * body whose lines end in a bare LF has no delimiter line and is refused. Every violation is a validation issue at
 * `["body"]` (400, or the spec's 422), never a throw.
 */
import { CHARSET_FIELD } from "./body.js";
import { parseClientJson } from "./json.js";
import type { ValidationIssue } from "./schema.js";
import type { MultipartFields, MultipartLimits, PartHeaders, RouterFeatures } from "./types.js";

export type { MultipartFields, MultipartLimits, PartHeaders } from "./types.js";

/** The default limits. */
export const MULTIPART_LIMITS: Readonly<MultipartLimits> = Object.freeze({ parts: 1000, headersPerPart: 32, headerLineBytes: 8 * 1024, headerBlockBytes: 16 * 1024 });

/** One part as the splitter found it. */
export interface RawPart {
  headers: PartHeaders;
  body: Uint8Array;
}

const LOC = "body";
const latin1 = new TextDecoder("latin1");
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The boundary of a multipart Content-Type (`multipart/mixed; boundary="x"`), if it has a usable one: RFC 2046's
 * `bchars`, 1 to 70 of them, not ending in a space.
 */
export function multipartBoundary(contentType: string): string | undefined {
  const match = /;\s*boundary\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/i.exec(contentType);
  const boundary = match?.[1]?.replace(/\\(.)/g, "$1") ?? match?.[2];
  return boundary !== undefined && /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/.test(boundary) ? boundary : undefined;
}

/**
 * Splits a multipart body into its parts, headers parsed. A body that is not multipart as its Content-Type says (no
 * usable boundary, no closing delimiter, a part without its blank line) or that crosses a limit is an issue at
 * `["body"]` and `undefined`.
 */
export function splitMultipart(bytes: Uint8Array, contentType: string, errors: ValidationIssue[], limits: Readonly<MultipartLimits> = MULTIPART_LIMITS): RawPart[] | undefined {
  const boundary = multipartBoundary(contentType);
  if (boundary === undefined) {
    const declared = /;\s*boundary\s*=/i.test(contentType);
    errors.push({
      loc: [LOC],
      msg: declared ? "Invalid multipart body: the boundary is not 1 to 70 characters of RFC 2046" : "Multipart body without a boundary parameter",
      type: "value_error",
    });
    return undefined;
  }
  const delimiter = ascii(`\r\n--${boundary}`);
  const parts: RawPart[] = [];
  // The first delimiter opens the body (whatever precedes it is a preamble); each later one follows a CRLF. Starting
  // the search for the first one at -2 lets a body open with the delimiter without its CRLF.
  let at = bytes[0] === 0x2d && bytes[1] === 0x2d && startsWith(bytes, delimiter, -2, 2) ? -2 : indexOf(bytes, delimiter, 0);
  if (at === -1) return invalid(errors, "no delimiter");
  for (;;) {
    let cursor = at + delimiter.length;
    if (bytes[cursor] === 0x2d && bytes[cursor + 1] === 0x2d) return parts; // `--boundary--`: the end (an epilogue may follow)
    // Transport padding (spaces and tabs) may follow a delimiter; anything else means it was not one.
    while (bytes[cursor] === 0x20 || bytes[cursor] === 0x09) cursor++;
    if (bytes[cursor] !== 0x0d || bytes[cursor + 1] !== 0x0a) return invalid(errors, "a delimiter line does not end in CRLF");
    cursor += 2;
    if (parts.length === limits.parts) return invalid(errors, `more than ${limits.parts} parts`);
    // The blank line is searched for only as far as a header block may reach (from the delimiter line's own CRLF,
    // for a part without headers).
    const window = bytes.subarray(0, Math.min(bytes.length, cursor + limits.headerBlockBytes + 2));
    const headersEnd = indexOf(window, CRLFCRLF, cursor - 2);
    if (headersEnd === -1) {
      return invalid(errors, window.length < bytes.length ? `part ${parts.length}'s headers exceed ${limits.headerBlockBytes} bytes` : `part ${parts.length} has no blank line after its headers`);
    }
    const headers = parseHeaders(bytes.subarray(cursor, Math.max(cursor, headersEnd)), parts.length, errors, limits);
    if (headers === undefined) return undefined;
    const bodyStart = headersEnd + 4;
    const next = indexOf(bytes, delimiter, bodyStart - 2);
    if (next === -1) return invalid(errors, `part ${parts.length} is not closed by a delimiter`);
    parts.push({ headers, body: bytes.subarray(bodyStart, Math.max(bodyStart, next)) });
    at = next;
  }
}

/**
 * A part's header lines: `Name: value`, names case-insensitive (kept in lower case), a line that starts with a space
 * or tab continuing the one before (obsolete folding), and a line without a colon skipped, as busboy does. Decoded as
 * UTF-8 where valid (browsers send file names that way), else as Latin-1.
 */
function parseHeaders(block: Uint8Array, index: number, errors: ValidationIssue[], limits: Readonly<MultipartLimits>): [string, string][] | undefined {
  const headers: [string, string][] = [];
  if (block.length === 0) return headers;
  const text = text8(block) ?? latin1.decode(block);
  let lines = 0;
  for (const line of text.split("\r\n")) {
    if (++lines > limits.headersPerPart) return invalid(errors, `part ${index} has more than ${limits.headersPerPart} header lines`);
    if (line.length > limits.headerLineBytes) return invalid(errors, `part ${index} has a header line longer than ${limits.headerLineBytes} bytes`);
    if ((line[0] === " " || line[0] === "\t") && headers.length > 0) {
      const last = headers[headers.length - 1]!;
      last[1] = `${last[1]} ${line.trim()}`.trim();
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    headers.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
  }
  return headers;
}

/** The first value of header `name` (lower case) of a part. */
export function partHeader(headers: PartHeaders, name: string): string | undefined {
  for (const [key, value] of headers) if (key === name) return value;
  return undefined;
}

/**
 * A `multipart/form-data` body's fields (RFC 7578). A part whose Content-Disposition is not `form-data` with a
 * `name` is refused, not skipped (RFC 7578 §4.2 requires both; dropping data a client sent would hide its bug).
 * A part with a filename (or `filename*`) is a `File` of that name and its Content-Type (`application/octet-stream`
 * by default); so is a part without one sent as `application/octet-stream`. Other parts are text in their `charset`,
 * and text that is not valid in it is refused rather than altered. A text part without a `charset` (no Content-Type,
 * or a `text/*` one) is in the form's default charset: the value of its `_charset_` field (RFC 7578 §4.6, which a
 * browser fills in with the page's encoding), else UTF-8. That field is one of the form's fields only when
 * `keepCharsetField` says so (the operation's schema declares it); otherwise it only sets the charset.
 */
export function parseFormData(bytes: Uint8Array, contentType: string, errors: ValidationIssue[], limits?: Readonly<MultipartLimits>, keepCharsetField = false): MultipartFields | undefined {
  const parts = splitMultipart(bytes, contentType, errors, limits);
  if (parts === undefined) return undefined;
  const named: { name: string; filename: string | undefined }[] = [];
  let charsetPart: RawPart | undefined;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const disposition = parseDisposition(partHeader(part.headers, "content-disposition"));
    if (disposition === undefined || disposition.type !== "form-data") return invalid(errors, `part ${i} has no Content-Disposition: form-data`);
    const sentName = disposition.params.get("name");
    if (sentName === undefined) return invalid(errors, `part ${i} has no name`);
    const name = unescapeHtml(sentName);
    const filename = fileName(disposition.params);
    named.push({ name, filename });
    // The first one counts (a form has one; a later one is an ordinary field).
    if (name === CHARSET_FIELD && filename === undefined && charsetPart === undefined) charsetPart = part;
  }
  let defaultCharset: FormCharset = UTF8_CHARSET;
  if (charsetPart !== undefined) {
    const label = latin1.decode(charsetPart.body).trim();
    const charset = formCharset(label);
    if (charset === undefined) {
      errors.push({ loc: [LOC, CHARSET_FIELD], msg: `Unknown charset '${shortLabel(label)}' in the ${CHARSET_FIELD} field (RFC 7578 §4.6): send a label TextDecoder knows, such as UTF-8, ISO-8859-1 or Shift_JIS`, type: "value_error" });
      return undefined;
    }
    defaultCharset = charset;
  }
  const values = new Map<string, (string | File)[]>();
  const headers = new Map<string, PartHeaders[]>();
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const { name, filename } = named[i]!;
    if (part === charsetPart && !keepCharsetField) continue;
    const type = partHeader(part.headers, "content-type");
    let value: string | File;
    if (filename !== undefined || (type !== undefined && isOctetStream(type))) {
      value = new File([part.body as Uint8Array<ArrayBuffer>], filename ?? "", { type: type ?? "application/octet-stream" });
    } else {
      const declared = charsetOf(type);
      const charset = declared !== undefined ? formCharset(declared) : type === undefined || isText(type) ? defaultCharset : UTF8_CHARSET;
      const text = charset === undefined ? undefined : charset.decode(part.body);
      if (text === undefined) return invalid(errors, `part '${name}' is not valid ${declared ?? charset!.label} text (send bytes with a filename or a binary Content-Type)`);
      value = text;
    }
    const list = values.get(name);
    if (list) {
      list.push(value);
      headers.get(name)!.push(part.headers);
    } else {
      values.set(name, [value]);
      headers.set(name, [part.headers]);
    }
  }
  return {
    getAll: (name) => values.get(name) ?? [],
    keys: () => values.keys(),
    headersOf: (name) => headers.get(name) ?? [],
  };
}

/** A Content-Disposition: its type (lower case) and parameters by lower-case name (the first of a repeated one). */
function parseDisposition(header: string | undefined): { type: string; params: Map<string, string> } | undefined {
  if (header === undefined) return undefined;
  const semicolon = header.indexOf(";");
  const type = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  const params = new Map<string, string>();
  // `; name=token` or `; name="quoted \" string"` (RFC 9110 quoted-string: a backslash escapes the next character).
  const param = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\[\s\S])*)"|([^;]*))/gy;
  param.lastIndex = semicolon === -1 ? header.length : semicolon;
  for (let match = param.exec(header); match !== null; match = param.exec(header)) {
    const key = match[1]!.toLowerCase();
    const value = match[2] !== undefined ? match[2].replace(/\\([\s\S])/g, "$1") : match[3]!.trim();
    if (!params.has(key)) params.set(key, value);
  }
  return { type, params };
}

/** `filename*` (RFC 8187: `UTF-8''percent-encoded`, or ISO-8859-1) when it decodes, else `filename`. */
function fileName(params: Map<string, string>): string | undefined {
  const extended = params.get("filename*");
  if (extended !== undefined) {
    const decoded = decodeExtValue(extended);
    if (decoded !== undefined) return decoded;
  }
  const filename = params.get("filename");
  return filename === undefined ? undefined : unescapeHtml(filename);
}

/**
 * A name or filename as browsers (and the generated client) escape it in a quoted string: the HTML standard writes
 * `"` as `%22`, CR as `%0D` and LF as `%0A` (and nothing else), which undici's parser reverses too.
 */
function unescapeHtml(text: string): string {
  return text.includes("%") ? text.replace(/%22|%0D|%0A/g, (escape) => (escape === "%22" ? '"' : escape === "%0D" ? "\r" : "\n")) : text;
}

function decodeExtValue(value: string): string | undefined {
  const match = /^(utf-8|iso-8859-1)'[^']*'((?:[!#$&+\-.^_`|~0-9A-Za-z]|%[0-9A-Fa-f]{2})*)$/i.exec(value);
  if (!match) return undefined;
  const encoded = match[2]!;
  const bytes = new Uint8Array(encoded.length);
  let length = 0;
  for (let i = 0; i < encoded.length; i++) {
    if (encoded[i] === "%") {
      bytes[length++] = parseInt(encoded.slice(i + 1, i + 3), 16);
      i += 2;
    } else bytes[length++] = encoded.charCodeAt(i);
  }
  const raw = bytes.subarray(0, length);
  return match[1]!.toLowerCase() === "utf-8" ? text8(raw) : latin1.decode(raw);
}

/**
 * Whether a part without a filename is still bytes: `application/octet-stream` says so (busboy's rule too). Any
 * other type is a field's text (`application/sdp`, `application/xml`: a string property's declared content type).
 */
function isOctetStream(type: string): boolean {
  return type.split(";", 1)[0]!.trim().toLowerCase() === "application/octet-stream";
}

function charsetOf(type: string | undefined): string | undefined {
  const match = type === undefined ? null : /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type);
  return match?.[1];
}

function isText(type: string): boolean {
  return type.trimStart().slice(0, 5).toLowerCase() === "text/";
}

/** A charset text is decoded in: its label as sent (for messages) and a decoder that refuses what is not valid in it. */
interface FormCharset {
  label: string;
  decode(bytes: Uint8Array): string | undefined;
}

const UTF8_CHARSET: FormCharset = { label: "UTF-8", decode: text8 };

/**
 * The charset of a label as the web reads it (the WHATWG Encoding Standard's labels, which TextDecoder takes:
 * `ISO-8859-1` is windows-1252, as browsers send it), or undefined for a label TextDecoder does not know.
 */
function formCharset(label: string): FormCharset | undefined {
  if (/^utf-?8$/i.test(label)) return { label, decode: text8 };
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    return undefined;
  }
  if (decoder.encoding === "windows-1252") return { label, decode: decodeWindows1252 };
  return {
    label,
    decode(bytes) {
      try {
        return decoder.decode(bytes);
      } catch {
        return undefined;
      }
    },
  };
}

/** A charset label as a message shows it: a hostile one cut short. */
function shortLabel(label: string): string {
  return label.length > 40 ? `${label.slice(0, 40)}…` : label;
}

/** What windows-1252 has at 0x80–0x9F where ISO-8859-1 has C1 controls (the WHATWG Encoding Standard's index). */
const WINDOWS_1252_HIGH = "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

/**
 * windows-1252, which the web reads for the labels `ISO-8859-1`, `latin1` and `US-ASCII` too. Decoded here because
 * Node 20's TextDecoder answers `windows-1252` for them but decodes ISO-8859-1 (0x80 as U+0080, not €): the same
 * bytes must give the same text on every runtime.
 */
function decodeWindows1252(bytes: Uint8Array): string {
  return latin1.decode(bytes).replace(/[\x80-\x9f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

/**
 * The parts of a multipart body by position, each decoded by its Content-Type (RFC 2046's default is `text/plain`);
 * each part's headers are pushed onto `headers` when it is given.
 */
export function parseMultipartParts(
  bytes: Uint8Array,
  contentType: string,
  maxDepth: number,
  errors: ValidationIssue[],
  limits?: Readonly<MultipartLimits>,
  headers?: PartHeaders[],
): unknown[] | undefined {
  const parts = splitMultipart(bytes, contentType, errors, limits);
  if (parts === undefined) return undefined;
  const out: unknown[] = [];
  for (const part of parts) {
    const decoded = decodePart(part.body.slice(), partHeader(part.headers, "content-type") ?? "text/plain", out.length, maxDepth, errors);
    if (decoded === INVALID) return undefined;
    out.push(decoded);
    headers?.push(part.headers);
  }
  return out;
}

const INVALID = Symbol("invalid");
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
    // In its `charset` (RFC 2046 §4.1.2), as a form field's text is; UTF-8 when it declares none.
    const declared = charsetOf(type);
    const charset = declared === undefined ? UTF8_CHARSET : formCharset(declared);
    if (charset === undefined) {
      errors.push({ loc: [LOC, index], msg: `Unknown charset '${shortLabel(declared!)}' of a text part: send a label TextDecoder knows, such as UTF-8, ISO-8859-1 or Shift_JIS`, type: "value_error" });
      return INVALID;
    }
    const text = charset.decode(body);
    if (text !== undefined) return text;
    errors.push({ loc: [LOC, index], msg: `Part is not valid ${charset.label}`, type: "value_error" });
    return INVALID;
  }
  return body;
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

/**
 * The first index at or after `from` where `needle` starts, else -1. The native search for its first byte skips
 * ahead; a candidate is checked at its last byte first (a near-delimiter fails there), then over the rest. The
 * needles (CRLF + `--` + boundary; CRLFCRLF) hold their first byte nowhere else, so a candidate that matched k bytes
 * leaves no other candidate in those k: the work is linear in the haystack whatever the bytes are.
 */
function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  const lastAt = needle.length - 1;
  const lastByte = needle[lastAt]!;
  const end = haystack.length - needle.length;
  for (let i = haystack.indexOf(first, Math.max(0, from)); i !== -1 && i <= end; i = haystack.indexOf(first, i + 1)) {
    if (haystack[i + lastAt] === lastByte && startsWith(haystack, needle, i, 1)) return i;
  }
  return -1;
}

/** Whether `needle` (from its index `skip` on) is found at `at + skip` in `haystack`. */
function startsWith(haystack: Uint8Array, needle: Uint8Array, at: number, skip: number): boolean {
  for (let j = skip; j < needle.length; j++) if (haystack[at + j] !== needle[j]) return false;
  return true;
}

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/**
 * The router's reader of multipart bodies, passed to `createRouterRuntime` (the generated server.ts does when an
 * operation takes a multipart body or a wildcard one): a router without it has none of this module's code.
 */
export const multipartFeature: RouterFeatures = { multipart: { limits: MULTIPART_LIMITS, parseFormData, parseMultipartParts } };
