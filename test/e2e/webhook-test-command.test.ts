import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Webhook as StandardWebhook } from "standardwebhooks";
import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import { createWebhookTools, type WebhookSpec } from "../../templates/webhooks/index.js";
import { webhookRuntimeSpec } from "../../src/emit/webhook-spec.js";
import { buildModel } from "../../src/ir/build.js";
import { loadSpec } from "../../src/load/index.js";
import { FIXTURES, ROOT, runBin, tempDir, writeFiles } from "../helpers.js";
import { webhookBodyValidator } from "../webhook-payloads.js";
import { ALL_SCHEMES } from "../../src/emit/webhook-schemes.js";

/**
 * `specforge webhook test` on specs without specforge's extensions: it sends a schema-valid sample of the event's
 * body (checked with ajv), signed with the scheme (checked by the providers' own libraries, or by the receiver the
 * generator builds from the same spec), and it ends cleanly on receivers that stall, never stop talking, or answer
 * with terminal escapes; a URL's password is never printed.
 */
const spec = (name: string) => join(FIXTURES, "features", `webhooks-${name}.yaml`);

interface Delivery {
  headers: IncomingMessage["headers"];
  body: string;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A receiver on 127.0.0.1 that records each delivery and answers with `answer`. */
async function receiver(answer: (delivery: Delivery, res: ServerResponse) => void | Promise<void>): Promise<{ url: string; deliveries: Delivery[] }> {
  const deliveries: Delivery[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const delivery = { headers: req.headers, body: Buffer.concat(chunks).toString() };
    deliveries.push(delivery);
    await answer(delivery, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, deliveries };
}

const ok = (_delivery: Delivery, res: ServerResponse) => void res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');

/** The receiver the generator would build for `specPath`, fed the recorded delivery. */
async function generatedReceiverAccepts(specPath: string, secret: string, delivery: Delivery): Promise<{ status: number; type?: string }> {
  const model = buildModel(loadSpec(specPath, ROOT), specPath);
  const tools = createWebhookTools<Record<string, unknown>>(webhookRuntimeSpec(model) as unknown as WebhookSpec, ALL_SCHEMES);
  let type: string | undefined;
  const handle = tools.createHandler({ secret, on: {}, onUnhandled: (event) => void (type = event.type) });
  const headers = Object.entries(delivery.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : []));
  const response = await handle(new Request("http://127.0.0.1/hooks", { method: "POST", headers, body: delivery.body }));
  return { status: response.status, type };
}

describe("webhook test sends a schema-valid sample, signed with the scheme", () => {
  it("a plain spec: Standard Webhooks by default, verified by the standardwebhooks package; the sample validates", async () => {
    const secret = "whsec_" + Buffer.from("webhook-test-command-key").toString("base64");
    const { url, deliveries } = await receiver(ok);
    const result = await runBin(["webhook", "test", "--spec", spec("plain"), "--url", url, "--secret-env", "HOOK_SECRET"], ROOT, { HOOK_SECRET: secret });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/signed \(standard-webhooks: webhook-signature\)/);
    const [delivery] = deliveries;
    expect(new StandardWebhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>)).toEqual(JSON.parse(delivery!.body));
    expect(webhookBodyValidator(spec("plain"))("newPet", JSON.parse(delivery!.body))).toEqual([]);
    expect(await generatedReceiverAccepts(spec("plain"), secret, delivery!)).toEqual({ status: 200, type: "newPet" });
  });

  it("GitHub: every event is sent with its X-GitHub-Event, signed, schema-valid, and resolved back to itself", async () => {
    const secret = "gh-secret";
    const { url, deliveries } = await receiver(ok);
    const valid = webhookBodyValidator(spec("github"));
    const events = ["issues-opened", "issues-closed", "issue-comment-created", "custom-property-promoted-to-enterprise", "push"];
    const eventHeaders = ["issues", "issues", "issue_comment", "custom_property", "push"];
    for (const [i, event] of events.entries()) {
      const result = await runBin(["webhook", "test", "--spec", spec("github"), "--url", url, "--event", event, "--secret-env", "S"], ROOT, { S: secret });
      expect(result.code, result.stderr).toBe(0);
      const delivery = deliveries[i]!;
      expect(delivery.headers["x-github-event"]).toBe(eventHeaders[i]);
      expect(delivery.headers["x-hub-signature-256"]).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(valid(event, JSON.parse(delivery.body))).toEqual([]);
      expect(await generatedReceiverAccepts(spec("github"), secret, delivery)).toEqual({ status: 200, type: event });
    }
  });

  it("Stripe: the spec's example is sent, and Stripe's constructEvent verifies the signature", async () => {
    const secret = "whsec_cli_test";
    const { url, deliveries } = await receiver(ok);
    const result = await runBin(["webhook", "test", "--spec", spec("stripe"), "--url", url, "--event", "customer.created", "--secret-env", "S"], ROOT, { S: secret });
    expect(result.code, result.stderr).toBe(0);
    const delivery = deliveries[0]!;
    const event = new Stripe("sk_test_offline").webhooks.constructEvent(delivery.body, delivery.headers["stripe-signature"] as string, secret);
    expect(event.id).toBe("evt_1NG8Du2eZvKYlo2CUI79vXWy");
    const generated = JSON.parse((await runBin(["webhook", "test", "--spec", spec("stripe"), "--url", url, "--event", "invoice.paid"], ROOT)).code === 0 ? deliveries[1]!.body : "null");
    expect(webhookBodyValidator(spec("stripe"))("invoice.paid", generated)).toEqual([]);
  });

  it("--scheme overrides the spec's: a GitHub-signed delivery from an OpenAI-style spec", async () => {
    const { url, deliveries } = await receiver(ok);
    const result = await runBin(["webhook", "test", "--spec", spec("standard"), "--url", url, "--scheme", "github", "--secret-env", "S"], ROOT, { S: "x" });
    expect(result.code, result.stderr).toBe(0);
    expect(deliveries[0]!.headers["x-hub-signature-256"]).toMatch(/^sha256=/);
    expect(deliveries[0]!.headers["webhook-signature"]).toBeUndefined();
    const bad = await runBin(["webhook", "test", "--spec", spec("standard"), "--url", url, "--scheme", "mailgun"], ROOT);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/scheme/);
  });

  it("a schema no generated sample satisfies is sent anyway, with a warning that names where it fails", async () => {
    const dir = tempDir();
    writeFiles(dir, {
      "hooks.yaml": [
        "openapi: 3.1.0",
        "info: { title: t, version: '1' }",
        "webhooks:",
        "  ping:",
        "    post:",
        "      requestBody:",
        "        content:",
        "          application/json:",
        "            schema: { type: object, required: [code], properties: { code: { type: string, minLength: 5, maxLength: 2 } } }",
        "      responses: { '200': { description: ok } }",
      ].join("\n"),
    });
    const { url, deliveries } = await receiver(ok);
    const result = await runBin(["webhook", "test", "--spec", join(dir, "hooks.yaml"), "--url", url], ROOT);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning: the sample generated for ping does not satisfy its schema \(at code: String should have at least 5 characters\); --payload FILE sends your own/);
    expect(deliveries).toHaveLength(1);
  });

  it("without a secret the delivery goes unsigned, with a warning", async () => {
    const { url } = await receiver(ok);
    const result = await runBin(["webhook", "test", "--spec", spec("plain"), "--url", url], ROOT);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning: .*unsigned/);
  });
});

/** Resolves when `res` can take more or is gone; the other listener is removed, so none pile up on the response. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done).off("close", done);
      resolve();
    };
    res.once("drain", done).once("close", done);
  });
}

describe("webhook test against receivers that misbehave", () => {
  it("a reply that stalls past --timeout ends with exit 2 and one clear line, not a stack", async () => {
    const { url } = await receiver((_d, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("partial");
      // …and never ends (the server is closed after the test).
    });
    const started = Date.now();
    const result = await runBin(["webhook", "test", "--spec", spec("plain"), "--url", url, "--timeout", "500"], ROOT);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/error: POST http:\/\/127\.0\.0\.1:\d+\/hooks failed: no complete reply within 500 ms/);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("an endless reply is read up to 64 KiB, then the command stops reading and ends", async () => {
    let sent = 0;
    const { url } = await receiver(async (_d, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = "y".repeat(16 * 1024);
      // Bounded: at most 64 MiB or 10 s, whichever comes first; stops when the client hangs up.
      const until = Date.now() + 10_000;
      while (!res.destroyed && sent < 64 * 1024 * 1024 && Date.now() < until) {
        sent += chunk.length;
        if (!res.write(chunk)) await drainedOrClosed(res);
      }
      res.end();
    });
    const result = await runBin(["webhook", "test", "--spec", spec("plain"), "--url", url, "--timeout", "20000"], ROOT);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning: the reply was longer than 65536 bytes/);
    expect(result.stdout.length).toBeLessThan(70 * 1024);
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });

  it("a reply's CI workflow commands (::error::, ::add-mask::, ::set-output, ::stop-commands::, ##[…], ##vso[…]) are printed inert", async () => {
    const reply = ["accepted", "::error file=x.ts,line=1::forged annotation", "  ::add-mask::hunter2", "::set-output name=ok::true", "::stop-commands::tok", "##[error]old syntax", "##vso[task.setvariable variable=x]1", "not :: a command"].join("\n");
    const { url } = await receiver((_d, res) => void res.writeHead(200, { "content-type": "text/plain" }).end(reply));
    const result = await runBin(["webhook", "test", "--spec", spec("plain"), "--url", url], ROOT);
    expect(result.code).toBe(0);
    // The runner reads a command from any line of the job's output that starts (after blanks) with `::` or `##[`.
    for (const line of (result.stdout + result.stderr).split("\n")) expect(line).not.toMatch(/^\s*(?:::|##(?:vso)?\[)/);
    expect(result.stdout).toContain("\\x3a:error file=x.ts,line=1::forged annotation");
    expect(result.stdout).toContain("  \\x3a:add-mask::hunter2");
    expect(result.stdout).toContain("\\x23#vso[task.setvariable");
    expect(result.stdout).toContain("not :: a command");
  });

  it("a URL's password is sent as Basic auth but never printed, whatever the outcome", async () => {
    const { url, deliveries } = await receiver((_d, res) => void res.writeHead(401).end("no"));
    const withPassword = url.replace("http://", "http://ann:s3cr%40t@");
    const answered = await runBin(["webhook", "test", "--spec", spec("plain"), "--url", withPassword], ROOT);
    expect(answered.code).toBe(1);
    expect(deliveries[0]!.headers.authorization).toBe("Basic " + Buffer.from("ann:s3cr@t").toString("base64"));
    const refused = await runBin(["webhook", "test", "--spec", spec("plain"), "--url", "http://ann:s3cr%40t@127.0.0.1:1/x", "--timeout", "2000"], ROOT);
    expect(refused.code).toBe(2);
    const broken = await runBin(["webhook", "test", "--spec", spec("plain"), "--url", "http://ann:s3cr%40t@[::1"], ROOT);
    expect(broken.code).toBe(2);
    for (const output of [answered, refused, broken]) {
      expect(output.stdout + output.stderr).not.toMatch(/s3cr/);
    }
    expect(answered.stderr).toContain("http://ann:***@127.0.0.1");
  });

  it("control characters in the reply reach the terminal escaped", async () => {
    const { url } = await receiver((_d, res) => void res.writeHead(200, { "x-note": "a\u00a0b" }).end("done\u001b]0;owned\u0007\u001b[2J\r\u202eevil\nnext line"));
    const result = await runBin(["webhook", "test", "--spec", spec("plain"), "--url", url], ROOT);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(result.stdout).toContain("done\\x1b]0;owned\\x07\\x1b[2J\\r\\u202eevil\nnext line");
  });

  it("--timeout that is not a positive number is a usage error", async () => {
    const result = await runBin(["webhook", "test", "--spec", spec("plain"), "--url", "http://127.0.0.1:1/", "--timeout", "abc"], ROOT);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--timeout must be a whole number of at least 1/);
  });
});
