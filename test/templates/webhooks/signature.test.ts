import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signWebhookPayload as signLoose, verifyWebhookSignature as verifyLoose } from "../../../templates/webhooks/index.js";
import { signWebhookPayload, verifyWebhookSignature } from "./fixtures/webhooks.js";

// Fixed vectors computed outside the code under test:
//   printf '%s' '{"event_type":"ADD_ARTIFACT_ALIAS","project_name":"demo","alias":"production"}' | openssl dgst -sha256 -hmac 'wandb-webhook-secret'
//   printf '%s' '<same body>' | openssl dgst -sha256 -hmac 'wandb-webhook-secret' -binary | base64
const VECTOR_BODY = '{"event_type":"ADD_ARTIFACT_ALIAS","project_name":"demo","alias":"production"}';
const VECTOR_SECRET = "wandb-webhook-secret";
const VECTOR_HEX = "7888c0c497047c15d609d6345278a12a97ad5013edd279a821561c98c2dea6bd";
const VECTOR_B64 = "eIjAxJcEfBXWCdY0UnihKpetUBPt0nmoIVYcmMLepr0=";
// A digest whose base64 contains '+' (to exercise the URL-safe alphabet):
//   printf '%s' '{"event_type":"LINK_ARTIFACT","project_name":"demo-1"}' | openssl dgst -sha256 -hmac 'wandb-webhook-secret' [-binary | base64]
const VECTOR2_BODY = '{"event_type":"LINK_ARTIFACT","project_name":"demo-1"}';
const VECTOR2_HEX = "5075c1d434a72f56c91b0a00deaf588be2f604c1f35a8c8628514f2748e7fb34";
const VECTOR2_B64 = "UHXB1DSnL1bJGwoA3q9Yi+L2BMHzWoyGKFFPJ0jn+zQ=";

const nodeHmac = (body: string | Buffer, secret: string, enc: "hex" | "base64") =>
  createHmac("sha256", secret).update(body).digest(enc);

describe("verifyWebhookSignature: fixed openssl vectors", () => {
  it("accepts the openssl hex digest", async () => {
    expect(await verifyWebhookSignature(VECTOR_BODY, VECTOR_HEX, VECTOR_SECRET)).toBe(true);
    expect(await verifyWebhookSignature(VECTOR2_BODY, VECTOR2_HEX, VECTOR_SECRET)).toBe(true);
  });

  it("accepts uppercase and mixed-case hex", async () => {
    expect(await verifyWebhookSignature(VECTOR_BODY, VECTOR_HEX.toUpperCase(), VECTOR_SECRET)).toBe(true);
    const mixed = [...VECTOR_HEX].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join("");
    expect(await verifyWebhookSignature(VECTOR_BODY, mixed, VECTOR_SECRET)).toBe(true);
  });

  it("accepts the openssl base64 digest: standard, unpadded, URL-safe", async () => {
    expect(await verifyWebhookSignature(VECTOR_BODY, VECTOR_B64, VECTOR_SECRET)).toBe(true);
    expect(await verifyWebhookSignature(VECTOR_BODY, VECTOR_B64.replace(/=+$/, ""), VECTOR_SECRET)).toBe(true);
    expect(await verifyWebhookSignature(VECTOR2_BODY, VECTOR2_B64, VECTOR_SECRET)).toBe(true);
    const urlSafe = VECTOR2_B64.replace(/\+/g, "-").replace(/\//g, "_");
    expect(urlSafe).toContain("-");
    expect(await verifyWebhookSignature(VECTOR2_BODY, urlSafe, VECTOR_SECRET)).toBe(true);
    expect(await verifyWebhookSignature(VECTOR2_BODY, urlSafe.replace(/=+$/, ""), VECTOR_SECRET)).toBe(true);
  });

  it("tolerates surrounding whitespace in the header value", async () => {
    expect(await verifyWebhookSignature(VECTOR_BODY, `  ${VECTOR_HEX}\t`, VECTOR_SECRET)).toBe(true);
  });

  it("accepts every body representation of the same bytes", async () => {
    const bytes = new TextEncoder().encode(VECTOR_BODY);
    expect(await verifyWebhookSignature(bytes, VECTOR_HEX, VECTOR_SECRET)).toBe(true);
    expect(await verifyWebhookSignature(bytes.buffer, VECTOR_HEX, VECTOR_SECRET)).toBe(true);
    expect(await verifyWebhookSignature(Buffer.from(VECTOR_BODY), VECTOR_HEX, VECTOR_SECRET)).toBe(true);
    // A view into a larger buffer (as Node's pooled Buffers are) must hash only its own bytes.
    const big = Buffer.concat([Buffer.from("xxxx"), Buffer.from(VECTOR_BODY), Buffer.from("yyyy")]);
    expect(await verifyWebhookSignature(big.subarray(4, 4 + VECTOR_BODY.length), VECTOR_HEX, VECTOR_SECRET)).toBe(true);
  });
});

describe("verifyWebhookSignature: node:crypto vectors", () => {
  const bodies = [
    "{}",
    '{"text":"caf\u00e9 \u2028 \ud83d\ude80 \\"quoted\\""}',
    JSON.stringify({ event_type: "RUN_STATE", run_state: "FINISHED", n: Array.from({ length: 500 }, (_, i) => i) }),
    "",
  ];
  const secrets = ["s", "a much longer secret with spaces and ünïcödé", "x".repeat(200)];

  it.each(bodies.flatMap((body) => secrets.map((secret) => [body, secret] as const)))(
    "hex and base64 agree with createHmac (%#)",
    async (body, secret) => {
      expect(await verifyWebhookSignature(body, nodeHmac(body, secret, "hex"), secret)).toBe(true);
      expect(await verifyWebhookSignature(body, nodeHmac(body, secret, "base64"), secret)).toBe(true);
      expect(await signWebhookPayload(body, secret)).toBe(nodeHmac(body, secret, "hex"));
      expect(await signWebhookPayload(body, secret, "base64")).toBe(nodeHmac(body, secret, "base64"));
    },
  );

  it("verifies raw binary bodies (non-UTF-8 bytes)", async () => {
    const raw = Buffer.from([0xff, 0x00, 0xfe, 0x80, 0x7b, 0x7d]);
    expect(await verifyWebhookSignature(raw, nodeHmac(raw, "k", "hex"), "k")).toBe(true);
    expect(await verifyWebhookSignature(new Uint8Array(raw), nodeHmac(raw, "k", "base64"), "k")).toBe(true);
  });
});

describe("verifyWebhookSignature: rejections", () => {
  const good = nodeHmac(VECTOR_BODY, VECTOR_SECRET, "hex");

  it("rejects a tampered body", async () => {
    expect(await verifyWebhookSignature(VECTOR_BODY.replace("production", "producti0n"), good, VECTOR_SECRET)).toBe(false);
    expect(await verifyWebhookSignature(VECTOR_BODY + " ", good, VECTOR_SECRET)).toBe(false);
    expect(await verifyWebhookSignature(VECTOR_BODY + " ", VECTOR_B64, VECTOR_SECRET)).toBe(false);
  });

  it("rejects a tampered signature (each position)", async () => {
    for (const i of [0, 17, 63]) {
      const flipped = good.slice(0, i) + (good[i] === "0" ? "1" : "0") + good.slice(i + 1);
      expect(await verifyWebhookSignature(VECTOR_BODY, flipped, VECTOR_SECRET)).toBe(false);
    }
    const b64 = VECTOR_B64.slice(0, 10) + (VECTOR_B64[10] === "A" ? "B" : "A") + VECTOR_B64.slice(11);
    expect(await verifyWebhookSignature(VECTOR_BODY, b64, VECTOR_SECRET)).toBe(false);
  });

  it("rejects the wrong secret", async () => {
    expect(await verifyWebhookSignature(VECTOR_BODY, good, "wandb-webhook-secreT")).toBe(false);
    expect(await verifyWebhookSignature(VECTOR_BODY, VECTOR_B64, "other")).toBe(false);
  });

  it("returns false (never throws) for missing, empty or malformed signatures", async () => {
    const bad: Array<string | null | undefined> = [
      undefined,
      null,
      "",
      "   ",
      "zz" + good.slice(2), // not hex, wrong base64 length
      good.slice(0, 62), // truncated
      good + "00", // too long
      "sha256=" + good, // unexpected prefix
      VECTOR_B64.slice(0, 20) + "==" + VECTOR_B64.slice(22), // padding in the middle
      VECTOR_B64 + "=", // too much padding
      VECTOR_B64.replace("=", "") + "A", // 44 chars of data: 33 bytes
      "not a signature at all",
      good.replace(/./g, "é"),
    ];
    for (const signature of bad) {
      expect(await verifyWebhookSignature(VECTOR_BODY, signature, VECTOR_SECRET)).toBe(false);
    }
    // A non-string from untyped callers.
    expect(await verifyWebhookSignature(VECTOR_BODY, 42 as unknown as string, VECTOR_SECRET)).toBe(false);
    expect(await verifyWebhookSignature(42 as unknown as string, good, VECTOR_SECRET)).toBe(false);
  });

  it("returns false for an empty secret, even with the empty-key HMAC", async () => {
    const emptyKey = nodeHmac(VECTOR_BODY, "", "hex");
    expect(await verifyWebhookSignature(VECTOR_BODY, emptyKey, "")).toBe(false);
    expect(await verifyWebhookSignature(VECTOR_BODY, good, "")).toBe(false);
    expect(await verifyWebhookSignature(VECTOR_BODY, good, undefined as unknown as string)).toBe(false);
  });

  it("only accepts the encodings listed in acceptEncodings", async () => {
    const hexOnly = { acceptEncodings: ["hex"] } as const;
    expect(await verifyWebhookSignature(VECTOR_BODY, VECTOR_HEX, VECTOR_SECRET, { signature: hexOnly })).toBe(true);
    expect(await verifyWebhookSignature(VECTOR_BODY, VECTOR_B64, VECTOR_SECRET, { signature: hexOnly })).toBe(false);
    const b64Only = { acceptEncodings: ["base64"] } as const;
    expect(await verifyWebhookSignature(VECTOR_BODY, VECTOR_HEX, VECTOR_SECRET, { signature: b64Only })).toBe(false);
    expect(await verifyWebhookSignature(VECTOR_BODY, VECTOR_B64, VECTOR_SECRET, { signature: b64Only })).toBe(true);
  });
});

describe("signature prefix (GitHub style) and the spec-less helpers", () => {
  const github = { header: "X-Hub-Signature-256", prefix: "sha256=", encoding: "hex" } as const;

  it("requires and strips the prefix", async () => {
    const sig = "sha256=" + nodeHmac(VECTOR_BODY, VECTOR_SECRET, "hex");
    expect(await verifyLoose(VECTOR_BODY, sig, VECTOR_SECRET, github)).toBe(true);
    expect(await verifyLoose(VECTOR_BODY, "SHA256=" + VECTOR_HEX, VECTOR_SECRET, github)).toBe(true);
    expect(await verifyLoose(VECTOR_BODY, VECTOR_HEX, VECTOR_SECRET, github)).toBe(false);
    expect(await verifyLoose(VECTOR_BODY, "sha256=", VECTOR_SECRET, github)).toBe(false);
    expect(await verifyLoose(VECTOR_BODY, "sha1=" + VECTOR_HEX, VECTOR_SECRET, github)).toBe(false);
  });

  it("signs with the prefix so sign/verify round-trip", async () => {
    const sig = await signLoose(VECTOR_BODY, VECTOR_SECRET, undefined, github);
    expect(sig).toBe("sha256=" + VECTOR_HEX);
    expect(await verifyLoose(VECTOR_BODY, sig, VECTOR_SECRET, github)).toBe(true);
  });

  it("defaults without a spec: hex signing, hex or base64 accepted", async () => {
    expect(await signLoose(VECTOR_BODY, VECTOR_SECRET)).toBe(VECTOR_HEX);
    expect(await signLoose(VECTOR_BODY, VECTOR_SECRET, "base64")).toBe(VECTOR_B64);
    expect(await verifyLoose(VECTOR_BODY, VECTOR_HEX, VECTOR_SECRET)).toBe(true);
    expect(await verifyLoose(VECTOR_BODY, VECTOR_B64, VECTOR_SECRET)).toBe(true);
  });

  it("signing refuses an empty secret", async () => {
    await expect(signLoose(VECTOR_BODY, "")).rejects.toThrow(TypeError);
  });

  it("keeps working past the key cache size (eviction)", async () => {
    for (let i = 0; i < 40; i++) {
      const secret = `secret-${i}`;
      expect(await verifyLoose(VECTOR_BODY, nodeHmac(VECTOR_BODY, secret, "hex"), secret)).toBe(true);
    }
    expect(await verifyLoose(VECTOR_BODY, VECTOR_HEX, VECTOR_SECRET)).toBe(true);
  });
});
