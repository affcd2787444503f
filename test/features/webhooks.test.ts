import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sign as octokitSign, verify as octokitVerify } from "@octokit/webhooks-methods";
import { Webhook as StandardWebhook } from "standardwebhooks";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataTables } from "../data-tables.js";
import { runCli, tempDir, writeFiles } from "../helpers.js";
import { nodeReceiver, receivers, TRANSPORTS, type Receiver } from "./webhook-receivers.js";
import { buildGroup, importGenerated, type BuiltGroup } from "./harness.js";

/**
 * Webhooks on specs without specforge's x- extensions, end to end: each spec is generated, type-checked with its
 * assertions (webhooks-*.types.ts), and its receiver gets real signed POSTs on 127.0.0.1, through the node:http
 * listener and through the web fetch handler, signed by each provider's own npm library (standardwebhooks, stripe,
 * @octokit/webhooks-methods). Tampered, stale and unknown deliveries are refused; what specforge signs, the
 * providers' libraries verify.
 */
let group: BuiltGroup;
type Generated = Record<string, any>;
const generated: Record<string, Generated> = {};

beforeAll(async () => {
  const names = ["webhooks-plain", "webhooks-standard", "webhooks-github", "webhooks-stripe"];
  group = await buildGroup(
    "webhooks",
    names.map((name) => ({ name, spec: `${name}.yaml` })),
  );
  for (const name of names) generated[name] = await importGenerated(group, name);
}, 300_000);

async function post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
  return { status: response.status, body: await response.json() };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

it("every webhook fixture generates without warnings and type-checks with its assertions", () => {
  expect(Object.values(group.stderr).join("")).toBe("");
  expect(group.tsc.output).toBe("");
  expect(group.tsc.code).toBe(0);
});

describe("a spec with only `webhooks:` (no x- extensions): createWebhookHandler({ secret, on }) works", () => {
  const secret = "whsec_" + Buffer.from("plain-spec-key-32-bytes-long!!!!").toString("base64");
  const seen: any[] = [];
  let servers: Record<"node" | "fetch", Receiver>;
  beforeAll(async () => {
    servers = await receivers(generated["webhooks-plain"]!, { secret, on: { newPet: (event: any) => void seen.push(event) } });
  });
  afterAll(async () => Promise.all(Object.values(servers).map((s) => s.close())));

  for (const transport of TRANSPORTS) {
    it(`${transport}: a Standard Webhooks delivery (the default) signed by the standardwebhooks package reaches the only event`, async () => {
      const body = JSON.stringify({ id: 7, name: "Rex" });
      const headers = signStandard(secret, `msg_plain_${transport}`, body);
      const reply = await post(servers[transport].url, body, headers);
      expect(reply).toEqual({ status: 200, body: { ok: true } });
      expect(seen.at(-1)).toMatchObject({ type: "newPet", payload: { id: 7, name: "Rex" }, deliveryId: `msg_plain_${transport}`, replayKey: `msg_plain_${transport}` });
      expect((await post(servers[transport].url, body.replace("Rex", "Max"), headers)).status).toBe(401);
      expect((await post(servers[transport].url, body, {})).status).toBe(401);
    });
  }

  it("a missing or empty secret fails at creation, with the way out named", () => {
    const { createWebhookHandler, createWebhookNodeListener } = generated["webhooks-plain"]!;
    for (const options of [{ on: {} }, { secret: "", on: {} }, { secret: undefined, accessToken: "t", on: {} }, { secret: [], on: {} }]) {
      expect(() => createWebhookHandler(options)).toThrow(/secret.*insecureNoSignature: true/s);
      expect(() => createWebhookNodeListener(options)).toThrow(/secret.*insecureNoSignature: true/s);
    }
    expect(() => createWebhookHandler({ secret: "whsec_!!!", on: {} })).toThrow(/whsec_/);
  });
});

/** Standard Webhooks headers made by the `standardwebhooks` package. */
function signStandard(secret: string, id: string, body: string, at = new Date()): Record<string, string> {
  const signedAt = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(signedAt.getTime() / 1000),
    "webhook-signature": new StandardWebhook(secret).sign(id, signedAt, body),
  };
}

describe("Standard Webhooks (OpenAI-style events): signatures by the standardwebhooks package", () => {
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  const oldSecret = "whsec_" + Buffer.from("the-key-before-rotation").toString("base64");
  const seen: any[] = [];
  let servers: Record<"node" | "fetch", Receiver>;
  beforeAll(async () => {
    servers = await receivers(generated["webhooks-standard"]!, {
      secret: [secret, oldSecret],
      on: { batch_completed: (event: any) => void seen.push(event), batch_failed: (event: any) => void seen.push(event) },
    });
  });
  afterAll(async () => Promise.all(Object.values(servers).map((s) => s.close())));
  const body = (type: string) => JSON.stringify({ id: "evt_1", object: "event", type, created_at: 1719168000, data: { id: "batch_1" } });

  for (const transport of TRANSPORTS) {
    it(`${transport}: the body's type names the event (batch.completed is batch_completed)`, async () => {
      const payload = body("batch.completed");
      expect((await post(servers[transport].url, payload, signStandard(secret, "msg_a", payload))).status).toBe(200);
      expect(seen.at(-1)).toMatchObject({ type: "batch_completed", deliveryId: "msg_a" });
      const failed = body("batch.failed");
      expect((await post(servers[transport].url, failed, signStandard(secret, "msg_b", failed))).status).toBe(200);
      expect(seen.at(-1).type).toBe("batch_failed");
    });

    it(`${transport}: tampered body, id, timestamp or signature are refused with 401`, async () => {
      const payload = body("batch.completed");
      const headers = signStandard(secret, "msg_t", payload);
      const attempts = [
        [payload.replace("batch_1", "batch_2"), headers],
        [payload, { ...headers, "webhook-id": "msg_u" }],
        [payload, { ...headers, "webhook-timestamp": String(Number(headers["webhook-timestamp"]) - 1) }],
        [payload, { ...headers, "webhook-signature": headers["webhook-signature"]!.replace(/^v1,./, (m) => (m.endsWith("A") ? "v1,B" : "v1,A")) }],
        [payload, signStandard("whsec_" + Buffer.from("someone else").toString("base64"), "msg_t", payload)],
      ] as const;
      for (const [sent, signed] of attempts) expect(await post(servers[transport].url, sent, signed)).toEqual({ status: 401, body: { ok: false, error: "unauthorized" } });
    });

    it(`${transport}: a delivery signed more than 5 minutes ago, or ahead, is refused (replay window)`, async () => {
      const payload = body("batch.completed");
      // 10 s past the 300 s tolerance: a second ticking over between signing and checking changes nothing.
      const stale = signStandard(secret, "msg_old", payload, new Date(Date.now() - 310_000));
      const ahead = signStandard(secret, "msg_new", payload, new Date(Date.now() + 310_000));
      const inside = signStandard(secret, "msg_ok", payload, new Date(Date.now() - 240_000));
      expect((await post(servers[transport].url, payload, stale)).status).toBe(401);
      expect((await post(servers[transport].url, payload, ahead)).status).toBe(401);
      expect((await post(servers[transport].url, payload, inside)).status).toBe(200);
    });

    it(`${transport}: key rotation — several signatures in one header, and several secrets at the receiver`, async () => {
      const payload = body("batch.completed");
      const byNew = signStandard(secret, "msg_r", payload);
      const byOld = signStandard(oldSecret, "msg_r", payload, new Date(Number(byNew["webhook-timestamp"]) * 1000));
      const both = { ...byNew, "webhook-signature": `${byOld["webhook-signature"]} v1a,ignored ${byNew["webhook-signature"]}` };
      expect((await post(servers[transport].url, payload, both)).status).toBe(200);
      expect((await post(servers[transport].url, payload, byOld)).status).toBe(200);
    });
  }

  it("what signWebhookDelivery makes, the standardwebhooks package verifies", async () => {
    const payload = body("batch.failed");
    const headers = await generated["webhooks-standard"]!.signWebhookDelivery(payload, secret, { id: "msg_ours" });
    expect(new StandardWebhook(secret).verify(payload, headers)).toEqual(JSON.parse(payload));
    expect(() => new StandardWebhook(secret).verify(payload.replace("1", "2"), headers)).toThrow();
  });
});

describe("GitHub: signatures by @octokit/webhooks-methods, events by X-GitHub-Event and the body's action", () => {
  const secret = "It's a Secret to Everybody";
  const seen: any[] = [];
  let servers: Record<"node" | "fetch", Receiver>;
  beforeAll(async () => {
    const record = (event: any) => void seen.push(event);
    servers = await receivers(generated["webhooks-github"]!, {
      secret,
      on: {
        "issues-opened": record,
        "issues-closed": record,
        "issue-comment-created": record,
        "custom-property-promoted-to-enterprise": record,
        push: record,
      },
    });
  });
  afterAll(async () => Promise.all(Object.values(servers).map((s) => s.close())));

  async function deliver(transport: "node" | "fetch", event: string, payload: unknown, extra: Record<string, string> = {}) {
    const body = JSON.stringify(payload);
    const headers = { "x-github-event": event, "x-github-delivery": `d-${event}`, "x-hub-signature-256": await octokitSign(secret, body), ...extra };
    return post(servers[transport].url, body, headers);
  }

  for (const transport of TRANSPORTS) {
    it(`${transport}: issues + opened is issues-opened; issue_comment + created, custom_property + promote_to_enterprise, push`, async () => {
      const cases: [string, Record<string, unknown>, string][] = [
        ["issues", { action: "opened", issue: { number: 1, title: "t" } }, "issues-opened"],
        ["issues", { action: "closed", issue: { number: 1, title: "t" } }, "issues-closed"],
        ["issue_comment", { action: "created", comment: { body: "hi" } }, "issue-comment-created"],
        ["custom_property", { action: "promote_to_enterprise", definition: { property_name: "p" } }, "custom-property-promoted-to-enterprise"],
        ["push", { ref: "refs/heads/main", after: "a".repeat(40) }, "push"],
      ];
      for (const [event, payload, expected] of cases) {
        expect(await deliver(transport, event, payload)).toEqual({ status: 200, body: { ok: true } });
        expect(seen.at(-1)).toMatchObject({ type: expected, payload, deliveryId: `d-${event}` });
        expect(seen.at(-1).replayKey).toMatch(/^[0-9a-f]{64}$/);
      }
    });

    it(`${transport}: an action the spec does not declare is 400 unknown_event, not a 500`, async () => {
      expect(await deliver(transport, "issues", { action: "typed", issue: { number: 1, title: "t" } })).toEqual({
        status: 400,
        body: { ok: false, error: "unknown_event" },
      });
      expect((await deliver(transport, "deployment", { action: "created" })).status).toBe(400);
    });

    it(`${transport}: a tampered body or a signature with another secret is 401`, async () => {
      const body = JSON.stringify({ action: "opened", issue: { number: 1, title: "t" } });
      const headers = { "x-github-event": "issues", "x-hub-signature-256": await octokitSign(secret, body) };
      expect((await post(servers[transport].url, body.replace("1", "2"), headers)).status).toBe(401);
      expect((await post(servers[transport].url, body, { ...headers, "x-hub-signature-256": await octokitSign("other", body) })).status).toBe(401);
      expect((await post(servers[transport].url, body, { ...headers, "x-hub-signature-256": (await octokitSign(secret, body)).slice(7) })).status).toBe(401);
    });
  }

  it("what signWebhookDelivery makes, @octokit/webhooks-methods verifies", async () => {
    const body = JSON.stringify({ ref: "refs/heads/main", after: "b".repeat(40) });
    const headers = await generated["webhooks-github"]!.signWebhookDelivery(body, secret);
    expect(await octokitVerify(secret, body, headers["X-Hub-Signature-256"])).toBe(true);
    expect(await octokitVerify(secret, body + " ", headers["X-Hub-Signature-256"])).toBe(false);
  });
});

describe("Stripe: signatures by stripe.webhooks.generateTestHeaderString, events by the body's type", () => {
  const secret = "whsec_test_secret_for_specforge";
  const stripe = new Stripe("sk_test_specforge_offline");
  const seen: any[] = [];
  let servers: Record<"node" | "fetch", Receiver>;
  beforeAll(async () => {
    servers = await receivers(generated["webhooks-stripe"]!, { secret, on: { "customer.created": (event: any) => void seen.push(event) } });
  });
  afterAll(async () => Promise.all(Object.values(servers).map((s) => s.close())));
  const payload = JSON.stringify({ id: "evt_123", object: "event", type: "customer.created", created: 1, livemode: false, data: { object: { id: "cus_1", email: null } } });

  for (const transport of TRANSPORTS) {
    it(`${transport}: a delivery signed by Stripe's library reaches customer.created; the event id is its delivery id`, async () => {
      const header = stripe.webhooks.generateTestHeaderString({ payload, secret });
      expect(await post(servers[transport].url, payload, { "stripe-signature": header })).toEqual({ status: 200, body: { ok: true } });
      expect(seen.at(-1)).toMatchObject({ type: "customer.created", deliveryId: "evt_123", replayKey: "evt_123" });
    });

    it(`${transport}: tampered body, wrong secret, or a timestamp older than the 5-minute tolerance are 401`, async () => {
      const header = stripe.webhooks.generateTestHeaderString({ payload, secret });
      const url = servers[transport].url;
      expect((await post(url, payload.replace("cus_1", "cus_2"), { "stripe-signature": header })).status).toBe(401);
      expect((await post(url, payload, { "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_other" }) })).status).toBe(401);
      const stale = stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: nowSeconds() - 310 });
      expect((await post(url, payload, { "stripe-signature": stale })).status).toBe(401);
      const recent = stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: nowSeconds() - 200 });
      expect((await post(url, payload, { "stripe-signature": recent })).status).toBe(200);
    });

    it(`${transport}: several v1 signatures (secret rotation): one that matches is enough`, async () => {
      const timestamp = nowSeconds();
      const other = stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_rolled", timestamp });
      const ours = stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
      const both = `${other},${ours.split(",")[1]},v0=ignored`;
      expect((await post(servers[transport].url, payload, { "stripe-signature": both })).status).toBe(200);
      expect((await post(servers[transport].url, payload, { "stripe-signature": other })).status).toBe(401);
    });
  }

  it("what signWebhookDelivery makes, stripe.webhooks.constructEvent verifies", async () => {
    const headers = await generated["webhooks-stripe"]!.signWebhookDelivery(payload, secret);
    expect(stripe.webhooks.constructEvent(payload, headers["Stripe-Signature"], secret).id).toBe("evt_123");
    expect(() => stripe.webhooks.constructEvent(payload, headers["Stripe-Signature"], "whsec_other")).toThrow();
  });
});

describe("x-webhook-signature names a preset", () => {
  const specWith = (signature: string) =>
    [
      "openapi: 3.1.0",
      "info: { title: t, version: '1' }",
      `x-webhook-signature: ${signature}`,
      "webhooks:",
      "  ping:",
      "    post:",
      "      requestBody: { content: { application/json: { schema: { type: object } } } }",
      "      responses: { '200': { description: ok } }",
    ].join("\n");

  it("`{ scheme: stripe }` makes Stripe the receiver's default", async () => {
    const dir = tempDir();
    writeFiles(dir, { "openapi.yaml": specWith("{ scheme: stripe }") });
    const result = await runCli(["generate", "--spec", join(dir, "openapi.yaml"), "--out", join(dir, "out"), "--outputs", "webhooks"], dir);
    expect(result.stderr).toBe("");
    expect(dataTables(readFileSync(join(dir, "out", "webhooks.ts"), "utf8")).get("webhookSpec")?.value).toEqual({ scheme: "stripe", events: ["ping"] });
  });

  it("an unknown scheme is exit 2 with the JSON pointer and the names allowed, and nothing is written", async () => {
    const dir = tempDir();
    writeFiles(dir, { "openapi.yaml": specWith("{ scheme: mailgun }") });
    const result = await runCli(["generate", "--spec", join(dir, "openapi.yaml"), "--out", join(dir, "out")], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/openapi\.yaml#\/x-webhook-signature\/scheme: unknown webhook signature scheme "mailgun"\n  hint: one of standard-webhooks, svix, stripe, github, zoom, slack, shopify, twilio, wandb/);
    expect(existsSync(join(dir, "out"))).toBe(false);
  });
});
