import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRouter, toNodeListener, type Handlers } from "./fixtures/server.js";
import { listen, type Running } from "./helpers.js";

/** The official SDK against the generated router: the wire format must be OpenAI-compatible. */
describe("official openai SDK against the router", () => {
  let app: Running;
  let client: OpenAI;
  const seen: { auth: unknown; body: unknown }[] = [];

  const handlers: Handlers<{ key: string }> = {
    listModels: () => ({
      status: 200,
      body: {
        object: "list",
        data: [
          { id: "OpenPipe/Qwen3-14B-Instruct", object: "model", created: 1_700_000_000, owned_by: "wandb", root: "OpenPipe/Qwen3-14B-Instruct" },
          { id: "my-lora", object: "model", created: 1_700_000_001, owned_by: "me", root: "OpenPipe/Qwen3-14B-Instruct" },
        ],
      },
    }),
    createChatCompletion: ({ body, auth }) => {
      seen.push({ auth, body });
      const model = body.model ?? "default-model";
      const last = body.messages[body.messages.length - 1];
      const reply = `echo: ${typeof last.content === "string" ? last.content : ""}`;
      if (body.stream) {
        return {
          status: 200,
          stream: (async function* () {
            for (const [i, word] of reply.split(" ").entries()) {
              yield {
                id: "chatcmpl-1",
                object: "chat.completion.chunk" as const,
                created: 1,
                model,
                choices: [{ index: 0, delta: i === 0 ? { role: "assistant" as const, content: word } : { content: ` ${word}` }, finish_reason: null }],
              };
            }
            yield { id: "chatcmpl-1", object: "chat.completion.chunk" as const, created: 1, model, choices: [{ index: 0, delta: {}, finish_reason: "stop" as const }] };
          })(),
        };
      }
      return {
        status: 200,
        body: {
          id: "chatcmpl-1",
          object: "chat.completion",
          created: 1,
          model,
          choices: [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" }],
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        },
      };
    },
  };

  beforeAll(async () => {
    const router = createRouter(handlers, { authenticate: ({ HTTPBearer: { token } }) => (token === "k" ? { key: token } : null), validateResponses: true });
    app = await listen(toNodeListener(router));
    client = new OpenAI({ apiKey: "k", baseURL: `${app.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => app.close());

  it("chat.completions.create returns the handler's completion", async () => {
    const completion = await client.chat.completions.create({ model: "OpenPipe/Qwen3-14B-Instruct", messages: [{ role: "user", content: "hello there" }] });
    expect(completion.object).toBe("chat.completion");
    expect(completion.model).toBe("OpenPipe/Qwen3-14B-Instruct");
    expect(completion.choices[0].message.content).toBe("echo: hello there");
    expect(completion.usage?.total_tokens).toBe(5);
    expect(seen.at(-1)).toEqual({
      auth: { key: "k" },
      body: { model: "OpenPipe/Qwen3-14B-Instruct", messages: [{ role: "user", content: "hello there" }], stream: false },
    });
  });

  it("chat.completions.create with stream: true yields the handler's chunks", async () => {
    const stream = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "a b c" }], stream: true });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.choices[0].delta.content ?? "").join("")).toBe("echo: a b c");
    expect(chunks[0].choices[0].delta.role).toBe("assistant");
    expect(chunks.at(-1)?.choices[0].finish_reason).toBe("stop");
    expect(chunks).toHaveLength(5);
  });

  it("models.list returns the handler's models", async () => {
    const page = await client.models.list();
    expect(page.data.map((m) => m.id)).toEqual(["OpenPipe/Qwen3-14B-Instruct", "my-lora"]);
    expect(page.data[1]).toEqual({ id: "my-lora", object: "model", created: 1_700_000_001, owned_by: "me", root: "OpenPipe/Qwen3-14B-Instruct" });
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    expect(ids).toHaveLength(2);
  });

  it("router errors surface as typed SDK errors", async () => {
    const badKey = new OpenAI({ apiKey: "wrong", baseURL: `${app.url}/v1`, maxRetries: 0 });
    await expect(badKey.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const invalid = client.chat.completions.create({ model: "m", messages: [] });
    await expect(invalid).rejects.toBeInstanceOf(OpenAI.UnprocessableEntityError);
    await expect(invalid).rejects.toMatchObject({ status: 422 });
  });
});
