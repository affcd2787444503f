import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli, typecheck } from "../helpers.js";
import { CORPUS } from "./shared.js";

/**
 * Types that match the wire, on the vendors' own specs: docs/client.md's streaming example and a chat with
 * `role: "user"` compile on OpenAI's spec as written (no `as any`), and OpenAI's own SDK talks to the router
 * generated from it; hey-api's non-string discriminators are typed as the values the wire carries.
 */
const OUT = join(ROOT, "test", "corpus", ".out", "wire-types");

/** Generates into OUT/<project>/<name>, beside the usage file the test writes into OUT/<project>. */
async function generate(spec: string, project: string, name: string): Promise<string> {
  const out = join(OUT, project, name);
  const result = await runCli(["generate", "--spec", join(CORPUS, spec), "--out", out], ROOT);
  // (OpenAI's compound filters use `$recursiveRef`, which the router says it does not enforce; nothing else is said.)
  const warnings = result.stderr.split("\n").filter((line) => line.startsWith("specforge:"));
  expect(warnings.filter((line) => !/\$recursiveRef is not enforced by the generated router/.test(line))).toEqual([]);
  expect(result.code).toBe(0);
  return out;
}

describe("OpenAI's spec", () => {
  let out: string;
  let server: Server | undefined;
  let baseURL: string;
  const received: { messages: { role: string }[]; stream?: boolean; accept: string | null }[] = [];

  beforeAll(async () => {
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    out = await generate("openai-3.1.yaml", "openai-project", "openai");
    const { createRouter, toNodeListener } = (await import(join(out, "index.ts"))) as Record<string, any>;
    const completion = (content: string) => ({
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [{ index: 0, finish_reason: "stop", logprobs: null, message: { role: "assistant", content, refusal: null } }],
    });
    const chunk = (content: string) => ({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 1,
      model: "m",
      choices: [{ index: 0, finish_reason: null, delta: { content } }],
    });
    const router = createRouter(
      {
        createChatCompletion: ({ body, request }: any) => {
          received.push({ messages: body.messages, stream: body.stream, accept: request.headers.get("accept") });
          if (!body.stream) return { status: 200, body: completion("Hello") };
          return {
            status: 200,
            stream: (async function* () {
              for (const part of ["Hel", "lo"]) yield chunk(part);
            })(),
          };
        },
      },
      { authenticate: (credentials: { ApiKeyAuth?: { token: string } }) => (credentials.ApiKeyAuth?.token === "sk-test" ? { user: "t" } : undefined) },
    );
    server = createServer(toNodeListener(router));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    // The router serves under the path of the spec's server (`https://api.openai.com/v1`), as the SDK's base URL does.
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  }, 600_000);
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("docs/client.md's streaming example and role-tagged messages compile without casts", async () => {
    const client = readFileSync(join(out, "client.ts"), "utf8");
    expect(client).toMatch(/createChatCompletion: StreamingOperation<\s*paths\["\/chat\/completions"\]\["post"\]/);
    writeFileSync(
      join(OUT, "openai-project", "usage.ts"),
      [
        'import { createClient } from "./openai/index.js";',
        // OpenAI's spec declares two bearer schemes (ApiKeyAuth, AdminApiKeyAuth): one option each.
        'const client = createClient({ apiKeyAuth: "sk-test" });',
        "export async function readme(): Promise<void> {",
        '  const stream = await client.createChatCompletion({ body: { model: "m", messages: [{ role: "user", content: "Hi" }], stream: true } });',
        '  for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? "");',
        "  const completion = await client.createChatCompletion({",
        "    body: {",
        '      model: "gpt-4o",',
        "      messages: [",
        '        { role: "developer", content: "Be brief." },',
        '        { role: "system", content: "You are terse." },',
        '        { role: "user", content: "hi" },',
        '        { role: "assistant", content: "hello" },',
        '        { role: "tool", content: "42", tool_call_id: "call_1" },',
        "      ],",
        "    },",
        "  });",
        "  const text: string | null | undefined = completion.choices[0]?.message.content;",
        "  void text;",
        "  // @ts-expect-error the schema name is not the role",
        '  await client.createChatCompletion({ body: { model: "m", messages: [{ role: "ChatCompletionRequestUserMessage", content: "hi" }] } });',
        "}",
        "",
      ].join("\n"),
    );
    const tsc = await typecheck(join(OUT, "openai-project"));
    expect(tsc.output).toBe("");
  }, 600_000);

  it("OpenAI's own SDK: a chat with every role, then a stream, through the generated router", async () => {
    const openai = new OpenAI({ apiKey: "sk-test", baseURL, maxRetries: 0 });
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: "developer", content: "Be brief." },
      { role: "system", content: "You are terse." },
      { role: "user", content: [{ type: "text", text: "hi" }] },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }] },
      { role: "tool", content: "42", tool_call_id: "call_1" },
    ];
    const completion = await openai.chat.completions.create({ model: "m", messages });
    expect(completion.choices[0]?.message.content).toBe("Hello");
    const parts: string[] = [];
    const stream = await openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }], stream: true });
    for await (const chunk of stream) parts.push(chunk.choices[0]?.delta.content ?? "");
    expect(parts.join("")).toBe("Hello");
    expect(received.map((r) => r.messages.map((m) => m.role))).toEqual([["developer", "system", "user", "assistant", "tool"], ["user"]]);
    expect(received[1]!.stream).toBe(true);
  }, 120_000);
});

describe("hey-api's non-string discriminators", () => {
  it("are typed as the values the wire carries: the pinned boolean, integer mapping keys as numbers", async () => {
    await generate("fixture-heyapi-discriminator-non-string-3.1.yaml", "non-string-project", "non-string");
    writeFileSync(
      join(OUT, "non-string-project", "non-string.ts"),
      [
        'import type { components } from "./non-string/index.js";',
        "type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;",
        "function assertType<T extends true>(): void {}",
        'type S = components["schemas"];',
        'assertType<Equal<S["AutoConfig"]["use_custom"], false>>();',
        'assertType<Equal<S["CustomConfig"]["use_custom"], true>>();',
        'assertType<Equal<S["TypeOne"]["type_id"], 1>>();',
        'assertType<Equal<S["VersionBeta"]["version"], 2.5>>();',
        'assertType<Equal<S["IntegerAllOfChildA"]["kind"], 1>>();',
        'export const config: S["BooleanOneOf"] = { use_custom: true, custom_value: 3 };',
        "",
      ].join("\n"),
    );
    const tsc = await typecheck(join(OUT, "non-string-project"));
    expect(tsc.output).toBe("");
  }, 600_000);
});

describe("Stripe's HTML descriptions", () => {
  it("reach JSDoc as Markdown: no <p>, links as [text](url), code as `code`", async () => {
    const out = await generate("stripe-spec3-2023-09-3.0.yaml", "stripe-project", "stripe");
    for (const file of ["schema.ts", "client.ts"]) {
      const comments = (readFileSync(join(out, file), "utf8").match(/\/\*\*[^]*?\*\//g) ?? []).join("\n");
      expect(comments, file).not.toMatch(/<\/?(p|a|code|strong|ul|li|em)\b[^>]*>/);
    }
    const client = readFileSync(join(out, "client.ts"), "utf8");
    expect(client).toContain("Updates a [connected account](/docs/connect/accounts) by setting the values of the parameters passed.");
    expect(client).toMatch(/A coupon has either a `percent_off` or an `amount_off` and `currency`/);
  }, 600_000);
});
