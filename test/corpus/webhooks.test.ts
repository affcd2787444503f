import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import yaml from "js-yaml";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sign as octokitSign } from "@octokit/webhooks-methods";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { samplePayload, webhookDelivery } from "../../src/commands/webhook-test.js";
import type { WebhooksConfig } from "../../src/config/resolve.js";
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
  // `repository_advisory.author` is `allOf: [simple-user]` (an object) with `type: [null]`. (`fork`'s `forkee.topics`,
  // an array of strings in one allOf member and of nulls in the other, is met by the empty array the mock now gives.)
  "github-webhooks-3.1.json": ["repository-advisory-published", "repository-advisory-reported"],
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
  // The tests think between deliveries (a sample of a large schema, ajv): an idle connection closed by the server
  // just as the client reuses it would be an ECONNRESET that says nothing about the receiver.
  server.keepAliveTimeout = 120_000;
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

/**
 * Every webhook of every corpus spec that has webhooks (found by reading the corpus, so a spec added there is covered
 * too): the delivery `specforge webhook test` builds for it (`webhookDelivery`, the command's own code: payload, event
 * where the receiver reads it, signature) is POSTed to the generated receiver, which must hand it to that webhook's
 * handler. A spec whose signature the spec does not say gets a scheme from the config, as a user would give it.
 */
const CONFIGURED: Record<string, WebhooksConfig> = {
  // Adyen signs with `HmacSignature`: base64 HMAC-SHA256 of the body, keyed with the hex HMAC key.
  "adyen-bp-config-webhooks-v2-3.1.json": { scheme: { type: "hmac", header: "HmacSignature", encoding: "base64", secretEncoding: "hex" } },
};
const SECRETS: Record<string, string> = { "standard-webhooks": standardSecret, svix: standardSecret, hmac: "00112233445566778899aabbccddeeff" };

function corpusWebhookSpecs(): string[] {
  return readdirSync(CORPUS)
    .filter((file) => /\.(json|ya?ml)$/.test(file) && !file.startsWith("fixture-"))
    .filter((file) => {
      const text = readFileSync(join(CORPUS, file), "utf8");
      if (!/(^|\n)webhooks:|"webhooks"\s*:\s*\{/.test(text)) return false;
      // A top-level `webhooks` with entries (Discord's spec has the word only as a property name).
      const document = (file.endsWith(".json") ? JSON.parse(text) : yaml.load(text)) as { webhooks?: unknown };
      return typeof document.webhooks === "object" && document.webhooks !== null && Object.keys(document.webhooks).length > 0;
    })
    .filter((file) => !(file.endsWith(".json") && cases.some((c) => c.file === file.replace(/\.json$/, ".yaml")))) // one form of the same document
    .sort();
}

describe("corpus webhooks: what `webhook test` sends for every webhook, the receiver dispatches to that webhook", () => {
  const files = corpusWebhookSpecs();
  it("finds the corpus specs with webhooks", () => {
    expect(files).toEqual(expect.arrayContaining(["adyen-bp-config-webhooks-v2-3.1.json", "github-webhooks-3.1.json", "openai-3.1.yaml", "swagger-petstore-3.1.yaml"]));
  });
  for (const file of files) {
    it(file, async () => {
      const spec = join(CORPUS, file);
      const out = join(OUT, "webhook-test", file.replace(/\W+/g, "-"));
      rmSync(out, { recursive: true, force: true });
      mkdirSync(out, { recursive: true });
      const webhooks = CONFIGURED[file] ?? {};
      const configFile = join(out, "..", `${file.replace(/\W+/g, "-")}.config.json`);
      writeFileSync(configFile, JSON.stringify({ spec, out, outputs: ["webhooks"], webhooks }));
      const generated = await runCli(["generate", "--config", configFile], ROOT);
      expect(generated.code).toBe(0);
      // (Other warnings are the spec's own: swagger-petstore's unquoted `$ref: #…`.)
      expect(generated.stderr).not.toContain("nothing in the spec tells");
      const module = (await import(join(out, "index.ts"))) as Record<string, any>;
      const model = buildModel(loadSpec(spec, ROOT), file);
      const scheme = module.webhookSpec.scheme;
      const secret = SECRETS[typeof scheme === "object" ? scheme.type : (scheme ?? "standard-webhooks")] ?? "corpus-secret";
      const received: string[] = [];
      const on = Object.fromEntries(model.webhooks.map((hook) => [hook.key, (event: { type: string }) => void received.push(event.type)]));
      const server = await listen(module.createWebhookNodeListener({ secret, on }));
      const misrouted: string[] = [];
      try {
        for (const hook of model.webhooks) {
          const delivery = await webhookDelivery(model, { cwd: ROOT, webhooks }, hook, { url: new URL(server.url), secret, token: undefined, env: {}, vars: [], warnings: [] });
          const response = await fetch(delivery.url, { method: "POST", body: delivery.body, headers: delivery.headers });
          const answer = await response.text();
          if (response.status !== 200 || received.at(-1) !== hook.key) misrouted.push(`${hook.key}: ${response.status} ${answer} → ${received.at(-1)}`);
        }
      } finally {
        await server.close();
      }
      rows.push(`| ${file} (webhook test) | ${model.webhooks.length} | ${model.webhooks.length - misrouted.length} | |`);
      expect(misrouted).toEqual([]);
    }, 600_000);
  }
});
