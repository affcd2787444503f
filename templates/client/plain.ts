/**
 * Request bodies of a media type other than JSON that need no encoder (text, bytes, anything fetch sends as it is),
 * for a spec that declares one; the request engine itself sends JSON. Forms, multipart and media ranges are
 * serialize.ts's.
 */
import type { RuntimeFeatures } from "./runtime.js";
import { isJsonMediaType, mediaTypeEssence, text, type EncodedBody, type SerializedBody } from "./values.js";

/** Text and byte bodies besides JSON, for `createRuntime`. */
export const plainBodiesFeature: RuntimeFeatures = { body: plainBody };

/** Whatever `fetch` sends as it is. */
export function isBodyInit(value: unknown): value is SerializedBody {
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

/**
 * The body of a media type that needs no encoder: JSON for JSON types; otherwise what fetch can send goes as it is,
 * and any other value as text (`text/*`) or JSON.
 */
export function plainBody(mediaType: string, value: unknown): EncodedBody {
  const body = isJsonMediaType(mediaType) ? JSON.stringify(value) : isBodyInit(value) ? value : mediaTypeEssence(mediaType).startsWith("text/") ? text(value) : JSON.stringify(value);
  return { body, contentType: mediaType };
}
