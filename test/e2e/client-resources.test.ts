import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, runCli, tempDir, typecheck, ROOT, STRICT_NODE_COMPILER_OPTIONS, V1_SPEC } from "../helpers.js";
import { execFile } from "node:child_process";

/**
 * The v1 spec generated with `--client-style resources`, in both output forms: its resource-style client calling its
 * own generated router on 127.0.0.1 (path parameters positionally, one params object, withResponse / asResponse, pages with `for await`,
 * errors, streams), and its types refusing wrong calls under tsc 5.9 and TypeScript 7.
 */
describe.each(["ts", "js"])("resource-style client (v1 spec, form %s, over the wire)", (form) => {
  const MODEL = "3fa85f64-5717-4562-b3fc-2c963f66afa6";
  const JOB = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
  let dir: string;
  let server: Server;
  let base = "";
  /** What the router's handlers received, last call first. */
  const seen: { operation: string; path: unknown; query: unknown; headers: unknown; body: unknown }[] = [];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the module is generated at run time
  let generated: any;

  beforeAll(async () => {
    dir = tempDir("specforge-resources-");
    const result = await runCli(["generate", "--spec", V1_SPEC, "--out", join(dir, "out"), "--client-style", "resources", "--outputs", "client,server", "--form", form], dir);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    generated = await import(pathToFileURL(join(dir, "out", "index.ts")).href);
    const record = (operation: string) => (ctx: { path: unknown; query: unknown; headers: unknown; body: unknown }) => {
      seen.unshift({ operation, path: ctx.path, query: ctx.query, headers: ctx.headers, body: ctx.body });
    };
    const event = (id: string) => ({ id, type: "gradient_step", data: {} });
    const router = generated.createRouter({
      createModel: (ctx: { body: { project: string; name: string; base_model: string } }) => {
        record("createModel")(ctx as never);
        return { status: 200, body: { id: MODEL, entity: "e", project: ctx.body.project, name: ctx.body.name, base_model: ctx.body.base_model, run_id: null } };
      },
      deleteModel: (ctx: never) => (record("deleteModel")(ctx), { status: 200, body: { id: MODEL, deleted: true } }),
      deleteModelCheckpoints: (ctx: never) => (record("deleteModelCheckpoints")(ctx), { status: 200, body: { deleted_count: 2 } }),
      getTrainingJob: (ctx: { path: { training_job_id: string } }) =>
        ctx.path.training_job_id === JOB ? { status: 200, body: trainingJob() } : { status: 404, body: { detail: "no such job" } },
      // Three pages of two events, the cursor the last id.
      getTrainingJobEvents: (ctx: { query: { after?: string } }) => {
        record("getTrainingJobEvents")(ctx as never);
        const start = ctx.query.after ? Number(ctx.query.after.slice(1)) : 0;
        const data = [event(`e${start + 1}`), event(`e${start + 2}`)];
        return { status: 200, body: { object: "list", data, first_id: data[0]!.id, last_id: data[1]!.id, has_more: start + 2 < 6 } };
      },
      listModels: (ctx: never) => (record("listModels")(ctx), { status: 200, body: { object: "list", data: [{ id: "m1", object: "model", created: 1, owned_by: "system", root: "m1" }] } }),
      healthCheck: () => ({ status: 200, body: { status: "ok" } }),
      createChatCompletion: (ctx: { body: { stream?: boolean; messages: unknown[] } }) => {
        record("createChatCompletion")(ctx as never);
        const chunk = (content: string) => ({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content }, finish_reason: null }] });
        if (ctx.body.stream) return { status: 200, stream: (async function* () { yield chunk("Hel"); yield chunk("lo"); })() };
        return { status: 200, body: { id: "c1", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }] } };
      },
    }, { authenticate: ({ HTTPBearer }: { HTTPBearer: { token: string } }) => (HTTPBearer.token === "sk-test" ? { user: "ann" } : null) });
    server = createServer(generated.toNodeListener(router));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    cleanupTempDirs();
  });

  const trainingJob = () => ({ id: JOB, model_id: MODEL, status: "running", created_at: "2026-01-01T00:00:00Z" });
  const client = () => generated.createClient({ apiKey: "sk-test", baseUrl: base, inferenceBaseUrl: base, maxRetries: 0 });

  it("nests the operations: names from the paths, the same request engine", () => {
    const c = client();
    expect(Object.keys(c).sort()).toEqual(["chat", "health", "models", "preview", "systemCheck"]);
    expect(Object.keys(c.preview.models).sort()).toEqual(["checkpoints", "create", "delete", "log"]);
    expect(typeof c.preview.trainingJobs.events.list).toBe("function");
    expect("then" in c).toBe(false);
  });

  it("takes path parameters positionally and sends the rest from one params object", async () => {
    const c = client();
    await c.preview.models.delete(MODEL);
    expect(seen[0]).toMatchObject({ operation: "deleteModel", path: { model_id: MODEL } });
    // A path parameter and the body's properties side by side.
    await c.preview.models.checkpoints.delete(MODEL, { steps: [1, 2] });
    expect(seen[0]).toMatchObject({ operation: "deleteModelCheckpoints", path: { model_id: MODEL }, body: { steps: [1, 2] } });
    // Body properties only.
    const model = await c.preview.models.create({ project: "p", name: "n", base_model: "b" });
    expect(model).toMatchObject({ id: MODEL, project: "p", name: "n" });
    expect(seen[0]!.body).toMatchObject({ project: "p", name: "n", base_model: "b" });
    // A header parameter by its name, to the second server.
    await c.models.list({ "OpenAI-Project": "team/project" });
    expect(seen[0]).toMatchObject({ operation: "listModels", headers: { "OpenAI-Project": "team/project" } });
    // Query parameters.
    await c.preview.trainingJobs.events.list(JOB, { after: "e2", limit: 2 });
    expect(seen[0]).toMatchObject({ operation: "getTrainingJobEvents", path: { training_job_id: JOB }, query: { after: "e2", limit: 2 } });
  });

  it("refuses a missing path parameter before sending", () => {
    expect(() => client().preview.trainingJobs.retrieve(undefined)).toThrow(/preview\.trainingJobs\.retrieve: path parameter "training_job_id" \(argument 1\) is required/);
  });

  it("withResponse gives the data with the response; asResponse the response, its body unread", async () => {
    const c = client();
    const { data, response, status } = await c.preview.trainingJobs.retrieve(JOB).withResponse();
    expect(data).toEqual(trainingJob());
    expect(status).toBe(200);
    expect(response).toBeInstanceOf(Response);
    const raw: Response = await c.preview.trainingJobs.retrieve(JOB).asResponse();
    expect(raw.status).toBe(200);
    expect(raw.bodyUsed).toBe(false);
    expect(await raw.json()).toEqual(trainingJob());
    // Asked for after the request was sent and read: refused, not a second request.
    const promise = c.health.retrieve();
    await promise;
    await expect(promise.asResponse()).rejects.toThrow(/asResponse\(\): the response was read already/);
  });

  it("per-request options come last: headers, timeout, signal", async () => {
    const c = client();
    await c.preview.models.delete(MODEL, { headers: { "X-Trace": "t1" } });
    const controller = new AbortController();
    const reason = new Error("cancelled");
    controller.abort(reason);
    await expect(c.preview.trainingJobs.retrieve(JOB, { signal: controller.signal })).rejects.toBe(reason);
    await expect(c.health.retrieve({ signal: controller.signal })).rejects.toBe(reason);
  });

  it("a list method awaited is its first page; iterated with for await, every item of every page", async () => {
    const c = client();
    const first = await c.preview.trainingJobs.events.list(JOB);
    expect(first.data.map((e: { id: string }) => e.id)).toEqual(["e1", "e2"]);
    seen.length = 0;
    const ids: string[] = [];
    for await (const event of c.preview.trainingJobs.events.list(JOB, { limit: 2 })) ids.push(event.id);
    expect(ids).toEqual(["e1", "e2", "e3", "e4", "e5", "e6"]);
    // One request per page: iterating sends no extra first page.
    expect(seen.filter((s) => s.operation === "getTrainingJobEvents").map((s) => (s.query as { after?: string }).after)).toEqual(["e4", "e2", undefined]);
  });

  it("throws the typed ApiError of the call's status", async () => {
    const error = await client()
      .preview.trainingJobs.retrieve("00000000-0000-4000-8000-000000000000")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(generated.ApiError);
    expect(error).toMatchObject({ status: 404, body: { detail: "no such job" } });
    // asResponse throws the same way: only a successful response is handed over unread.
    await expect(client().preview.trainingJobs.retrieve("00000000-0000-4000-8000-000000000000").asResponse()).rejects.toBeInstanceOf(generated.ApiError);
  });

  it("streams with { stream: true } among the body's properties", async () => {
    const stream = await client().chat.completions.create({ messages: [{ role: "user", content: "x" }], stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text).toBe("Hello");
    expect(seen[0]!.body).toMatchObject({ stream: true });
  });

  it("types each method from the spec and refuses wrong calls (tsc 5.9 and TypeScript 7)", async () => {
    const out = join(dir, "out");
    writeFileSync(
      join(out, "usage.ts"),
      `import { createClient, ApiPromise, type Client } from "./index.js";
const client: Client = createClient({ apiKey: "k" });
export async function ok() {
  const job = await client.preview.trainingJobs.retrieve("id");
  const id: string = job.id;
  const page = await client.preview.trainingJobs.events.list("id", { after: "e1", limit: 2 });
  for await (const event of client.preview.trainingJobs.events.list("id")) event.id satisfies string;
  const { data, response } = await client.preview.models.create({ project: "p", name: "n", base_model: "b" }).withResponse();
  const raw: Response = await client.health.retrieve().asResponse();
  const promise: ApiPromise<unknown> = client.health.retrieve({ timeoutMs: 5 });
  const stream = await client.chat.completions.create({ messages: [], stream: true });
  for await (const chunk of stream) chunk.choices satisfies unknown[];
  const completion = await client.chat.completions.create({ messages: [] });
  completion.choices satisfies unknown[];
  await client.models.list({ "OpenAI-Project": "x" }, { maxRetries: 1, idempotencyKey: true });
  return [id, page.has_more, data.id, response.status, raw.ok, promise];
}
export async function wrong() {
  // @ts-expect-error a path parameter is a string
  await client.preview.trainingJobs.retrieve(42);
  // @ts-expect-error the path parameter is required
  await client.preview.trainingJobs.retrieve();
  // @ts-expect-error limit is a number
  await client.preview.trainingJobs.events.list("id", { limit: "2" });
  // @ts-expect-error no such query parameter
  await client.preview.trainingJobs.events.list("id", { before: "x" });
  // @ts-expect-error the body's required properties
  await client.preview.models.create({ project: "p" });
  // @ts-expect-error a method without parameters takes options only
  await client.health.retrieve({ project: "p" });
  // @ts-expect-error no such resource
  client.preview.nothing;
  // @ts-expect-error the stream's chunks are not the completion
  (await client.chat.completions.create({ messages: [], stream: true })).choices;
}
`,
    );
    const tsc5 = await typecheck(out);
    expect(tsc5.output).toBe("");
    expect(tsc5.code).toBe(0);
    const tsconfig = join(tempDir("specforge-tsc7-"), "tsconfig.json");
    writeFileSync(
      tsconfig,
      JSON.stringify({
        compilerOptions: STRICT_NODE_COMPILER_OPTIONS,
        files: [join(out, "usage.ts")],
      }),
    );
    const tsc7 = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile(process.execPath, [join(ROOT, "node_modules", "typescript7", "bin", "tsc"), "-p", tsconfig], { maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
      ),
    );
    expect(tsc7.output).toBe("");
    expect(tsc7.code).toBe(0);
    // Each expected error is one: without the directives, every line fails.
    writeFileSync(join(out, "usage.ts"), readFileSync(join(out, "usage.ts"), "utf8").replace(/\/\/ @ts-expect-error .*\n/g, ""));
    const unmarked = await typecheck(out);
    expect(unmarked.output.match(/usage\.ts\(\d+,\d+\): error/g)?.length).toBe(8);
  }, 240_000);
});
