/**
 * JSON from the client, parsed so that it cannot hurt the server: nesting deeper than a limit is refused before
 * `JSON.parse` runs (a 1 MiB body of `[[[[…` would otherwise cost the parser and every recursive walk after it),
 * and no object of the result inherits anything (`body.constructor`, `"toString" in body`): a `"__proto__"` key is
 * plain data.
 */

/** The outcome of `parseClientJson`: the value, or where and why the text was refused. */
export type ClientJson = { ok: true; value: unknown } | { ok: false; position: number | undefined; tooDeep: boolean };

/**
 * The prototype of every object the router parses from a request: empty, frozen, itself without a prototype. An
 * object made by a constructor stays in V8's fast mode, where `Object.create(null)` makes a dictionary (100× slower
 * to fill): this is how Node's `querystring` makes its null-prototype results too.
 */
const EMPTY_PROTOTYPE: object = Object.freeze(Object.create(null) as object);
function EmptyRecord(): void {}
EmptyRecord.prototype = EMPTY_PROTOTYPE;

/** A record that inherits nothing: keys such as `__proto__` or `constructor` are data like any other. */
export function nullRecord<T = unknown>(): Record<string, T> {
  return new (EmptyRecord as unknown as new () => Record<string, T>)();
}

/** Parses `text`, refusing nesting (objects and arrays inside each other) deeper than `maxDepth`. */
export function parseClientJson(text: string, maxDepth: number): ClientJson {
  // Nesting deeper than maxDepth takes more than maxDepth characters: short texts need no scan.
  if (text.length > maxDepth) {
    const deep = depthExceededAt(text, maxDepth);
    if (deep >= 0) return { ok: false, position: deep, tooDeep: true };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec(String((error as Error).message))?.[1];
    return { ok: false, position: position === undefined ? undefined : Number(position), tooDeep: false };
  }
  return { ok: true, value: withoutPrototypes(value) };
}

/** The index of the bracket that opens nesting level `maxDepth + 1`, or -1. Strings are skipped, escapes too. */
function depthExceededAt(text: string, maxDepth: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > maxDepth) return i;
    } else if (c === 125 || c === 93) depth--;
  }
  return -1;
}

/** Makes every object in a freshly parsed value inherit nothing (its depth is already bounded). */
function withoutPrototypes(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) withoutPrototypes(value[i]);
    return value;
  }
  Object.setPrototypeOf(value, EMPTY_PROTOTYPE);
  for (const key in value) withoutPrototypes((value as Record<string, unknown>)[key]);
  return value;
}
