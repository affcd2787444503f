import { createHmac } from "node:crypto";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from "vitest";
import { createWebhookHandler, WebhookVerificationError } from "./fixtures/webhooks.js";
import type { WebhookEvent, WebhookEvents } from "./fixtures/webhooks.js";
import { serve } from "./node-adapter.js";
import type { TestServer } from "./node-adapter.js";

const SECRET = "wandb-webhook-secret";
const TOKEN = "tok_live_abc";
const MiB = 1024 * 1024;
const sign = (body: string | Buffer) => createHmac("sha256", SECRET).update(body).digest("hex");

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** POSTs with node:http so tests control Content-Length / chunking exactly. */
function send(
  url: string,
  body: string | Buffer | Buffer[] | undefined,
  headers: Record<string, string> = {},
  method = "POST",
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on("error", reject);
    });
    req.on("error", reject);
    if (Array.isArray(body)) {
      // Chunked transfer: no Content-Length, the handler must count.
      for (const chunk of body) req.write(chunk);
      req.end();
    } else {
      req.end(body);
    }
  });
}

const signed = (body: string, extra: Record<string, string> = {}) => ({
  "content-type": "application/json",
  "x-wandb-signature": sign(body),
  authorization: `Bearer ${TOKEN}`,
  ...extra,
});

const aliasBody = JSON.stringify({ event_type: "ADD_ARTIFACT_ALIAS", project_name: "demo", entity_name: "team", alias: "prod" });
const runBody = JSON.stringify({ event_type: "RUN_STATE", project_name: "demo", run_state: "FINISHED" });

describe("createWebhookHandler on a real node:http server", () => {
  let server: TestServer;
  const received: WebhookEvent[] = [];
  const onError = vi.fn();
  const onReject = vi.fn();

  beforeAll(async () => {
    const handler = createWebhookHandler({
      secret: SECRET,
      accessToken: TOKEN,
      on: {
        ADD_ARTIFACT_ALIAS: (event) => {
          expectTypeOf(event.type).toEqualTypeOf<"ADD_ARTIFACT_ALIAS">();
          expectTypeOf(event.payload).toEqualTypeOf<WebhookEvents["ADD_ARTIFACT_ALIAS"]>();
          expectTypeOf(event.payload.alias).toEqualTypeOf<string>();
          received.push(event);
        },
        LINK_ARTIFACT: async (event) => {
          await Promise.resolve();
          if (event.payload.artifact_collection_name === "boom") throw new Error("handler failed: secret detail");
          return new Response(JSON.stringify({ queued: event.payload.artifact_collection_name }), {
            status: 202,
            headers: { "content-type": "application/json" },
          });
        },
        // RUN_STATE has no handler: acknowledged with 200 and ignored.
      },
      onError,
      onReject,
    });
    server = await serve(handler);
  });

  afterAll(async () => {
    await server.close();
  });

  it("200 {ok:true} after the handler ran, with the typed event", async () => {
    const reply = await send(server.url, aliasBody, signed(aliasBody));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({ ok: true });
    expect(reply.headers["content-type"]).toBe("application/json");
    const event = received.at(-1)!;
    expect(event.type).toBe("ADD_ARTIFACT_ALIAS");
    expect(event.payload).toEqual(JSON.parse(aliasBody));
    expect(event.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
  });

  it("returns the handler's own Response", async () => {
    const body = JSON.stringify({ event_type: "LINK_MODEL", project_name: "p", artifact_collection_name: "models" });
    const reply = await send(server.url, body, signed(body));
    expect(reply.status).toBe(202);
    expect(JSON.parse(reply.body)).toEqual({ queued: "models" });
  });

  it("200 for a verified event without a handler (acknowledged, ignored)", async () => {
    const reply = await send(server.url, runBody, signed(runBody));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({ ok: true });
  });

  it("500 with a generic body when the handler throws; onError gets the error and event", async () => {
    const body = JSON.stringify({ event_type: "LINK_ARTIFACT", project_name: "p", artifact_collection_name: "boom" });
    const reply = await send(server.url, body, signed(body));
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual({ ok: false, error: "internal_error" });
    expect(reply.body).not.toContain("secret detail");
    expect(onError).toHaveBeenCalledTimes(1);
    const [error, context] = onError.mock.calls[0]!;
    expect((error as Error).message).toContain("handler failed");
    expect(context.event.type).toBe("LINK_ARTIFACT");
    expect(context.request).toBeInstanceOf(Request);
  });

  it("401 for a missing signature, a bad signature and a bad token", async () => {
    const noSig = await send(server.url, aliasBody, { authorization: `Bearer ${TOKEN}` });
    expect(noSig.status).toBe(401);
    expect(JSON.parse(noSig.body)).toEqual({ ok: false, error: "unauthorized" });
    const badSig = await send(server.url, aliasBody.replace("prod", "evil"), signed(aliasBody));
    expect(badSig.status).toBe(401);
    const badToken = await send(server.url, aliasBody, signed(aliasBody, { authorization: "Bearer guess" }));
    expect(badToken.status).toBe(401);
    const reasons = onReject.mock.calls.slice(-3).map(([e]) => (e as WebhookVerificationError).reason);
    expect(reasons).toEqual(["missing_signature", "bad_signature", "bad_token"]);
    expect(onReject.mock.calls.at(-1)![0]).toBeInstanceOf(WebhookVerificationError);
  });

  it("400 for bad JSON and for an unknown event", async () => {
    const bad = "{not json";
    const badJson = await send(server.url, bad, signed(bad));
    expect(badJson.status).toBe(400);
    expect(JSON.parse(badJson.body)).toEqual({ ok: false, error: "bad_json" });
    const unknown = JSON.stringify({ event_type: "DELETE_PROJECT" });
    const unknownReply = await send(server.url, unknown, signed(unknown));
    expect(unknownReply.status).toBe(400);
    expect(JSON.parse(unknownReply.body)).toEqual({ ok: false, error: "unknown_event" });
  });

  it("405 for non-POST methods, with Allow: POST", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const reply = await send(server.url, method === "PUT" ? aliasBody : undefined, signed(aliasBody), method);
      expect([method, reply.status, reply.body]).toEqual([method, 405, expect.any(String)]);
      expect(reply.headers["allow"]).toBe("POST");
    }
  });

  it("413 from Content-Length without reading the body", async () => {
    const big = Buffer.alloc(MiB + 1, 0x20);
    const reply = await send(server.url, big, signed("{}", { "content-length": String(big.byteLength) }));
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body)).toEqual({ ok: false, error: "body_too_large" });
    expect(server.bytesPulled.at(-1)).toBe(0);
  });

  it("413 for a chunked body without Content-Length: counting stops reading past the limit", async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const chunks = Array.from({ length: 48 }, () => chunk); // 3 MiB
    const reply = await send(server.url, chunks, signed("{}"));
    expect(reply.status).toBe(413);
    const pulled = server.bytesPulled.at(-1)!;
    expect(pulled).toBeGreaterThan(MiB);
    expect(pulled).toBeLessThan(2 * MiB); // stopped well before the 3 MiB sent
  });

  it("accepts a body exactly at the 1 MiB default limit", async () => {
    const prefix = '{"event_type":"RUN_STATE","pad":"';
    const body = prefix + "x".repeat(MiB - prefix.length - 2) + '"}';
    expect(Buffer.byteLength(body)).toBe(MiB);
    const reply = await send(server.url, body, signed(body));
    expect(reply.status).toBe(200);
  });
});

describe("createWebhookHandler options", () => {
  const body = JSON.stringify({ event_type: "RUN_STATE", project_name: "p", run_state: "FAILED" });
  const post = (b: string, headers: Record<string, string>) =>
    new Request("http://localhost/hook", { method: "POST", body: b, headers });

  it("custom maxBodyBytes; Content-Length checked before the stream is touched", async () => {
    const handler = createWebhookHandler({ secret: SECRET, maxBodyBytes: 16, on: {} });
    let pulled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull() {
        pulled = true;
        throw new Error("must not be read");
      },
    }, { highWaterMark: 0 });
    const req = new Request("http://localhost/hook", {
      method: "POST",
      body: stream,
      headers: { "content-length": "17", "x-wandb-signature": sign("x") },
      duplex: "half",
    } as RequestInit);
    expect((await handler(req)).status).toBe(413);
    expect(pulled).toBe(false);
  });

  it("onUnhandled receives events without a specific handler", async () => {
    const seen: string[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      on: { ADD_ARTIFACT_ALIAS: () => undefined },
      onUnhandled: (event) => {
        seen.push(event.type);
      },
    });
    expect((await handler(post(body, { "x-wandb-signature": sign(body) }))).status).toBe(200);
    expect(seen).toEqual(["RUN_STATE"]);
  });

  it("onError may return its own Response; a throwing onError still yields 500", async () => {
    const custom = createWebhookHandler({
      secret: SECRET,
      on: {
        RUN_STATE: () => {
          throw new Error("x");
        },
      },
      onError: () => new Response("retry later", { status: 503 }),
    });
    expect((await custom(post(body, { "x-wandb-signature": sign(body) }))).status).toBe(503);
    const broken = createWebhookHandler({
      secret: SECRET,
      on: {
        RUN_STATE: () => Promise.reject(new Error("x")),
      },
      onError: () => {
        throw new Error("reporter down");
      },
    });
    const reply = await broken(post(body, { "x-wandb-signature": sign(body) }));
    expect(reply.status).toBe(500);
    expect(await reply.json()).toEqual({ ok: false, error: "internal_error" });
  });

  it("fails at creation without credentials", () => {
    expect(() => createWebhookHandler({ on: {} } as never)).toThrow(TypeError);
  });

  it("token-only receivers (no secret configured) say so with insecureNoSignature", async () => {
    expect(() => createWebhookHandler({ accessToken: TOKEN, on: {} } as never)).toThrow(/secret.*insecureNoSignature/s);
    const handler = createWebhookHandler({ accessToken: TOKEN, insecureNoSignature: true, on: {} });
    expect((await handler(post(body, { authorization: `Bearer ${TOKEN}` }))).status).toBe(200);
    expect((await handler(post(body, {}))).status).toBe(401);
  });
});
