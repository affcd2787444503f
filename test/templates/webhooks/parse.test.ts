import { createHmac, generateKeyPairSync, sign as cryptoSign, verify as cryptoVerify, type KeyObject } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  createWebhookTools,
  isWebhookVerificationError,
  WebhookVerificationError as RuntimeError,
} from "../../../templates/webhooks/index.js";
import type { WebhookFailureReason } from "../../../templates/webhooks/index.js";
import { parseWebhook, WebhookVerificationError } from "./fixtures/webhooks.js";
import { ALL_SCHEMES } from "../../../src/emit/webhook-schemes.js";

const SECRET = "wandb-webhook-secret";
const TOKEN = "access-token-123";
const sign = (body: string | Buffer, enc: "hex" | "base64" = "hex", secret = SECRET) =>
  createHmac("sha256", secret).update(body).digest(enc);

const aliasBody = JSON.stringify({ event_type: "ADD_ARTIFACT_ALIAS", project_name: "demo", entity_name: "team", alias: "prod" });

function request(body: BodyInit | null, headers: Record<string, string>, method = "POST"): Request {
  return new Request("http://localhost/webhooks", { method, body, headers });
}

async function reason(promise: Promise<unknown>): Promise<WebhookFailureReason> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toBeInstanceOf(Error);
    return (error as WebhookVerificationError).reason;
  }
  throw new Error("expected a WebhookVerificationError");
}

describe("parseWebhook with a Request", () => {
  it("returns the verified, typed event", async () => {
    const event = await parseWebhook(
      request(aliasBody, { "content-type": "application/json", "X-Wandb-Signature": sign(aliasBody) }),
      { secret: SECRET },
    );
    expect(event.type).toBe("ADD_ARTIFACT_ALIAS");
    expect(event.payload).toEqual(JSON.parse(aliasBody));
    expect(event.headers.get("x-wandb-signature")).toBe(sign(aliasBody));
    if (event.type === "ADD_ARTIFACT_ALIAS") expect(event.payload.alias).toBe("prod");
  });

  it("accepts a base64 signature and the bearer token together", async () => {
    const event = await parseWebhook(
      request(aliasBody, { "x-wandb-signature": sign(aliasBody, "base64"), authorization: `Bearer ${TOKEN}` }),
      { secret: SECRET, accessToken: TOKEN },
    );
    expect(event.type).toBe("ADD_ARTIFACT_ALIAS");
  });

  it("maps alternative wire values to the declared event (LINK_MODEL → LINK_ARTIFACT)", async () => {
    const body = JSON.stringify({ event_type: "LINK_MODEL", project_name: "p", artifact_collection_name: "c" });
    const event = await parseWebhook(request(body, { "x-wandb-signature": sign(body) }), { secret: SECRET });
    expect(event.type).toBe("LINK_ARTIFACT");
  });

  it("reads a streamed body without Content-Length", async () => {
    const bytes = new TextEncoder().encode(aliasBody);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 10));
        controller.enqueue(bytes.slice(10));
        controller.close();
      },
    });
    const req = new Request("http://localhost/", {
      method: "POST",
      body: stream,
      headers: { "x-wandb-signature": sign(aliasBody) },
      duplex: "half",
    } as RequestInit);
    expect((await parseWebhook(req, { secret: SECRET })).type).toBe("ADD_ARTIFACT_ALIAS");
  });

  it("reason missing_signature: header absent or empty", async () => {
    expect(await reason(parseWebhook(request(aliasBody, {}), { secret: SECRET }))).toBe("missing_signature");
    expect(await reason(parseWebhook(request(aliasBody, { "x-wandb-signature": " " }), { secret: SECRET }))).toBe(
      "missing_signature",
    );
  });

  it("reason bad_signature: tampered body, wrong secret, malformed", async () => {
    const tampered = aliasBody.replace("prod", "dev!");
    expect(await reason(parseWebhook(request(tampered, { "x-wandb-signature": sign(aliasBody) }), { secret: SECRET }))).toBe(
      "bad_signature",
    );
    expect(
      await reason(parseWebhook(request(aliasBody, { "x-wandb-signature": sign(aliasBody, "hex", "other") }), { secret: SECRET })),
    ).toBe("bad_signature");
    expect(await reason(parseWebhook(request(aliasBody, { "x-wandb-signature": "garbage" }), { secret: SECRET }))).toBe(
      "bad_signature",
    );
    // An explicitly empty secret is a mistake (an unset environment variable), not "skip verification".
    await expect(parseWebhook(request(aliasBody, { "x-wandb-signature": sign(aliasBody, "hex", "") }), { secret: "" })).rejects.toThrow(
      /secret/,
    );
  });

  it("reason bad_token: missing, wrong, wrong scheme, empty presented token", async () => {
    const sig = { "x-wandb-signature": sign(aliasBody) };
    const cases: Array<[Record<string, string>, string]> = [
      [sig, TOKEN],
      [{ ...sig, authorization: "Bearer wrong-token" }, TOKEN],
      [{ ...sig, authorization: `Basic ${TOKEN}` }, TOKEN],
      [{ ...sig, authorization: TOKEN }, TOKEN],
      [{ ...sig, authorization: `Bearer ${TOKEN}x` }, TOKEN],
      [{ ...sig, authorization: "Bearer " }, TOKEN],
    ];
    for (const [headers, accessToken] of cases) {
      expect(await reason(parseWebhook(request(aliasBody, headers), { secret: SECRET, accessToken }))).toBe("bad_token");
    }
    // An empty configured token is a mistake, refused before any delivery is looked at.
    await expect(parseWebhook(request(aliasBody, { ...sig, authorization: "Bearer " }), { secret: SECRET, accessToken: "" })).rejects.toThrow(
      TypeError,
    );
    // Scheme is case-insensitive; token-only receivers are supported when they opt out of signatures.
    const ok = await parseWebhook(request(aliasBody, { authorization: `bearer ${TOKEN}` }), { accessToken: TOKEN, insecureNoSignature: true });
    expect(ok.type).toBe("ADD_ARTIFACT_ALIAS");
  });

  it("reason bad_json: invalid JSON or invalid UTF-8, only after the signature passed", async () => {
    const notJson = '{"event_type": "ADD_ARTIFACT_ALIAS",';
    expect(await reason(parseWebhook(request(notJson, { "x-wandb-signature": sign(notJson) }), { secret: SECRET }))).toBe(
      "bad_json",
    );
    const badUtf8 = Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]); // {"\xff":1}
    expect(
      await reason(parseWebhook(request(new Uint8Array(badUtf8), { "x-wandb-signature": sign(badUtf8) }), { secret: SECRET })),
    ).toBe("bad_json");
    // Unsigned garbage is a signature failure, not a JSON failure: nothing is parsed before verification.
    expect(await reason(parseWebhook(request(notJson, { "x-wandb-signature": sign("{}") }), { secret: SECRET }))).toBe(
      "bad_signature",
    );
  });

  it("reason unknown_event: undeclared, missing, non-string event type, non-object body", async () => {
    for (const payload of [{ event_type: "DELETE_EVERYTHING" }, { project_name: "p" }, { event_type: 7 }, ["ADD_ARTIFACT_ALIAS"], "x"]) {
      const body = JSON.stringify(payload);
      expect(await reason(parseWebhook(request(body, { "x-wandb-signature": sign(body) }), { secret: SECRET }))).toBe(
        "unknown_event",
      );
    }
    // Prototype keys are not events.
    const proto = JSON.stringify({ event_type: "constructor" });
    expect(await reason(parseWebhook(request(proto, { "x-wandb-signature": sign(proto) }), { secret: SECRET }))).toBe(
      "unknown_event",
    );
  });

  it("reason body_too_large: by Content-Length and by counting", async () => {
    const big = JSON.stringify({ event_type: "RUN_STATE", pad: "x".repeat(2000) });
    const withLength = request(big, { "x-wandb-signature": sign(big), "content-length": String(big.length) });
    expect(await reason(parseWebhook(withLength, { secret: SECRET, maxBodyBytes: 1000 }))).toBe("body_too_large");
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const streamed = new Request("http://localhost/", {
      method: "POST",
      body: stream,
      headers: { "x-wandb-signature": sign(big) },
      duplex: "half",
    } as RequestInit);
    expect(await reason(parseWebhook(streamed, { secret: SECRET, maxBodyBytes: 1000 }))).toBe("body_too_large");
    // The limit is inclusive.
    const exact = request(big, { "x-wandb-signature": sign(big) });
    expect((await parseWebhook(exact, { secret: SECRET, maxBodyBytes: big.length })).type).toBe("RUN_STATE");
  });
});

describe("parseWebhook with { body, headers }", () => {
  it("accepts plain-object headers case-insensitively (Node IncomingMessage style)", async () => {
    const event = await parseWebhook(
      { body: aliasBody, headers: { "X-WANDB-SIGNATURE": sign(aliasBody), Authorization: `Bearer ${TOKEN}`, "x-skip": undefined } },
      { secret: SECRET, accessToken: TOKEN },
    );
    expect(event.type).toBe("ADD_ARTIFACT_ALIAS");
    expect(event.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
  });

  it("accepts string[] header values and byte bodies", async () => {
    const bytes = Buffer.from(aliasBody);
    const event = await parseWebhook({ body: bytes, headers: { "x-wandb-signature": [sign(aliasBody)] } }, { secret: SECRET });
    expect(event.type).toBe("ADD_ARTIFACT_ALIAS");
    const ab = new TextEncoder().encode(aliasBody).buffer;
    const event2 = await parseWebhook({ body: ab, headers: new Headers({ "x-wandb-signature": sign(aliasBody) }) }, { secret: SECRET });
    expect(event2.payload).toEqual(JSON.parse(aliasBody));
  });

  it("covers every reason code", async () => {
    const h = (extra: Record<string, string> = {}) => ({ "x-wandb-signature": sign(aliasBody), ...extra });
    const parse = (body: string, headers: Record<string, string>, opts: Record<string, unknown> = {}) =>
      reason(parseWebhook({ body, headers }, { secret: SECRET, ...opts }));
    expect(await parse(aliasBody, {})).toBe("missing_signature");
    expect(await parse(aliasBody + "\n", h())).toBe("bad_signature");
    expect(await parse(aliasBody, h({ authorization: "Bearer nope" }), { accessToken: TOKEN })).toBe("bad_token");
    const bad = "{oops";
    expect(await parse(bad, { "x-wandb-signature": sign(bad) })).toBe("bad_json");
    const unknown = '{"event_type":"NOPE"}';
    expect(await parse(unknown, { "x-wandb-signature": sign(unknown) })).toBe("unknown_event");
    expect(await parse(aliasBody, h(), { maxBodyBytes: 10 })).toBe("body_too_large");
  });

  it("throws TypeError (not a verification error) on misuse", async () => {
    await expect(parseWebhook({ body: aliasBody, headers: {} }, {} as never)).rejects.toThrow(TypeError);
    await expect(
      parseWebhook({ body: aliasBody, headers: { "x-wandb-signature": sign(aliasBody) } }, { secret: SECRET, maxBodyBytes: -1 }),
    ).rejects.toThrow(TypeError);
    const used = request(aliasBody, { "x-wandb-signature": sign(aliasBody) });
    await used.text();
    await expect(parseWebhook(used, { secret: SECRET })).rejects.toThrow(TypeError);
  });
});

describe("WebhookVerificationError", () => {
  it("is the same class from the generated module and the runtime, with status codes", () => {
    expect(WebhookVerificationError).toBe(RuntimeError);
    const e = new WebhookVerificationError("bad_token");
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("WebhookVerificationError");
    expect([e.reason, e.status]).toEqual(["bad_token", 401]);
    expect(new WebhookVerificationError("bad_json").status).toBe(400);
    expect(new WebhookVerificationError("unknown_event").status).toBe(400);
    expect(new WebhookVerificationError("body_too_large").status).toBe(413);
    expect(isWebhookVerificationError(e)).toBe(true);
    expect(isWebhookVerificationError(new Error("x"))).toBe(false);
  });
});

describe("specs without the x-webhook extensions", () => {
  it("GitHub style: event in a header, sha256= prefix, action conditions", async () => {
    type Events = {
      "issues-opened": { action: "opened"; issue: { number: number } };
      "issues-closed": { action: "closed"; issue: { number: number } };
      push: { ref: string };
    };
    const tools = createWebhookTools<Events>({
      signature: { header: "X-Hub-Signature-256", prefix: "sha256=", encoding: "hex" },
      eventType: { in: "header", name: "X-GitHub-Event" },
      events: [
        { name: "issues-opened", values: ["issues"], when: { action: "opened" } },
        { name: "issues-closed", values: ["issues"], when: { action: "closed" } },
        "push",
      ],
    }, ALL_SCHEMES);
    const body = JSON.stringify({ action: "closed", issue: { number: 1 } });
    const headers = { "x-github-event": "issues", "x-hub-signature-256": "sha256=" + sign(body) };
    const event = await tools.parse({ body, headers }, { secret: SECRET });
    expect(event.type).toBe("issues-closed");
    const push = JSON.stringify({ ref: "refs/heads/main" });
    const pushEvent = await tools.parse(
      { body: push, headers: { "x-github-event": "push", "x-hub-signature-256": await tools.sign(push, SECRET) } },
      { secret: SECRET },
    );
    expect(pushEvent.type).toBe("push");
    const reopened = JSON.stringify({ action: "reopened", issue: { number: 1 } });
    expect(
      await reason(
        tools.parse({ body: reopened, headers: { "x-github-event": "issues", "x-hub-signature-256": "sha256=" + sign(reopened) } }, {
          secret: SECRET,
        }),
      ),
    ).toBe("unknown_event");
    // Without the prefix the signature does not verify.
    expect(await reason(tools.parse({ body, headers: { ...headers, "x-hub-signature-256": sign(body) } }, { secret: SECRET }))).toBe(
      "bad_signature",
    );
  });

  it("no signature config: Standard Webhooks by default, an HMAC header of your own by option", async () => {
    type Events = { "batch_cancelled": { type: "batch.cancelled"; data: { id: string } }; "batch_completed": { type: "batch.completed" } };
    const tools = createWebhookTools<Events>({
      events: [
        { name: "batch_cancelled", values: ["batch.cancelled"] },
        { name: "batch_completed", values: ["batch.completed"] },
      ],
    }, ALL_SCHEMES);
    const body = JSON.stringify({ type: "batch.cancelled", data: { id: "b1" } });
    const whsec = "whsec_" + Buffer.from("k".repeat(24)).toString("base64");
    const headers = await tools.signDelivery(body, whsec);
    expect(Object.keys(headers).sort()).toEqual(["webhook-id", "webhook-signature", "webhook-timestamp"]);
    expect((await tools.parse({ body, headers }, { secret: whsec })).type).toBe("batch_cancelled");
    // A body HMAC in a header of your own is `scheme: { type: "hmac-sha256", header }`; the body `type` still names the event.
    const event = await tools.parse({ body, headers: { "x-signature": sign(body) } }, { secret: SECRET, scheme: { type: "hmac-sha256", header: "X-Signature" } });
    expect(event.type).toBe("batch_cancelled");
    // …and so does the older `signature` option.
    expect((await tools.parse({ body, headers: { "x-signature": sign(body) } }, { secret: SECRET, signature: { header: "X-Signature" } })).type).toBe(
      "batch_cancelled",
    );
    // verifySignature needs no header at all.
    expect(await tools.verifySignature(body, sign(body, "base64"), SECRET)).toBe(true);
  });

  it("no eventType config: body `type`, then `event_type`, then the only declared event", async () => {
    const one = createWebhookTools<{ newPet: { id: number; name: string } }>({ signature: { header: "x-sig" }, events: ["newPet"] }, ALL_SCHEMES);
    const pet = JSON.stringify({ id: 1, name: "Rex" });
    expect((await one.parse({ body: pet, headers: { "x-sig": sign(pet) } }, { secret: SECRET })).type).toBe("newPet");

    const two = createWebhookTools<{ A: unknown; B: unknown }>({ signature: { header: "x-sig" }, events: ["A", "B"] }, ALL_SCHEMES);
    const b = JSON.stringify({ event_type: "B" });
    expect((await two.parse({ body: b, headers: { "x-sig": sign(b) } }, { secret: SECRET })).type).toBe("B");
    const none = JSON.stringify({ id: 1 });
    expect(await reason(two.parse({ body: none, headers: { "x-sig": sign(none) } }, { secret: SECRET }))).toBe("unknown_event");

    // The only event still has to meet its conditions: a GitHub-style spec with just `issues-opened`.
    const github = createWebhookTools<{ "issues-opened": unknown }>({ events: [{ name: "issues-opened", values: ["issues"], when: { action: "opened" } }] }, ALL_SCHEMES);
    const closed = JSON.stringify({ action: "closed" });
    const headers = { "x-github-event": "issues", "x-hub-signature-256": "sha256=" + sign(closed) };
    expect(await reason(github.parse({ body: closed, headers }, { secret: SECRET, scheme: "github" }))).toBe("unknown_event");
  });

  it("rejects unsupported signature algorithms when the tools are created", () => {
    expect(() =>
      createWebhookTools<{ A: unknown }>({ signature: { algorithm: "hmac-sha1" as never }, events: ["A"] }, ALL_SCHEMES),
    ).toThrow(/hmac-sha256/);
  });

  it("custom auth header with scheme none (raw token)", async () => {
    const tools = createWebhookTools<{ A: unknown }>({ auth: { scheme: "none", header: "X-Gitlab-Token" }, events: ["A"] }, ALL_SCHEMES);
    const body = "{}";
    const options = { accessToken: TOKEN, insecureNoSignature: true } as const;
    expect((await tools.parse({ body, headers: { "x-gitlab-token": TOKEN } }, options)).type).toBe("A");
    expect(await reason(tools.parse({ body, headers: { "x-gitlab-token": "nope" } }, options))).toBe("bad_token");
  });
});

describe("Standard Webhooks asymmetric signatures (v1a, Ed25519)", () => {
  type Events = { "batch_completed": { type: "batch.completed"; data: { id: string } } };
  const tools = createWebhookTools<Events>({ scheme: "standard-webhooks", events: [{ name: "batch_completed", values: ["batch.completed"] }] }, ALL_SCHEMES);
  const body = JSON.stringify({ type: "batch.completed", data: { id: "b1" } });

  /** A sender's key pair as Standard Webhooks writes it: whsk_ (the 32-byte seed) and whpk_ (the 32-byte public key). */
  function keyPair() {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const seed = (privateKey.export({ format: "der", type: "pkcs8" }) as Buffer).subarray(-32);
    const raw = (publicKey.export({ format: "der", type: "spki" }) as Buffer).subarray(-32);
    return { privateKey, publicKey, whsk: "whsk_" + seed.toString("base64"), whsk64: "whsk_" + Buffer.concat([seed, raw]).toString("base64"), whpk: "whpk_" + raw.toString("base64") };
  }
  /** The headers a Standard Webhooks sender puts on `body`, signed with node:crypto (not the runtime under test). */
  function signed(privateKey: KeyObject, id = "msg_1", timestamp = Math.floor(Date.now() / 1000), text = body) {
    const signature = cryptoSign(null, Buffer.from(`${id}.${timestamp}.${text}`), privateKey).toString("base64");
    return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": `v1a,${signature}` };
  }

  it("a v1a signature verifies with the sender's whpk_ public key; another key's, a tampered body or an old timestamp do not", async () => {
    const sender = keyPair();
    const event = await tools.parse({ body, headers: signed(sender.privateKey) }, { secret: sender.whpk });
    expect(event.type).toBe("batch_completed");
    expect(event.deliveryId).toBe("msg_1");
    const other = keyPair();
    expect(await reason(tools.parse({ body, headers: signed(other.privateKey) }, { secret: sender.whpk }))).toBe("bad_signature");
    expect(await reason(tools.parse({ body: body.replace("b1", "b2"), headers: signed(sender.privateKey) }, { secret: sender.whpk }))).toBe("bad_signature");
    // The id and timestamp are signed: another id does not verify.
    const headers = signed(sender.privateKey);
    expect(await reason(tools.parse({ body, headers: { ...headers, "webhook-id": "msg_2" } }, { secret: sender.whpk }))).toBe("bad_signature");
    expect(await reason(tools.parse({ body, headers: signed(sender.privateKey, "msg_1", Math.floor(Date.now() / 1000) - 3600) }, { secret: sender.whpk }))).toBe(
      "bad_timestamp",
    );
  });

  it("v1 and v1a side by side (rotation from a shared secret to a key pair): either key verifies its own signature", async () => {
    const sender = keyPair();
    const whsec = "whsec_" + Buffer.from("rotation-secret-rotation").toString("base64");
    const v1 = await tools.signDelivery(body, whsec, { id: "msg_9", timestamp: Math.floor(Date.now() / 1000) });
    const v1a = signed(sender.privateKey, "msg_9", Number(v1["webhook-timestamp"]));
    const headers = { ...v1, "webhook-signature": `${v1["webhook-signature"]} ${v1a["webhook-signature"]}` };
    expect((await tools.parse({ body, headers }, { secret: sender.whpk })).type).toBe("batch_completed");
    expect((await tools.parse({ body, headers }, { secret: whsec })).type).toBe("batch_completed");
    expect((await tools.parse({ body, headers }, { secret: [whsec, sender.whpk] })).type).toBe("batch_completed");
    // Only a v1a signature, and only the shared secret: nothing verifies it.
    expect(await reason(tools.parse({ body, headers: v1a }, { secret: whsec }))).toBe("bad_signature");
  });

  it("signDelivery with a whsk_ secret key signs v1a, which node:crypto verifies with the public key", async () => {
    const sender = keyPair();
    for (const secret of [sender.whsk, sender.whsk64]) {
      const headers = await tools.signDelivery(body, secret, { id: "msg_3", timestamp: 1_700_000_000 });
      const [version, signature] = headers["webhook-signature"]!.split(",") as [string, string];
      expect(version).toBe("v1a");
      expect(cryptoVerify(null, Buffer.from(`msg_3.1700000000.${body}`), sender.publicKey, Buffer.from(signature, "base64"))).toBe(true);
    }
    // A receiver given the secret key also verifies (Ed25519 signatures are deterministic).
    expect((await tools.parse({ body, headers: await tools.signDelivery(body, sender.whsk) }, { secret: sender.whsk })).type).toBe("batch_completed");
  });

  it("malformed keys are refused when the receiver is made, and a public key cannot sign", async () => {
    await expect(tools.parse({ body, headers: {} }, { secret: "whpk_" + Buffer.alloc(31).toString("base64") })).rejects.toThrow(/`whpk_` followed by the 32-byte Ed25519 key/);
    await expect(tools.parse({ body, headers: {} }, { secret: "whsk_not base64" })).rejects.toThrow(/`whsk_` followed by the Ed25519 secret key/);
    await expect(tools.signDelivery(body, keyPair().whpk)).rejects.toThrow(/signing one needs the secret key/);
  });
});
