/**
 * The `msw` output with the real msw/node (`setupServer`): the generated client's real fetch is intercepted, every
 * operation answers a mock valid for its schema (Ajv judges: test/ajv-judge.ts), and `mswHandler.<operation>`
 * answers as told — statuses and bodies, resolvers with path parameters, streams, text, bytes — on the paths the
 * client calls, literal segments before parameters.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import yaml from "js-yaml";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cleanupTempDirs } from "../helpers.js";
import { schemaJudge } from "../ajv-judge.js";
import { PETS_SPEC, generatedFixture } from "./queries-fixture.js";

let api: Record<string, any>;
let server: ReturnType<typeof setupServer>;
const judge = schemaJudge(yaml.load(readFileSync(PETS_SPEC, "utf8")) as Record<string, unknown>, "response");
const PET = "#/components/schemas/Pet";

beforeAll(async () => {
  api = await import(join(await generatedFixture(), "index.ts"));
  server = setupServer(...api.createMswHandlers());
  server.listen({ onUnhandledRequest: "error" });
});
afterEach(() => server.resetHandlers());
afterAll(() => {
  server?.close();
  cleanupTempDirs();
});

const client = () => api.createClient({ maxRetries: 0 });

describe("createMswHandlers: a mock answer for every operation", () => {
  it("answers the client with values valid for their schemas (base64 bytes, unique items, dates, uuids, multipleOf)", async () => {
    const pet = await client().getPet({ path: { petId: "7" } });
    expect(judge.problem(PET, pet)).toBeUndefined();
    expect(Buffer.from(pet.chip, "base64").toString("base64")).toBe(pet.chip);
    expect(new Set(pet.photos).size).toBe(pet.photos.length);
    const page = await client().listPets();
    expect(judge.problem("#/components/schemas/PetPage", page)).toBeUndefined();
    const created = await client().createPet({ body: { name: "Rex" } });
    expect(judge.problem(PET, created)).toBeUndefined();
    expect(await client().deletePet({ path: { petId: "7" } })).toBeUndefined();
    const story = await client().getPetStory({ path: { petId: "7" } });
    expect(typeof story === "string" && story.length >= 5).toBe(true);
    const photo = await client().getPetPhoto({ path: { petId: "7" } });
    expect(photo).toBeInstanceOf(Blob);
    const events: unknown[] = [];
    for await (const event of await client().watchEvents()) events.push(event);
    expect(events).toHaveLength(3);
    for (const event of events) expect(judge.problem("#/components/schemas/Event", event)).toBeUndefined();
  });

  it("routes a literal segment before a parameter (/pets/mine is not getPet), and a Google-style action", async () => {
    const mine = await client().listMyPets();
    expect(Array.isArray(mine)).toBe(true);
    expect(judge.problem(PET, await client().adoptPet({ path: { petId: "7" } }))).toBeUndefined();
  });

  it("answers under another base URL when told (the client's baseUrl), and not under the spec's then", async () => {
    server.use(...api.createMswHandlers({ baseUrl: "http://localhost:9999/api" }));
    const local = api.createClient({ baseUrl: "http://localhost:9999/api", maxRetries: 0 });
    expect(judge.problem(PET, await local.getPet({ path: { petId: "1" } }))).toBeUndefined();
  });
});

describe("mockFromSchema(name): a component's value, for answers of one's own", () => {
  it("is valid for its schema, varies with `variant`, and refuses a name that is no component schema the routes reach", async () => {
    const pet = api.mockFromSchema("Pet");
    expect(judge.problem(PET, pet)).toBeUndefined();
    const other = api.mockFromSchema("Pet", { variant: 1 });
    expect(judge.problem(PET, other)).toBeUndefined();
    expect(other).not.toEqual(pet);
    server.use(api.mswHandler.getPet({ status: 200, body: { ...pet, name: "Rex" } }));
    expect(await client().getPet({ path: { petId: "1" } })).toEqual({ ...pet, name: "Rex" });
    expect(() => api.mockFromSchema("Nope")).toThrow(/no component schema "Nope"/);
    expect(() => api.mockFromSchema("__proto__")).toThrow(TypeError);
    // A schema of one's own, as before.
    expect(api.mockFromSchema({ type: "string", format: "uuid" })).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
  });
});

describe("mswHandler.<operation>(answer): typed answers", () => {
  it("a declared status and body: the client sees them, an error as the operation's ApiError", async () => {
    server.use(api.mswHandler.getPet({ status: 404, body: { message: "gone" } }));
    const c = client();
    const error = await c.getPet({ path: { petId: "7" } }).catch((e: unknown) => e);
    expect(c.getPet.isError(error) && error.status === 404 && error.body).toEqual({ message: "gone" });
  });

  it("a resolver gets the request and the decoded path parameters; undefined leaves the request to the next handler", async () => {
    const seen: string[] = [];
    server.use(
      api.mswHandler.getPet(({ params, request }: any) => {
        seen.push(params.petId, new URL(request.url).pathname);
        if (params.petId === "pass") return undefined;
        return { status: 200, body: { id: "00000000-0000-4000-8000-000000000001", name: params.petId, born: "2020-02-02", chip: "AAAA" }, headers: { "x-from": "resolver" } };
      }),
    );
    const { data, headers } = await client().getPet.withResponse({ path: { petId: "a b/c" } });
    expect(data.name).toBe("a b/c");
    expect(headers.get("x-from")).toBe("resolver");
    expect(seen).toEqual(["a b/c", "/v1/pets/a%20b%2Fc"]);
    // Left to the mock handlers behind it.
    expect(judge.problem(PET, await client().getPet({ path: { petId: "pass" } }))).toBeUndefined();
  });

  it("a stream's body is its items, sent as the response declares (server-sent events here)", async () => {
    server.use(api.mswHandler.watchEvents({ status: 200, body: [{ type: "born", at: "2020-01-01T00:00:00Z" }, { type: "adopted", at: "2021-01-01T00:00:00Z" }] }));
    const events: unknown[] = [];
    for await (const event of await client().watchEvents()) events.push(event);
    expect(events).toEqual([{ type: "born", at: "2020-01-01T00:00:00Z" }, { type: "adopted", at: "2021-01-01T00:00:00Z" }]);
  });

  it("text and bytes in their media types; a status without content", async () => {
    server.use(
      api.mswHandler.getPetStory({ status: 200, body: "Once upon a time" }),
      api.mswHandler.getPetPhoto({ status: 200, body: new Uint8Array([137, 80, 78, 71]) }),
      api.mswHandler.deletePet({ status: 204 }),
    );
    expect(await client().getPetStory({ path: { petId: "1" } })).toBe("Once upon a time");
    const photo: Blob = await client().getPetPhoto({ path: { petId: "1" } });
    expect(photo.type).toBe("image/png");
    expect([...new Uint8Array(await photo.arrayBuffer())]).toEqual([137, 80, 78, 71]);
    expect(await client().deletePet({ path: { petId: "1" } })).toBeUndefined();
  });

  it("an answer the mock cannot make valid says why in x-specforge-mock-issue (and a valid one carries no such header)", async () => {
    const { response } = await client().getPet.withResponse({ path: { petId: "1" } });
    expect(response.headers.get("x-specforge-mock-issue")).toBeNull();
    const census = await client().census.withResponse();
    expect(census.data.counts).toHaveLength(1000);
    expect(census.response.headers.get("x-specforge-mock-issue")).toBe(
      "/counts: minItems 100000000 is more than mock arrays hold (1000): the array is too short; /note: minLength 2000000000 is more than mock strings hold (65536): the string is too short",
    );
  });
});

describe("the js form (.js beside .d.ts)", () => {
  it("answers the same: mock answers, typed answers and mockFromSchema", async () => {
    const js = await import(join(await generatedFixture(undefined, "js"), "index.ts"));
    server.use(js.mswHandler.getPet({ status: 404, body: { message: "not in js" } }), ...js.createMswHandlers());
    const jsClient = js.createClient({ maxRetries: 0 });
    const missing = await jsClient.getPet({ path: { petId: "1" } }).catch((error: unknown) => error);
    expect(jsClient.getPet.isError(missing) && missing.body).toEqual({ message: "not in js" });
    expect(judge.problem("#/components/schemas/PetPage", await jsClient.listPets())).toBeUndefined();
    expect(judge.problem(PET, js.mockFromSchema("Pet"))).toBeUndefined();
  });
});
