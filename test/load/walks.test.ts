import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { documentForTypes, loadSpec } from "../../src/load/index.js";
import { MAX_NESTING, parseSpec } from "../../src/load/parse.js";
import { parsePointer } from "../../src/openapi/pointer.js";
import { FIXTURES, cleanupTempDirs, tempDir, writeFiles } from "../helpers.js";

afterAll(cleanupTempDirs);

/** Loads a spec written to a fresh folder. */
function load(files: Record<string, string>, entry = "openapi.json") {
  const dir = tempDir();
  writeFiles(dir, files);
  return loadSpec(join(dir, entry), dir);
}

describe("parsePointer", () => {
  it.each<[string, string[]]>([
    ["", []],
    ["/", [""]],
    ["/components/schemas/Pet", ["components", "schemas", "Pet"]],
    ["components/schemas/Pet", ["components", "schemas", "Pet"]],
    ["/a//b/", ["a", "", "b", ""]],
    ["/paths/~1pets~1{id}/get", ["paths", "/pets/{id}", "get"]],
    ["/a~0b/~01", ["a~b", "~1"]],
    // Percent-escapes are decoded before the split (a URI fragment): an escaped slash separates segments too.
    ["/paths/%7Bid%7D/x%2Fy", ["paths", "{id}", "x", "y"]],
    ["/bad%zz/c", ["bad%zz", "c"]],
  ])("%j", (fragment, segments) => {
    expect(parsePointer(fragment)).toEqual(segments);
  });
});

describe("the keywords a spec uses (parseSpec)", () => {
  it("lists every `$` key, `discriminator` and `allOf`, wherever they are, and no other key", () => {
    const text = JSON.stringify({ openapi: "3.1.0", a: [{ b: { $id: "x", allOf: [] } }], description: "$anchor discriminator", c: { discriminator: {} }, d: { $ref: "#/a" } });
    expect([...parseSpec(text, "spec.json").keywords].sort()).toEqual(["$id", "$ref", "allOf", "discriminator"]);
  });

  it("reads them in YAML with aliases too", () => {
    const text = "openapi: 3.1.0\nbase: &base\n  $anchor: here\nx:\n  - *base\n  - allOf: []\n";
    expect([...parseSpec(text, "spec.yaml").keywords].sort()).toEqual(["$anchor", "allOf"]);
  });

  it("a document too deep is refused at the first node past the limit, with its full pointer", () => {
    let deep: unknown = {};
    for (let i = 0; i < MAX_NESTING + 10; i++) deep = i % 2 === 0 ? [deep] : { k: deep };
    const text = JSON.stringify({ openapi: "3.1.0", x: deep });
    let pointer = "#/x";
    let node = deep;
    for (let depth = 2; depth <= MAX_NESTING + 1; depth++) {
      pointer += Array.isArray(node) ? "/0" : "/k";
      node = Array.isArray(node) ? node[0] : (node as { k: unknown }).k;
    }
    expect(() => parseSpec(text, "deep.json")).toThrow(expect.objectContaining({ location: `deep.json${pointer}` }));
  });
});

describe("the discriminator scan on the descriptions' walk", () => {
  const spec = {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: {},
    components: {
      schemas: {
        // Its HTML description is rewritten by the same walk that finds it: the mapping goes onto the rewritten copy.
        Pet: { description: "<p>A <b>pet</b></p>", oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }], discriminator: { propertyName: "kind" } },
        Cat: { type: "object", properties: { kind: { const: "cat" } } },
        Dog: { type: "object", properties: { kind: { type: "string", enum: ["dog"] } } },
        Box: {
          type: "object",
          properties: {
            // A property named like a data keyword is a schema like any other, to both walks.
            example: { oneOf: [{ $ref: "#/components/schemas/Cat" }], discriminator: { propertyName: "kind" } },
            inner: { description: "<b>inner</b>", oneOf: [{ $ref: "#/components/schemas/Dog" }], discriminator: { propertyName: "kind" } },
          },
        },
        Owner: { allOf: [{ $ref: "#/components/schemas/Pet" }, { type: "object", required: ["kind"] }] },
      },
    },
  };

  it("gives the document the separate walks gave", () => {
    const document = load({ "openapi.json": JSON.stringify(spec) }).document as any;
    expect(document.components.schemas.Pet.description).toBe("A **pet**");
    expect(document.components.schemas.Pet.discriminator.mapping).toEqual({ cat: "#/components/schemas/Cat", dog: "#/components/schemas/Dog" });
    expect(document.components.schemas.Box.properties.example.discriminator.mapping).toEqual({ cat: "#/components/schemas/Cat" });
    expect(document.components.schemas.Box.properties.inner).toMatchObject({ description: "**inner**", discriminator: { mapping: { dog: "#/components/schemas/Dog" } } });
  });

  it("documentForTypes gives the loader's document what it gives a copy of it (which it knows nothing about)", () => {
    const document = load({ "openapi.json": JSON.stringify(spec) }).document;
    expect(documentForTypes(document)).toEqual(documentForTypes(structuredClone(document)));
  });

  it("a discriminated oneOf in a property named like a data keyword gets its branches' tags written for the types", () => {
    const named = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {},
      components: {
        schemas: {
          Bird: { type: "object", properties: { kind: { type: "string" } } },
          Nest: { type: "object", properties: { default: { oneOf: [{ $ref: "#/components/schemas/Bird" }], discriminator: { propertyName: "kind" } } } },
        },
      },
    };
    const document = load({ "openapi.json": JSON.stringify(named) }).document;
    for (const types of [documentForTypes(document).document, documentForTypes(structuredClone(document)).document] as any[]) {
      expect(types.components.schemas.Bird.properties.kind).toEqual({ type: "string", enum: ["Bird"] });
    }
  });
});

describe("documentForTypes skips what the document's files cannot have", () => {
  it("a `$ref` with constraints becomes an allOf the types see as from a full pass; `$defs` go only where there are any", () => {
    const spec = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {},
      components: {
        schemas: {
          Pet: { type: "object", properties: { id: { type: "string" } } },
          Named: { $ref: "#/components/schemas/Pet", required: ["id"], nullable: true },
        },
      },
    };
    const plain = load({ "openapi.json": JSON.stringify(spec) }).document;
    expect(documentForTypes(plain)).toEqual(documentForTypes(structuredClone(plain)));
    const withDefs = load({ "openapi.json": JSON.stringify({ ...spec, components: { schemas: { ...spec.components.schemas, Tree: { $defs: { leaf: { type: "string" } }, type: "object" } } } }) }).document;
    const types = documentForTypes(withDefs).document as any;
    expect(types.components.schemas.Tree).toEqual({ type: "object" });
    expect(types).toEqual(documentForTypes(structuredClone(withDefs)).document);
  });

  it.each(readdirSync(join(FIXTURES, "features")).filter((name) => name.endsWith(".yaml")))("features/%s: the same types document as a full pass", (name) => {
    const { document } = loadSpec(join(FIXTURES, "features", name));
    expect(documentForTypes(document)).toEqual(documentForTypes(structuredClone(document)));
  });
});
