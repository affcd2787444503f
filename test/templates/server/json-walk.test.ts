import { describe, expect, it } from "vitest";
import { removePrototypes } from "../../../templates/server/json.js";

/**
 * The walk after a JSON body is validated (json.ts `removePrototypes`): it bounds the nesting and makes every
 * object inherit nothing. These pin its depth accounting through arrays and objects alike, which the router's
 * `too_deep` answers rely on, whatever shape the walk's code takes.
 */
const nest = (kinds: string, leaf: unknown): unknown => [...kinds].reduceRight<unknown>((inner, kind) => (kind === "a" ? [1, "x", null, inner] : { n: 1, s: "x", z: null, inner }), leaf);

/** Every object of a value, arrays' items included. */
function objects(value: unknown): object[] {
  if (value === null || typeof value !== "object") return [];
  const own = Array.isArray(value) ? [] : [value];
  return [...own, ...Object.values(value).flatMap(objects)];
}

describe("removePrototypes", () => {
  it("accepts nesting exactly at the limit and refuses one level more, through arrays, objects and both mixed", () => {
    for (const kinds of ["aaaa", "oooo", "aoao", "oaoa", "ooaa", "aaoo"]) {
      expect(removePrototypes(nest(kinds, 7), 4), kinds).toBe(true);
      expect(removePrototypes(nest(kinds, 7), 3), kinds).toBe(false);
      // An empty array or object innermost is a level too; a string or number is not.
      expect(removePrototypes(nest(kinds, []), 5), kinds).toBe(true);
      expect(removePrototypes(nest(kinds, {}), 4), kinds).toBe(false);
    }
  });

  it("makes every object inherit nothing, objects inside arrays inside objects included, and keeps values as they are", () => {
    const text = '{"a":[{"b":{"c":[[{"d":1}]]}},2,"s",null,true],"__proto__":{"admin":true},"e":{}}';
    const value = JSON.parse(text) as unknown;
    expect(removePrototypes(value, 128)).toBe(true);
    expect(objects(value).length).toBe(6);
    for (const object of objects(value)) {
      expect(Object.getPrototypeOf(object)).not.toBe(Object.prototype);
      expect("toString" in object).toBe(false);
    }
    expect(JSON.stringify(value)).toBe(text);
  });

  it("leaves primitives and objects of other kinds alone", () => {
    expect(removePrototypes("text", 0)).toBe(true);
    expect(removePrototypes(null, 0)).toBe(true);
    const bytes = new Uint8Array(2);
    const date = new Date(0);
    const value = { bytes, date, list: [bytes] };
    expect(removePrototypes(value, 128)).toBe(true);
    expect(Object.getPrototypeOf(bytes)).toBe(Uint8Array.prototype);
    expect(Object.getPrototypeOf(date)).toBe(Date.prototype);
  });
});
