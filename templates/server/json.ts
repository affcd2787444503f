/**
 * JSON from the client, parsed so that it cannot hurt the server: nesting deeper than a limit is refused (a 1 MiB
 * body of `[[[[…` costs `JSON.parse`, which does not recurse, no more than any text; every walk after it stops at the
 * limit), and no object of the result inherits anything (`body.constructor`, `"toString" in body`): a `"__proto__"` key is
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

/**
 * Parses `text`, refusing nesting (objects and arrays inside each other) deeper than `maxDepth`. With
 * `keepPrototypes`, objects keep `Object.prototype` and the depth is not checked yet: the caller must pass the value
 * to `removePrototypes` with the same limit before anyone else sees it, and refuse it there (the request body
 * validates that way first: V8 reads absent properties of ordinary objects several times faster than through a
 * null-prototype chain, the validators bound their own recursion, and one walk then does both).
 */
export function parseClientJson(text: string, maxDepth: number, keepPrototypes = false): ClientJson {
  // V8's JSON.parse is iterative, so deep nesting costs it no more than any text of that size (which the body
  // limit bounds); the depth is checked while the prototypes are removed, in the same walk, and the text is
  // scanned for the exact position only when it is refused. A parser that overflows its stack on deep nesting
  // (another engine) lands in the catch, where the scan reports the depth first, as before.
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const deep = text.length > maxDepth ? depthExceededAt(text, maxDepth) : -1;
    if (deep >= 0) return { ok: false, position: deep, tooDeep: true };
    const position = /position (\d+)/.exec(String((error as Error).message))?.[1];
    return { ok: false, position: position === undefined ? undefined : Number(position), tooDeep: false };
  }
  if (!keepPrototypes && !removePrototypes(value, maxDepth)) return { ok: false, position: depthExceededAt(text, maxDepth), tooDeep: true };
  return { ok: true, value };
}

/** The index of the bracket that opens nesting level `maxDepth + 1`, or -1. Strings are skipped, escapes too. */
export function depthExceededAt(text: string, maxDepth: number): number {
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

/**
 * Makes every ordinary object in a parsed value (validated or not, which may have filled in defaults) inherit
 * nothing; false, and stops, where objects and arrays nest deeper than `depthLeft` (the value must then be refused:
 * it is left half done). Objects of other kinds are left alone.
 */
export function removePrototypes(value: unknown, depthLeft: number): boolean {
  if (value === null || typeof value !== "object") return true;
  return Array.isArray(value) ? removeInArray(value, depthLeft) : removeInObject(value, depthLeft);
}

// Arrays and objects walked by their own functions, and strings, numbers, booleans and null (most of a body's
// values) skipped without a call: ~10 % less time than one function taking any value on the 100 kB chat body
// (1,184 objects), most of the rest being `setPrototypeOf` itself.
function removeInArray(array: unknown[], depthLeft: number): boolean {
  if (depthLeft === 0) return false;
  for (let i = 0; i < array.length; i++) {
    const item = array[i];
    if (typeof item === "object" && item !== null && !(Array.isArray(item) ? removeInArray(item, depthLeft - 1) : removeInObject(item, depthLeft - 1))) return false;
  }
  return true;
}

function removeInObject(object: object, depthLeft: number): boolean {
  if (depthLeft === 0) return false;
  if (Object.getPrototypeOf(object) !== Object.prototype) return true;
  for (const key in object) {
    const item = (object as Record<string, unknown>)[key];
    if (typeof item === "object" && item !== null && !(Array.isArray(item) ? removeInArray(item, depthLeft - 1) : removeInObject(item, depthLeft - 1))) return false;
  }
  // After its own objects (a walk stopped by the limit can be finished later from the root: what it made inherit
  // nothing is done all the way down), and for-in over an object whose prototype just changed is slower.
  Object.setPrototypeOf(object, EMPTY_PROTOTYPE);
  return true;
}

/** JSON with sorted keys: equal JSON values give equal strings (used by enum/const/uniqueItems). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`)
    .join(",")}}`;
}
