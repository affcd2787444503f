import { describe, expect, it } from "vitest";
import { serverDocument, serverRoutes } from "../../src/emit/server-data.js";
import { buildModel } from "../../src/ir/build.js";
import { loadSpec } from "../../src/load/index.js";
import { tempDir, V1_SPEC, writeFiles } from "../helpers.js";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function modelOf(schemas: Record<string, unknown>, paths: Record<string, unknown>) {
  const dir = tempDir();
  writeFiles(dir, { "openapi.json": JSON.stringify({ openapi: "3.1.0", info: { title: "t", version: "1" }, paths, components: { schemas } }) });
  return buildModel(loadSpec("openapi.json", dir), "openapi.json");
}

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

describe("the server's schema document", () => {
  it("holds the component schemas the routes reach, transitively, in document order", () => {
    const model = modelOf(
      {
        Unused: { type: "object", properties: { also: ref("OnlyFromUnused") } },
        OnlyFromUnused: { type: "string" },
        "Pet/Owner": { type: "object", properties: { name: { type: "string" } } },
        Pet: { type: "object", properties: { owner: ref("Pet~1Owner"), tags: { type: "array", items: ref("Tag") } } },
        Tag: { type: "string" },
        Query: { type: "integer" },
        Error: { type: "object", properties: { message: { type: "string" } } },
      },
      {
        "/pets": {
          get: {
            operationId: "listPets",
            parameters: [{ name: "limit", in: "query", schema: ref("Query") }],
            responses: { "200": { description: "ok", ...json({ type: "array", items: ref("Pet") }) }, default: { description: "error", ...json(ref("Error")) } },
          },
        },
      },
    );
    expect(Object.keys(serverDocument(model).components.schemas)).toEqual(["Pet/Owner", "Pet", "Tag", "Query", "Error"]);
  });

  it("follows discriminator mappings (bare names too) and ignores $refs inside examples, defaults and enums", () => {
    const model = modelOf(
      {
        Cat: { type: "object", properties: { kind: { type: "string" }, example: ref("Whisker") } },
        Whisker: { type: "string" },
        Dog: { type: "object", properties: { kind: { type: "string" } } },
        Pet: { oneOf: [ref("Cat"), ref("Dog")], discriminator: { propertyName: "kind", mapping: { cat: "Cat", dog: "#/components/schemas/Dog" } } },
        Ghost: { type: "string" },
      },
      {
        "/pets": {
          post: {
            operationId: "addPet",
            requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" }, example: { $ref: "#/components/schemas/Ghost" } } } },
            responses: { "204": { description: "ok" } },
          },
        },
      },
    );
    expect(Object.keys(serverDocument(model).components.schemas)).toEqual(["Cat", "Whisker", "Dog", "Pet"]);
  });

  it("follows a schema $ref into another component section, ships its target, and still drops what nothing reaches", () => {
    const dir = tempDir();
    const spec = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {
        "/items": {
          post: {
            operationId: "addItem",
            requestBody: { content: { "application/json": { schema: { type: "object", properties: { limit: { $ref: "#/components/parameters/Limit/schema" } } } } } },
            responses: { "204": { description: "ok" } },
          },
        },
      },
      components: {
        parameters: { Limit: { name: "limit", in: "query", schema: ref("Count") } },
        schemas: { Count: { type: "integer", minimum: 1 }, Unused: { type: "string" } },
      },
    };
    writeFiles(dir, { "openapi.json": JSON.stringify(spec) });
    const document = serverDocument(buildModel(loadSpec("openapi.json", dir), "openapi.json")) as { components: Record<string, unknown> };
    expect(Object.keys(document.components.schemas as object)).toEqual(["Count"]);
    expect(document.components.parameters).toEqual({ Limit: { schema: ref("Count") } });
  });

  it("keeps the v1 schemas every route needs, and drops those only webhooks use", () => {
    const model = buildModel(loadSpec(V1_SPEC), "spec");
    const all = Object.keys((model.document.components as { schemas: object }).schemas);
    const kept = Object.keys(serverDocument(model).components.schemas);
    expect(kept).toContain("ChatCompletionRequest");
    expect(kept).toContain("HTTPValidationError");
    expect(kept.length).toBeLessThan(all.length);
    // Every $ref left in the routes and the kept schemas resolves inside the document.
    const document = serverDocument(model);
    const refs = JSON.stringify([serverRoutes(model), document]).match(/"\$ref":"#\/components\/schemas\/[^"]+"/g) ?? [];
    for (const r of refs) expect(Object.keys(document.components.schemas)).toContain(decodeURIComponent(r.slice(29, -1).replace(/~1/g, "/").replace(/~0/g, "~")));
  });

  it("carries what validation and mocks read, not the annotations: at every depth, in routes too, names and data untouched", () => {
    const annotated = { title: "T", description: "D", $comment: "C", deprecated: true, externalDocs: { url: "https://e.example" }, xml: { name: "x" }, "x-internal": 1 };
    const model = modelOf(
      {
        Pet: {
          ...annotated,
          type: "object",
          required: ["description"],
          properties: {
            description: { ...annotated, type: "string", maxLength: 3, example: "abc" },
            "x-id": { type: "integer", default: 1, examples: [2] },
            kind: { type: "string", enum: ["cat"], description: "kept out" },
          },
          additionalProperties: { description: "gone", type: "boolean" },
          allOf: [{ title: "gone", minProperties: 1 }],
          example: { description: "an instance keeps its keys", "x-id": 3 },
          discriminator: { propertyName: "kind", mapping: { cat: "#/components/schemas/Pet" } },
        },
      },
      {
        "/pets": {
          get: {
            operationId: "listPets",
            parameters: [{ name: "q", in: "query", description: "query text", schema: { type: "string", title: "Q", pattern: "^a" } }],
            responses: { "200": { description: "ok", ...json({ type: "array", description: "list", items: ref("Pet") }) } },
          },
        },
      },
    );
    expect(serverDocument(model).components.schemas.Pet).toEqual({
      type: "object",
      required: ["description"],
      properties: {
        description: { type: "string", maxLength: 3, example: "abc" },
        "x-id": { type: "integer", default: 1, examples: [2] },
        kind: { type: "string", enum: ["cat"] },
      },
      additionalProperties: { type: "boolean" },
      allOf: [{ minProperties: 1 }],
      example: { description: "an instance keeps its keys", "x-id": 3 },
      discriminator: { propertyName: "kind", mapping: { cat: "#/components/schemas/Pet" } },
    });
    const [route] = serverRoutes(model);
    expect(route!.params.query[0]!.schema).toEqual({ type: "string", pattern: "^a" });
    expect(route!.responses["200"]!.content!["application/json"]!.schema).toEqual({ type: "array", items: ref("Pet") });
  });
});
