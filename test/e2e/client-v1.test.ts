import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { ApiError, ConnectionError, TimeoutError, createClient, type Client } from "../../generated/index.js";
import { Recorder, json } from "./recorder.js";

/** The committed v1 client (generated/) against a real server on 127.0.0.1. */
describe("generated v1 client", () => {
  const server = new Recorder();
  let client: Client;
  const MODEL = "3fa85f64-5717-4562-b3fc-2c963f66afa6";
  const JOB = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

  beforeAll(async () => {
    await server.start();
  });
  afterAll(() => server.stop());
  beforeEach(() => {
    server.reset((_req, res) => json(res, 200, {}));
    client = createClient({ apiKey: "sk-test", baseUrl: server.url, inferenceBaseUrl: `${server.url}/inference`, maxRetries: 0 });
  });

  // Every v1 operation: what the server receives.
  const calls: [string, (c: Client) => Promise<unknown>, { method: string; url: string; body?: unknown; auth: boolean }][] = [
    ["createChatCompletion", (c) => c.createChatCompletion({ body: { model: "m", messages: [{ role: "user", content: "hi" }] } }), { method: "POST", url: "/v1/chat/completions", body: { model: "m", messages: [{ role: "user", content: "hi" }] }, auth: true }],
    ["createModel", (c) => c.createModel({ body: { project: "p", name: "n", base_model: "OpenPipe/Qwen3-14B-Instruct" } }), { method: "POST", url: "/v1/preview/models", body: { project: "p", name: "n", base_model: "OpenPipe/Qwen3-14B-Instruct" }, auth: true }],
    ["deleteModel", (c) => c.deleteModel({ path: { model_id: MODEL } }), { method: "DELETE", url: `/v1/preview/models/${MODEL}`, auth: true }],
    ["listModelCheckpoints", (c) => c.listModelCheckpoints({ path: { model_id: MODEL }, query: { limit: 5, order: "desc", after: "a b/c" } }), { method: "GET", url: `/v1/preview/models/${MODEL}/checkpoints?limit=5&order=desc&after=a%20b%2Fc`, auth: true }],
    ["deleteModelCheckpoints", (c) => c.deleteModelCheckpoints({ path: { model_id: MODEL }, body: { steps: [1, 2] } }), { method: "DELETE", url: `/v1/preview/models/${MODEL}/checkpoints`, body: { steps: [1, 2] }, auth: true }],
    ["log", (c) => c.log({ path: { model_id: MODEL }, body: { split: "train", trajectory_groups: [] } }), { method: "POST", url: `/v1/preview/models/${MODEL}/log`, body: { split: "train", trajectory_groups: [] }, auth: true }],
    ["createRlTrainingJob", (c) => c.createRlTrainingJob({ body: { model_id: MODEL, trajectory_groups: [] } }), { method: "POST", url: "/v1/preview/training-jobs", body: { model_id: MODEL, trajectory_groups: [] }, auth: true }],
    ["createSftTrainingJob", (c) => c.createSftTrainingJob({ body: { model_id: MODEL, training_data_url: "wandb-artifact:///e/p/n:v1" } }), { method: "POST", url: "/v1/preview/sft-training-jobs", body: { model_id: MODEL, training_data_url: "wandb-artifact:///e/p/n:v1" }, auth: true }],
    ["getTrainingJob", (c) => c.getTrainingJob({ path: { training_job_id: JOB } }), { method: "GET", url: `/v1/preview/training-jobs/${JOB}`, auth: true }],
    ["getTrainingJobEvents", (c) => c.getTrainingJobEvents({ path: { training_job_id: JOB }, query: { after: "evt_1" } }), { method: "GET", url: `/v1/preview/training-jobs/${JOB}/events?after=evt_1`, auth: true }],
    ["healthCheck", (c) => c.healthCheck(), { method: "GET", url: "/v1/health", auth: false }],
    ["systemCheck", (c) => c.systemCheck(), { method: "GET", url: "/v1/system-check", auth: false }],
    ["listModels", (c) => c.listModels({ headers: { "OpenAI-Project": "team/project" } }), { method: "GET", url: "/inference/v1/models", auth: true }],
  ];

  it.each(calls)("%s sends the right method, URL, auth and body", async (_name, call, want) => {
    await call(client);
    const got = server.last();
    expect(got.method).toBe(want.method);
    expect(got.url).toBe(want.url);
    expect(got.headers.authorization).toBe(want.auth ? "Bearer sk-test" : undefined);
    if (want.body !== undefined) {
      expect(got.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(got.body)).toEqual(want.body);
    } else {
      expect(got.body).toBe("");
    }
  });

  it("op.spec is the operation as the spec describes it, its shared values (security, errors, body) in place", () => {
    expect(client.deleteModelCheckpoints.spec).toEqual({
      name: "deleteModelCheckpoints",
      method: "DELETE",
      path: "/v1/preview/models/{model_id}/checkpoints",
      security: [[{ scheme: "HTTPBearer" }]],
      params: { path: [{ name: "model_id" }] },
      body: { mediaType: "application/json", required: true },
      errors: [401, 404, 422, 429, 500],
    });
    expect(client.listModels.spec.server).toBe(1);
  });

  it("sends the optional OpenAI-Project header to the inference server", async () => {
    await client.listModels({ headers: { "OpenAI-Project": "team/project" } });
    expect(server.last().headers["openai-project"]).toBe("team/project");
  });

  it("resolves to the typed success body, and withResponse gives status and headers", async () => {
    const list = { object: "list", data: [{ id: "m1", object: "model", created: 1, owned_by: "system", root: "m1" }] };
    server.reset((_req, res) => json(res, 200, list, { "x-request-id": "r1" }));
    const models = await client.listModels();
    expect(models).toEqual(list);
    expectTypeOf(models.data[0]!.owned_by).toEqualTypeOf<string>();
    const { data, status, headers } = await client.listModels.withResponse();
    expect(status).toBe(200);
    expect(headers.get("x-request-id")).toBe("r1");
    expect(data.object).toBe("list");
  });

  it("throws ApiError with the typed 422 body", async () => {
    const detail = [{ loc: ["body", "name"], msg: "Field required", type: "missing" }];
    server.reset((_req, res) => json(res, 422, { detail }));
    const error = await client.createModel({ body: { project: "p", name: "n", base_model: "b" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(client.createModel.isError(error)).toBe(true);
    if (client.createModel.isError(error) && error.status === 422) {
      expectTypeOf(error.body.detail).toMatchTypeOf<unknown[] | undefined>();
      expect(error.body.detail).toEqual(detail);
    } else {
      throw new Error("expected a typed 422");
    }
  });

  it("retries a GET after 429 honouring Retry-After, but never retries a POST on a response by default", async () => {
    let calls = 0;
    server.reset((_req, res) => (++calls === 1 ? json(res, 429, { detail: "slow down" }, { "retry-after": "0" }) : json(res, 200, { id: JOB })));
    const retrying = createClient({ apiKey: "k", baseUrl: server.url, maxRetries: 2 });
    await expect(retrying.getTrainingJob({ path: { training_job_id: JOB } })).resolves.toEqual({ id: JOB });
    expect(calls).toBe(2);

    calls = 0;
    server.reset((_req, res) => (++calls, json(res, 503, { detail: "busy" }, { "retry-after": "0" })));
    const error = await retrying.createRlTrainingJob({ body: { model_id: MODEL, trajectory_groups: [] } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(calls).toBe(1); // a duplicate training job costs money
  });

  it("times out with TimeoutError and passes the caller's abort reason through", async () => {
    server.reset(() => undefined); // never answers
    await expect(client.healthCheck(undefined, { timeoutMs: 50 })).rejects.toBeInstanceOf(TimeoutError);
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    setTimeout(() => controller.abort(reason), 20);
    await expect(client.healthCheck(undefined, { signal: controller.signal })).rejects.toBe(reason);
  });

  it("reports a closed port as ConnectionError", async () => {
    const closed = new Recorder();
    await closed.start();
    const url = closed.url;
    await closed.stop();
    const offline = createClient({ baseUrl: url, maxRetries: 0 });
    await expect(offline.healthCheck()).rejects.toBeInstanceOf(ConnectionError);
  });

  it("streams chat completion chunks split across writes when stream: true", async () => {
    const chunk = (content: string) => JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content }, finish_reason: null }] });
    server.reset(async (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const text = `data: ${chunk("Hel")}\n\n: keep-alive\n\ndata: ${chunk("lo ✓")}\n\ndata: [DONE]\n\n`;
      for (const piece of text.match(/[^]{1,7}/g)!) {
        res.write(piece);
        await new Promise((r) => setTimeout(r, 1));
      }
      res.end();
    });
    const stream = await client.createChatCompletion({ body: { model: "m", messages: [{ role: "user", content: "hi" }], stream: true } });
    const parts: string[] = [];
    for await (const event of stream) parts.push(event.choices[0]?.delta?.content ?? "");
    expect(parts.join("")).toBe("Hello ✓");
    expect(server.last().headers.accept).toMatch(/text\/event-stream/);
  });

  it("an undeclared JSON Lines answer to a streaming call is read whole, as any undeclared media type: a Blob", async () => {
    // v1 declares only text/event-stream for chat, so its client carries no JSON Lines reader (records.js).
    const lines = '{"id":"c1"}\n{"id":"c2"}\n';
    server.reset((_req, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.end(lines);
    });
    const answer: unknown = await client.createChatCompletion({ body: { model: "m", messages: [{ role: "user", content: "hi" }], stream: true } });
    expect(answer).toBeInstanceOf(Blob);
    expect(await (answer as Blob).text()).toBe(lines);
  });

  it("paginates checkpoints across 3 pages with the after cursor", async () => {
    const pages = [["a", "b"], ["c", "d"], ["e"]];
    server.reset((req, res) => {
      const after = new URL(req.url, "http://x").searchParams.get("after");
      const index = after === null ? 0 : after === "b" ? 1 : 2;
      const items = pages[index]!.map((id, step) => ({ id, step, metrics: {} }));
      json(res, 200, { object: "list", data: items, first_id: items[0]!.id, last_id: items[items.length - 1]!.id, has_more: index < 2 });
    });
    const ids: string[] = [];
    for await (const checkpoint of client.listModelCheckpoints.paginate({ path: { model_id: MODEL } })) ids.push(checkpoint.id);
    expect(ids).toEqual(["a", "b", "c", "d", "e"]);
    expect(server.received.map((r) => new URL(r.url, "http://x").searchParams.get("after"))).toEqual([null, "b", "d"]);
  });

  it("types: required params, body fields and response fields are checked", () => {
    const typeOnly = (fn: () => unknown) => fn;
    typeOnly(() => {
      // @ts-expect-error the path parameter model_id is required
      void client.deleteModel();
      // @ts-expect-error a wrong body field
      void client.createModel({ body: { project: "p", name: "n", base_model: "b", nope: 1 } });
      void client.getTrainingJob({ path: { training_job_id: JOB } }).then((job) => {
        // @ts-expect-error TrainingJobResponse has no status field
        void job.status;
      });
      void client.healthCheck();
    });
  });
});
