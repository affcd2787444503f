import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { printNodes } from "../../src/emit/printer.js";
import { emitTypes, typeStatements, typesContext } from "../../src/emit/types.js";
import { documentForTypes, loadSpec } from "../../src/load/index.js";
import { sameNodes, withFastCreateRef } from "../../src/package/deps.js";
import { cleanupTempDirs, tempDir, writeFiles } from "../helpers.js";

afterAll(cleanupTempDirs);

type CreateRef = (parts: unknown[]) => string;
/** The module object openapi-typescript's transforms call `createRef` through (the same one src/package/deps.ts swaps). */
const utils = createRequire(import.meta.url)("openapi-typescript/dist/lib/utils.cjs") as { createRef: CreateRef };
const original = utils.createRef;

/** Parts as the transforms pass them: a parent path, then a key, an index or a keyword. */
const PARTS: unknown[][] = [
  ["#/components/schemas/Pet", "properties", "name"],
  ["#/components/schemas/Pet/properties/tags", "items", 0],
  ["#/paths/~1pets~1{id}/get", "responses", "200"],
  ["#/components/schemas/A", "a/b", "t~0", "c~1d"],
  ["#/components/schemas/A/properties/a%20b", "x"], // decoded when reparsed: openapi-typescript's behaviour, kept
  ["#/components/schemas/A", "a%20b"],
  ["#/components/schemas/A", "", undefined, null, "x"],
  ["", "#/components/schemas/B", "#"],
  ["plain", "#/x/#/y", "#/"],
  [3, 1.5, "#/components/schemas/C"],
  [],
];

describe("createRef inside withFastCreateRef", () => {
  it.each(PARTS.map((parts) => [JSON.stringify(parts), parts]))("%s: the same pointer as openapi-typescript's createRef", (_name, parts) => {
    const expected = original(parts as unknown[]);
    // Twice: the second answer comes from what the first remembered.
    expect(withFastCreateRef(() => [utils.createRef(parts as unknown[]), utils.createRef(parts as unknown[])])).toEqual([expected, expected]);
  });

  it("the same pointers for 5,000 random parts built from the characters that escape, decode and split", () => {
    // A fixed-seed generator (mulberry32): the same parts on every run.
    let seed = 19;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const alphabet = ["a", "Z", "/", "~", "0", "1", "%", "2", "0", "#", " ", "é", ""];
    const part = () => Array.from({ length: Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
    const outcome = (createRef: CreateRef, parts: unknown[]) => {
      try {
        return createRef(parts);
      } catch (error) {
        return `threw ${(error as Error).name}`;
      }
    };
    const cases = Array.from({ length: 5000 }, () => [random() < 0.7 ? `#/${part()}` : part(), part()]);
    const expected = cases.map((parts) => outcome(original, parts));
    expect(withFastCreateRef(() => cases.map((parts) => outcome(utils.createRef, parts)))).toEqual(expected);
    // A parent's pointer as createRef made it, then reused for a child: the case the remembered contributions are for.
    const chained = cases.map((parts) => [outcome(original, parts), "child"]);
    expect(withFastCreateRef(() => chained.map((parts) => outcome(utils.createRef, parts)))).toEqual(chained.map((parts) => outcome(original, parts)));
  });

  it("throws where openapi-typescript's does (a parent path with a malformed %-escape)", () => {
    expect(() => original(["#/components/schemas/A/properties/100%", "x"])).toThrow(URIError);
    expect(() => withFastCreateRef(() => utils.createRef(["#/components/schemas/A/properties/100%", "x"]))).toThrow(URIError);
  });

  it("is swapped in only while the transforms run, and swapped back when they throw", () => {
    let inside: CreateRef | undefined;
    withFastCreateRef(() => (inside = utils.createRef));
    expect(inside).not.toBe(original);
    expect(utils.createRef).toBe(original);
    expect(() =>
      withFastCreateRef(() => {
        throw new Error("transform failed");
      }),
    ).toThrow("transform failed");
    expect(utils.createRef).toBe(original);
  });

  it("schema.ts is the text openapi-typescript's own createRef gives, for keys that escape and decode", () => {
    const dir = tempDir();
    const nested = (depth: number): Record<string, unknown> =>
      depth === 0 ? { type: "string" } : { type: "object", properties: { "a%20b": nested(depth - 1), "x/y": nested(depth - 1), "t~1": { type: "array", items: nested(depth - 1) } }, required: ["x/y"] };
    const schemas = { Deep: nested(3), Union: { oneOf: [nested(2), { $ref: "#/components/schemas/Deep" }] } };
    writeFiles(dir, { "openapi.json": JSON.stringify({ openapi: "3.1.0", info: { title: "t", version: "1" }, paths: {}, components: { schemas } }) });
    const input = documentForTypes(loadSpec(join(dir, "openapi.json"), dir).document);
    const schema = input.document as never;
    const withOriginal = [...typeStatements(schema, typesContext(schema))].map((node) => printNodes(sameNodes([node]))).map((printed) => ("text" in printed ? printed.text : "")).join("");
    expect(withOriginal).toContain('"a%20b"');
    expect(emitTypes(input).content).toBe(withOriginal);
  });
});
