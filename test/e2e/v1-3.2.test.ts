import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import yaml from "js-yaml";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error a plain .mjs script without types
import { V1, V1_32, render } from "../fixtures/training-api-3.2/derive.mjs";
import { buildGroup, importGenerated, type BuiltGroup } from "../features/harness.js";
import { Recorder, json } from "./recorder.js";

/**
 * The v1 document (OpenAPI 3.1, what the vendor publishes) and its OpenAPI 3.2 rendering
 * (test/fixtures/training-api-3.2/): one suite run against the client and router generated from each. The only
 * difference a caller sees is the one OpenAPI 3.2 makes: a 3.2 event stream's item is the whole event, so the
 * chunk is its `data` (`chunkOf`, `itemOf`); on the wire both send and accept the same bytes.
 */
let group: BuiltGroup;
const versions = {
  "3.1": { out: "v1-3.1", chunkOf: (item: any) => item, itemOf: (chunk: unknown) => chunk },
  "3.2": { out: "v1-3.2", chunkOf: (item: any) => item.data, itemOf: (chunk: unknown) => ({ data: chunk }) },
};
const generated: Record<string, Record<string, any>> = {};

beforeAll(async () => {
  group = await buildGroup("v1-both", [
    { name: "v1-3.1", spec: V1 },
    { name: "v1-3.2", spec: V1_32 },
  ]);
  for (const version of Object.values(versions)) generated[version.out] = await importGenerated(group, version.out);
}, 300_000);

const MODEL = "3fa85f64-5717-4562-b3fc-2c963f66afa6";
const JOB = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const chunk = (content: string) => ({ id: "c1", object: "chat.completion.chunk" as const, created: 1, model: "m", choices: [{ index: 0, delta: { content }, finish_reason: null }] });

describe("the v1 document in OpenAPI 3.2", () => {
  it("is the derivation of the v1 document (rerun derive.mjs after changing spec/training-api.v1.yaml)", () => {
    expect(readFileSync(V1_32, "utf8")).toBe(render(yaml.load(readFileSync(V1, "utf8"), { schema: yaml.CORE_SCHEMA })));
  });

  it("both generate without warnings and type-check under tsc --strict", () => {
    expect(group.stderr).toEqual({ "v1-3.1": "", "v1-3.2": "" });
    expect(group.tsc.output).toBe("");
  });

  it("generate the same client, router, webhooks and types but for the event stream's item and the tags in the docs", () => {
    const read = (out: string, file: string) => readFileSync(`${group.out(out)}/${file}`, "utf8").split("\n").slice(4).join("\n");
    expect(read("v1-3.2", "webhooks.ts")).toBe(read("v1-3.1", "webhooks.ts"));
    expect(read("v1-3.2", "server.ts").replace(/,"sequence":\{"format":"sse","sse":\{"events":true,"json":true\}\}/g, "").replace(/"text\/event-stream":\{"schema":\{"type":"object"[^]*?"required":\["data"\]\}/g, "SSE")).toBe(
      read("v1-3.1", "server.ts").replace(/"text\/event-stream":\{"schema":\{"\$ref":"#\/components\/schemas\/ChatCompletionChunk"\}/g, "SSE"),
    );
    expect(read("v1-3.2", "client.ts").replace(/\n {3}\*\n {3}\* Tags: [^\n]*/g, "").replace(',"sse":{"events":true,"json":true}', "")).toBe(read("v1-3.1", "client.ts"));
  });
});

describe("mock answers of both", () => {
  it("come from the same examples (a 3.2 Example Object's dataValue is what 3.1's example was)", async () => {
    const answers = async (out: string) => {
      const router = generated[out]!.createRouter({}, { mock: true });
      const all: unknown[] = [];
      for (const path of [`/v1/preview/training-jobs/${JOB}`, "/v1/system-check", "/v1/models", `/v1/preview/models/${MODEL}/checkpoints`]) {
        const response = await router.fetch(new Request(`http://x${path}`, { headers: { authorization: "Bearer any" } }));
        all.push([path, response.status, await response.json()]);
      }
      return all;
    };
    const v31 = await answers("v1-3.1");
    expect(await answers("v1-3.2")).toEqual(v31);
    // The system check's documented example (its durations), not a generated value.
    expect(JSON.stringify(v31)).toContain('"duration":0.187');
  });
});

describe.each(Object.entries(versions))("generated v1 client and router, OpenAPI %s", (_version, { out, chunkOf, itemOf }) => {
  const recorder = new Recorder();
  let server: Server;
  let base = "";
  let mod: Record<string, any>;

  beforeAll(async () => {
    mod = generated[out]!;
    await recorder.start();
    const router = mod.createRouter(
      {
        createChatCompletion: async ({ body, auth }: any) => {
          if (body.stream) {
            return {
              status: 200,
              stream: (async function* () {
                for (const content of ["Hel", "lo"]) yield itemOf(chunk(content));
              })(),
            };
          }
          const choices = [{ index: 0, message: { role: "assistant", content: `hello ${auth.user}` }, finish_reason: "stop" }];
          return { status: 200, body: { id: "c1", object: "chat.completion", created: 1, model: body.model ?? "m", choices, usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } } };
        },
        listModels: () => ({ status: 200, body: { object: "list", data: [{ id: "m1", object: "model", created: 1, owned_by: "system", root: "m1" }] } }),
        healthCheck: () => ({ status: 200, body: { status: "ok" } }),
      },
      { authenticate: ({ HTTPBearer }: any) => (HTTPBearer.token === "sk-good" ? { user: "ann" } : null), validateResponses: true },
    );
    server = createServer(mod.toNodeListener(router));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await recorder.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const calls: [string, (c: any) => Promise<unknown>, string][] = [
    ["createChatCompletion", (c) => c.createChatCompletion({ body: { model: "m", messages: [{ role: "user", content: "hi" }] } }), "POST /v1/chat/completions"],
    ["createModel", (c) => c.createModel({ body: { project: "p", name: "n", base_model: "b" } }), "POST /v1/preview/models"],
    ["deleteModel", (c) => c.deleteModel({ path: { model_id: MODEL } }), `DELETE /v1/preview/models/${MODEL}`],
    ["listModelCheckpoints", (c) => c.listModelCheckpoints({ path: { model_id: MODEL }, query: { limit: 5, order: "desc", after: "a b/c" } }), `GET /v1/preview/models/${MODEL}/checkpoints?limit=5&order=desc&after=a%20b%2Fc`],
    ["deleteModelCheckpoints", (c) => c.deleteModelCheckpoints({ path: { model_id: MODEL }, body: { steps: [1, 2] } }), `DELETE /v1/preview/models/${MODEL}/checkpoints`],
    ["log", (c) => c.log({ path: { model_id: MODEL }, body: { split: "train", trajectory_groups: [] } }), `POST /v1/preview/models/${MODEL}/log`],
    ["createRlTrainingJob", (c) => c.createRlTrainingJob({ body: { model_id: MODEL, trajectory_groups: [] } }), "POST /v1/preview/training-jobs"],
    ["createSftTrainingJob", (c) => c.createSftTrainingJob({ body: { model_id: MODEL, training_data_url: "wandb-artifact:///e/p/n:v1" } }), "POST /v1/preview/sft-training-jobs"],
    ["getTrainingJob", (c) => c.getTrainingJob({ path: { training_job_id: JOB } }), `GET /v1/preview/training-jobs/${JOB}`],
    ["getTrainingJobEvents", (c) => c.getTrainingJobEvents({ path: { training_job_id: JOB }, query: { after: "evt_1" } }), `GET /v1/preview/training-jobs/${JOB}/events?after=evt_1`],
    ["healthCheck", (c) => c.healthCheck(), "GET /v1/health"],
    ["systemCheck", (c) => c.systemCheck(), "GET /v1/system-check"],
    ["listModels", (c) => c.listModels(), "GET /inference/v1/models"],
  ];

  it.each(calls)("client: %s sends the same request", async (_name, call, want) => {
    recorder.reset((_req, res) => json(res, 200, {}));
    await call(mod.createClient({ apiKey: "sk", baseUrl: recorder.url, inferenceBaseUrl: `${recorder.url}/inference`, maxRetries: 0 }));
    const got = recorder.last();
    expect(`${got.method} ${got.url}`).toBe(want);
    expect(got.headers.authorization).toBe(want.includes("health") || want.includes("system-check") ? undefined : "Bearer sk");
  });

  it("client: chat completion chunks from a raw event stream, split across writes, ending at [DONE]", async () => {
    recorder.reset(async (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const text = `data: ${JSON.stringify(chunk("Hel"))}\n\n: keep-alive\n\ndata: ${JSON.stringify(chunk("lo ✓"))}\n\ndata: [DONE]\n\n`;
      for (const piece of text.match(/[^]{1,7}/g)!) {
        res.write(piece);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      res.end();
    });
    const client = mod.createClient({ apiKey: "sk", baseUrl: recorder.url, maxRetries: 0 });
    const parts: string[] = [];
    for await (const item of await client.createChatCompletion({ body: { model: "m", messages: [{ role: "user", content: "hi" }], stream: true } })) {
      parts.push(chunkOf(item).choices[0].delta.content);
    }
    expect(parts.join("")).toBe("Hello ✓");
    expect(recorder.last().headers.accept).toBe("text/event-stream");
  });

  it("router: serves the official openai client (completions, streamed completions, models)", async () => {
    const openai = new OpenAI({ apiKey: "sk-good", baseURL: `${base}/v1`, maxRetries: 0 });
    const completion = await openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] });
    expect(completion.choices[0]?.message.content).toBe("hello ann");
    let text = "";
    for await (const part of await openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }], stream: true })) text += part.choices[0]?.delta?.content ?? "";
    expect(text).toBe("Hello");
    expect((await openai.models.list()).data.map((m) => m.id)).toEqual(["m1"]);
  });

  it("router: the event stream's bytes are the ones OpenAI sends", async () => {
    const response = await fetch(`${base}/v1/chat/completions/`, {
      method: "POST",
      headers: { authorization: "Bearer sk-good", "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ messages: [{ role: "user", content: "x" }], stream: true }),
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(await response.text()).toBe(`data: ${JSON.stringify(chunk("Hel"))}\n\ndata: ${JSON.stringify(chunk("lo"))}\n\ndata: [DONE]\n\n`);
  });

  it("router: the same error bodies", async () => {
    const unauthorized = await fetch(`${base}/v1/preview/training-jobs/${JOB}`);
    expect([unauthorized.status, await unauthorized.json()]).toEqual([401, { detail: "Not authenticated" }]);
    const invalid = await fetch(`${base}/v1/chat/completions`, { method: "POST", headers: { authorization: "Bearer sk-good", "content-type": "application/json" }, body: "{}" });
    expect(invalid.status).toBe(422);
    expect(((await invalid.json()) as { detail: { loc: unknown[] }[] }).detail.map((d) => d.loc)).toEqual([["body", "messages"]]);
    expect((await fetch(`${base}/v1/nope`)).status).toBe(404);
  });
});
