/**
 * Safe literals for generated code. Every string from a spec reaches generated source through one of these:
 * JSON string escaping (plus U+2028/U+2029, which older parsers treat as line ends) for literals and keys, and
 * `*\/` broken up for comments.
 */

/** A double-quoted JS string literal for any string. */
export function stringLiteral(value: string): string {
  return JSON.stringify(value).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** Text that can go inside a `/** … *\/` comment without ending it or breaking its lines' `*` prefix. */
export function commentText(text: string): string {
  return text
    .replace(/\*\//g, "*\\/")
    .replace(/\r\n?|\u2028|\u2029/g, "\n")
    .trim();
}
