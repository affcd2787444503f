import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { loadSpec } from "../../src/load/index.js";
import { FIXTURES, cleanupTempDirs, tempDir, writeFiles } from "../helpers.js";

/**
 * `$ref` by JSON Schema identifier (`$id`, `$anchor`): resolved against the base URI of the enclosing resource and
 * replaced by a JSON pointer. Targets that are not whole component schemas are hoisted into `components.schemas`.
 * (Generated types and runtime behaviour of the same fixture: test/features/ids.test.ts.)
 */
afterAll(cleanupTempDirs);

const fixture = join(FIXTURES, "features", "ids", "openapi.yaml");

function spec(lines: string[]): string {
  return ["openapi: 3.1.0", "info: {title: x, version: '1'}", ...lines, ""].join("\n");
}

function loadError(project: string, file: string): UserError {
  try {
    loadSpec(file, project);
  } catch (error) {
    if (error instanceof UserError) return error;
    throw error;
  }
  throw new Error("expected a UserError");
}

describe("$id and $anchor references", () => {
  const loaded = loadSpec(fixture);
  const doc = loaded.document as any;
  const schemas = doc.components.schemas;

  it("resolve by absolute and relative $id, by #anchor and by resource#anchor", () => {
    expect(doc.paths["/pets/{id}"].get.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Pet" });
    expect(schemas.Pet.properties.owner).toEqual({ $ref: "#/components/schemas/Owner" });
    expect(schemas.Owner.properties.pets.items).toEqual({ $ref: "#/components/schemas/Pet" });
    // Anchors and pointers into a resource are hoisted under the anchor's name or <component>_<last segment>.
    expect(schemas.Pet.properties.name).toEqual({ $ref: "#/components/schemas/name" });
    expect(schemas.name).toEqual({ $anchor: "name", type: "string", minLength: 1 });
    expect(doc.paths["/pets/{id}"].get.parameters[0].schema).toEqual({ $ref: "#/components/schemas/pet-id" });
    expect(schemas["pet-id"]).toEqual({ $anchor: "pet-id", type: "integer" });
    expect(schemas.PetList.items).toEqual({ $ref: "#/components/schemas/Pet_owner" });
  });

  it("read #/… inside a resource against the resource, else against the document", () => {
    expect(schemas.Pet.properties.nickname).toEqual({ $ref: "#/components/schemas/Pet_Nickname" });
    expect(schemas.Pet_Nickname).toEqual({ type: "string", maxLength: 10 });
    expect(schemas.Pet.properties.tag).toEqual({ $ref: "#/components/schemas/Tag" });
  });

  it("hoist an inline schema of a path that a component refers to by anchor", () => {
    expect(schemas.NewPetEcho).toEqual({ $ref: "#/components/schemas/new-pet" });
    expect(schemas["new-pet"]).toMatchObject({ $anchor: "new-pet", required: ["name"] });
  });

  it("find $ids across files, also in a file referenced by path only later, and local files under a non-file base", () => {
    expect(schemas.Pet.properties.collar).toEqual({ $ref: "#/components/schemas/collar" });
    expect(schemas.Accessories.properties.collar).toEqual({ $ref: "#/components/schemas/collar" });
    expect(schemas.collar).toMatchObject({ $id: "https://example.com/schemas/collar", required: ["colour"] });
    expect(schemas.Pet.properties.vet).toEqual({ $ref: "#/components/schemas/vet" });
    expect(schemas.Pet.properties.toy).toEqual({ $ref: "#/components/schemas/favourite" });
    expect(loaded.files.map((f) => f.path.split("/features/ids/")[1]).sort()).toEqual(
      ["accessories.yaml", "collar.yaml", "openapi.yaml", "toys.yaml", "vet.yaml"],
    );
    expect(loaded.warnings).toEqual([]);
  });

  it("a root-relative $id with an anchor (`/components/schemas/details#details_id`, as the Swagger Petstore 3.1 writes it)", () => {
    // The real Petstore 3.1 is read the same way in test/corpus/documents.test.ts.
    const project = tempDir();
    writeFiles(project, {
      "spec.yaml": spec([
        "components:",
        "  schemas:",
        "    Tag: {type: object, properties: {name: {type: string}}}",
        "    Pet:",
        "      type: object",
        "      properties:",
        "        detailsId: {$ref: /components/schemas/details#details_id}",
        "    Details:",
        "      $id: /components/schemas/details",
        "      type: object",
        "      properties:",
        "        id: {type: integer, $anchor: details_id}",
        "        tag: {$ref: '#/components/schemas/Tag'}",
      ]),
    });
    const schemas = (loadSpec(join(project, "spec.yaml"), project).document as any).components.schemas;
    expect(schemas.Pet.properties.detailsId).toEqual({ $ref: "#/components/schemas/details_id" });
    expect(schemas.details_id).toMatchObject({ type: "integer", $anchor: "details_id" });
    // `#/components/schemas/Tag` inside the `$id`'d Details still means the document's Tag.
    expect(schemas.Details.properties.tag).toEqual({ $ref: "#/components/schemas/Tag" });
  });

  it("an anchor of a resource is not visible from outside it: a clear error naming the JSON pointer", () => {
    const project = tempDir();
    writeFiles(project, {
      "spec.yaml": spec([
        "components:",
        "  schemas:",
        "    Pet: {$id: 'https://example.com/pet', properties: {id: {$anchor: pet-id, type: integer}}}",
        "    Id: {$ref: '#pet-id'}",
      ]),
    });
    const error = loadError(project, "spec.yaml");
    expect(error.location).toBe("spec.yaml#/components/schemas/Id/$ref");
    expect(error.message).toBe('unresolved $ref "#pet-id": no $anchor "pet-id" in spec.yaml');
  });

  it("an $id nothing declares is a clear error (documents are fetched only from origins the config allows)", () => {
    const project = tempDir();
    writeFiles(project, { "spec.yaml": spec(["components:", "  schemas:", "    Pet: {$ref: 'https://example.com/schemas/pet.json'}"]) });
    const error = loadError(project, "spec.yaml");
    expect(error.format()).toBe(
      'spec.yaml#/components/schemas/Pet/$ref: unresolved $ref "https://example.com/schemas/pet.json": https://example.com/schemas/pet.json is not the $id of a schema in the document, and documents are not fetched from https://example.com\n  hint: $refs to other origins are off: if https://example.com serves part of the spec, allow it in the config: "fetch": { "origins": { "https://example.com": {} } }',
    );
  });

  it("warns about an $id declared twice and about $dynamicRef, which is ignored", () => {
    const project = tempDir();
    writeFiles(project, {
      "spec.yaml": spec([
        "components:",
        "  schemas:",
        "    A: {$id: 'https://example.com/a', type: string}",
        "    B: {$id: 'https://example.com/a', type: integer}",
        "    C: {$ref: 'https://example.com/a'}",
        "    D: {$dynamicRef: '#node'}",
      ]),
    });
    const result = loadSpec("spec.yaml", project);
    expect((result.document as any).components.schemas.C).toEqual({ $ref: "#/components/schemas/A" });
    expect(result.warnings).toEqual([
      { location: "spec.yaml#/components/schemas/D/$dynamicRef", message: '$dynamicRef "#node" is not supported and is ignored: it does not constrain the schema', hint: "use $ref (to an $id, an $anchor or a JSON pointer) instead" },
      { location: "spec.yaml#/components/schemas/B", message: "https://example.com/a is declared twice (first at spec.yaml#/components/schemas/A); $refs to it use the first", hint: undefined },
    ]);
  });

  it("a draft-07 style `$id: '#name'` is an anchor; $id and $anchor inside examples are data", () => {
    const project = tempDir();
    writeFiles(project, {
      "spec.yaml": spec([
        "components:",
        "  schemas:",
        "    A: {$id: '#a-name', type: string}",
        "    B: {$ref: '#a-name'}",
        "    C: {type: object, example: {$id: 'https://example.com/c'}}",
        "    D: {$ref: 'https://example.com/c'}",
      ]),
    });
    const error = loadError(project, "spec.yaml");
    expect(error.location).toBe("spec.yaml#/components/schemas/D/$ref");
    writeFiles(project, { "ok.yaml": spec(["components:", "  schemas:", "    A: {$id: '#a-name', type: string}", "    B: {$ref: '#a-name'}"]) });
    expect((loadSpec("ok.yaml", project).document as any).components.schemas.B).toEqual({ $ref: "#/components/schemas/A" });
  });
});
