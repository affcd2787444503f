/**
 * JSON Pointers (RFC 6901), as `$ref`s and every location specforge reports use them: `#/paths/~1pets/get` is the
 * segments `paths`, `/pets`, `get`. The one implementation for the loader, the IR, the emitters and the messages.
 */

/** The segments of a pointer (the part after `#`); percent-escapes of a URI fragment are decoded first. */
export function parsePointer(fragment: string): string[] {
  if (fragment === "" || fragment === "/") return fragment === "/" ? [""] : [];
  // Most pointers have nothing to decode or unescape (a big spec's loader and model parse thousands): split them.
  if (!fragment.includes("%") && !fragment.includes("~")) return (fragment.charCodeAt(0) === 47 /* / */ ? fragment.slice(1) : fragment).split("/");
  return splitPointer(safeDecode(fragment).replace(/^\/?/, "/"));
}

/** The segments of a pointer in its string form (`/paths/~1pets/get`), with no URI escapes to decode. */
export function splitPointer(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The value at `pointer` in `document` (own properties only), or undefined when the path does not exist. */
export function resolvePointer(document: unknown, pointer: readonly string[]): unknown {
  let node: unknown = document;
  for (const segment of pointer) {
    if (node === null || typeof node !== "object") return undefined;
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(segment)) return undefined;
      node = node[Number(segment)];
    } else {
      if (!Object.prototype.hasOwnProperty.call(node, segment)) return undefined;
      node = (node as Record<string, unknown>)[segment];
    }
  }
  return node;
}

/** `~` → `~0`, `/` → `~1`: one segment as it is written in a pointer. */
export function escapePointerSegment(segment: string | number): string {
  const text = String(segment);
  // Most segments need no escape (the diff builds a pointer per node it visits).
  return text.includes("~") || text.includes("/") ? text.replace(/~/g, "~0").replace(/\//g, "~1") : text;
}

/** The pointer of some segments: `/a/b` (empty for the document itself). */
export function toJsonPointer(segments: readonly (string | number)[]): string {
  return segments.length === 0 ? "" : "/" + segments.map(escapePointerSegment).join("/");
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
