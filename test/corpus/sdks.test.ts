import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import OpenAI, { toFile } from "openai";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildModel } from "../../src/ir/build.js";
import type { ApiModel } from "../../src/ir/model.js";
import { loadSpec } from "../../src/load/index.js";
import { mockFromSchema } from "../../templates/server/mock.js";
import type { Schema, SchemaDocument } from "../../templates/server/schema.js";
import { ROOT, runCli } from "../helpers.js";
import { CORPUS } from "./shared.js";

/**
 * The vendors' own SDKs as the other side. The `openai` and `stripe` packages talk to routers
 * generated from OpenAI's and Stripe's specs, over HTTP on 127.0.0.1: the router accepts what each SDK sends (its
 * credentials, JSON, form and multipart encodings, idempotency keys, pagination cursors), the handlers see the
 * SDK's values, and the SDK parses the handlers' answers. The routers run with `validateResponses`, so every answer
 * is proven schema-valid by the spec before the SDK reads it (a mismatch would be a 500).
 */
const OUT = join(ROOT, "test", "corpus", ".out", "sdks");

interface Generated {
  api: Record<string, any>;
  model: ApiModel;
  /** A schema-valid sample of an operation's success response (the mock generator's), to override fields of. */
  sample(operation: string, status?: string): any;
}

async function generate(spec: string, name: string): Promise<Generated> {
  const out = join(OUT, name);
  const result = await runCli(["generate", "--spec", join(CORPUS, spec), "--out", out, "--outputs", "client,server", "--no-format"], ROOT);
  if (result.code !== 0) throw new Error(result.stderr);
  const api = (await import(join(out, "index.ts"))) as Record<string, any>;
  const model = buildModel(loadSpec(join(CORPUS, spec)), spec);
  const sample = (operation: string, status = "200") => {
    const op = model.operations.find((o) => o.name === operation)!;
    const media = op.responses.find((r) => r.status === status)!.content.find((m) => m.type === "application/json")!;
    return mockFromSchema(media.schema as Schema, model.document as SchemaDocument, { direction: "response" });
  };
  return { api, model, sample };
}

async function serve(listener: Parameters<typeof createServer>[0]): Promise<{ server: Server; origin: string }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function stop(server: Server | undefined): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe("the openai package against the router generated from OpenAI's spec", () => {
  let openai: Generated;
  let server: Server | undefined;
  let client: OpenAI;
  const seen: Record<string, unknown[]> = {};
  const record = (operation: string, value: unknown) => (seen[operation] ??= []).push(value);
  const files = Array.from({ length: 5 }, (_, i) => `file-${i + 1}`);

  beforeAll(async () => {
    openai = await generate("openai-3.1.yaml", "openai");
    const completion = openai.sample("createChatCompletion");
    const fileSample = openai.sample("retrieveFile");
    const fileOf = (id: string) => ({ ...fileSample, id, object: "file", filename: `${id}.jsonl`, bytes: 42, purpose: "fine-tune", status: "processed" });
    const router = openai.api.createRouter(
      {
        createChatCompletion: ({ body, auth }: any) => {
          record("createChatCompletion", { body, auth });
          const base = { id: "chatcmpl-1", created: 1_700_000_000, model: body.model };
          if (body.stream) {
            const chunk = (delta: object, finish: string | null) => ({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] });
            return {
              status: 200,
              stream: (async function* () {
                yield chunk({ role: "assistant", content: "Hello" }, null);
                yield chunk({ content: ", world" }, null);
                yield chunk({}, "stop");
              })(),
            };
          }
          const choice = { ...completion.choices[0], index: 0, finish_reason: "stop", logprobs: null, message: { ...completion.choices[0].message, role: "assistant", content: "Hello, world", refusal: null } };
          return { status: 200, body: { ...completion, ...base, object: "chat.completion", choices: [choice] } };
        },
        listFiles: ({ query }: any) => {
          record("listFiles", query);
          const start = query.after ? files.indexOf(query.after) + 1 : 0;
          const page = files.slice(start, start + (query.limit ?? 10000));
          return { status: 200, body: { object: "list", data: page.map(fileOf), first_id: page[0] ?? "", last_id: page.at(-1) ?? "", has_more: start + page.length < files.length } };
        },
        createFile: async ({ body }: any) => {
          record("createFile", { purpose: body.purpose, name: body.file.name, type: body.file.type, text: await body.file.text() });
          return { status: 200, body: { ...fileOf("file-new"), filename: body.file.name, bytes: body.file.size, purpose: body.purpose } };
        },
      },
      {
        authenticate: (credentials: Record<string, { token?: string }>) => (credentials.ApiKeyAuth?.token === "sk-test" ? { key: "sk-test" } : null),
        basePath: "/v1",
        validateResponses: true,
        onError: (error: unknown) => record("onError", String(error)),
      },
    );
    ({ server } = await serve(openai.api.toNodeListener(router)).then(({ server, origin }) => {
      client = new OpenAI({ apiKey: "sk-test", baseURL: `${origin}/v1`, maxRetries: 0 });
      return { server };
    }));
  }, 600_000);
  afterAll(() => stop(server));

  it("chat.completions.create: the handler gets the SDK's messages and key, the SDK parses the completion", async () => {
    const completion = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "Hi ✓" }], temperature: 0.5 });
    expect(completion.choices[0]!.message.content).toBe("Hello, world");
    expect(completion.id).toBe("chatcmpl-1");
    expect(seen.createChatCompletion!.at(-1)).toMatchObject({ body: { model: "gpt-4o", messages: [{ role: "user", content: "Hi ✓" }], temperature: 0.5 }, auth: { key: "sk-test" } });
    expect(seen.onError).toBeUndefined();
  });

  it("chat.completions.create with stream: true: the SDK reads the router's server-sent events to the end", async () => {
    const stream = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "Hi" }], stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.choices[0]!.delta.content ?? "").join("")).toBe("Hello, world");
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe("stop");
    expect((seen.createChatCompletion!.at(-1) as { body: { stream: boolean } }).body.stream).toBe(true);
    expect(seen.onError).toBeUndefined();
  });

  it("files.list: auto-pagination walks every page with the SDK's `after` cursor", async () => {
    seen.listFiles = [];
    const ids: string[] = [];
    for await (const file of client.files.list({ limit: 2 })) ids.push(file.id);
    expect(ids).toEqual(files);
    expect(seen.listFiles).toEqual([
      { limit: 2, order: "desc" },
      { limit: 2, order: "desc", after: "file-2" },
      { limit: 2, order: "desc", after: "file-4" },
    ]);
    expect(seen.onError).toBeUndefined();
  });

  it("files.create: the SDK's multipart upload reaches the handler as a File with its name and bytes", async () => {
    const created = await client.files.create({ file: await toFile(Buffer.from('{"prompt":"a"}\n'), "train.jsonl"), purpose: "fine-tune" });
    expect(created).toMatchObject({ id: "file-new", filename: "train.jsonl", bytes: 15, purpose: "fine-tune" });
    expect(seen.createFile).toEqual([{ purpose: "fine-tune", name: "train.jsonl", type: expect.any(String), text: '{"prompt":"a"}\n' }]);
    expect(seen.onError).toBeUndefined();
  });
});

describe("the stripe package against the router generated from Stripe's spec", () => {
  let stripeApi: Generated;
  let server: Server | undefined;
  let stripe: Stripe;
  const seen: Record<string, unknown[]> = {};
  const record = (operation: string, value: unknown) => (seen[operation] ??= []).push(value);
  const customers = Array.from({ length: 5 }, (_, i) => `cus_${i + 1}`);

  beforeAll(async () => {
    stripeApi = await generate("stripe-spec3-2023-09-3.0.yaml", "stripe");
    const customer = stripeApi.sample("getCustomersCustomer");
    const customerOf = (id: string, extra: object = {}) => ({ ...customer, id, object: "customer", email: `${id}@example.com`, metadata: {}, ...extra });
    const router = stripeApi.api.createRouter(
      {
        postCustomers: ({ body, request }: any) => {
          record("postCustomers", { body, idempotencyKey: (request as Request).headers.get("idempotency-key") });
          return { status: 200, body: customerOf("cus_new", { email: body.email, metadata: body.metadata ?? {} }) };
        },
        getCustomers: ({ query }: any) => {
          record("getCustomers", query);
          const start = query.starting_after ? customers.indexOf(query.starting_after) + 1 : 0;
          const page = customers.slice(start, start + (query.limit ?? 10));
          return { status: 200, body: { object: "list", url: "/v1/customers", data: page.map((id) => customerOf(id)), has_more: start + page.length < customers.length } };
        },
      },
      {
        authenticate: (credentials: Record<string, { token?: string; username?: string }>) =>
          credentials.bearerAuth?.token === "sk_test_123" || credentials.basicAuth?.username === "sk_test_123" ? { account: "acct_1" } : null,
        validateResponses: true,
        onError: (error: unknown) => record("onError", String(error)),
      },
    );
    const running = await serve(stripeApi.api.toNodeListener(router));
    server = running.server;
    const { port } = new URL(running.origin);
    stripe = new Stripe("sk_test_123", { host: "127.0.0.1", port, protocol: "http", maxNetworkRetries: 0 });
  }, 600_000);
  afterAll(() => stop(server));

  it("customers.create with metadata and an idempotency key: the handler sees both, the SDK parses the customer", async () => {
    const created = await stripe.customers.create(
      { email: "ann+1@example.com", metadata: { plan: "pro", "order id": "A-1 / B" }, preferred_locales: ["fr", "en"] },
      { idempotencyKey: "create-ann-1" },
    );
    expect(created).toMatchObject({ id: "cus_new", email: "ann+1@example.com", metadata: { plan: "pro", "order id": "A-1 / B" } });
    expect(seen.postCustomers).toEqual([
      { body: { email: "ann+1@example.com", metadata: { plan: "pro", "order id": "A-1 / B" }, preferred_locales: ["fr", "en"] }, idempotencyKey: "create-ann-1" },
    ]);
    expect(seen.onError).toBeUndefined();
  });

  it("customers.list: auto-pagination walks every page with the SDK's starting_after cursor", async () => {
    seen.getCustomers = [];
    const ids: string[] = [];
    for await (const customer of stripe.customers.list({ limit: 2, created: { gt: 1_700_000_000 } })) ids.push(customer.id);
    expect(ids).toEqual(customers);
    expect(seen.getCustomers).toEqual([
      { limit: 2, created: { gt: 1_700_000_000 } },
      { limit: 2, created: { gt: 1_700_000_000 }, starting_after: "cus_2" },
      { limit: 2, created: { gt: 1_700_000_000 }, starting_after: "cus_4" },
    ]);
    expect(seen.onError).toBeUndefined();
  });

  it("a wrong key is refused with 401 in Stripe's error shape, which the SDK reads as an authentication error", async () => {
    const { port } = server!.address() as AddressInfo;
    const wrong = new Stripe("sk_test_wrong", { host: "127.0.0.1", port: String(port), protocol: "http", maxNetworkRetries: 0 });
    await expect(wrong.customers.list()).rejects.toMatchObject({ statusCode: 401, type: "StripeAuthenticationError" });
  });
});
