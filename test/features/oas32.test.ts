import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGroup, importGenerated, type BuiltGroup } from "./harness.js";

/**
 * OpenAPI 3.2 beyond streams (oas32.yaml): QUERY and additionalOperations, querystring parameters, `$self`, nested
 * tags, named servers, defaultMapping and the OAuth 2 device flow, with the generated client and router talking
 * over 127.0.0.1 (and a recording server where the exact bytes matter). Types: oas32.types.ts.
 */
let group: BuiltGroup;
let mod: Record<string, any>;
let server: Server;
let origin: string;
let handlers: Record<string, unknown> = {};
let routerOptions: Record<string, unknown> = { insecureNoAuth: true };
/** What the router's server received, as sent (method and target). */
const received: string[] = [];
/** The Cookie header of each request the router's server received. */
const receivedCookies: (string | undefined)[] = [];

beforeAll(async () => {
  group = await buildGroup("oas32", [{ name: "oas32", spec: "oas32.yaml" }]);
  mod = await importGenerated(group, "oas32");
  server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    receivedCookies.push(req.headers.cookie);
    return mod.toNodeListener(mod.createRouter(handlers, routerOptions))(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 300_000);
afterAll(() => new Promise<void>((resolve) => (server ? (server.closeAllConnections(), server.close(() => resolve())) : resolve())));

const client = (options: Record<string, unknown> = {}) => mod.createClient({ baseUrl: origin, euCentralUrl: `${origin}/eu`, oauth: "t0k3n", maxRetries: 0, ...options });
const flight = (id: string, from = "LHR", to = "ATL") => ({ id, from, to });

describe("OpenAPI 3.2 operations and parameters", () => {
  it("style: cookie goes out as RFC 6265 writes it (not percent-encoded, exploded by default) and the router reads it back", async () => {
    handlers = { getPrefs: ({ cookies }: { cookies: object }) => ({ status: 200, body: cookies }) };
    receivedCookies.length = 0;
    const cookies = { color: "blue", colors: ["blue", "black"], list: [1, 2, 3], rgb: { R: 100, G: 200, B: 150 }, box: { w: 3, h: 4 }, legacy: "a b" };
    expect(await client().getPrefs({ cookies })).toEqual(cookies);
    // The specification's examples, one per shape; the 3.0/3.1-style `form` cookie beside them is still percent-encoded.
    expect(receivedCookies).toEqual(["color=blue; colors=blue; colors=black; list=1,2,3; R=100; G=200; B=150; box=w,3,h,4; legacy=a%20b"]);
    // A value a cookie cannot carry as it is would be another cookie on the wire: refused before anything is sent.
    receivedCookies.length = 0;
    await expect(client().getPrefs({ cookies: { color: "blue; admin=1" } })).rejects.toThrow('Cookie parameter color (style: cookie): "blue; admin=1" cannot be sent without percent-encoding');
    await expect(client().getPrefs({ cookies: { rgb: { "R=1; X": 1 } } })).rejects.toThrow("cannot be sent without percent-encoding");
    expect(receivedCookies).toEqual([]);
  });

  it("generate without warnings and type-check with their assertions under tsc --strict", () => {
    expect(group.stderr.oas32).toBe("");
    expect(group.tsc.output).toBe("");
  });

  it("QUERY sends its body and is routed; COPY and LINK (additionalOperations) go out as written", async () => {
    const seen: unknown[] = [];
    handlers = {
      searchFlights: ({ body }: { body: { from: string; to?: string } }) => (seen.push(body), { status: 200, body: [flight("F1", body.from, body.to)] }),
      copyFlight: ({ path, headers }: any) => ({ status: 201, body: flight(`${path.id}-copy`, "LHR", headers.Destination) }),
      linkFlightsById: ({ path, body }: any) => (seen.push([path.id, body]), { status: 204 }),
    };
    received.length = 0;
    const c = client();
    expect(await c.searchFlights({ body: { from: "LHR", to: "JFK" } })).toEqual([flight("F1", "LHR", "JFK")]);
    expect(await c.copyFlight({ path: { id: "F1" }, headers: { Destination: "CDG" } })).toEqual(flight("F1-copy", "LHR", "CDG"));
    expect(await c.linkFlightsById({ path: { id: "F1" }, body: { target: "F2" } })).toBeUndefined();
    expect(received).toEqual(["QUERY /flights/search", "COPY /flights/F1", "LINK /flights/F1"]);
    expect(seen).toEqual([{ from: "LHR", to: "JFK" }, ["F1", { target: "F2" }]]);
    // A method the route does not have is 405, and Allow lists the extension methods too.
    const wrong = await fetch(`${origin}/flights/F1`, { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, COPY, LINK, HEAD");
  });

  it("QUERY is retried like GET (it is safe and idempotent); COPY, whose meaning the spec does not say, is not", async () => {
    let calls = 0;
    const flaky = await listen((req, res) => {
      calls++;
      if (calls === 1) res.writeHead(503, { "retry-after": "0" }).end();
      else res.writeHead(req.method === "COPY" ? 201 : 200, { "content-type": "application/json" }).end(req.method === "COPY" ? JSON.stringify(flight("c")) : "[]");
    });
    try {
      const c = client({ baseUrl: flaky.url, maxRetries: 2 });
      expect(await c.searchFlights({ body: { from: "LHR" } })).toEqual([]);
      expect(calls).toBe(2);
      calls = 0;
      await expect(c.copyFlight({ path: { id: "F1" }, headers: { Destination: "X" } })).rejects.toMatchObject({ status: 503 });
      expect(calls).toBe(1);
    } finally {
      await flaky.close();
    }
  });

  it("a form querystring parameter is the whole query string, read back into the same object", async () => {
    let got: unknown;
    handlers = { findFlights: ({ querystring }: any) => ((got = querystring), { status: 200, body: [] }) };
    received.length = 0;
    const value = { from: "LHR", maxPrice: 450.5, carriers: ["BA", "AA"], when: { after: "2025-06-01", before: "a b&c" } };
    await client().findFlights({ querystring: value });
    expect(received).toEqual(["GET /flights/search?from=LHR&maxPrice=450.5&carriers=BA&carriers=AA&when%5Bafter%5D=2025-06-01&when%5Bbefore%5D=a%20b%26c"]);
    expect(got).toEqual(value);
    // Validated like a body: `from` is required.
    const invalid = await fetch(`${origin}/flights/search?maxPrice=3`);
    expect(invalid.status).toBe(400);
    expect(JSON.stringify(await invalid.json())).toContain("querystring");
  });

  it("a JSON querystring is percent-encoded JSON (the specification's example), a text one percent-encoded text", async () => {
    let got: unknown;
    handlers = {
      lookupFlights: ({ querystring }: any) => ((got = querystring), { status: 200, body: [] }),
      selectFlights: ({ querystring }: any) => ({ status: 200, body: querystring }),
    };
    received.length = 0;
    const c = client();
    await c.lookupFlights({ querystring: { ids: ["F1", "F2"], flag: null } });
    expect(got).toEqual({ ids: ["F1", "F2"], flag: null });
    await c.lookupFlights();
    expect(got).toBeUndefined();
    expect(await c.selectFlights({ querystring: "$.a.b[1:1]" })).toBe("$.a.b[1:1]");
    expect(received).toEqual([
      "GET /flights/lookup?%7B%22ids%22%3A%5B%22F1%22%2C%22F2%22%5D%2C%22flag%22%3Anull%7D",
      "GET /flights/lookup",
      "GET /flights/select?%24.a.b%5B1%3A1%5D",
    ]);
    const bad = await fetch(`${origin}/flights/lookup?%7Bnot-json`);
    expect(bad.status).toBe(400);
  });

  it("defaultMapping: a pet of another kind, or of none, is an OtherPet; a cat is still checked as a cat; the operation's named server is used", async () => {
    handlers = { addPet: ({ body }: any) => ({ status: 200, body }) };
    routerOptions = { insecureNoAuth: true, basePath: "/eu" };
    received.length = 0;
    try {
      const c = client();
      expect(await c.addPet({ body: { kind: "hamster", name: "Hammy" } })).toEqual({ kind: "hamster", name: "Hammy" });
      expect(await c.addPet({ body: { name: "Nemo" } })).toEqual({ name: "Nemo" });
      await expect(c.addPet({ body: { kind: "cat", lives: 12 } })).rejects.toMatchObject({ status: 400 });
      await expect(c.addPet({ body: { kind: "hamster" } })).rejects.toMatchObject({ status: 400 });
      expect(received.every((line) => line.startsWith("POST /eu/pets"))).toBe(true);
    } finally {
      routerOptions = { insecureNoAuth: true };
    }
  });

  it("multipart parts by position (prefixEncoding, itemEncoding): each part with its Content-Type, read back as an array", async () => {
    let got: unknown[] = [];
    handlers = { uploadPhotos: ({ body }: any) => ((got = body), { status: 204 }) };
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]);
    await client().uploadPhotos({ path: { id: "F1" }, body: [{ count: 2, camera: "x" }, new Blob([png]), png] });
    expect(got).toEqual([{ count: 2, camera: "x" }, png, png]);
    // On the wire: multipart/mixed, no part names, the encodings' Content-Types.
    let raw = "";
    let type = "";
    const recorder = await listen(async (req, res) => {
      type = String(req.headers["content-type"]);
      raw = await bodyOf(req);
      res.writeHead(204).end();
    });
    try {
      await client({ baseUrl: recorder.url }).uploadPhotos({ path: { id: "F1" }, body: [{ count: 1 }, "not really a png"] });
    } finally {
      await recorder.close();
    }
    const boundary = /boundary=(\S+)/.exec(type)![1];
    expect(type).toMatch(/^multipart\/mixed; boundary=/);
    expect(raw).toBe(`--${boundary}\r\nContent-Type: application/json\r\n\r\n{"count":1}\r\n--${boundary}\r\nContent-Type: image/png\r\n\r\nnot really a png\r\n--${boundary}--\r\n`);
    // The router validates the parts against prefixItems / items.
    const invalid = await fetch(`${origin}/flights/F1/photos`, {
      method: "POST",
      headers: { "content-type": "multipart/mixed; boundary=b", authorization: "Bearer t" },
      body: '--b\r\nContent-Type: application/json\r\n\r\n{"count":"two"}\r\n--b--\r\n',
    });
    expect(invalid.status).toBe(400);
    expect(JSON.stringify(await invalid.json())).toContain("count");
    const broken = await fetch(`${origin}/flights/F1/photos`, { method: "POST", headers: { "content-type": "multipart/mixed; boundary=b" }, body: "--b\r\nno end" });
    expect(broken.status).toBe(400);
  });

  it("mock answers use an example's dataValue", async () => {
    handlers = {};
    routerOptions = { mock: true };
    try {
      expect(await client().searchFlights({ body: { from: "LHR" } })).toEqual([{ id: "F1", from: "LHR", to: "ATL" }]);
    } finally {
      routerOptions = { insecureNoAuth: true };
    }
  });
});

describe("OAuth 2 device authorization flow (RFC 8628) from the spec's oauth2MetadataUrl", () => {
  it("shows the user code once, polls until approved, sends the token and renews it with the refresh token", async () => {
    const log: string[] = [];
    let polls = 0;
    let issued = 0;
    const auth = await listen(async (req, res) => {
      const form = new URLSearchParams(await bodyOf(req));
      const reply = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (req.url === "/.well-known/oauth-authorization-server") return reply(200, { issuer: auth.url, device_authorization_endpoint: `${auth.url}/device`, token_endpoint: `${auth.url}/token` });
      if (req.url === "/device") {
        log.push(`device ${form.get("client_id")} ${form.get("scope")}`);
        return reply(200, { device_code: "dev-1", user_code: "WDJB-MJHT", verification_uri: `${auth.url}/activate`, expires_in: 30, interval: 0 });
      }
      if (form.get("grant_type") === "urn:ietf:params:oauth:grant-type:device_code") {
        log.push(`poll ${form.get("device_code")}`);
        if (++polls < 3) return reply(400, { error: "authorization_pending" });
        return reply(200, { access_token: `access-${++issued}`, token_type: "Bearer", expires_in: 1, refresh_token: "refresh-1" });
      }
      if (form.get("grant_type") === "refresh_token") {
        log.push(`refresh ${form.get("refresh_token")}`);
        return reply(200, { access_token: `access-${++issued}`, token_type: "Bearer", expires_in: 3600 });
      }
      reply(400, { error: "unsupported_grant_type" });
    });
    const tokens: string[] = [];
    handlers = { getFlight: ({ path }: any) => ({ status: 200, body: flight(path.id) }) };
    routerOptions = { authenticate: ({ oauth }: any) => (tokens.push(oauth.token), { token: oauth.token }) };
    try {
      const prompts: unknown[] = [];
      const c = client({
        oauth: {
          deviceFlow: {
            clientId: "cli",
            metadataUrl: `${auth.url}/.well-known/oauth-authorization-server`,
            onUserCode: (prompt: unknown) => void prompts.push(prompt),
          },
        },
      });
      // Two calls at once share one flow.
      await Promise.all([c.getFlight({ path: { id: "F1" } }), c.getFlight({ path: { id: "F2" } })]);
      expect(prompts).toEqual([{ userCode: "WDJB-MJHT", verificationUri: `${auth.url}/activate`, expiresIn: 30 }]);
      expect(tokens).toEqual(["access-1", "access-1"]);
      // The token lived 1 s: the next call renews it with the refresh token, without asking the user again.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await c.getFlight({ path: { id: "F3" } });
      expect(tokens).toEqual(["access-1", "access-1", "access-2"]);
      expect(log).toEqual(["device cli flights:read flights:write", "poll dev-1", "poll dev-1", "poll dev-1", "refresh refresh-1"]);
      expect(prompts.length).toBe(1);
    } finally {
      routerOptions = { insecureNoAuth: true };
      await auth.close();
    }
  });

  it("a denied code rejects the call with OAuth2Error access_denied, and nothing is sent to the API", async () => {
    const auth = await listen(async (req, res) => {
      await bodyOf(req);
      const reply = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (req.url === "/device") return reply(200, { device_code: "d", user_code: "U", verification_uri: "https://x", expires_in: 30, interval: 0 });
      reply(400, { error: "access_denied", error_description: "The user said no" });
    });
    received.length = 0;
    try {
      const c = client({ oauth: { deviceFlow: { clientId: "cli", deviceAuthorizationUrl: `${auth.url}/device`, tokenUrl: `${auth.url}/token`, onUserCode: () => undefined } } });
      const error = await c.getFlight({ path: { id: "F1" } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(mod.OAuth2Error);
      expect(error).toMatchObject({ code: "access_denied" });
      expect(received).toEqual([]);
    } finally {
      await auth.close();
    }
  });
});

/** A loopback HTTP server answering with `handle`. */
async function listen(handle: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<{ url: string; close: () => Promise<void> }> {
  const s = createServer((req, res) => void Promise.resolve(handle(req, res)).catch(() => res.writeHead(500).end()));
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve()))),
  };
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
