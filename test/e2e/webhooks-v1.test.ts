import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  WEBHOOK_EVENT_TYPES,
  WebhookVerificationError,
  checkPayloadTemplate,
  createWebhookHandler,
  parseWebhook,
  renderPayloadTemplate,
  verifyWebhookSignature,
  type WebhookEvent,
  type WebhookHeaders,
} from "../../generated/index.js";
import { ROOT, runBin } from "../helpers.js";

const SECRET = "whsec-test";
const BODY = '{"event_type":"ADD_ARTIFACT_ALIAS"}';
// printf '%s' '{"event_type":"ADD_ARTIFACT_ALIAS"}' | openssl dgst -sha256 -hmac 'whsec-test'
const OPENSSL_HEX = "446e466f2c25ce25602e805a305367c3877bfc9715abd19a12e80e548f4849ef";

describe("generated v1 webhooks", () => {
  it("types each webhook's headers", () => {
    expectTypeOf<WebhookHeaders["ADD_ARTIFACT_ALIAS"]["X-Wandb-Signature"]>().toEqualTypeOf<string>();
  });

  it("lists every event type", () => {
    expect(WEBHOOK_EVENT_TYPES).toContain("LINK_ARTIFACT");
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(13);
  });

  it("verifies hex (openssl vector and node:crypto) and base64 signatures, and rejects tampering", async () => {
    const hex = createHmac("sha256", SECRET).update(BODY).digest("hex");
    const base64 = createHmac("sha256", SECRET).update(BODY).digest("base64");
    expect(hex).toBe(OPENSSL_HEX);
    expect(await verifyWebhookSignature(BODY, OPENSSL_HEX, SECRET)).toBe(true);
    expect(await verifyWebhookSignature(BODY, base64, SECRET)).toBe(true);
    expect(await verifyWebhookSignature(BODY + " ", hex, SECRET)).toBe(false);
    expect(await verifyWebhookSignature(BODY, hex.replace(/.$/, (c) => (c === "0" ? "1" : "0")), SECRET)).toBe(false);
    expect(await verifyWebhookSignature(BODY, hex, "other-secret")).toBe(false);
    expect(await verifyWebhookSignature(BODY, "", SECRET)).toBe(false);
    expect(await verifyWebhookSignature(BODY, hex, "")).toBe(false);
    expect(await verifyWebhookSignature(BODY, "not-hex-or-base64!", SECRET)).toBe(false);
  });

  it("parseWebhook returns the typed event only after verifying signature and token", async () => {
    const payload = JSON.stringify({ event_type: "LINK_MODEL", event_author: "ann", entity_name: "e", project_name: "p", artifact_collection_name: "c", artifact_version: "wandb-artifact://_id/x", artifact_version_string: "e/p/c:v1", artifact_metadata: {} });
    const signature = createHmac("sha256", SECRET).update(payload).digest("hex");
    const headers = { "x-wandb-signature": signature, authorization: "Bearer tok", "content-type": "application/json" };
    const event = await parseWebhook({ body: payload, headers }, { secret: SECRET, accessToken: "tok" });
    expect(event.type).toBe("LINK_ARTIFACT"); // the SDK's wire name LINK_MODEL is the LINK_ARTIFACT event
    if (event.type === "LINK_ARTIFACT") expectTypeOf(event.payload.artifact_collection_name).toEqualTypeOf<string>();
    const bad = await parseWebhook({ body: payload, headers: { ...headers, authorization: "Bearer nope" } }, { secret: SECRET, accessToken: "tok" }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(WebhookVerificationError);
    expect((bad as WebhookVerificationError).reason).toBe("bad_token");
  });

  it("renders the documented payload templates with escaping, and checks templates", () => {
    const rendered = renderPayloadTemplate('{"text": "${event_author} tagged ${tag}", "m": ${artifact_metadata.accuracy}, "t": "${ACCESS_TOKEN}"}', { event_type: "ADD_ARTIFACT_TAG", event_author: 'Ann "A" \\ \n\u2028', tag: "prod", artifact_metadata: { accuracy: 0.9 } }, { ACCESS_TOKEN: "tok" });
    expect(JSON.parse(rendered)).toEqual({ text: 'Ann "A" \\ \n\u2028 tagged prod', m: 0.9, t: "tok" });
    expect(JSON.parse(renderPayloadTemplate('{"a": "${alias}"}', { event_type: "LINK_ARTIFACT", alias: "latest" }))).toEqual({ a: "" });
    expect(checkPayloadTemplate('{"x": "${no_such_variable}"}').problems.map((p) => p.kind)).toEqual(["unknown_variable"]);
    expect(checkPayloadTemplate('{"x": ${event_type}').ok).toBe(false);
  });

  describe("end to end: `specforge webhook test` to a receiver built with createWebhookHandler", () => {
    let server: Server;
    let url = "";
    const received: WebhookEvent[] = [];

    beforeAll(async () => {
      const handle = createWebhookHandler({
        secret: SECRET,
        accessToken: "tok-123",
        on: {
          ADD_ARTIFACT_ALIAS: (event) => {
            received.push(event);
          },
        },
      });
      server = createServer(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const request = new Request(`http://127.0.0.1${req.url}`, {
          method: req.method,
          headers: Object.entries(req.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]])),
          body: req.method === "POST" ? Buffer.concat(chunks) : undefined,
        });
        const response = await handle(request);
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("a signed delivery with the bearer token is accepted and the handler gets the typed event", async () => {
      const result = await runBin(["webhook", "test", "--url", url, "--event", "ADD_ARTIFACT_ALIAS", "--var", "alias=production", "--secret-env", "HOOK_SECRET", "--token-env", "HOOK_TOKEN"], ROOT, { HOOK_SECRET: SECRET, HOOK_TOKEN: "tok-123" });
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/status: 200 OK in \d+ ms/);
      expect(received).toHaveLength(1);
      const event = received[0]!;
      expect(event.type).toBe("ADD_ARTIFACT_ALIAS");
      if (event.type === "ADD_ARTIFACT_ALIAS") expect(event.payload.alias).toBe("production");
    });

    it("a wrong secret is rejected with 401 and exit code 1", async () => {
      const result = await runBin(["webhook", "test", "--url", url, "--event", "ADD_ARTIFACT_ALIAS", "--secret-env", "HOOK_SECRET", "--token-env", "HOOK_TOKEN"], ROOT, { HOOK_SECRET: "wrong", HOOK_TOKEN: "tok-123" });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/status: 401/);
    });

    it("a host that does not answer is a clear error, and only http(s) URLs are accepted", async () => {
      const spare = createServer();
      await new Promise<void>((resolve) => spare.listen(0, "127.0.0.1", resolve));
      const port = (spare.address() as AddressInfo).port;
      await new Promise<void>((resolve) => spare.close(() => resolve()));
      const closed = await runBin(["webhook", "test", "--url", `http://127.0.0.1:${port}/x`, "--timeout", "2000"], ROOT);
      // No reply at all is exit 2 (the receiver is not there), like a reply that stalls; a reply that says no is 1.
      expect(closed.code).toBe(2);
      expect(closed.stderr).toMatch(new RegExp(`POST http://127\\.0\\.0\\.1:${port}/x failed: (ECONNREFUSED|no complete reply)`));
      const ftp = await runBin(["webhook", "test", "--url", "ftp://example.com/x"], ROOT);
      expect(ftp.code).toBe(2);
      expect(ftp.stderr).toMatch(/--url must be http or https/);
    });
  });
});
