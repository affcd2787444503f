import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, createRouter, toNodeListener, type Handlers } from "../../generated/index.js";

/** The committed v1 server (generated/) on a real loopback server, called by the official openai client and ours. */
describe("generated v1 server", () => {
  let server: Server;
  let base = "";
  const handlers: Handlers<{ user: string }> = {
    createChatCompletion: async ({ body, auth }) => {
      if (body.stream) {
        async function* chunks() {
          for (const content of ["Hel", "lo"]) {
            yield { id: "c1", object: "chat.completion.chunk" as const, created: 1, model: body.model ?? "m", choices: [{ index: 0, delta: { content }, finish_reason: null }] };
          }
        }
        return { status: 200, stream: chunks() };
      }
      return {
        status: 200,
        body: {
          id: "c1",
          object: "chat.completion",
          created: 1,
          model: body.model ?? "m",
          choices: [{ index: 0, message: { role: "assistant", content: `hello ${auth.user}` }, finish_reason: "stop" }],
          usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
        },
      };
    },
    listModels: () => ({ status: 200, body: { object: "list", data: [{ id: "OpenPipe/Qwen3-14B-Instruct", object: "model", created: 1, owned_by: "system", root: "OpenPipe/Qwen3-14B-Instruct" }] } }),
    healthCheck: () => ({ status: 200, body: { status: "ok" } }),
    createModel: ({ body }) => ({ status: 200, body: { id: "3fa85f64-5717-4562-b3fc-2c963f66afa6", entity: body.entity ?? "e", project: body.project, name: body.name, base_model: body.base_model, run_id: null } }),
  };

  beforeAll(async () => {
    const router = createRouter(handlers, { authenticate: ({ HTTPBearer }) => (HTTPBearer.token === "sk-good" ? { user: "ann" } : null) });
    server = createServer(toNodeListener(router));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("serves the official openai client: chat.completions.create, with stream: true, and models.list", async () => {
    const openai = new OpenAI({ apiKey: "sk-good", baseURL: `${base}/v1`, maxRetries: 0 });
    const completion = await openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] });
    expect(completion.choices[0]?.message.content).toBe("hello ann");
    const stream = await openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }], stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text).toBe("Hello");
    const models = await openai.models.list();
    expect(models.data.map((m) => m.id)).toEqual(["OpenPipe/Qwen3-14B-Instruct"]);
  });

  it("serves the generated client, including the trailing-slash route", async () => {
    const client = createClient({ apiKey: "sk-good", baseUrl: base, inferenceBaseUrl: base, maxRetries: 0 });
    expect((await client.createChatCompletion({ body: { messages: [{ role: "user", content: "x" }] } })).choices[0]?.message.content).toBe("hello ann");
    const slash = await fetch(`${base}/v1/chat/completions/`, { method: "POST", headers: { authorization: "Bearer sk-good", "content-type": "application/json" }, body: JSON.stringify({ messages: [{ role: "user", content: "x" }] }) });
    expect(slash.status).toBe(200);
    expect(await client.healthCheck()).toEqual({ status: "ok" });
  });

  it("answers the error table", async () => {
    const get = (path: string, init: RequestInit = {}) => fetch(`${base}${path}`, init);
    expect((await get("/v1/health")).status).toBe(200); // no token needed
    const unauthorized = await get("/v1/preview/training-jobs/7c9e6679-7425-40de-944b-e07fc1f90ae7");
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("www-authenticate")).toMatch(/^Bearer/);
    // The bodies the spec declares (docs/security.md): FastAPI's for the training API, OpenAI's for inference.
    expect(await unauthorized.json()).toEqual({ detail: "Not authenticated" });
    const inference = await get("/v1/models");
    expect(await inference.json()).toEqual({ error: { message: "Not authenticated", type: "invalid_request_error", param: null, code: "unauthorized" } });
    const nope = await get("/v1/nope");
    expect(nope.status).toBe(404);
    expect(await nope.json()).toEqual({ detail: "Not Found" });
    const wrongMethod = await get("/v1/health", { method: "DELETE" });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toMatch(/GET/);
    expect(wrongMethod.headers.get("content-type")).toBe("application/problem+json");
    const auth = { authorization: "Bearer sk-good", "content-type": "application/json" };
    const invalid = await get("/v1/preview/models", { method: "POST", headers: auth, body: JSON.stringify({ project: "p" }) });
    expect(invalid.status).toBe(422);
    const detail = ((await invalid.json()) as { detail: { loc: unknown[] }[] }).detail;
    expect(detail.map((d) => d.loc)).toEqual(expect.arrayContaining([["body", "name"], ["body", "base_model"]]));
    expect((await get("/v1/preview/models", { method: "POST", headers: auth, body: "{not json" })).status).toBe(422);
    const media = await get("/v1/preview/models", { method: "POST", headers: { ...auth, "content-type": "text/plain" }, body: "x" });
    expect(media.status).toBe(415);
    expect(await media.json()).toMatchObject({ type: "about:blank", status: 415, instance: "/v1/preview/models" });
    const missing = await get("/v1/preview/training-jobs/7c9e6679-7425-40de-944b-e07fc1f90ae7", { headers: auth });
    expect(missing.status).toBe(501);
    expect(JSON.stringify(await missing.json())).toContain("getTrainingJob");
    const big = await get("/v1/preview/models", { method: "POST", headers: auth, body: JSON.stringify({ project: "x".repeat(2 << 20), name: "n", base_model: "b" }) });
    expect(big.status).toBe(413);
  });

  it("mock mode answers every operation without a handler with a value valid for its schema", async () => {
    const router = createRouter({}, { mock: true, validateResponses: true });
    const res = await router.fetch(new Request("http://x/v1/preview/training-jobs/7c9e6679-7425-40de-944b-e07fc1f90ae7", { headers: { authorization: "Bearer any" } }));
    expect(res.status).toBe(200);
    expect(Object.keys((await res.json()) as object)).toContain("id");
    const models = await router.fetch(new Request("http://x/v1/models", { headers: { authorization: "Bearer any" } }));
    expect(((await models.json()) as { object: string }).object).toBe("list");
  });
});
