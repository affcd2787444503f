import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/load/index.js";
import { withMock } from "../e2e/mock-process.js";
import { externalRefs } from "../helpers.js";
import { CORPUS } from "./shared.js";

/**
 * Behaviour on particular public documents of ../shared/corpus. `npm test` pins the same behaviour on small
 * documents of its own (test/load/bundle.test.ts, test/load/ids.test.ts, test/e2e/mock-cli.test.ts).
 */
describe("public documents", () => {
  it("bundles DigitalOcean's 2,900-file spec", () => {
    const spec = loadSpec(join(CORPUS, "digitalocean-multifile-3.0", "DigitalOcean-public.v2.yaml"));
    expect(spec.files.length).toBeGreaterThan(1000);
    expect(externalRefs(spec.document)).toEqual([]);
  }, 120_000);

  it("the Swagger Petstore 3.1's /components/schemas/petdetails#pet_details_id", () => {
    const petstore = loadSpec(join(CORPUS, "swagger-petstore-3.1.yaml"));
    const pet = (petstore.document as any).components.schemas;
    expect(pet.Pet.properties.petDetailsId).toEqual({ $ref: "#/components/schemas/pet_details_id" });
    expect(pet.pet_details_id).toMatchObject({ type: "integer", $anchor: "pet_details_id" });
    // Its `#/components/schemas/Tag` inside the `$id`'d PetDetails still means the document's Tag.
    expect(pet.PetDetails.properties.tag).toEqual({ $ref: "#/components/schemas/Tag" });
  });

  it("specforge mock serves the Swagger Petstore 3.0 under its server's base path (/api/v3)", async () => {
    await withMock(join(CORPUS, "swagger-petstore-3.0.yaml"), async (url) => {
      const res = await fetch(`${url}/pet/1`, { headers: { authorization: "Bearer x", api_key: "k" } });
      expect([200, 401]).toContain(res.status);
      const inventory = await fetch(`${url}/store/inventory`, { headers: { authorization: "Bearer x" } });
      expect(inventory.status).toBeLessThan(500);
      expect(url).toMatch(/\/api\/v3$/);
    });
  });
});
