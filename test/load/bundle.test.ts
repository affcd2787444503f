import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/load/index.js";
import { CORPUS, FIXTURES } from "../helpers.js";

/** External `$ref`s left in the parts specforge reads (extensions such as x-codeSamples and tag texts are data). */
function externalRefs(node: unknown, path = "#"): string[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => externalRefs(item, `${path}/${i}`));
  if (!node || typeof node !== "object") return [];
  return Object.entries(node).flatMap(([key, value]) => {
    if (key.startsWith("x-") || (path === "#" && key === "tags")) return [];
    if (key === "$ref" && typeof value === "string" && !value.startsWith("#")) return [`${path}: ${value}`];
    return externalRefs(value, `${path}/${key}`);
  });
}

describe("multi-file specs", () => {
  it("inlines external path items and parameters, hoists external schemas under their own names, keeps recursion", () => {
    const spec = loadSpec(join(FIXTURES, "multi-file", "openapi.yaml"));
    const doc = spec.document as any;
    expect(spec.files.map((f) => f.path.split("/multi-file/")[1])).toEqual(["openapi.yaml", "schemas/pet.yaml", "schemas/owner.yaml", "paths/pets.yaml", "common.yaml"]);
    expect(Object.keys(doc.components.schemas).sort()).toEqual(["Error", "Owner", "Pet"]);
    expect(doc.components.schemas.Pet.properties.parent).toEqual({ $ref: "#/components/schemas/Pet" });
    expect(doc.components.schemas.Owner.properties.pets.items).toEqual({ $ref: "#/components/schemas/Pet" });
    expect(doc.paths["/pets"].get.responses["200"].content["application/json"].schema.items).toEqual({ $ref: "#/components/schemas/Pet" });
    expect(doc.paths["/pets/{petId}"].get.parameters[0]).toMatchObject({ name: "petId", in: "path" });
    // a response and a request body from other files are inlined; the schemas in them are hoisted
    expect(doc.paths["/pets/{petId}"].get.responses["404"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
    expect(doc.paths["/pets"].post.requestBody.content["application/json"].schema.properties.owner).toEqual({ $ref: "#/components/schemas/Owner" });
    expect(externalRefs(doc)).toEqual([]);
  });

  it("follows a chain across three files with ~1 and %7B in the pointer (orval's fixture)", () => {
    const spec = loadSpec(join(CORPUS, "fixture-orval-external-refs-multifile", "issue-1935.yaml"));
    expect(spec.files.length).toBeGreaterThanOrEqual(3);
    expect(externalRefs(spec.document)).toEqual([]);
  });

  it("bundles DigitalOcean's 2,900-file spec", () => {
    const spec = loadSpec(join(CORPUS, "digitalocean-multifile-3.0", "DigitalOcean-public.v2.yaml"));
    expect(spec.files.length).toBeGreaterThan(1000);
    expect(externalRefs(spec.document)).toEqual([]);
  }, 120_000);
});
