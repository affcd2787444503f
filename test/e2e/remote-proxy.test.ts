/**
 * Spec URLs through a company's forward proxy (HTTP_PROXY, HTTPS_PROXY, NO_PROXY): a proxy written here, on
 * 127.0.0.1, in front of vendor servers (plain http, and https with a certificate made for the test by openssl).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { cleanupTempDirs, closedPort, runBin, snapshotTree, tempDir, V1_SPEC, writeFiles } from "../helpers.js";
import { ForwardProxy } from "./forward-proxy.js";
import { VendorServer, document, type Route, type SeenRequest } from "./vendor-server.js";

afterAll(cleanupTempDirs);

const V1 = readFileSync(V1_SPEC, "utf8");
const EDITED = V1.replace("enum: [training_started, gradient_step, training_ended, training_failed]", "enum: [training_started, gradient_step, training_ended, training_failed, training_paused]");

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function vendor(routes: Record<string, Route>): Promise<VendorServer> {
  const server = await VendorServer.start(routes);
  closers.push(() => server.close());
  return server;
}

async function forwardProxy(options: Parameters<typeof ForwardProxy.start>[0] = {}): Promise<ForwardProxy> {
  const proxy = await ForwardProxy.start(options);
  closers.push(() => proxy.close());
  return proxy;
}

/** No proxy setting of this machine leaks into a run: every variable is given (an empty one is unset). */
const NO_PROXIES = { http_proxy: "", HTTP_PROXY: "", https_proxy: "", HTTPS_PROXY: "", no_proxy: "", NO_PROXY: "" };

/** The CLI in-process with only the environment given. */
async function run(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { cwd, env: { PATH: process.env.PATH, NO_COLOR: "1", ...NO_PROXIES, ...env }, stdout: (t) => (stdout += t + "\n"), stderr: (t) => (stderr += t + "\n") });
  return { code, stdout, stderr };
}

function project(config: Record<string, unknown>): string {
  const dir = tempDir();
  writeFiles(dir, { "package.json": "{}\n", "specforge.config.json": JSON.stringify({ outputs: ["client"], ...config }, null, 2) });
  return dir;
}

const generatedFiles = (dir: string) => new Map([...snapshotTree(join(dir, "generated"))].filter(([path]) => path !== ".specforge-manifest.json").map(([path, state]) => [path, state.content]));

describe("http spec URLs through HTTP_PROXY", () => {
  it("sends an absolute-form GET to the proxy, with the origin's credentials, and generates what the direct fetch generates", async () => {
    const server = await vendor({ "/openapi.yaml": document(() => V1) });
    const proxy = await forwardProxy();
    const proxied = project({ spec: server.url("/openapi.yaml") });
    const direct = project({ spec: server.url("/openapi.yaml") });

    const result = await run(["generate"], proxied, { HTTP_PROXY: proxy.url, SPECFORGE_SPEC_TOKEN: "vendor-token" });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect((await run(["generate"], direct)).code).toBe(0);
    expect(generatedFiles(proxied)).toEqual(generatedFiles(direct));

    expect(proxy.seen.map(({ method, target }) => `${method} ${target}`)).toEqual([`GET ${server.url("/openapi.yaml")}`]);
    expect(proxy.seen[0]!.headers.host).toBe(new URL(server.origin).host);
    // Two requests reached the vendor: the proxied one (with its token) and the direct one.
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(["Bearer vendor-token", undefined]);
  });

  it("sends the proxy's own credentials from the proxy URL, percent-decoded, as Proxy-Authorization: Basic", async () => {
    const server = await vendor({ "/openapi.yaml": document(() => V1) });
    const proxy = await forwardProxy({ credentials: "jane:p@ss:w/rd" });
    const dir = project({ spec: server.url("/openapi.yaml") });
    const result = await run(["generate"], dir, { http_proxy: `http://jane:p%40ss%3Aw%2Frd@127.0.0.1:${proxy.port}` });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(proxy.seen[0]!.headers["proxy-authorization"]).toBe(`Basic ${Buffer.from("jane:p@ss:w/rd").toString("base64")}`);
  });

  it("reads lower-case variables before upper-case ones, as curl does", async () => {
    const server = await vendor({ "/openapi.yaml": document(() => V1) });
    const proxy = await forwardProxy();
    const dir = project({ spec: server.url("/openapi.yaml") });
    const result = await run(["generate"], dir, { http_proxy: proxy.url, HTTP_PROXY: `http://127.0.0.1:${await closedPort()}` });
    expect(result.code).toBe(0);
    expect(proxy.seen).toHaveLength(1);
  });

  it("keeps every rule of a direct fetch: redirects within the origin, the ETag's 304, the size limit (of decompressed bytes)", async () => {
    let text = V1;
    const server = await vendor({
      "/latest.yaml": (_request, response) => void response.writeHead(302, { location: "/openapi.yaml" }).end(),
      "/openapi.yaml": document(() => text),
      "/huge.yaml": (_request, response) => void response.writeHead(200, { "content-type": "application/yaml", "content-encoding": "gzip" }).end(gzipSync(Buffer.alloc(4 << 20, 0x20))),
      "/elsewhere.yaml": (_request, response) => void response.writeHead(302, { location: "http://127.0.0.2:1/openapi.yaml" }).end(),
    });
    const proxy = await forwardProxy();
    const env = { HTTP_PROXY: proxy.url };
    const dir = project({ spec: server.url("/latest.yaml") });
    expect((await run(["generate"], dir, env)).code).toBe(0);
    const again = await run(["generate", "--verbose"], dir, env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("not modified since the cached copy (304)");
    expect(proxy.seen.map((r) => r.target)).toEqual([server.url("/latest.yaml"), server.url("/openapi.yaml"), server.url("/latest.yaml"), server.url("/openapi.yaml")]);
    expect(server.seen("/openapi.yaml")[1]!.headers["if-none-match"]).toMatch(/^"[0-9a-f]{16}"$/);
    text = EDITED;
    expect((await run(["generate"], dir, env)).code).toBe(0);
    expect(readFileSync(join(dir, "generated", "schema.ts"), "utf8")).toContain('"training_paused"');

    const huge = project({ spec: server.url("/huge.yaml"), maxSpecFileBytes: 1 << 20 });
    const refused = await run(["generate"], huge, env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${server.url("/huge.yaml")}: sent more than the limit of 1048576 bytes`);

    const away = project({ spec: server.url("/elsewhere.yaml") });
    const notFollowed = await run(["generate"], away, env);
    expect(notFollowed.code).toBe(2);
    expect(notFollowed.stderr).toContain("redirects to http://127.0.0.2:1/openapi.yaml, another origin: not followed");
  });

  it("reads `diff`'s spec URLs through the proxy too", async () => {
    const server = await vendor({ "/old.yaml": document(() => V1), "/new.yaml": document(() => EDITED) });
    const proxy = await forwardProxy();
    const dir = project({});
    const result = await run(["diff", server.url("/old.yaml"), server.url("/new.yaml"), "--format", "json"], dir, { HTTP_PROXY: proxy.url });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("training_paused");
    expect(proxy.seen.map((r) => r.target).sort()).toEqual([server.url("/new.yaml"), server.url("/old.yaml")]);
  });

  it("goes direct to the hosts NO_PROXY names: the host, its port, `*`; not another port", async () => {
    const server = await vendor({ "/openapi.yaml": document(() => V1) });
    const proxy = await forwardProxy();
    const port = new URL(server.origin).port;
    for (const noProxy of ["127.0.0.1", `example.com, 127.0.0.1:${port}`, "*"]) {
      const dir = project({ spec: server.url("/openapi.yaml") });
      expect((await run(["generate"], dir, { HTTP_PROXY: proxy.url, NO_PROXY: noProxy })).code).toBe(0);
    }
    expect(proxy.seen).toEqual([]);
    const dir = project({ spec: server.url("/openapi.yaml") });
    expect((await run(["generate"], dir, { HTTP_PROXY: proxy.url, no_proxy: "127.0.0.1:1,.example.com" })).code).toBe(0);
    expect(proxy.seen).toHaveLength(1);
  });
});

describe("CIDR ranges in NO_PROXY", () => {
  it("go direct to a vendor whose URL's IP is in a range (127.0.0.0/8), through the proxy when it is not (127.1.0.0/16)", async () => {
    const server = await vendor({ "/openapi.yaml": document(() => V1) });
    const proxy = await forwardProxy();
    const direct = project({ spec: server.url("/openapi.yaml") });
    expect((await run(["generate"], direct, { HTTP_PROXY: proxy.url, NO_PROXY: "vendor.example, 127.0.0.0/8" })).code).toBe(0);
    expect(proxy.seen).toEqual([]);
    expect(server.seen("/openapi.yaml")).toHaveLength(1);
    const proxied = project({ spec: server.url("/openapi.yaml") });
    expect((await run(["generate"], proxied, { HTTP_PROXY: proxy.url, NO_PROXY: "127.1.0.0/16,fd00::/8,10.0.0.0/33" })).code).toBe(0);
    expect(proxy.seen.map((request) => request.target)).toEqual([server.url("/openapi.yaml")]);
    expect(generatedFiles(proxied)).toEqual(generatedFiles(direct));
  });
});

describe("a proxy that will not carry the request is exit 2, naming the proxy (never its password) and the URL", () => {
  function expectRefused(result: { code: number; stdout: string; stderr: string }, dir: string): string {
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(existsSync(join(dir, "generated"))).toBe(false);
    return result.stderr;
  }

  it("407 without credentials, and with wrong ones", async () => {
    const server = await vendor({ "/openapi.yaml": document(() => V1) });
    const proxy = await forwardProxy({ credentials: "jane:secret" });
    const url = server.url("/openapi.yaml");
    const dir = project({ spec: url });
    expect(expectRefused(await run(["generate"], dir, { HTTP_PROXY: proxy.url }), dir)).toBe(
      `specforge: error: ${url}: cannot be fetched: the proxy ${proxy.url} (HTTP_PROXY) answered 407 Proxy Authentication Required\n` +
        "  hint: the proxy asks for credentials: put them in HTTP_PROXY (http://user:password@host:port)\n",
    );
    const wrong = expectRefused(await run(["generate"], dir, { HTTP_PROXY: `http://jane:hunter2@127.0.0.1:${proxy.port}` }), dir);
    expect(wrong).toContain(`${url}: cannot be fetched: the proxy ${proxy.url} (HTTP_PROXY) answered 407`);
    expect(wrong).toContain("refused the credentials in HTTP_PROXY");
    expect(wrong).not.toContain("hunter2");
    expect(server.requests).toEqual([]);
  });

  it("a proxy that refuses the connection", async () => {
    const port = await closedPort();
    const dir = project({ spec: "http://127.0.0.1:9/openapi.yaml" });
    const stderr = expectRefused(await run(["generate"], dir, { HTTP_PROXY: `http://jane:hunter2@127.0.0.1:${port}` }), dir);
    expect(stderr).toContain(`http://127.0.0.1:9/openapi.yaml: cannot be fetched through the proxy http://127.0.0.1:${port} (HTTP_PROXY): connection refused (ECONNREFUSED)`);
    expect(stderr).not.toContain("hunter2");
  });

  it("a proxy variable that is no URL", async () => {
    const dir = project({ spec: "http://127.0.0.1:9/openapi.yaml" });
    const stderr = expectRefused(await run(["generate"], dir, { HTTP_PROXY: "socks5://127.0.0.1:1080" }), dir);
    expect(stderr).toContain("http://127.0.0.1:9/openapi.yaml: cannot be fetched: HTTP_PROXY names a socks5 proxy: only http:// and https:// proxies are supported");
  });
});

describe("https spec URLs through HTTPS_PROXY: a CONNECT tunnel, TLS to the origin inside it", () => {
  let certDir: string;
  let origin: HttpsServer;
  let originUrl: string;
  const seen: SeenRequest[] = [];
  const routes = new Map<string, Route>();

  beforeAll(async () => {
    certDir = tempDir();
    // A certificate for 127.0.0.1 made for this test (the run trusts it through NODE_EXTRA_CA_CERTS, as a company CA).
    execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", join(certDir, "key.pem"), "-out", join(certDir, "cert.pem")], { stdio: "ignore" });
    origin = createHttpsServer({ key: readFileSync(join(certDir, "key.pem")), cert: readFileSync(join(certDir, "cert.pem")) }, (request, response) => {
      seen.push({ method: request.method ?? "", path: request.url ?? "", headers: request.headers });
      const route = routes.get(request.url ?? "");
      if (route) route(request, response);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
    originUrl = `https://127.0.0.1:${(origin.address() as { port: number }).port}`;
    routes.set("/openapi.yaml", document(() => V1));
    return async () => {
      origin.closeAllConnections();
      await new Promise<void>((resolve) => origin.close(() => resolve()));
    };
  });

  /** The built CLI, for NODE_EXTRA_CA_CERTS (read when Node starts). */
  const bin = (args: string[], dir: string, env: NodeJS.ProcessEnv) => runBin(args, dir, { ...NO_PROXIES, SPECFORGE_SPEC_TOKEN: "", SPECFORGE_CACHE_DIR: "", NODE_EXTRA_CA_CERTS: join(certDir, "cert.pem"), ...env });

  it("opens the tunnel with only the proxy's headers, sends the origin's credentials inside it, and revalidates through it", async () => {
    seen.length = 0;
    const proxy = await forwardProxy({ credentials: "jane:secret" });
    const dir = project({ spec: `${originUrl}/openapi.yaml` });
    const env = { HTTPS_PROXY: `http://jane:secret@127.0.0.1:${proxy.port}`, HTTP_PROXY: "http://127.0.0.1:9", SPECFORGE_SPEC_TOKEN: "vendor-token" };
    const first = await bin(["generate"], dir, env);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(existsSync(join(dir, "generated", ".specforge-manifest.json"))).toBe(true);

    const authority = new URL(originUrl).host;
    expect(proxy.seen).toEqual([{ method: "CONNECT", target: authority, headers: { host: authority, "proxy-authorization": `Basic ${Buffer.from("jane:secret").toString("base64")}`, connection: "close" } }]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.authorization).toBe("Bearer vendor-token");
    expect(seen[0]!.headers["proxy-authorization"]).toBeUndefined();

    const again = await bin(["generate", "--verbose"], dir, env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("not modified since the cached copy (304)");
    expect(seen[1]!.headers["if-none-match"]).toMatch(/^"[0-9a-f]{16}"$/);
    expect(proxy.seen.map((r) => r.method)).toEqual(["CONNECT", "CONNECT"]);
  }, 60_000);

  it("checks the origin's certificate inside the tunnel: without the CA it is refused", async () => {
    const proxy = await forwardProxy();
    const dir = project({ spec: `${originUrl}/openapi.yaml` });
    const result = await bin(["generate"], dir, { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: "" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${originUrl}/openapi.yaml: cannot be fetched through the proxy ${proxy.url} (HTTPS_PROXY): the server's TLS certificate was refused`);
    expect(proxy.seen.map((r) => r.method)).toEqual(["CONNECT"]);
  }, 60_000);

  it("a tunnel the proxy refuses (407, 502) is exit 2 naming the proxy and the URL; the origin sees nothing", async () => {
    seen.length = 0;
    const url = `${originUrl}/openapi.yaml`;
    const needsCredentials = await forwardProxy({ credentials: "jane:secret" });
    const dir = project({ spec: url });
    const refused = await bin(["generate"], dir, { https_proxy: needsCredentials.url });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`specforge: error: ${url}: cannot be fetched: the proxy ${needsCredentials.url} (https_proxy) answered 407 Proxy Authentication Required`);

    const badGateway = await forwardProxy({ refuseTunnels: 502 });
    const gateway = await bin(["generate"], dir, { HTTPS_PROXY: badGateway.url });
    expect(gateway.code).toBe(2);
    expect(gateway.stderr).toContain(`${url}: cannot be fetched: the proxy ${badGateway.url} (HTTPS_PROXY) answered 502 Refused when asked to connect to ${new URL(originUrl).host}`);
    expect(seen).toEqual([]);
    expect(existsSync(join(dir, "generated"))).toBe(false);
  }, 60_000);
});
