import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sign as octokitSign, verify as octokitVerify } from "@octokit/webhooks-methods";
import { Webhook as StandardWebhook } from "standardwebhooks";
import Stripe from "stripe";
import { Webhook as Svix } from "svix";
import twilio from "twilio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBin, runCli, tempDir, writeFiles } from "../helpers.js";
import { nodeReceiver, receivers, TRANSPORTS, type Receiver } from "./webhook-receivers.js";
import { WEBHOOK_SCHEME_NAMES } from "../../templates/webhooks/types.js";
import { buildGroup, FEATURES, importGenerated, type BuiltGroup } from "./harness.js";

/**
 * Every signature scheme by name, and a described HMAC, on a spec that says nothing about signatures: deliveries made
 * by each vendor's own npm library (svix, standardwebhooks, stripe, @octokit/webhooks-methods, twilio), or by the
 * vendor's documented algorithm written here from its page (Zoom, Slack, Shopify, the training service), are POSTed
 * over real HTTP on 127.0.0.1 to the generated receiver (node:http listener and web handler) and accepted; a tampered
 * body, another secret, a stale timestamp or a missing header is refused. What specforge signs, the vendors'
 * libraries verify. Then Zoom's shape of spec, served without edits: its events found by their `event`, Zoom-signed
 * deliveries dispatched, its endpoint check answered.
 */
let group: BuiltGroup;
type Generated = Record<string, any>;
let plain: Generated;
let zoom: Generated;

beforeAll(async () => {
  group = await buildGroup("webhook-schemes", [
    // Every named scheme carried (the config's `webhooks.schemes`): the receiver is told each one at run time.
    { name: "webhooks-plain", spec: "webhooks-plain.yaml", webhooks: { schemes: WEBHOOK_SCHEME_NAMES } },
    { name: "webhooks-zoom", spec: "webhooks-zoom.yaml", webhooks: { schemes: ["zoom"] } },
  ]);
  plain = await importGenerated(group, "webhooks-plain");
  zoom = await importGenerated(group, "webhooks-zoom");
}, 300_000);

async function post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
  return { status: response.status, body: await response.json() };
}

const now = () => Math.floor(Date.now() / 1000);
const hmac = (algorithm: string, key: string | Buffer, text: string, encoding: "hex" | "base64") => createHmac(algorithm, key).update(text).digest(encoding);
/** Zoom's and Slack's documented signature: `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{body}`, beside the timestamp. */
const v0Headers = (signatureHeader: string, timestampHeader: string, body: string, timestamp: number, secret: string) => ({
  [timestampHeader]: String(timestamp),
  [signatureHeader]: `v0=${hmac("sha256", secret, `v0:${timestamp}:${body}`, "hex")}`,
});
const PET = JSON.stringify({ id: 1, name: "Rex" });

/** A signed delivery as the vendor sends it: headers, and the URL when the vendor signs it (Twilio's `bodySHA256`). */
interface Signed {
  headers: Record<string, string>;
  url?: string;
}

interface SchemeCase {
  label: string;
  scheme: unknown;
  secret: string;
  otherSecret: string;
  /** The vendor's library, or its documented algorithm, signing `body` for `url` at `timestamp`. */
  sign(body: string, url: string, timestamp: number, secret: string): Signed | Promise<Signed>;
  /** The header without which the delivery is unsigned. */
  signatureHeader: string;
  timestamped: boolean;
  body?: string;
  contentType?: string;
  /** The vendor's library verifying what `signWebhookDelivery` makes. */
  verify?(body: string, headers: Record<string, string>, url: string, secret: string): boolean | Promise<boolean>;
}

const STANDARD_SECRET = "whsec_" + Buffer.from("scheme-test-key-32-bytes-long!!!").toString("base64");
const standardHeaders = (prefix: string, id: string, timestamp: number, signature: string) => ({
  [`${prefix}-id`]: id,
  [`${prefix}-timestamp`]: String(timestamp),
  [`${prefix}-signature`]: signature,
});
const stripe = new Stripe("sk_test_specforge_offline");
const TWILIO_FORM = "MessageSid=SM123&From=%2B15005550006&Body=Hello+there&To=%2B15005550001&MediaUrl0=a&MediaUrl0=b";

/** Form parameters as the twilio package takes them (a repeated name: the list of its values). */
function formParams(body: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(body)) params[name] = name in params ? ([] as string[]).concat(params[name]!, value) : value;
  return params;
}

const cases: SchemeCase[] = [
  {
    label: "standard-webhooks (the standardwebhooks package)",
    scheme: "standard-webhooks",
    secret: STANDARD_SECRET,
    otherSecret: "whsec_" + Buffer.from("another-key").toString("base64"),
    sign: (body, _url, timestamp, secret) => ({ headers: standardHeaders("webhook", "msg_1", timestamp, new StandardWebhook(secret).sign("msg_1", new Date(timestamp * 1000), body)) }),
    signatureHeader: "webhook-signature",
    timestamped: true,
    verify: (body, headers, _url, secret) => new StandardWebhook(secret).verify(body, headers) !== undefined,
  },
  {
    label: "svix (the svix package)",
    scheme: "svix",
    secret: STANDARD_SECRET,
    otherSecret: "whsec_" + Buffer.from("another-key").toString("base64"),
    sign: (body, _url, timestamp, secret) => ({ headers: standardHeaders("svix", "msg_2", timestamp, new Svix(secret).sign("msg_2", new Date(timestamp * 1000), body)) }),
    signatureHeader: "svix-signature",
    timestamped: true,
    verify: (body, headers, _url, secret) => {
      expect(Object.keys(headers).sort()).toEqual(["svix-id", "svix-signature", "svix-timestamp"]);
      return new Svix(secret).verify(body, headers) !== undefined;
    },
  },
  {
    label: "stripe (stripe.webhooks.generateTestHeaderString)",
    scheme: "stripe",
    secret: "whsec_test_secret_for_specforge",
    otherSecret: "whsec_other",
    sign: (payload, _url, timestamp, secret) => ({ headers: { "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }) } }),
    signatureHeader: "stripe-signature",
    timestamped: true,
    verify: (body, headers, _url, secret) => stripe.webhooks.constructEvent(body, headers["Stripe-Signature"]!, secret) !== undefined,
  },
  {
    label: "github (@octokit/webhooks-methods)",
    scheme: "github",
    secret: "github-secret",
    otherSecret: "github-other",
    sign: async (body, _url, _timestamp, secret) => ({ headers: { "x-hub-signature-256": await octokitSign(secret, body) } }),
    signatureHeader: "x-hub-signature-256",
    timestamped: false,
    verify: (body, headers, _url, secret) => octokitVerify(secret, body, headers["X-Hub-Signature-256"]!),
  },
  {
    // https://developers.zoom.us/docs/api/webhooks/#verify-webhook-events: `v0:{x-zm-request-timestamp}:{body}`,
    // HMAC-SHA256 with the secret token, hex, sent as `x-zm-signature: v0=<hex>`.
    label: "zoom (Zoom's documented algorithm)",
    scheme: "zoom",
    secret: "zoom-secret-token",
    otherSecret: "zoom-other-token",
    sign: (body, _url, timestamp, secret) => ({ headers: v0Headers("x-zm-signature", "x-zm-request-timestamp", body, timestamp, secret) }),
    signatureHeader: "x-zm-signature",
    timestamped: true,
  },
  {
    // https://api.slack.com/authentication/verifying-requests-from-slack: `v0:{X-Slack-Request-Timestamp}:{body}`,
    // HMAC-SHA256 with the signing secret, hex, sent as `X-Slack-Signature: v0=<hex>`; older than 5 minutes: refused.
    label: "slack (Slack's documented algorithm)",
    scheme: "slack",
    secret: "8f742231b10e8888abcd99yyyzzz85a5",
    otherSecret: "0000000000000000abcd99yyyzzz85a5",
    sign: (body, _url, timestamp, secret) => ({ headers: v0Headers("x-slack-signature", "x-slack-request-timestamp", body, timestamp, secret) }),
    signatureHeader: "x-slack-signature",
    timestamped: true,
  },
  {
    // https://shopify.dev/docs/apps/build/webhooks/subscribe/https#step-5-verify-the-webhook: HMAC-SHA256 of the raw
    // body with the app's client secret, base64, in `X-Shopify-Hmac-Sha256`.
    label: "shopify (Shopify's documented algorithm)",
    scheme: "shopify",
    secret: "shpss_client_secret",
    otherSecret: "shpss_other_secret",
    sign: (body, _url, _timestamp, secret) => ({ headers: { "x-shopify-hmac-sha256": hmac("sha256", secret, body, "base64"), "x-shopify-topic": "orders/create" } }),
    signatureHeader: "x-shopify-hmac-sha256",
    timestamped: false,
  },
  {
    label: "twilio, a form body (twilio.getExpectedTwilioSignature)",
    scheme: "twilio",
    secret: "12345678901234567890123456789012",
    otherSecret: "00000000001234567890123456789012",
    body: TWILIO_FORM,
    contentType: "application/x-www-form-urlencoded",
    sign: (body, url, _timestamp, secret) => ({ headers: { "x-twilio-signature": twilio.getExpectedTwilioSignature(secret, url, formParams(body)) } }),
    signatureHeader: "x-twilio-signature",
    timestamped: false,
    verify: (body, headers, url, secret) => twilio.validateRequest(secret, headers["X-Twilio-Signature"]!, url, formParams(body)),
  },
  {
    label: "twilio, a JSON body with bodySHA256 (twilio.getExpectedTwilioSignature)",
    scheme: "twilio",
    secret: "12345678901234567890123456789012",
    otherSecret: "00000000001234567890123456789012",
    sign: (body, url, _timestamp, secret) => {
      const signed = new URL(url);
      signed.searchParams.set("bodySHA256", twilio.getExpectedBodyHash(body));
      return { url: signed.href, headers: { "x-twilio-signature": twilio.getExpectedTwilioSignature(secret, signed.href, {}) } };
    },
    signatureHeader: "x-twilio-signature",
    timestamped: false,
  },
  {
    // The service's documented scheme (docs/webhooks.md, the wandb row): hex HMAC-SHA256 of the exact body in X-Wandb-Signature.
    label: "wandb (the training service's documented signature)",
    scheme: "wandb",
    secret: "wandb-secret",
    otherSecret: "wandb-other",
    sign: (body, _url, _timestamp, secret) => ({ headers: { "x-wandb-signature": hmac("sha256", secret, body, "hex") } }),
    signatureHeader: "x-wandb-signature",
    timestamped: false,
  },
  {
    label: "a described hmac: sha512, base64, {id}.{timestamp}.{body}, a prefix and a hex secret",
    scheme: {
      type: "hmac",
      algorithm: "sha512",
      encoding: "base64",
      signedContent: "{id}.{timestamp}.{body}",
      header: "X-Vendor-Signature",
      prefix: "v1=",
      idHeader: "X-Vendor-Id",
      timestampHeader: "X-Vendor-Timestamp",
      secretEncoding: "hex",
    },
    secret: "00112233445566778899aabbccddeeff",
    otherSecret: "ffeeddccbbaa99887766554433221100",
    sign: (body, _url, timestamp, secret) => ({
      headers: {
        "x-vendor-id": "evt_7",
        "x-vendor-timestamp": String(timestamp),
        "x-vendor-signature": "v1=" + hmac("sha512", Buffer.from(secret, "hex"), `evt_7.${timestamp}.${body}`, "base64"),
      },
    }),
    signatureHeader: "x-vendor-signature",
    timestamped: true,
  },
  {
    label: "a described hmac over {url}: sha1, hex",
    scheme: { type: "hmac", algorithm: "sha1", signedContent: "{url}{body}", header: "X-Url-Signature" },
    secret: "url-secret",
    otherSecret: "url-other",
    sign: (body, url, _timestamp, secret) => ({ headers: { "x-url-signature": hmac("sha1", secret, url + body, "hex") } }),
    signatureHeader: "x-url-signature",
    timestamped: false,
  },
];

describe.each(cases)("$label", (c) => {
  const seen: any[] = [];
  let servers: Record<"node" | "fetch", Receiver>;
  const body = c.body ?? PET;
  const headersFor = (signed: Signed) => ({ ...(c.contentType ? { "content-type": c.contentType } : {}), ...signed.headers });
  beforeAll(async () => {
    servers = await receivers(plain, { secret: c.secret, scheme: c.scheme, on: { newPet: (event: any) => void seen.push(event) } });
  });
  afterAll(async () => Promise.all(Object.values(servers).map((s) => s.close())));

  for (const transport of TRANSPORTS) {
    it(`${transport}: the vendor's delivery is accepted; tampered body, another secret, a stale timestamp, no signature header: 401`, async () => {
      const url = servers[transport].url;
      const signed = await c.sign(body, url, now(), c.secret);
      const target = signed.url ?? url;
      expect(await post(target, body, headersFor(signed))).toEqual({ status: 200, body: { ok: true } });
      expect(seen.at(-1)).toMatchObject({ type: "newPet" });
      if (c.contentType) expect(seen.at(-1).payload).toMatchObject({ MessageSid: "SM123", Body: "Hello there", MediaUrl0: ["a", "b"] });
      else expect(seen.at(-1).payload).toEqual({ id: 1, name: "Rex" });

      const tampered = c.contentType ? body.replace("Hello", "Hullo") : body.replace("Rex", "Max");
      expect((await post(target, tampered, headersFor(signed))).status).toBe(401);
      expect((await post(target, body, headersFor(await c.sign(body, url, now(), c.otherSecret)))).status).toBe(401);
      const unsigned = Object.fromEntries(Object.entries(headersFor(signed)).filter(([name]) => name !== c.signatureHeader));
      expect(await post(target, body, unsigned)).toEqual({ status: 401, body: { ok: false, error: "unauthorized" } });
      if (c.timestamped) {
        expect((await post(target, body, headersFor(await c.sign(body, url, now() - 400, c.secret)))).status).toBe(401);
        expect((await post(target, body, headersFor(await c.sign(body, url, now() - 200, c.secret)))).status).toBe(200);
      }
    });
  }

  it("signWebhookDelivery signs what the receiver (and the vendor's library) accepts", async () => {
    const url = servers.node.url;
    const headers: Record<string, string> = await plain.signWebhookDelivery(body, c.secret, { scheme: c.scheme, url });
    if (c.verify) expect(await c.verify(body, headers, url, c.secret)).toBe(true);
    const target = c.label.includes("bodySHA256") ? undefined : url;
    if (target) expect((await post(target, body, { ...(c.contentType ? { "content-type": c.contentType } : {}), ...headers })).status).toBe(200);
  });
});

describe("the vendors' endpoint checks, answered when the scheme is named", () => {
  it("Zoom's endpoint.url_validation: { plainToken, encryptedToken } once the request verified; unsigned: 401; challenge: false: not answered", async () => {
    const secret = "zoom-secret-token";
    const servers = await receivers(zoom, { secret, scheme: "zoom", on: {} });
    const off = await nodeReceiver(zoom.createWebhookNodeListener({ secret, scheme: { type: "zoom", challenge: false }, on: {} }));
    try {
      const body = JSON.stringify({ payload: { plainToken: "qgg8vlvZRS6UYooatFL8Aw" }, event_ts: 1654503849680, event: "endpoint.url_validation" });
      const timestamp = now();
      const headers = v0Headers("x-zm-signature", "x-zm-request-timestamp", body, timestamp, secret);
      // https://developers.zoom.us/docs/api/webhooks/#validate-your-webhook-endpoint
      const expected = { plainToken: "qgg8vlvZRS6UYooatFL8Aw", encryptedToken: hmac("sha256", secret, "qgg8vlvZRS6UYooatFL8Aw", "hex") };
      for (const transport of TRANSPORTS) {
        expect(await post(servers[transport].url, body, headers)).toEqual({ status: 200, body: expected });
        // Answering an unsigned check would sign any text the caller picks with the secret.
        expect((await post(servers[transport].url, body, {})).status).toBe(401);
      }
      expect(await post(off.url, body, headers)).toEqual({ status: 400, body: { ok: false, error: "unknown_event" } });
    } finally {
      await Promise.all([...Object.values(servers), off].map((s) => s.close()));
    }
  });

  it("Slack's url_verification: { challenge } once the request verified", async () => {
    const secret = "8f742231b10e8888abcd99yyyzzz85a5";
    const servers = await receivers(plain, { secret, scheme: "slack", on: {} });
    try {
      // https://api.slack.com/events/url_verification
      const body = JSON.stringify({ token: "Jhj5dZrVaK7ZwHHjRyZWjbDl", challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P", type: "url_verification" });
      const timestamp = now();
      const headers = v0Headers("x-slack-signature", "x-slack-request-timestamp", body, timestamp, secret);
      for (const transport of TRANSPORTS) {
        expect(await post(servers[transport].url, body, headers)).toEqual({ status: 200, body: { challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" } });
        expect((await post(servers[transport].url, body, { ...headers, "x-slack-signature": "v0=" + "0".repeat(64) })).status).toBe(401);
      }
    } finally {
      await Promise.all(Object.values(servers).map((s) => s.close()));
    }
  });
});

describe("Zoom's shape of spec, without edits: events by the body's `event`", () => {
  const secret = "zoom-secret-token";
  const events = ["meeting.started", "meeting.ended", "meeting.participant_joined", "recording.completed"];

  it("generates without warnings; the receiver is told to read `event`", () => {
    expect(group.stderr["webhooks-zoom"]).toBe("");
    expect(group.tsc.output).toBe("");
    expect(zoom.webhookSpec.eventType).toEqual({ in: "body", name: "event" });
  });

  for (const transport of TRANSPORTS) {
    it(`${transport}: Zoom-signed deliveries of each event reach that event's handler`, async () => {
      const seen: string[] = [];
      const on = Object.fromEntries(events.map((name) => [name, (event: { type: string }) => void seen.push(event.type)]));
      const servers = await receivers(zoom, { secret, scheme: "zoom", on });
      try {
        for (const event of [...events].reverse()) {
          const body = JSON.stringify({ event, event_ts: Date.now(), payload: { account_id: "AAAAAABBBB", object: { uuid: "u", id: 1, host_id: "h", topic: "t" } } });
          const timestamp = now();
          const headers = { ...v0Headers("x-zm-signature", "x-zm-request-timestamp", body, timestamp, secret), "x-zm-trackingid": `v=2.0;${event}` };
          expect(await post(servers[transport].url, body, headers)).toEqual({ status: 200, body: { ok: true } });
        }
        expect(seen).toEqual([...events].reverse());
      } finally {
        await Promise.all(Object.values(servers).map((s) => s.close()));
      }
    });
  }

  it("the event is found by the spec, not by the scheme: relayed under Standard Webhooks (the default), each still reaches its handler", async () => {
    const seen: string[] = [];
    const on = Object.fromEntries(events.map((name) => [name, (event: { type: string }) => void seen.push(event.type)]));
    const server = await nodeReceiver(zoom.createWebhookNodeListener({ secret: STANDARD_SECRET, on }));
    try {
      for (const [i, event] of events.entries()) {
        const body = JSON.stringify({ event, event_ts: Date.now(), payload: { account_id: "A", object: { uuid: "u", id: 1, host_id: "h", topic: "t" } } });
        const timestamp = now();
        const signature = new StandardWebhook(STANDARD_SECRET).sign(`msg_${i}`, new Date(timestamp * 1000), body);
        expect((await post(server.url, body, standardHeaders("webhook", `msg_${i}`, timestamp, signature))).status).toBe(200);
      }
      expect(seen).toEqual(events);
    } finally {
      await server.close();
    }
  });

  it("the config's webhooks: { scheme: zoom } makes a plain { secret, on } receiver Zoom's; `webhook test` agrees with it", async () => {
    const dir = tempDir();
    writeFiles(dir, { "specforge.config.json": JSON.stringify({ spec: join(FEATURES, "webhooks-zoom.yaml"), out: "out", outputs: ["webhooks"], webhooks: { scheme: "zoom" } }) });
    const generated = await runCli(["generate"], dir);
    expect(generated.stderr).toBe("");
    expect(readFileSync(join(dir, "out", "webhooks.ts"), "utf8")).toMatch(/"scheme":\s*"zoom"/);
    let got: string | undefined;
    const server = await nodeReceiver(zoom.createWebhookNodeListener({ secret, scheme: "zoom", on: { "meeting.participant_joined": (e: { type: string }) => void (got = e.type) } }));
    try {
      const result = await runBin(["webhook", "test", "--url", server.url, "--event", "meeting.participant_joined", "--secret-env", "S"], dir, { S: secret });
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("signed (zoom: x-zm-signature)");
      expect(got).toBe("meeting.participant_joined");
    } finally {
      await server.close();
    }
  });

  it("a bad scheme in the config is exit 2 naming the field, before anything is read or written", async () => {
    const dir = tempDir();
    writeFiles(dir, { "specforge.config.json": JSON.stringify({ spec: join(FEATURES, "webhooks-zoom.yaml"), out: "out", webhooks: { scheme: { type: "hmac", header: "X-Sig", signedContent: "{timestamp}.{body}" } } }) });
    const result = await runCli(["generate"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("specforge.config.json#/webhooks/scheme: config field `webhooks.scheme`: `signedContent` has {timestamp}: name the header that carries it (`timestampHeader`)");
  });
});

describe("when the spec cannot tell its webhooks apart", () => {
  const spec = [
    "openapi: 3.1.0",
    "info: { title: untold, version: '1' }",
    "webhooks:",
    ...["petAdopted", "petReturned"].flatMap((name) => [
      `  ${name}:`,
      "    post:",
      "      requestBody: { content: { application/json: { schema: { type: object, required: [kind2, id], properties: { kind2: { type: string }, id: { type: integer } } } } } }",
      "      responses: { '200': { description: ok } }",
    ]),
  ].join("\n");

  it("generate warns with each webhook's pointer and the way to say where; eventType tells the receiver", async () => {
    const dir = tempDir();
    writeFiles(dir, { "openapi.yaml": spec });
    // Inside the project, where vitest imports the generated TypeScript from.
    const out = join(group.dir, "untold");
    // The receivers below are told GitHub's scheme: the config carries it.
    writeFiles(dir, { "specforge.config.json": JSON.stringify({ webhooks: { schemes: ["github"] } }) });
    const result = await runCli(["generate", "--spec", join(dir, "openapi.yaml"), "--out", out, "--outputs", "webhooks"], dir);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("openapi.yaml#/webhooks/petAdopted: nothing in the spec tells deliveries of this webhook from the others'");
    expect(result.stderr).toContain("openapi.yaml#/webhooks/petReturned: nothing in the spec tells");
    expect(result.stderr).toContain('`eventType: { in: "body", name: "event" }`');
    const module = (await import(join(out, "index.ts"))) as Generated;
    const secret = "untold-secret";
    const seen: string[] = [];
    const on = { petAdopted: () => void seen.push("petAdopted"), petReturned: () => void seen.push("petReturned") };
    const told = await nodeReceiver(module.createWebhookNodeListener({ secret, scheme: "github", eventType: { in: "body", name: "kind2" }, on }));
    const header = await nodeReceiver(module.createWebhookNodeListener({ secret, scheme: "github", eventType: { in: "header", name: "x-pet-event" }, on }));
    try {
      const body = JSON.stringify({ kind2: "petReturned", id: 1 });
      const signature = { "x-hub-signature-256": await octokitSign(secret, body) };
      expect((await post(told.url, body, signature)).status).toBe(200);
      expect((await post(header.url, body, { ...signature, "x-pet-event": "petAdopted" })).status).toBe(200);
      // Only the place named is read: without the header, the body's kind2 does not count.
      expect(await post(header.url, body, signature)).toEqual({ status: 400, body: { ok: false, error: "unknown_event" } });
      expect(seen).toEqual(["petReturned", "petAdopted"]);
    } finally {
      await Promise.all([told.close(), header.close()]);
    }
  });
});

describe("blank secrets are refused like empty ones", () => {
  for (const secret of [" ", "\t\n", ["whsec_" + Buffer.from("k").toString("base64"), "  "]]) {
    it(`${JSON.stringify(secret)}: a TypeError naming \`secret\` when the receiver is created`, () => {
      expect(() => plain.createWebhookHandler({ secret, on: {} })).toThrow(/webhook `secret` is required \(a non-empty string, not only whitespace/);
      expect(() => plain.createWebhookNodeListener({ secret, scheme: "github", on: {} })).toThrow(/`secret`/);
    });
  }
  it("signing with a blank secret throws, verifying with one is false", async () => {
    await expect(plain.signWebhookDelivery(PET, "   ")).rejects.toThrow(/`secret` must be a non-empty string \(not only whitespace\)/);
    await expect(plain.signWebhookPayload(PET, " ")).rejects.toThrow(/not only whitespace/);
    expect(await plain.verifyWebhookSignature(PET, hmac("sha256", " ", PET, "hex"), " ")).toBe(false);
    expect(() => plain.createWebhookHandler({ secret: "s", accessToken: "  ", on: {} })).toThrow(/`accessToken` must be a non-empty string, not only whitespace/);
  });
});
