import { beforeAll, describe, expect, it } from "vitest";
import { buildGroup, importGenerated, jsonRequest, type BuiltGroup } from "./harness.js";

/**
 * `$ref`s across local files (test/fixtures/multi-file) and by `$id` / `$anchor` (test/fixtures/features/ids):
 * generated, type-checked with their assertions, and served: the router resolves every schema it validates with.
 */
let group: BuiltGroup;
beforeAll(async () => {
  group = await buildGroup("refs", [
    { name: "multi-file", spec: "../multi-file/openapi.yaml" },
    { name: "ids", spec: "ids/openapi.yaml" },
    { name: "ref-to-parameter", spec: "ref-to-parameter.yaml" },
  ]);
}, 300_000);

type Router = { fetch(request: Request): Promise<Response> };

describe("references", () => {
  it("type-check with their assertions under tsc --strict", () => {
    expect(group.stderr).toEqual({ "multi-file": "", ids: "", "ref-to-parameter": "" });
    expect(group.tsc.output).toBe("");
  });

  it("external files: the router validates with schemas hoisted from them", async () => {
    const { createRouter } = await importGenerated(group, "multi-file");
    const router: Router = createRouter(
      { createPet: ({ body }: any) => ({ status: 201, body: { id: 1, name: body.name } }), getPet: () => ({ status: 404, body: { code: 404, message: "none" } }) },
      { insecureNoAuth: true, validateResponses: true },
    );
    expect((await router.fetch(jsonRequest("POST", "http://x/pets", { name: "n", owner: { name: "o", pets: [{ id: 1, name: "p" }] } }))).status).toBe(201);
    expect((await router.fetch(jsonRequest("POST", "http://x/pets", { name: "n", owner: { pets: [{ id: "1", name: "p" }] } }))).status).toBe(400);
    const missing = await router.fetch(jsonRequest("GET", "http://x/pets/3"));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ code: 404, message: "none" });
  });

  it("$id and $anchor: the router validates with the schemas they name", async () => {
    const { createRouter } = await importGenerated(group, "ids");
    const pet = { id: 1, name: "Rex", owner: { name: "Ann", pets: [] }, nickname: "R", tag: "dog", collar: { colour: "red" }, toy: { bounces: true } };
    const router: Router = createRouter(
      { getPet: () => ({ status: 200, body: pet }), createPet: ({ body }: any) => ({ status: 201, body }) },
      { insecureNoAuth: true, validateResponses: true },
    );
    const got = await router.fetch(jsonRequest("GET", "http://x/pets/1"));
    expect(got.status).toBe(200);
    expect((await router.fetch(jsonRequest("GET", "http://x/pets/x"))).status).toBe(400); // `<$id>#pet-id`: integer
    expect((await router.fetch(jsonRequest("POST", "http://x/pets", { name: "n" }))).status).toBe(201);
    expect((await router.fetch(jsonRequest("POST", "http://x/pets", {}))).status).toBe(400);
  });

  it("$id and $anchor: a response that breaks the named schemas is caught", async () => {
    const { createRouter } = await importGenerated(group, "ids");
    const errors: unknown[] = [];
    const bad = { id: 1, name: "", nickname: "far too long a name", collar: { colour: "green" }, toy: {} };
    const router: Router = createRouter({ getPet: () => ({ status: 200, body: bad }) }, { insecureNoAuth: true, validateResponses: true, onError: (e: unknown) => errors.push(e) });
    expect((await router.fetch(jsonRequest("GET", "http://x/pets/1"))).status).toBe(500);
    const message = String(errors[0]);
    for (const where of ["response.name", "response.nickname", "response.collar.colour", "response.toy.bounces"]) expect(message).toContain(where);
  });

  it("a schema $ref to a parameter: the router still finds its target (it used to fail at startup)", async () => {
    const { createRouter } = await importGenerated(group, "ref-to-parameter");
    const router: Router = createRouter({ createThing: () => ({ status: 204 }) }, { insecureNoAuth: true });
    expect((await router.fetch(jsonRequest("POST", "http://x/things", { limit: 1 }))).status).toBe(204);
  });
});
