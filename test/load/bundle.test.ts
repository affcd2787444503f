import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundle } from "../../src/load/bundle.js";
import { loadSpec } from "../../src/load/index.js";
import { FIXTURES, externalRefs } from "../helpers.js";

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
    const spec = loadSpec(join(FIXTURES, "orval-issue-1935", "issue-1935.yaml"));
    const doc = spec.document as any;
    expect(spec.files.map((f) => f.path.split("/orval-issue-1935/")[1]).sort()).toEqual(
      ["issue-1935.yaml", "parameters/userId.yaml", "path/projects.yaml", "schemas/UserProjectDTO.yaml", "schemas/index.yaml"],
    );
    const get = doc.paths["/users/{userId}/projects"].get;
    expect(get.operationId).toBe("getUserProjects");
    expect(get.parameters[0]).toMatchObject({ name: "userId", in: "path", required: true });
    // The barrel's re-export resolves to the concrete schema in the third file.
    const items = get.responses["200"].content["application/json"].schema.items;
    const target = items.$ref ? doc.components.schemas[items.$ref.split("/").pop()] : items;
    expect(target.$ref ? doc.components.schemas[target.$ref.split("/").pop()] : target).toMatchObject({
      type: "object",
      required: ["id", "title"],
      properties: { id: { type: "string" }, title: { type: "string" }, description: { type: "string" } },
    });
    expect(externalRefs(doc)).toEqual([]);
  });
});

/** The walk builds each node's JSON pointer only when it needs one, and resolves a repeated `#/…` pointer once. */
describe("bundle: where things are", () => {
  const entry = "/specs/openapi.json";
  const run = (document: Record<string, unknown>) =>
    bundle({ entry, document, display: (file) => file.slice("/specs/".length), readFile: () => { throw new Error("reads no other file"); } });
  const ok = { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } };
  const document = (extra: Record<string, unknown>) => ({
    openapi: "3.1.0",
    paths: { "/a/{id}": { get: { responses: { "200": ok } } }, "/b": { get: { responses: { "200": ok, ...extra } } } },
    components: { schemas: { Pet: { type: "object" } } },
  });

  it("leaves a document of internal $refs as it is, however often each is written", () => {
    const input = document({ "201": ok });
    expect(run(input).document).toBe(input);
  });

  it("reports an unresolved $ref at the place it is written, after the same $ref resolved elsewhere", () => {
    const missing = { description: "gone", content: { "application/json": { schema: { properties: { x: { $ref: "#/components/schemas/Gone" } } } } } };
    const input = document({ "404": missing });
    (input.paths["/a/{id}"].get.responses as Record<string, unknown>)["404"] = { $ref: "#/components/schemas/Pet" };
    expect(() => run(input)).toThrow(expect.objectContaining({
      message: expect.stringContaining('unresolved $ref "#/components/schemas/Gone": nothing at openapi.json#/components/schemas/Gone'),
      location: "openapi.json#/paths/~1b/get/responses/404/content/application~1json/schema/properties/x/$ref",
    }));
  });

  it("points warnings at the keyword deep in the tree", () => {
    const input = document({});
    Object.assign(input.components.schemas, {
      Tree: { type: "object", properties: { children: { type: "array", items: { $dynamicRef: "#node" } }, loose: { $ref: null } } },
    });
    expect(run(input).warnings.map((warning) => warning.pointer)).toEqual([
      ["components", "schemas", "Tree", "properties", "children", "items", "$dynamicRef"],
      ["components", "schemas", "Tree", "properties", "loose", "$ref"],
    ]);
  });
});
