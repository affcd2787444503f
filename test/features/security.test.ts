import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGroup, importGenerated, type BuiltGroup } from "./harness.js";

/**
 * Every kind of security scheme over HTTP on 127.0.0.1: the generated client puts each credential where its scheme
 * says (checked in the raw request), per operation from its requirements; the generated router reads it back and
 * hands it to `authenticate`, keyed by scheme — the handlers here answer with what `authenticate` returned, so one
 * round trip shows both sides. Types: security.types.ts.
 */
let group: BuiltGroup;
let server: Server;
let base: string;
let generated: Record<string, any>;
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];

const OPERATIONS = ["rootDefault", "basic", "token", "headerKey", "queryKey", "cookieKey", "bot", "oauth", "oidc", "either", "both", "optional", "noAuth", "mtls"];

beforeAll(async () => {
  group = await buildGroup("security", [{ name: "security", spec: "security.yaml" }]);
  generated = await importGenerated(group, "security");
  const echoAuth = ({ auth }: { auth: unknown }) => ({ status: 200, body: auth ?? null });
  const router = generated.createRouter(Object.fromEntries(OPERATIONS.map((name) => [name, echoAuth])), {
    basePath: "/api",
    // The principal is the credentials themselves, unless one of them is "wrong".
    authenticate: (credentials: Record<string, unknown>) => (JSON.stringify(credentials).includes('"wrong"') ? null : credentials),
  });
  const listener = generated.toNodeListener(router);
  server = createServer((req, res) => {
    seen.push({ url: req.url!, headers: req.headers });
    listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
}, 300_000);
afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

const client = (options: Record<string, unknown>) => generated.createClient({ baseUrl: base, maxRetries: 0, ...options });
const every = {
  bearerAuth: "jwt-1",
  basicAuth: { username: "ann", password: "pä:ss" },
  tokenAuth: "tok-1",
  headerKey: "hk-1",
  queryKey: "qk 1",
  cookieKey: "ck-1",
  botToken: "Bot bt-1",
  oauth: async ({ scopes }: { scopes: string[] }) => `oa-${scopes.join("+")}`,
  oidc: () => "id-1",
};
const last = () => seen[seen.length - 1]!;

describe("security schemes", () => {
  it("type-check with their assertions under tsc --strict", () => {
    expect(group.tsc.output).toBe("");
  });

  it("warn at generate time, with the pointer, about a scheme neither side can apply (mutualTLS)", () => {
    expect(group.stderr.security).toMatch(/^specforge: warning: .*security\.yaml#\/components\/securitySchemes\/mtls: a mutualTLS scheme: the generated client cannot present a TLS client certificate/);
    expect(group.stderr.security.match(/warning/g)).toHaveLength(1);
  });

  it("each credential goes where its scheme says, and the router hands it to authenticate by scheme", async () => {
    const api = client(every);
    const basic = `Basic ${Buffer.from("ann:pä:ss", "utf8").toString("base64")}`;
    const cases: [string, unknown, (request: (typeof seen)[number]) => void, object?][] = [
      ["rootDefault", { bearerAuth: { type: "bearer", token: "jwt-1" } }, (r) => expect(r.headers.authorization).toBe("Bearer jwt-1")],
      ["basic", { basicAuth: { type: "basic", username: "ann", password: "pä:ss" } }, (r) => expect(r.headers.authorization).toBe(basic)],
      ["token", { tokenAuth: { type: "http", scheme: "Token", credentials: "tok-1" } }, (r) => expect(r.headers.authorization).toBe("Token tok-1")],
      ["headerKey", { headerKey: { type: "apiKey", in: "header", name: "X-API-Key", value: "hk-1" } }, (r) => expect(r.headers["x-api-key"]).toBe("hk-1")],
      [
        "queryKey",
        { queryKey: { type: "apiKey", in: "query", name: "api_key", value: "qk 1" } },
        (r) => expect(r.url).toBe("/api/query-key?q=x&api_key=qk%201"),
        { query: { q: "x" } },
      ],
      [
        "cookieKey",
        { cookieKey: { type: "apiKey", in: "cookie", name: "session_id", value: "ck-1" } },
        (r) => expect(r.headers.cookie).toBe("theme=dark; session_id=ck-1"),
        { cookies: { theme: "dark" } },
      ],
      // Discord: an apiKey scheme on Authorization; the value is the whole header, prefix included.
      ["bot", { botToken: { type: "apiKey", in: "header", name: "Authorization", value: "Bot bt-1" } }, (r) => expect(r.headers.authorization).toBe("Bot bt-1")],
      ["oauth", { oauth: { type: "oauth2", token: "oa-read+write", scopes: ["read", "write"] } }, (r) => expect(r.headers.authorization).toBe("Bearer oa-read+write")],
      ["oidc", { oidc: { type: "openIdConnect", token: "id-1", scopes: [] } }, (r) => expect(r.headers.authorization).toBe("Bearer id-1")],
      // Alternatives: the first one the client has credentials for.
      ["either", { basicAuth: { type: "basic", username: "ann", password: "pä:ss" } }, (r) => expect(r.headers.authorization).toBe(basic)],
      // A combination: every scheme of it.
      [
        "both",
        { headerKey: { type: "apiKey", in: "header", name: "X-API-Key", value: "hk-1" }, queryKey: { type: "apiKey", in: "query", name: "api_key", value: "qk 1" } },
        (r) => {
          expect(r.headers["x-api-key"]).toBe("hk-1");
          expect(r.url).toBe("/api/both?api_key=qk%201");
        },
      ],
      // An optional credential is still sent when the client has it.
      ["optional", { botToken: { type: "apiKey", in: "header", name: "Authorization", value: "Bot bt-1" } }, (r) => expect(r.headers.authorization).toBe("Bot bt-1")],
      // security: [] — nothing, whatever the client holds.
      ["noAuth", null, (r) => expect([r.headers.authorization, r.headers["x-api-key"], r.headers.cookie, r.url]).toEqual([undefined, undefined, undefined, "/api/public"])],
    ];
    for (const [operation, principal, check, params] of cases) {
      expect(await api[operation](params), operation).toEqual(principal);
      check(last());
    }
  });

  it("alternatives: with only a bearer token, Stripe-style `basic or bearer` sends the bearer token", async () => {
    const api = client({ bearerAuth: "jwt-2" });
    expect(await api.either()).toEqual({ bearerAuth: { type: "bearer", token: "jwt-2" } });
    expect(last().headers.authorization).toBe("Bearer jwt-2");
  });

  it("without the credential an operation needs, nothing is sent and the router answers 401 with the scheme's challenge", async () => {
    const api = client({ bearerAuth: "jwt-2" });
    const basic = await api.basic().catch((e: unknown) => e);
    expect(basic).toMatchObject({ status: 401 });
    expect(last().headers.authorization).toBeUndefined();
    expect(basic.headers.get("www-authenticate")).toBe('Basic realm="api", charset="UTF-8"');
    // API keys have no HTTP challenge.
    const keyOnly = await api.headerKey().catch((e: unknown) => e);
    expect(keyOnly).toMatchObject({ status: 401 });
    expect(keyOnly.headers.get("www-authenticate")).toBeNull();
    // A combination needs all of its schemes: half of it is not sent at all.
    const half = await client({ headerKey: "hk" })
      .both()
      .catch((e: unknown) => e);
    expect(half).toMatchObject({ status: 401 });
    expect(last().headers["x-api-key"]).toBeUndefined();
    // Optional credentials: without them the request goes through anonymously.
    expect(await client({}).optional()).toBeNull();
    // mutualTLS cannot be applied by either side: the router refuses.
    expect(await api.mtls().catch((e: unknown) => e)).toMatchObject({ status: 401 });
  });

  it("credentials authenticate refuses are a 401 (bearer: invalid_token); a bad Basic header is no credential at all", async () => {
    const refused = await client({ bearerAuth: "wrong" })
      .rootDefault()
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 401 });
    expect(refused.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    const garbled = await fetch(`${base}/basic`, { headers: { authorization: "Basic %%%not-base64" } });
    expect(garbled.status).toBe(401);
    const noColon = await fetch(`${base}/basic`, { headers: { authorization: `Basic ${btoa("justuser")}` } });
    expect(noColon.status).toBe(401);
  });

  it("a credential function is called once per call, may be async, may refresh, and undefined skips its alternative", async () => {
    let calls = 0;
    const api = client({
      basicAuth: () => undefined,
      bearerAuth: async ({ operation, scheme }: { operation: string; scheme: string }) => `t${++calls}-${operation}-${scheme}`,
    });
    expect(await api.either()).toEqual({ bearerAuth: { type: "bearer", token: "t1-either-bearerAuth" } });
    expect(await api.rootDefault()).toEqual({ bearerAuth: { type: "bearer", token: "t2-rootDefault-bearerAuth" } });
    expect(calls).toBe(2);
  });

  it("a client option of the wrong shape is a TypeError of the call, before anything is sent", async () => {
    const count = seen.length;
    await expect(client({ basicAuth: "ann:secret" }).basic()).rejects.toThrow(/"basicAuth" must be \{ username, password \}/);
    await expect(client({ basicAuth: { username: "a:b", password: "" } }).basic()).rejects.toThrow(/cannot contain ":"/);
    expect(seen.length).toBe(count);
  });
});
