import { createHmac } from "node:crypto";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createWebhookHandler } from "../../generated/index.js";
import { createWebhookTools, type WebhookSpec } from "../../templates/webhooks/index.js";
import { serve, type TestServer } from "../templates/webhooks/node-adapter.js";
import { ALL_SCHEMES } from "../../src/emit/webhook-schemes.js";

/**
 * The webhook receiver against an attacker on 127.0.0.1 (docs/security.md, "Security: the webhook receiver"): no secret means no receiver, replays
 * outside the signed timestamp's window are refused, a body is bounded in size and in time on both transports (the
 * node:http listener and the web handler), nothing is read when the signature headers already fail, and hostile
 * header values and targets get a 4xx, never a 500 or a hang. Every loop is bounded in count and time.
 */

/** What the generator emits for a spec with `webhooks:` and nothing else (one event, no x- extensions). */
const plainSpec: WebhookSpec<"newPet"> = { events: ["newPet"] };
type PlainEvents = { newPet: { id: number; name: string } };
const plain = createWebhookTools<PlainEvents>(plainSpec, ALL_SCHEMES);
/** The training service's kind: an HMAC of the body in a header (what main supported before the presets). */
const hmac = createWebhookTools<PlainEvents>({ signature: { header: "X-Sig", encoding: "hex" }, events: ["newPet"] }, ALL_SCHEMES);
const HMAC_SECRET = "hostile-hmac-secret";
const hmacHeaders = (body: string) => ({ "x-sig": createHmac("sha256", HMAC_SECRET).update(body).digest("hex") });
const STANDARD_SECRET = "whsec_" + Buffer.from("hostile-test-key-hostile-test-key").toString("base64");
const PET = JSON.stringify({ id: 1, name: "Rex" });

/** A Standard Webhooks signature made with node:crypto, independently of the runtime. */
function standardHeaders(body: string, id: string, timestamp: number, secret = STANDARD_SECRET): Record<string, string> {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": `v1,${signature}` };
}
const now = () => Math.floor(Date.now() / 1000);

const post = (body: BodyInit, headers: Record<string, string>) => new Request("http://127.0.0.1/hooks", { method: "POST", body, headers });

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function listen(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ port: number; url: string }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const port = (server.address() as AddressInfo).port;
  return { port, url: `http://127.0.0.1:${port}/hooks` };
}

async function serveWeb(handler: (request: Request) => Promise<Response>): Promise<TestServer> {
  const server = await serve(handler);
  closers.push(() => server.close());
  return server;
}

/** Sends raw bytes and resolves with the first line of the answer (or "" when the server closes without one). */
function rawExchange(port: number, head: string, body: string, waitMs: number): Promise<{ statusLine: string; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, "127.0.0.1", () => socket.write(head + body));
    let answer = "";
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ statusLine: answer.split("\r\n")[0] ?? "", ms: Date.now() - started });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      if (answer.includes("\r\n\r\n")) finish();
    });
    socket.on("error", finish);
    socket.on("close", finish);
  });
}

describe("no secret, no receiver", () => {
  it("the documented receiver with WEBHOOK_SECRET unset refuses to start instead of accepting unsigned deliveries", () => {
    const unset = process.env.SPECFORGE_TEST_SURELY_UNSET_SECRET;
    expect(() => createWebhookHandler({ secret: unset!, accessToken: "tok", on: {} })).toThrow(/secret.*insecureNoSignature: true/s);
  });

  it("an empty secret, an empty secret in a rotation list, or an empty access token refuse to start", () => {
    expect(() => createWebhookHandler({ secret: "", on: {} })).toThrow(TypeError);
    expect(() => createWebhookHandler({ secret: ["current", ""], on: {} })).toThrow(TypeError);
    expect(() => createWebhookHandler({ secret: "s", accessToken: "", on: {} })).toThrow(TypeError);
  });
});

describe("replays", () => {
  it("a captured Standard Webhooks delivery sent again 5 minutes later, or post-dated, is 401", async () => {
    const handle = plain.createHandler({ secret: STANDARD_SECRET, on: {} });
    const fresh = standardHeaders(PET, "msg_1", now());
    expect((await handle(post(PET, fresh))).status).toBe(200);
    // 10 s past the 300 s tolerance, so a second ticking over between signing and checking changes nothing.
    for (const timestamp of [now() - 310, now() + 310, now() - 86_400]) {
      expect((await handle(post(PET, standardHeaders(PET, "msg_1", timestamp)))).status).toBe(401);
    }
  });

  it("malformed timestamps are 401, never a crash", async () => {
    const handle = plain.createHandler({ secret: STANDARD_SECRET, on: {} });
    const onError: unknown[] = [];
    const strict = plain.createHandler({ secret: STANDARD_SECRET, on: {}, onError: (error) => void onError.push(error) });
    for (const timestamp of ["", "1e3", "-5", "0x10", " 12 34", "9".repeat(400), String(now()) + ".5", "NaN"]) {
      const headers = { ...standardHeaders(PET, "msg_2", now()), "webhook-timestamp": timestamp };
      expect((await handle(post(PET, headers))).status, JSON.stringify(timestamp)).toBe(401);
      expect((await strict(post(PET, headers))).status).toBe(401);
    }
    expect(onError).toEqual([]);
  });

  it("a Stripe-Signature with 20,000 v1 entries is answered 401 in well under a second", async () => {
    const handle = plain.createHandler({ secret: "whsec_stripe", scheme: "stripe", on: {} });
    const header = `t=${now()},` + Array.from({ length: 20_000 }, () => `v1=${"ab".repeat(32)}`).join(",");
    const started = performance.now();
    expect((await handle(post(PET, { "stripe-signature": header }))).status).toBe(401);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe("the body is bounded in time", () => {
  const head = (port: number, length: number, headers: Record<string, string>) =>
    `POST /hooks HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n` +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("") +
    "\r\n";

  it("node:http listener: a sender that stops half-way through the body gets 408 once bodyTimeoutMs passed", async () => {
    const { port } = await listen(plain.createNodeListener({ secret: STANDARD_SECRET, bodyTimeoutMs: 300, on: {} }));
    const { statusLine, ms } = await rawExchange(port, head(port, PET.length, standardHeaders(PET, "msg_s", now())), PET.slice(0, 5), 5_000);
    expect(statusLine).toBe("HTTP/1.1 408 Request Timeout");
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(3_000);
  });

  it("web handler: a body stream that stalls gets 408 once bodyTimeoutMs passed", async () => {
    const server = await serveWeb(hmac.createHandler({ secret: HMAC_SECRET, bodyTimeoutMs: 300, on: {} }));
    const port = Number(new URL(server.url).port);
    const { statusLine, ms } = await rawExchange(port, head(port, PET.length, hmacHeaders(PET)), PET.slice(0, 5), 5_000);
    expect(statusLine).toBe("HTTP/1.1 408 Request Timeout");
    expect(ms).toBeLessThan(3_000);
  });
});

describe("the body is bounded in size, and not read when the headers already fail", () => {
  it("node:http listener: an endless chunked body gets 413 after the limit and the server stops reading it", async () => {
    const { url } = await listen(plain.createNodeListener({ secret: STANDARD_SECRET, maxBodyBytes: 64 * 1024, on: {} }));
    const result = await new Promise<{ status: number; written: number }>((resolve, reject) => {
      const req = httpRequest(url, { method: "POST", headers: standardHeaders("{}", "msg_big", now()) });
      let written = 0;
      let status = 0;
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        // Bounded: at most 256 MiB would be offered; the server must have answered long before.
        while (status === 0 && written < 256 * 1024 * 1024) {
          written += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
      };
      req.on("response", (res) => {
        status = res.statusCode ?? 0;
        res.resume();
        res.on("end", () => {
          req.destroy();
          resolve({ status, written });
        });
      });
      req.on("error", (error) => (status ? resolve({ status, written }) : reject(error)));
      pump();
    });
    expect(result.status).toBe(413);
    // Socket buffers hold a few MiB at most: the sender was stopped, not read to the end.
    expect(result.written).toBeLessThan(32 * 1024 * 1024);
  });

  it("node:http listener: a malformed signature is refused without waiting for the body", async () => {
    const { port } = await listen(plain.createNodeListener({ secret: STANDARD_SECRET, bodyTimeoutMs: 5_000, on: {} }));
    const headers = { ...standardHeaders(PET, "msg_m", now()), "webhook-signature": "v1,not-base64!" };
    const head = `POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("")}\r\n`;
    const { statusLine, ms } = await rawExchange(port, head, "", 4_000);
    expect(statusLine).toBe("HTTP/1.1 401 Unauthorized");
    expect(ms).toBeLessThan(1_000);
  });

  it("web handler: a malformed signature, or stale or missing signature headers, leave the body unread", async () => {
    const body = JSON.stringify({ id: 1, name: "x".repeat(200_000) });
    const hmacServer = await serveWeb(hmac.createHandler({ secret: HMAC_SECRET, on: {} }));
    for (const signature of ["garbage", "ab".repeat(31), hmacHeaders(body)["x-sig"] + "00"]) {
      expect((await fetch(hmacServer.url, { method: "POST", body, headers: { "x-sig": signature } })).status).toBe(401);
    }
    expect(hmacServer.bytesPulled).toEqual([0, 0, 0]);
    const standardServer = await serveWeb(plain.createHandler({ secret: STANDARD_SECRET, on: {} }));
    const fresh = standardHeaders(body, "msg_u", now());
    for (const headers of [
      { ...fresh, "webhook-signature": "v2,abc" },
      standardHeaders(body, "msg_u", now() - 3_600),
      { "webhook-id": "msg_u", "webhook-timestamp": String(now()) },
    ]) {
      expect((await fetch(standardServer.url, { method: "POST", body, headers })).status).toBe(401);
    }
    expect(standardServer.bytesPulled).toEqual([0, 0, 0]);
  });
});

describe("hostile request shapes on the node:http listener", () => {
  it("an absolute-form target, a bogus Host and header junk get 401, and callbacks see a localhost Request", async () => {
    const seen: string[] = [];
    const { port } = await listen(
      plain.createNodeListener({ secret: STANDARD_SECRET, on: {}, onReject: (error, request) => void seen.push(`${error.reason} ${request.url}`) }),
    );
    for (const [target, host] of [
      ["//evil.example/x", "127.0.0.1"],
      ["/hooks", "evil.example/../x?@"],
      ["http://evil.example/hooks", "evil.example"],
    ] as const) {
      const head = `POST ${target} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 2\r\nwebhook-signature: v1,${"A".repeat(44)}\r\n\r\n`;
      expect((await rawExchange(port, head, "{}", 3_000)).statusLine).toBe("HTTP/1.1 401 Unauthorized");
    }
    expect(seen).toHaveLength(3);
    for (const line of seen) expect(line).toMatch(/^missing_signature http:\/\/localhost\//);
  });

  it("a sender that hangs up mid-body does not take the listener down", async () => {
    const { port } = await listen(plain.createNodeListener({ secret: STANDARD_SECRET, on: { newPet: () => undefined } }));
    const headers = standardHeaders(PET, "msg_h", now());
    const head = `POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Length: ${PET.length}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("")}\r\n`;
    await new Promise<void>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => socket.end(head + PET.slice(0, 4), () => setTimeout(() => (socket.destroy(), resolve()), 50)));
      socket.on("error", () => resolve());
    });
    const response = await fetch(`http://127.0.0.1:${port}/hooks`, { method: "POST", body: PET, headers: standardHeaders(PET, "msg_h2", now()) });
    expect(response.status).toBe(200);
  });
});
