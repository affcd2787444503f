import type { ParamSpec } from "./types.js";

/**
 * What the request engine and its optional feature modules share: percent-encoding, values as text, media types.
 */

/** Parameter values by name, as the caller passed them. */
export type ParamValues = Readonly<Record<string, unknown>>;

/** A body `fetch` can send, reusable across retries unless it is a `ReadableStream`. */
export type SerializedBody = string | Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array> | URLSearchParams | FormData;

/** A request body and the Content-Type to send it with (`undefined`: fetch writes its own, as for a `FormData`). */
export interface EncodedBody {
  body: SerializedBody;
  contentType: string | undefined;
}

/** RFC 6570 simple expansion: everything but unreserved characters is percent-encoded (`encodeURIComponent` keeps `!'()*`). */
export function encodeUnreserved(text: string): string {
  const encoded = encodeURIComponent(text);
  // (Tested first: most values have none of these, and replace with a callback costs more than the test.)
  return /[!'()*]/.test(encoded) ? encoded.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`) : encoded;
}

/** `name=value`, both percent-encoded as RFC 6570 simple expansion does. */
export const pair = (name: string, value: string): string => `${encodeUnreserved(name)}=${encodeUnreserved(value)}`;

/**
 * The path of one operation: each `{name}` of `template` replaced by `value(spec, parameter)`. Split once: literal
 * parts and parameter names alternate, so a call only concatenates (an operation's path is built on every call).
 * Throws when a parameter is missing or empty (`/members/` is the collection to many servers, not a member), or when
 * the values make a `.` or `..` segment.
 */
export function pathSerializer(
  template: string,
  specs: readonly ParamSpec[] | undefined,
  value: (spec: ParamSpec, value: unknown) => string,
): (values?: ParamValues) => string {
  const parts = template.split(/\{([^}]+)\}/); // literal, name, literal, name, …, literal
  if (parts.length === 1) return () => template;
  return (values = {}) => {
    let out = parts[0]!;
    for (let i = 1; i < parts.length; i += 2) {
      const name = parts[i]!;
      const given = values[name];
      const part = isPresent(given) ? value(paramSpec(specs, name), given) : "";
      if (!part) throw new TypeError(`Missing or empty path parameter "${name}"`);
      out += part + parts[i + 1]!;
    }
    // A `.` or `..` segment: every URL parser (fetch's included) removes it with the segment before, and its
    // percent-encoded forms (`%2E`, `.%2e`) too, so no request can carry it.
    if (out.includes(".") && /(?:^|\/)\.{1,2}(?:\/|$)/.test(out)) {
      throw new TypeError(`The path parameters of ${template} make the path ${out}, whose "." or ".." segment a URL would resolve away`);
    }
    return out;
  };
}

/** One value as text: dates as ISO 8601, objects as JSON, everything else by `String`. */
export function text(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return String(value);
}

export function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** A plain object (not an array, a date or, with `exclude`, an instance of it). */
export function isRecord(value: unknown, exclude?: abstract new (...args: never[]) => unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !(value instanceof Date) && !Array.isArray(value) && !(exclude && value instanceof exclude);
}

/** The properties of an object that are neither `null` nor `undefined`; none for anything else. */
export function presentEntries(value: unknown, exclude?: abstract new (...args: never[]) => unknown): [string, unknown][] {
  return isRecord(value, exclude) ? Object.entries(value).filter(([, v]) => isPresent(v)) : [];
}

/** True for `application/json` and structured-syntax JSON types such as `application/problem+json`. */
export function isJsonMediaType(mediaType: string): boolean {
  if (mediaType === "application/json") return true; // (the usual one: nothing to parse)
  const essence = mediaTypeEssence(mediaType);
  return essence === "application/json" || essence.endsWith("+json");
}

/** `"Application/JSON; charset=utf-8"` → `"application/json"`. */
export function mediaTypeEssence(mediaType: string): string {
  return mediaType.split(";", 1)[0]!.trim().toLowerCase();
}

/** What `formPart()` makes: a multipart field value with its own file name, Content-Type or part headers. */
export class FormPart {
  readonly value: unknown;
  readonly filename: string | undefined;
  readonly contentType: string | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(value: unknown, options: FormPartOptions = {}) {
    this.value = value;
    this.filename = options.filename;
    this.contentType = options.contentType;
    this.headers = { ...options.headers };
  }
}

export interface FormPartOptions {
  /** The part's file name (`Content-Disposition: form-data; name="…"; filename="…"`); a `File`'s own name otherwise. */
  filename?: string | undefined;
  /** The part's `Content-Type`, instead of the one the spec's `encoding` or the value implies. */
  contentType?: string | undefined;
  /** Extra part headers, e.g. those the spec's `encoding.<property>.headers` declares. */
  headers?: Record<string, string> | undefined;
}

/** How the operation declares parameter `name` of a location (an operation has a handful: a search, not a map). */
export const paramSpec = (specs: readonly ParamSpec[] | undefined, name: string): ParamSpec => specs?.find((spec) => spec.name === name) ?? { name };

/** The entries of a call's parameter object whose values are neither `null` nor `undefined`. */
export function entriesOf(values: ParamValues | undefined): [string, unknown][] {
  return Object.entries(values ?? {}).filter(([, value]) => isPresent(value));
}

/** Style simple without explode: arrays and objects comma-joined (`a,b`, `k,v,k2,v2`), each piece by `encode`. */
export function simple(value: unknown, encode: (text: string) => string = String): string {
  // (A single value, the usual path parameter, is encoded without a list.)
  const pieces = Array.isArray(value) ? value.filter(isPresent).map(text) : isRecord(value) ? presentEntries(value).flatMap(([k, v]) => [k, text(v)]) : undefined;
  return pieces ? pieces.map(encode).join(",") : encode(text(value));
}
