import { connect } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRouterRuntime, type RouteSpec, type RouterOptions } from "../../../templates/server/index.js";
import { toNodeListener } from "../../../templates/server/node.js";
import { deferred, listen, type Running } from "./helpers.js";

/**
 * The node:http adapter serves routers made by createRouterRuntime without building web Request/Response
 * objects on the hot path (see templates/server/incoming.ts). These tests pin that it answers exactly as
 * `router.fetch` does, and that the Request it hands out on demand is a faithful one.
 */

const none = { path: [], query: [], header: [] };
const json = { "200": { content: { "application/json": { schema: {} } } } };
const routes: RouteSpec[] = [
  {
    name: "echo",
    method: "GET",
    path: "/a/{x}",
    secured: false,
    params: { path: [{ name: "x", required: true, schema: { type: "string" } }], query: [{ name: "q", required: false, schema: { type: "array", items: { type: "integer" } } }], header: [] },
    responses: json,
    validationErrorStatus: 400,
  },
  { name: "secret", method: "GET", path: "/secret", secured: true, params: none, responses: json, validationErrorStatus: 400 },
  {
    name: "upload",
    method: "POST",
    path: "/upload",
    secured: true,
    params: none,
    body: { required: true, content: { "application/json": { schema: { type: "object" } } } },
    responses: json,
    validationErrorStatus: 400,
  },
  { name: "raw", method: "POST", path: "/raw", secured: true, params: none, responses: json, validationErrorStatus: 400 },
  { name: "keys", method: "GET", path: "/keys", secured: false, params: none, responses: json, validationErrorStatus: 400 },
];

type Seen = { authRequest?: Request; ctxRequest?: Request };

function makeRouter(seen: Seen, options: RouterOptions<{ user: string }> = {}) {
  return createRouterRuntime<{ user: string }>(
    {},
    routes,
    {
      echo: ({ path, query }: { path: object; query: object }) => ({ status: 200, body: { path, query } }),
      secret: ({ request }: { request: Request }) => {
        seen.ctxRequest = request;
        return { status: 200, body: { org: request.headers.get("x-org"), method: request.method, url: request.url, bodyIsNull: request.body === null } };
      },
      upload: ({ body, request }: { body: unknown; request: Request }) => {
        seen.ctxRequest = request;
        return { status: 200, body: { body, requestBody: request.body === null ? null : "stream" } };
      },
      raw: async ({ request }: { request: Request }) => ({ status: 200, body: { text: await request.text() } }),
      keys: (ctx: object) => ({ status: 200, body: { keys: Object.keys(ctx), spreadHasRequest: { ...ctx }.hasOwnProperty("request") } }),
    },
    {
      // Routes without `security` (written before schemes were read) take a bearer token, under "bearer".
      authenticate: ({ bearer }, request) => {
        seen.authRequest = request;
        return bearer?.type === "bearer" && bearer.token === "good" ? { user: "u1" } : null;
      },
      ...options,
    },
  );
}

/** One raw HTTP/1.1 exchange (fetch would normalise the target before sending it). */
function rawRequest(port: number, head: string, body = ""): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(`${head}\r\nConnection: close\r\n\r\n${body}`));
    let data = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (data += chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const split = data.indexOf("\r\n\r\n");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, headers: data.slice(0, split), body: data.slice(split + 4) });
    });
  });
}

describe("node adapter: same answers as router.fetch", () => {
  const seen: Seen = {};
  const router = makeRouter(seen);
  let app: Running;
  beforeAll(async () => {
    app = await listen(toNodeListener(router));
  });
  afterAll(() => app.close());

  // Targets that URL parsing (which `new Request` applies) leaves as they are, or only percent-encodes: the
  // adapter reads them as sent and must agree. (Dot segments, backslashes and "//" are another matter: below.)
  const targets = [
    "/a/b",
    "/a/b?q=1&q=2",
    "/a/b?q=1,2",
    "/a/b%20c?x=%E2%9C%93+y",
    "/a/b%2Fc",
    "/a/b?q=3#frag",
    "/a/{b}",
    "/a/b'c?q='1'",
    "/a/b|c",
    "/a/.well-known",
    "/a/b?q=x",
    "/nope",
  ];
  it.each(targets)("GET %s", async (target) => {
    const viaFetch = await router.fetch(new Request(new URL(target, "http://127.0.0.1")));
    const viaNode = await rawRequest(app.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1`);
    expect(viaNode.status).toBe(viaFetch.status);
    expect(JSON.parse(viaNode.body)).toEqual(await viaFetch.json());
  });

  it("routes the target as sent: dot segments, backslashes and '//' are not resolved", async () => {
    for (const target of ["/a/./b", "/a/../a/c", "/a/%2e%2e/a/d", "/a/%2E/b", "/a\\b", "//a/b"]) {
      expect((await rawRequest(app.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1`)).status, target).toBe(404);
    }
    for (const [target, x] of [["/a/..", ".."], ["/a/%2e%2e", ".."], ["/a/.", "."]]) {
      const res = await rawRequest(app.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1`);
      expect(res.status, target).toBe(200);
      expect(JSON.parse(res.body).path, target).toEqual({ x });
    }
  });

  it("the Host header never takes part in routing; one that is not a host is a 400", async () => {
    const withPath = await rawRequest(app.port, "GET /b HTTP/1.1\r\nHost: example.com/a");
    expect(withPath.status).toBe(400);
    expect(JSON.parse(withPath.body)).toMatchObject({ status: 400, detail: "Invalid Host header" });
    expect((await rawRequest(app.port, "GET /a/b HTTP/1.1\r\nHost: bad host")).status).toBe(400);
    expect((await rawRequest(app.port, "GET /a/b HTTP/1.1\r\nHost: localhost:99999")).status).toBe(400);
    expect((await rawRequest(app.port, "GET /a/b HTTP/1.1\r\nHost: localhost:8080")).status).toBe(200);
  });

  it("reads Host, Content-Length and Transfer-Encoding in any spelling of their names (the fast compares aside)", async () => {
    for (const name of ["host", "Host", "HOST", "hOsT"]) {
      const res = await rawRequest(app.port, `GET /b HTTP/1.1\r\n${name}: example.com/a`);
      expect(res.status, name).toBe(400);
      expect(JSON.parse(res.body), name).toMatchObject({ detail: "Invalid Host header" });
    }
    for (const name of ["content-length", "Content-Length", "CONTENT-LENGTH", "content-Length"]) {
      // Declared over the limit: refused before a byte of the body is read.
      const res = await rawRequest(app.port, `POST /upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nContent-Type: application/json\r\n${name}: 99999999`);
      expect(res.status, name).toBe(413);
    }
    for (const name of ["transfer-encoding", "Transfer-Encoding", "TRANSFER-ENCODING", "Transfer-encoding"]) {
      const res = await rawRequest(
        app.port,
        `POST /upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nContent-Type: application/json\r\n${name}: chunked`,
        '7\r\n{"a":1}\r\n0\r\n\r\n',
      );
      expect(res.status, name).toBe(200);
      expect(JSON.parse(res.body).body, name).toEqual({ a: 1 });
    }
  });

  it("takes the Authorization scheme in any case, and nothing that only starts like it", async () => {
    for (const header of ["Bearer good", "bearer good", "BEARER good", "bEaReR good", "Bearer\tgood"]) {
      const viaNode = await rawRequest(app.port, `GET /secret HTTP/1.1\r\nHost: x\r\nAuthorization: ${header}`);
      expect(viaNode.status, header).toBe(200);
      expect((await router.fetch(new Request("http://x/secret", { headers: { authorization: header } }))).status, header).toBe(200);
    }
    for (const header of ["Bearerx good", "Bearer", "Bearer ", "Basic good", "Bearer bad", "Bearergood"]) {
      expect((await rawRequest(app.port, `GET /secret HTTP/1.1\r\nHost: x\r\nAuthorization: ${header}`)).status, header).toBe(401);
      expect((await router.fetch(new Request("http://x/secret", { headers: { authorization: header } }))).status, header).toBe(401);
    }
  });

  it("methods web Requests refuse are a 400, as before", async () => {
    expect((await rawRequest(app.port, "TRACE /a/b HTTP/1.1\r\nHost: x")).status).toBe(400);
  });

  it("repeated headers are joined as Headers.get joins them", async () => {
    const twice = await rawRequest(app.port, "GET /secret HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nAuthorization: Bearer good");
    expect(twice.status).toBe(401); // "Bearer good, Bearer good" is not the token "good"
    const once = await rawRequest(app.port, "GET /secret HTTP/1.1\r\nHost: x\r\nauthorization: Bearer good\r\nX-Org: a\r\nx-org: b");
    expect(once.status).toBe(200);
    expect(JSON.parse(once.body).org).toBe("a, b");
  });

  it("HEAD answers the GET route's headers with its Content-Length and no body", async () => {
    const get = await rawRequest(app.port, "GET /a/b HTTP/1.1\r\nHost: x");
    const head = await rawRequest(app.port, "HEAD /a/b HTTP/1.1\r\nHost: x");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect(head.headers).toMatch(new RegExp(`content-length: ${Buffer.byteLength(get.body)}`, "i"));
    const viaFetch = await router.fetch(new Request("http://x/a/b", { method: "HEAD" }));
    expect(viaFetch.headers.get("content-length")).toBe(String(Buffer.byteLength(get.body)));
  });
});

describe("node adapter: the Request handed to authenticate, handlers and onError", () => {
  const seen: Seen = {};
  let app: Running;
  const errors: { error: unknown; request: Request }[] = [];
  beforeAll(async () => {
    app = await listen(toNodeListener(makeRouter(seen, { onError: (error, context) => errors.push({ error, request: context.request }) })));
  });
  afterAll(() => app.close());

  it("is one Request object, built on demand, that behaves as the real one", async () => {
    const res = await fetch(`${app.url}/secret?x=1`, { headers: { authorization: "Bearer good", "x-org": "acme" } });
    expect(await res.json()).toEqual({ org: "acme", method: "GET", url: `${app.url}/secret?x=1`, bodyIsNull: true });
    const request = seen.ctxRequest!;
    expect(request).toBe(seen.authRequest);
    expect(request).toBeInstanceOf(Request);
    expect(Object.getPrototypeOf(request)).toBe(Request.prototype);
    expect(request.headers.get("x-org")).toBe("acme");
    expect(new Request(request).url).toBe(`${app.url}/secret?x=1`);
    expect(request.clone().headers.get("x-org")).toBe("acme");
    expect(inspect(request)).toContain("Request");
    expect(request.signal).toBeInstanceOf(AbortSignal);
    expect(request.signal.aborted).toBe(false); // the answer went out before the client closed
  });

  it("has no body stream when the router reads the body itself; the handler gets the parsed body", async () => {
    const res = await fetch(`${app.url}/upload`, { method: "POST", headers: { authorization: "Bearer good", "content-type": "application/json" }, body: '{"a":1}' });
    expect(await res.json()).toEqual({ body: { a: 1 }, requestBody: null });
    expect(seen.authRequest).toBe(seen.ctxRequest);
  });

  it("is an own property of the handler context, like every other field", async () => {
    const res = await fetch(`${app.url}/keys`);
    expect(await res.json()).toEqual({ keys: ["path", "query", "querystring", "headers", "cookies", "body", "contentType", "partHeaders", "auth", "request", "operation"], spreadHasRequest: true });
    expect(res.headers.get("connection")).toBe("keep-alive"); // answered synchronously, body-less: the connection stays
  });

  it("carries the body stream for operations without a declared body", async () => {
    const res = await fetch(`${app.url}/raw`, { method: "POST", headers: { authorization: "Bearer good", "content-type": "text/plain" }, body: "as sent" });
    expect(await res.json()).toEqual({ text: "as sent" });
  });

  it("aborts its signal when the client goes away mid-request", async () => {
    const started = deferred();
    const aborted = deferred();
    const slow = await listen(
      toNodeListener(
        createRouterRuntime({}, [routes[1]], {
          secret: ({ request }: { request: Request }) =>
            new Promise((resolve) => {
              request.signal.addEventListener("abort", () => {
                aborted.resolve();
                resolve({ status: 200, body: {} });
              });
              started.resolve();
            }),
        }, { insecureNoAuth: true }),
      ),
    );
    try {
      const controller = new AbortController();
      const pending = fetch(`${slow.url}/secret`, { signal: controller.signal }).catch(() => "aborted");
      await started.promise;
      controller.abort();
      expect(await pending).toBe("aborted");
      await aborted.promise;
    } finally {
      await slow.close();
    }
  });
});

describe("failures after an await are answered by the router, as synchronous ones are", () => {
  // The router's own 500 (the operation's error shape, onError told) whether a step fails before or after
  // something was awaited: reading the body, an async authenticate, an async handler.
  const upload = routes[2]!;
  const secret = routes[1]!;
  const cases: [string, RouteSpec, Record<string, unknown>, RouterOptions<{ user: string }>["authenticate"], RequestInit & { path: string }][] = [
    ["authenticate rejects", secret, { secret: () => ({ status: 200, body: {} }) }, () => Promise.reject(new Error("auth down")), { path: "/secret" }],
    ["the handler throws after the body was read", upload, { upload: () => { throw new Error("boom"); } }, () => ({ user: "u" }), { path: "/upload", method: "POST", body: "{}" }],
    ["the handler gives an impossible status after the body was read", upload, { upload: () => ({ status: 99, body: {} }) }, () => ({ user: "u" }), { path: "/upload", method: "POST", body: "{}" }],
    ["an async handler gives an impossible status", secret, { secret: async () => ({ status: 99, body: {} }) }, async () => ({ user: "u" }), { path: "/secret" }],
    ["an async handler rejects", secret, { secret: () => Promise.reject(new Error("down")) }, async () => ({ user: "u" }), { path: "/secret" }],
  ];
  it.each(cases)("%s: 500 from the router through fetch and through the node adapter", async (_, route, handlers, authenticate, { path, ...init }) => {
    const errors: unknown[] = [];
    const router = createRouterRuntime<{ user: string }>({}, [route], handlers, { authenticate, onError: (error) => errors.push(error) });
    const headers = { authorization: "Bearer t", "content-type": "application/json" };
    const viaFetch = await router.fetch(new Request(`http://127.0.0.1${path}`, { ...init, headers }));
    expect(viaFetch.status).toBe(500);
    const expected = await viaFetch.json();
    const app = await listen(toNodeListener(router, { onError: (error) => errors.push(["adapter", error]) }));
    try {
      const viaNode = await fetch(`${app.url}${path}`, { ...init, headers });
      expect(viaNode.status).toBe(500);
      expect(viaNode.headers.get("content-type")).toBe(viaFetch.headers.get("content-type"));
      expect(await viaNode.json()).toEqual(expected);
    } finally {
      await app.close();
    }
    // Each failure told onError once per request, and never reached the adapter's last-resort handler.
    expect(errors).toHaveLength(2);
    expect(errors.some((error) => Array.isArray(error))).toBe(false);
  });
});
