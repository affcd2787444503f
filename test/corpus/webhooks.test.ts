import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { sign as octokitSign } from "@octokit/webhooks-methods";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { samplePayload } from "../../src/commands/webhook-test.js";
import { buildModel } from "../../src/ir/build.js";
import { loadSpec } from "../../src/load/index.js";
import { ROOT, runBin, runCli } from "../helpers.js";
import { CORPUS } from "./shared.js";
import { webhookBodyValidator } from "../webhook-payloads.js";

/**
 * The corpus's webhook specs with no specforge extension, end to end: the generated receiver, created with
 * `createWebhookNodeListener({ secret, on })` only, gets one real signed POST per event on 127.0.0.1 — signed by the
 * provider's own library (OpenAI: Standard Webhooks; GitHub: @octokit/webhooks-methods) with the sample body
 * `specforge webhook test` would send — and must hand each to the handler of that very event. The samples are checked
 * with ajv against the spec; `webhook test` itself is run once per spec.
 */
const OUT = join(ROOT, "test", "corpus", ".out", "webhooks");
const rows: string[] = [];

/** Webhooks whose schema no value satisfies the way the mock builds one (GitHub's own contradictions). */
const UNSATISFIED_SAMPLES: Record<string, string[]> = {
  // `forkee.topics` is an array of strings in one allOf member and of nulls in the other; `repository_advisory.author`
  // is `allOf: [simple-user]` (an object) with `type: [null]`.
  "github-webhooks-3.1.json": ["fork", "repository-advisory-published", "repository-advisory-reported"],
};

afterAll(() => {
  console.log(["| spec | events | delivered to their handler | samples valid (ajv) |", "|---|---:|---:|---:|", ...rows].join("\n"));
});

interface Case {
  file: string;
  secret: string;
  /** The headers the provider sends with `body` for `event` (`webhook test`'s GitHub event header included). */
  sign(body: string, event: { key: string; eventHeader?: string }, index: number): Promise<Record<string, string>>;
}

const standardSecret = "whsec_" + Buffer.from("corpus-standard-webhooks-key!").toString("base64");
const cases: Case[] = [
  {
    file: "oai-webhook-example-3.1.yaml",
    secret: standardSecret,
    sign: async (body, _event, i) => standardHeaders(body, `msg_${i}`),
  },
  {
    file: "openai-3.1.yaml",
    secret: standardSecret,
    sign: async (body, _event, i) => standardHeaders(body, `msg_${i}`),
  },
  {
    file: "github-webhooks-3.1.json",
    secret: "corpus-github-secret",
    sign: async (body, event, i) => ({
      "x-hub-signature-256": await octokitSign("corpus-github-secret", body),
      "x-github-event": event.eventHeader!,
      "x-github-delivery": `delivery-${i}`,
    }),
  },
];

function standardHeaders(body: string, id: string): Record<string, string> {
  const at = new Date(Math.floor(Date.now() / 1000) * 1000);
  return { "webhook-id": id, "webhook-timestamp": String(at.getTime() / 1000), "webhook-signature": new StandardWebhook(standardSecret).sign(id, at, body) };
}

async function listen(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("corpus webhooks: every event signed by the provider's library reaches its own handler", () => {
  for (const { file, secret, sign } of cases) {
    it(file, async () => {
      const spec = join(CORPUS, file);
      const out = join(OUT, file.replace(/\W+/g, "-"));
      rmSync(out, { recursive: true, force: true });
      mkdirSync(OUT, { recursive: true });
      const generated = await runCli(["generate", "--spec", spec, "--out", out, "--outputs", "webhooks"], ROOT);
      expect(generated.stderr).toBe("");
      const module = (await import(join(out, "index.ts"))) as Record<string, any>;
      const model = buildModel(loadSpec(spec, ROOT), file);
      const keys: string[] = module.WEBHOOK_EVENT_TYPES;
      expect(keys.length).toBe(model.webhooks.length);

      const received: string[] = [];
      const on = Object.fromEntries(keys.map((key) => [key, (event: { type: string }) => void received.push(event.type)]));
      // A plain `{ secret, on }`: the scheme comes from the spec (GitHub: its X-Hub-Signature-256 headers) or is
      // Standard Webhooks (OpenAI, the OAI example).
      const server = await listen(module.createWebhookNodeListener({ secret, on }));
      const validate = webhookBodyValidator(spec);
      const invalid: string[] = [];
      const misrouted: string[] = [];
      try {
        for (const [i, hook] of model.webhooks.entries()) {
          const sample = samplePayload(model, hook).value;
          if (validate(hook.key, sample).length > 0) invalid.push(hook.key);
          const body = JSON.stringify(sample);
          const response = await fetch(server.url, { method: "POST", body, headers: { "content-type": "application/json", ...(await sign(body, hook, i)) } });
          const answer = await response.text();
          if (response.status !== 200 || received.at(-1) !== hook.key) misrouted.push(`${hook.key}: ${response.status} ${answer} → ${received.at(-1)}`);
        }
      } finally {
        await server.close();
      }
      rows.push(`| ${file} | ${keys.length} | ${keys.length - misrouted.length} | ${keys.length - invalid.length} |`);
      expect(misrouted).toEqual([]);
      expect(invalid).toEqual(UNSATISFIED_SAMPLES[file] ?? []);
    }, 600_000);
  }

  it("`specforge webhook test` sends a delivery the generated receiver accepts, on each spec", async () => {
    for (const { file, secret } of cases) {
      const module = (await import(join(OUT, file.replace(/\W+/g, "-"), "index.ts"))) as Record<string, any>;
      const event = file.startsWith("github") ? "issues-opened" : file.startsWith("openai") ? "batch_completed" : "newPet";
      let got: string | undefined;
      const server = await listen(module.createWebhookNodeListener({ secret, on: { [event]: (e: { type: string }) => void (got = e.type) } }));
      try {
        const result = await runBin(["webhook", "test", "--spec", join(CORPUS, file), "--url", server.url, "--event", event, "--secret-env", "S"], ROOT, { S: secret });
        expect(result.stderr).toBe("");
        expect(result.code).toBe(0);
        expect(got).toBe(event);
      } finally {
        await server.close();
      }
    }
  }, 600_000);
});
