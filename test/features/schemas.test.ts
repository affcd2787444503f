import { beforeAll, describe, expect, it } from "vitest";
import { buildGroup, importGenerated, jsonRequest, type BuiltGroup } from "./harness.js";

/**
 * Schema features, each in a small fixture (test/fixtures/features): generated with every output, type-checked with
 * tsc --strict together with `<fixture>.types.ts` (what the types must and must not accept), and run: the generated
 * router validates requests exactly as the types say.
 */
let group: BuiltGroup;
beforeAll(async () => {
  group = await buildGroup("schemas", [
    { name: "nullable-3.0", spec: "nullable-3.0.yaml" },
    { name: "schemas-3.1", spec: "schemas-3.1.yaml" },
    { name: "composition", spec: "composition.yaml" },
    { name: "read-write", spec: "read-write.yaml" },
  ]);
}, 300_000);

type Router = { fetch(request: Request): Promise<Response> };

/** A router whose handlers echo the body; `validateResponses` so a handler result the spec forbids fails too. */
async function echoRouter(name: string, handlers: string[], status = 200, bodiless: string[] = []): Promise<Router> {
  const { createRouter } = await importGenerated(group, name);
  const echo = Object.fromEntries(
    handlers.map((h) => [h, ({ body }: { body: unknown }) => (bodiless.includes(h) ? { status: 204 } : { status, body })]),
  );
  return createRouter(echo, { insecureNoAuth: true, validateResponses: true });
}

async function issues(response: Response): Promise<string[]> {
  if (response.status < 400) return [];
  type Issue = { loc: (string | number)[]; type: string };
  // FastAPI's `{detail: [...]}` where the spec declares it, else RFC 9457 problem details with `errors`.
  const body = (await response.json()) as { detail?: Issue[] | string; errors?: Issue[] };
  return (Array.isArray(body.detail) ? body.detail : (body.errors ?? [])).map((d) => `${d.loc.join(".")}:${d.type}`);
}

describe("schema features", () => {
  it("generate without warnings and type-check with their assertions under tsc --strict", () => {
    expect(group.stderr).toEqual({ "nullable-3.0": "", "schemas-3.1": "", composition: "", "read-write": "" });
    expect(group.tsc.output).toBe("");
    expect(group.tsc.code).toBe(0);
  });

  it("3.0 nullable: null is accepted exactly where the types allow it", async () => {
    const router = await echoRouter("nullable-3.0", ["putPet"]);
    const put = (body: unknown) => router.fetch(jsonRequest("PUT", "http://x/pets/1", body));
    const ok = await put({ name: null, age: null, owner: null, ownerViaAllOf: null, status: null, nullableStatus: null, nullListed: null, tags: [null], meta: null });
    expect(ok.status).toBe(200);
    expect(await issues(await put({ name: "x", strictStatus: null }))).toEqual(["body.strictStatus:string_type"]);
    expect(await issues(await put({ name: "x", status: "gone" }))).toEqual(["body.status:enum"]);
    expect(await issues(await put({ name: "x", owner: { name: null } }))).toEqual(["body.owner.name:string_type"]);
    expect(await issues(await put({}))).toEqual(["body.name:missing"]);
  });

  it("3.1 type arrays and const", async () => {
    const router = await echoRouter("schemas-3.1", ["createThing"], 201);
    const post = (body: unknown) => router.fetch(jsonRequest("POST", "http://x/things", body));
    expect((await post({ id: 1, kind: "thing", version: 2, name: null, flags: null, letter: null, ownerOrNull: null, legacyNullable: null })).status).toBe(201);
    expect((await post({ id: "a", kind: "thing", version: 2, flags: [true], letter: "b", inlineConst: "fixed" })).status).toBe(201);
    expect(await issues(await post({ id: true, kind: "other", version: 3 }))).toEqual(["body.id:string_type", "body.kind:literal_error", "body.version:literal_error"]);
    expect(await issues(await post({ id: 1, kind: "thing", version: 2, letter: "c" }))).toEqual(["body.letter:enum"]);
    // `required` beside $ref applies; a description beside it changes nothing
    expect(await issues(await post({ id: 1, kind: "thing", version: 2, contact: { name: "n" }, owner: { name: "o" } }))).toEqual(["body.contact.email:missing"]);
  });

  it("discriminators with and without mapping, allOf, anyOf, recursion and additionalProperties", async () => {
    const router = await echoRouter("composition", ["createPet", "createShape", "createAnimal", "addContact", "plantTree", "postMaps"], 200, ["createAnimal", "addContact", "postMaps"]);
    const post = (path: string, body: unknown) => router.fetch(jsonRequest("POST", `http://x${path}`, body));
    expect((await post("/pets", { petType: "cat", meows: true })).status).toBe(200);
    expect(await issues(await post("/pets", { petType: "Cat", meows: true }))).toEqual(["body:union_tag_invalid"]);
    expect(await issues(await post("/pets", { petType: "dog", meows: true }))).toEqual(["body.barks:missing"]);
    expect((await post("/shapes", { kind: "Circle", radius: 1 })).status).toBe(200);
    expect(await issues(await post("/shapes", { kind: "circle", radius: 1 }))).toEqual(["body:union_tag_invalid"]);
    expect((await post("/contacts", { email: "a@b", phone: "+1 2" })).status).toBe(204);
    expect((await post("/animals", { animalType: "Bird", name: "tweety", wingspan: 1 })).status).toBe(204);
    expect((await post("/contacts", { phone: "call me" })).status).toBe(400); // matches neither branch
    const deep = { value: 1, children: [{ value: 2, children: [{ value: 3, children: [] }] }] };
    expect(await (await post("/trees", deep)).json()).toEqual(deep);
    expect(await issues(await post("/trees", { value: 1, children: [{ value: 2, children: [{ value: "3" }] }] }))).toEqual(["body.children.0.children.0.value:float_type"]);
    expect((await post("/maps", { open: { a: "x", extra: 1 }, counts: { a: 1 }, id: "n", person: { name: "p", employer: { name: "c", employees: [{ name: "q" }] } } })).status).toBe(204);
    expect(await issues(await post("/maps", { closed: { a: "x", extra: 1 }, counts: { a: "1" }, id: 1.5 }))).toEqual([
      "body.closed.extra:extra_forbidden",
      "body.counts.a:int_type",
      "body.id:int_from_float", // the closest branch (integer) reports
    ]);
    expect(await issues(await post("/maps", { person: { name: "p", employer: { employees: [] } } }))).toEqual(["body.person.employer.name:missing"]);
    expect((await post("/maps", { maybePet: null, restatedPet: { petType: "dog", barks: false } })).status).toBe(204);
    expect(await issues(await post("/maps", { maybePet: { petType: "dog" } }))).toEqual(["body.maybePet.barks:missing"]);
  });

  it("readOnly is neither required nor checked in a request, writeOnly neither in a response", async () => {
    const { createRouter } = await importGenerated(group, "read-write");
    const errors: unknown[] = [];
    let answer: Record<string, unknown> = {};
    const router: Router = createRouter(
      { createUser: () => ({ status: 201, body: answer }) },
      { insecureNoAuth: true, validateResponses: true, onError: (e: unknown) => errors.push(e) },
    );
    const post = (body: unknown) => router.fetch(jsonRequest("POST", "http://x/users", body));
    answer = { id: "u1", name: "ann", createdAt: "2024-01-01T00:00:00Z" };
    expect((await post({ name: "ann", password: "pw", profile: { bio: "b" } })).status).toBe(201);
    expect(await issues(await post({ name: "ann" }))).toEqual(["body.password:missing"]);
    expect(errors).toEqual([]);
    answer = { name: "ann", password: "pw" };
    expect((await post({ name: "ann", password: "pw" })).status).toBe(500);
    expect(String(errors[0])).toMatch(/response\.id: Field required.*response\.createdAt: Field required/);
  });
});
