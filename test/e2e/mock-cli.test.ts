import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, tempDir, writeFiles } from "../helpers.js";
import { withMock } from "./mock-process.js";

afterAll(cleanupTempDirs);

describe("specforge mock", () => {
  it("serves the v1 spec: examples, auth still required, validation on", async () => {
    await withMock("spec/training-api.v1.yaml", async (url) => {
      const list = await fetch(`${url}/v1/models`, { headers: { authorization: "Bearer anything" } });
      expect(list.status).toBe(200);
      expect(((await list.json()) as { object: string }).object).toBe("list");
      expect((await fetch(`${url}/v1/models`)).status).toBe(401);
      const invalid = await fetch(`${url}/v1/preview/models/3fa85f64-5717-4562-b3fc-2c963f66afa6/checkpoints?limit=1000`, { headers: { authorization: "Bearer x" } });
      expect(invalid.status).toBe(422);
    });
  });

  it("serves another spec under its server's base path (/api/v3), with answers generated from the schemas", async () => {
    // The real Swagger Petstore 3.0 is served the same way in test/corpus/documents.test.ts.
    const project = tempDir();
    writeFiles(project, {
      "petstore.yaml": [
        "openapi: 3.0.3",
        "info: {title: Pets, version: '1'}",
        "servers: [{url: 'https://pets.example.com/api/v3'}]",
        "paths:",
        "  /pet/{petId}:",
        "    get:",
        "      operationId: getPetById",
        "      parameters: [{name: petId, in: path, required: true, schema: {type: integer, format: int64}}]",
        "      responses:",
        "        '200':",
        "          description: a pet",
        "          content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}",
        "components:",
        "  schemas:",
        "    Pet:",
        "      type: object",
        "      required: [id, name, status]",
        "      properties:",
        "        id: {type: integer, format: int64}",
        "        name: {type: string}",
        "        status: {type: string, enum: [available, pending, sold]}",
        "",
      ].join("\n"),
    });
    await withMock(join(project, "petstore.yaml"), async (url) => {
      expect(url).toMatch(/\/api\/v3$/);
      const res = await fetch(`${url}/pet/1`);
      expect(res.status).toBe(200);
      const pet = (await res.json()) as { id: unknown; name: unknown; status: unknown };
      expect(typeof pet.id).toBe("number");
      expect(typeof pet.name).toBe("string");
      expect(["available", "pending", "sold"]).toContain(pet.status);
      expect((await fetch(`${url}/pet/not-a-number`)).status).toBe(400);
      const outside = await fetch(`${url.replace(/\/api\/v3$/, "")}/pet/1`);
      expect(outside.status).toBe(404);
      expect(await outside.text()).toContain("Not Found: expected paths under /api/v3");
    });
  });
});
