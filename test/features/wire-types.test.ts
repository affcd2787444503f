import { beforeAll, describe, expect, it } from "vitest";
import { buildGroup, importGenerated, jsonRequest, type BuiltGroup } from "./harness.js";

/**
 * Types that match the wire: discriminator values as the spec pins them (not schema names), a parent that is both
 * `oneOf` its children and `allOf`'d by them, the stream flag found through `allOf`/`$ref`, and duplicate
 * operationIds. Type-checked with `<fixture>.types.ts`, and run: the generated client against the generated router.
 */
let group: BuiltGroup;
beforeAll(async () => {
  group = await buildGroup("wire-types", [
    { name: "discriminators", spec: "discriminators.yaml" },
    { name: "streaming", spec: "streaming.yaml" },
    { name: "duplicate-operation-ids", spec: "duplicate-operation-ids.yaml" },
    { name: "discriminators-multi", spec: "discriminators-multi/openapi.yaml" },
  ]);
}, 300_000);

type Router = { fetch(request: Request): Promise<Response> };
type AnyClient = Record<string, (params?: unknown) => Promise<any>>;

/** A client whose fetch is the router's: every request goes through the real serialisation and routing. */
function clientOf(createClient: (options: object) => AnyClient, router: Router): AnyClient {
  return createClient({ baseUrl: "http://api.test", maxRetries: 0, fetch: (input: RequestInfo | URL, init?: RequestInit) => router.fetch(new Request(input, init)) });
}

describe("types that match the wire", () => {
  it("generate, type-check with their assertions, and warn only about the duplicate operationIds", () => {
    expect(group.tsc.output).toBe("");
    expect(group.stderr.discriminators).toBe("");
    expect(group.stderr.streaming).toBe("");
    expect(group.stderr["discriminators-multi"]).toBe("");
    const spec = "test/fixtures/features/duplicate-operation-ids.yaml";
    const renamed = (pointer: string, name: string) =>
      `specforge: warning: ${spec}#${pointer}/operationId: operationId "getPet" is also the operationId of ${spec}#/paths/~1pets/get; operationIds must be unique, so this one is renamed "${name}"\n  hint: give each operation its own operationId\n`;
    expect(group.stderr["duplicate-operation-ids"]).toBe(
      renamed("/paths/~1pets~1{id}/get", "getPet_3") + renamed("/paths/~1pets~1{id}/delete", "getPet_4") + renamed("/webhooks/petAdopted/post", "getPet_5"),
    );
  });

  it("the router accepts what the types accept: pinned tags, and children of a self-referencing parent", async () => {
    const { createRouter } = await importGenerated(group, "discriminators");
    const router: Router = createRouter(
      {
        chat: ({ body }: any) => ({ status: 200, body }),
        createPet: ({ body }: any) => ({ status: 200, body }),
        createShape: ({ body }: any) => ({ status: 200, body }),
        createVehicle: ({ body }: any) => ({ status: 200, body }),
      },
      { insecureNoAuth: true, validateResponses: true },
    );
    const post = (path: string, body: unknown) => router.fetch(jsonRequest("POST", `http://x${path}`, body));
    const messages = [{ role: "user", content: "hi" }, { role: "assistant", content: null }, { role: "tool", tool_call_id: "c" }, { role: "system", content: "s" }];
    expect((await post("/chat", { messages })).status).toBe(200);
    expect((await post("/chat", { messages: [{ role: "UserMessage", content: "hi" }] })).status).toBe(400);
    // Cat extends Pet, Pet is oneOf Cat: validating a Cat must end (it recursed without end before).
    const cat = await post("/pets", { petType: "cat", name: "Tom", meows: true });
    expect(cat.status).toBe(200);
    expect(await cat.json()).toEqual({ petType: "cat", name: "Tom", meows: true });
    const noName = await post("/pets", { petType: "cat", meows: true });
    expect(noName.status).toBe(400);
    expect(JSON.stringify(await noName.json())).toMatch(/name/);
    expect((await post("/vehicles", { wheels: 4, doors: 5 })).status).toBe(200);
    expect((await post("/vehicles", { wheels: 2, bell: true })).status).toBe(200);
    expect((await post("/vehicles", { doors: 5 })).status).toBe(400);
    expect((await post("/shapes", { kind: "circle", radius: 1 })).status).toBe(200);
    expect((await post("/shapes", { kind: "circle", side: 1 })).status).toBe(400);
  });

  it("a mapping into another file dispatches on its keys: an MX record must have a priority", async () => {
    const { createRouter } = await importGenerated(group, "discriminators-multi");
    const router: Router = createRouter({ createRecord: ({ body }: any) => ({ status: 201, body }) }, { insecureNoAuth: true, validateResponses: true });
    const post = (body: unknown) => router.fetch(jsonRequest("POST", "http://x/records", body));
    expect((await post({ type: "A", data: "192.0.2.1" })).status).toBe(201);
    expect((await post({ type: "MX", data: "mail.example.com", priority: 10 })).status).toBe(201);
    expect((await post({ type: "MX", data: "mail.example.com" })).status).toBe(400);
    expect((await post({ type: "record_a", data: "192.0.2.1" })).status).toBe(400);
  });

  it("streaming declared through allOf/$ref: `stream: true` gets the SSE chunks, without it the JSON body", async () => {
    const { createClient, createRouter } = await importGenerated(group, "streaming");
    const accepted: (string | null)[] = [];
    const router: Router = createRouter(
      {
        createChatCompletion: ({ body, request }: any) =>
          accepted.push(request.headers.get("accept")) && body.stream
            ? {
                status: 200,
                stream: (async function* () {
                  for (const delta of ["Hel", "lo"]) yield { id: "c1", delta };
                })(),
              }
            : { status: 200, body: { id: "c1", text: "Hello" } },
      },
      { insecureNoAuth: true },
    );
    const client = clientOf(createClient, router);
    const chunks: string[] = [];
    for await (const chunk of await client.createChatCompletion!({ body: { model: "m", messages: [{ role: "user", content: "Hi" }], stream: true } })) chunks.push(chunk.delta);
    expect(chunks).toEqual(["Hel", "lo"]);
    expect(await client.createChatCompletion!({ body: { model: "m", messages: [{ role: "user", content: "Hi" }] } })).toEqual({ id: "c1", text: "Hello" });
    // The client knows which call streams: it asks for the event stream only then.
    expect(accepted).toEqual(["text/event-stream", null]);
  });

  it("duplicate operationIds: every operation keeps its route under its own name", async () => {
    const { createClient, createRouter } = await importGenerated(group, "duplicate-operation-ids");
    const router: Router = createRouter(
      {
        getPet: () => ({ status: 200, body: ["a", "b"] }),
        getPet3: ({ path }: any) => ({ status: 200, body: `pet ${path.id}` }),
        getPet2: () => ({ status: 200, body: 2 }),
        getPet4: () => ({ status: 204 }),
      },
      { insecureNoAuth: true, validateResponses: true },
    );
    const client = clientOf(createClient, router);
    expect(await client.getPet!()).toEqual(["a", "b"]);
    expect(await client.getPet3!({ path: { id: "7" } })).toBe("pet 7");
    expect(await client.getPet2!({ path: { id: "7" } })).toBe(2);
    expect(await client.getPet4!({ path: { id: "7" } })).toBeUndefined();
  });
});

