import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers.js";
import { CORPUS } from "./shared.js";

/**
 * The wire, against vendors' real specs and SDKs: the client generated from Stripe's spec puts on the
 * wire exactly what the `stripe` package sends for the same call, and the router generated from it reads the
 * `stripe` package's requests back into the values it was given; Discord's bot token and GitHub's token (a spec
 * without security schemes: sent with `headers`) arrive as those APIs expect, and never follow a redirect to
 * another origin. Servers listen on 127.0.0.1.
 */
const OUT = join(ROOT, "test", "corpus", ".out", "wire");

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

class Recorder {
  server!: Server;
  seen: Seen[] = [];
  answer: (seen: Seen) => { status: number; headers?: Record<string, string>; body?: string } = () => ({ status: 200, body: "{}" });
  get origin() {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const seen = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() };
        this.seen.push(seen);
        const { status, headers, body } = this.answer(seen);
        res.writeHead(status, { "content-type": "application/json", ...headers }).end(body ?? "");
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
  }
  stop() {
    this.server.closeAllConnections();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

async function generate(spec: string, name: string): Promise<Record<string, any>> {
  const out = join(OUT, name);
  const result = await runCli(["generate", "--spec", join(CORPUS, spec), "--out", out, "--outputs", "client,server", "--no-format"], ROOT);
  if (result.code !== 0) throw new Error(result.stderr);
  return (await import(join(out, "index.ts"))) as Record<string, any>;
}

const recorder = new Recorder();
const elsewhere = new Recorder();
beforeAll(() => Promise.all([recorder.start(), elsewhere.start()]));
afterAll(() => Promise.all([recorder.stop(), elsewhere.stop()]));

describe("Stripe: the generated client and the stripe package", () => {
  let generated: Record<string, any>;
  let stripe: Stripe;
  beforeAll(async () => {
    generated = await generate("stripe-spec3-2023-09-3.0.json", "stripe");
    const { port } = recorder.server.address() as AddressInfo;
    stripe = new Stripe("sk_test_123", { host: "127.0.0.1", port, protocol: "http", maxNetworkRetries: 0 });
  }, 600_000);

  /** The request the stripe package sends for `call`, then the generated client's for the same values. */
  async function both(sdk: () => Promise<unknown>, ours: () => Promise<unknown>): Promise<[Seen, Seen]> {
    recorder.seen = [];
    recorder.answer = () => ({ status: 200, body: '{"id":"cus_1","object":"customer"}' });
    await sdk();
    await ours();
    expect(recorder.seen).toHaveLength(2);
    return [recorder.seen[0]!, recorder.seen[1]!];
  }

  it("customers.create({ metadata, preferred_locales }): the same bytes, Content-Type and credentials", async () => {
    const params = { metadata: { plan: "pro" }, preferred_locales: ["fr", "en"] };
    const client = generated.createClient({ baseUrl: recorder.origin, bearerAuth: "sk_test_123", maxRetries: 0 });
    const [sdk, ours] = await both(
      () => stripe.customers.create(params),
      () => client.postCustomers({ body: params }),
    );
    expect(ours.body).toBe("metadata[plan]=pro&preferred_locales[0]=fr&preferred_locales[1]=en");
    expect(ours.body).toBe(sdk.body);
    expect([ours.method, ours.url, ours.headers["content-type"], ours.headers.authorization]).toEqual([
      sdk.method,
      sdk.url,
      sdk.headers["content-type"],
      sdk.headers.authorization,
    ]);
  });

  it("a fuller customer (nested objects, arrays of objects, expand, text that needs encoding): the same bytes", async () => {
    const params = {
      email: "ann+test@example.com",
      name: "Ann O'Neil (Paris) *VIP*",
      description: "50% off! 1+1=2",
      balance: -500,
      metadata: { plan: "pro", order_id: "A-1 / B" },
      preferred_locales: ["fr-FR", "en"],
      address: { line1: "1 Rue de la Paix", city: "Paris", postal_code: "75002", country: "FR" },
      invoice_settings: { custom_fields: [{ name: "PO", value: "42" }], footer: "Merci ✓" },
      tax_exempt: "none" as const,
      expand: ["tax", "invoice_settings.default_payment_method"],
    };
    const client = generated.createClient({ baseUrl: recorder.origin, bearerAuth: "sk_test_123", maxRetries: 0 });
    const [sdk, ours] = await both(
      () => stripe.customers.create(params),
      () => client.postCustomers({ body: params }),
    );
    expect(ours.body).toBe(sdk.body);
  });

  it("basic auth (the other alternative Stripe's spec lists) carries the same key", async () => {
    const client = generated.createClient({ baseUrl: recorder.origin, basicAuth: { username: "sk_test_123", password: "" }, maxRetries: 0 });
    recorder.seen = [];
    await client.getCustomers();
    expect(recorder.seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from("sk_test_123:").toString("base64")}`);
  });

  it("customers.list: the same query (the SDK leaves brackets unencoded, the client encodes them as OpenAPI 3.1.1 does)", async () => {
    const client = generated.createClient({ baseUrl: recorder.origin, bearerAuth: "sk_test_123", maxRetries: 0 });
    recorder.answer = () => ({ status: 200, body: '{"object":"list","data":[],"has_more":false,"url":"/v1/customers"}' });
    recorder.seen = [];
    const query = { limit: 3, created: { gt: 1700000000, lte: 1800000000 }, expand: ["data.tax"] };
    await stripe.customers.list(query);
    await client.getCustomers({ query });
    const [sdk, ours] = recorder.seen as [Seen, Seen];
    const entries = (url: string) => [...new URL(url, "http://x").searchParams];
    expect(entries(ours.url)).toEqual(entries(sdk.url));
    expect(ours.url).toBe("/v1/customers?limit=3&created%5Bgt%5D=1700000000&created%5Blte%5D=1800000000&expand%5B0%5D=data.tax");
  });

  it("the router generated from Stripe's spec reads the stripe package's requests back into the values it was given", async () => {
    const received: unknown[] = [];
    const router = generated.createRouter(
      {
        postCustomers: ({ body }: { body: unknown }) => {
          received.push(body);
          return { status: 200, body: { id: "cus_1", object: "customer" } };
        },
        getCustomers: ({ query }: { query: unknown }) => {
          received.push(query);
          return { status: 200, body: { object: "list", data: [], has_more: false, url: "/v1/customers" } };
        },
      },
      { authenticate: (credentials: Record<string, { token?: string }>) => (credentials.bearerAuth?.token === "sk_test_123" ? { account: "acct_1" } : null) },
    );
    const server = createServer(generated.toNodeListener(router));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const sdk = new Stripe("sk_test_123", { host: "127.0.0.1", port, protocol: "http", maxNetworkRetries: 0 });
      const created = {
        email: "ann@example.com",
        balance: -500,
        metadata: { plan: "pro" },
        preferred_locales: ["fr", "en"],
        invoice_settings: { custom_fields: [{ name: "PO", value: "42" }] },
        cash_balance: { settings: { reconciliation_mode: "manual" as const } },
      };
      await sdk.customers.create(created);
      await sdk.customers.list({ limit: 3, created: { gt: 1700000000 }, expand: ["data.tax"] });
      expect(received).toEqual([created, { limit: 3, created: { gt: 1700000000 }, expand: ["data.tax"] }]);
      const wrongKey = new Stripe("sk_test_wrong", { host: "127.0.0.1", port, protocol: "http", maxNetworkRetries: 0 });
      await expect(wrongKey.customers.list()).rejects.toMatchObject({ statusCode: 401 });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("Discord and GitHub credentials", () => {
  it("Discord: the bot token goes in Authorization exactly as given (`Bot <token>`); an OAuth2 token as a bearer token", async () => {
    const generated = await generate("discord-3.1.json", "discord");
    recorder.answer = () => ({ status: 200, body: '{"id":"1","username":"bot"}' });
    recorder.seen = [];
    await generated.createClient({ baseUrl: recorder.origin, botToken: "Bot MTk4NjIy.abc", maxRetries: 0 }).getMyUser();
    await generated.createClient({ baseUrl: recorder.origin, oAuth2: async ({ scopes }: { scopes: string[] }) => `oauth-${scopes.join(",")}`, maxRetries: 0 }).getMyUser();
    expect(recorder.seen.map((s) => s.headers.authorization)).toEqual(["Bot MTk4NjIy.abc", "Bearer oauth-identify"]);
  }, 600_000);

  it("GitHub (no security schemes: no credential option): a token sent with `headers` stays on api.github.com's origin", async () => {
    const generated = await generate("github-api.github.com-3.0.json", "github");
    const client = generated.createClient({ baseUrl: recorder.origin, headers: { authorization: "token ghp_secret" }, maxRetries: 0 });
    // Like api.github.com, which redirects archive downloads to codeload.github.com.
    recorder.answer = (seen) =>
      seen.url.includes("/tarball/") ? { status: 302, headers: { location: `${elsewhere.origin}/octo/hello/legacy.tar.gz/main` } } : { status: 200, body: '{"id":1}' };
    elsewhere.answer = () => ({ status: 200, headers: { "content-type": "application/gzip" }, body: "tarball" });
    recorder.seen = [];
    elsewhere.seen = [];
    await client.reposGet({ path: { owner: "octo", repo: "hello" } });
    await client.reposDownloadTarballArchive({ path: { owner: "octo", repo: "hello", ref: "main" } });
    expect(recorder.seen.map((s) => s.headers.authorization)).toEqual(["token ghp_secret", "token ghp_secret"]);
    expect(elsewhere.seen.map((s) => [s.url, s.headers.authorization])).toEqual([["/octo/hello/legacy.tar.gz/main", undefined]]);
  }, 600_000);
});
