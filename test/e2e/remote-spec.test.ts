import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { cleanupTempDirs, closedPort, FIXTURES, snapshotTree, tempDir, V1_SPEC, writeFiles } from "../helpers.js";
import { withMock } from "./mock-process.js";
import { VendorServer, document, folder, type Route } from "./vendor-server.js";

afterAll(cleanupTempDirs);

const servers: VendorServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function vendor(routes: Record<string, Route> = {}): Promise<VendorServer> {
  const server = await VendorServer.start(routes);
  servers.push(server);
  return server;
}

const V1 = readFileSync(V1_SPEC, "utf8");
const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");
const ADD_EVENT_TYPE = (text: string) =>
  text.replace("enum: [training_started, gradient_step, training_ended, training_failed]", "enum: [training_started, gradient_step, training_ended, training_failed, training_paused]");

/** The CLI in-process, with only the environment given (no token or cache folder leaks in from the machine). */
async function run(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { cwd, env: { PATH: process.env.PATH, NO_COLOR: "1", ...env }, stdout: (t) => (stdout += t + "\n"), stderr: (t) => (stderr += t + "\n") });
  return { code, stdout, stderr };
}

/** A downstream project (a package.json, so the cache is its node_modules/.cache/specforge) with a config. */
function project(config: Record<string, unknown>, files: Record<string, string> = {}): string {
  const dir = tempDir();
  writeFiles(dir, { "package.json": "{}\n", "specforge.config.json": JSON.stringify({ outputs: ["client"], ...config }, null, 2), ...files });
  return dir;
}

const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, "generated", ".specforge-manifest.json"), "utf8")) as { spec: string; inputs: Record<string, Record<string, string>> };
const read = (dir: string, file: string) => readFileSync(join(dir, "generated", file), "utf8");

/** Every generated file but the manifest (which names the spec's source). */
function outputWithoutManifest(dir: string): Map<string, string> {
  const files = new Map([...snapshotTree(join(dir, "generated"))].map(([path, state]) => [path, state.content]));
  files.delete(".specforge-manifest.json");
  return files;
}

/** A refused run: exit 2, the message, nothing on stdout, no output folder. */
function expectRefused(result: { code: number; stdout: string; stderr: string }, dir: string, message: string): void {
  expect(result.stderr).toBe(`specforge: error: ${message}\n`);
  expect(result.code).toBe(2);
  expect(result.stdout).toBe("");
  expect(existsSync(join(dir, "generated"))).toBe(false);
}

describe("generate from a vendor's published document", () => {
  it("generates exactly what the same document on disk gives, and locks the URL, hash and validators in the manifest", async () => {
    const server = await vendor({ "/openapi.yaml": document(() => V1) });
    const url = server.url("/openapi.yaml");
    const fromUrl = project({ spec: url });
    const fromFile = project({ spec: "openapi.yaml" }, { "openapi.yaml": V1 });
    expect((await run(["generate"], fromUrl)).code).toBe(0);
    expect((await run(["generate"], fromFile)).code).toBe(0);

    expect(outputWithoutManifest(fromUrl)).toEqual(outputWithoutManifest(fromFile));
    const manifest = manifestOf(fromUrl);
    expect(manifest.spec).toBe(url);
    expect(manifest.inputs).toEqual({ [url]: { sha256: sha256(V1), etag: expect.stringMatching(/^"[0-9a-f]{16}"$/), lastModified: "Wed, 01 Jul 2026 10:00:00 GMT" } });
    // The copy the output was generated from is kept, by its hash, for `check` and for working offline.
    expect(readFileSync(join(fromUrl, "node_modules", ".cache", "specforge", "specs", "blobs", sha256(V1)), "utf8")).toBe(V1);
  });

  it("asks again with the cached copy's ETag: a 304 rewrites nothing, a changed document is followed", async () => {
    let text = V1;
    const server = await vendor({ "/openapi.yaml": document(() => text) });
    const dir = project({ spec: server.url("/openapi.yaml") });
    expect((await run(["generate"], dir)).code).toBe(0);
    const etag = manifestOf(dir).inputs[server.url("/openapi.yaml")]!.etag;

    const again = await run(["generate", "--verbose"], dir);
    expect(again.code).toBe(0);
    expect(server.seen("/openapi.yaml")[1]!.headers["if-none-match"]).toBe(etag);
    expect(again.stdout).toContain(`${server.url("/openapi.yaml")}: not modified since the cached copy (304), sha256 ${sha256(V1).slice(0, 12)}`);
    expect(again.stdout).toMatch(/^specforge: generated\/ 0 written, \d+ unchanged, 0 removed/m);

    text = ADD_EVENT_TYPE(V1);
    const changed = await run(["generate"], dir);
    expect(changed.code).toBe(0);
    expect(changed.stdout).toMatch(/^specforge: generated\/ [1-9]\d* written/m);
    expect(read(dir, "schema.ts")).toContain('"training_paused"');
    expect(manifestOf(dir).inputs[server.url("/openapi.yaml")]!.sha256).toBe(sha256(text));
    expect(manifestOf(dir).inputs[server.url("/openapi.yaml")]!.etag).not.toBe(etag);
  });

  it("keeps the manifest as it is when a server sends a new ETag and Last-Modified for the same bytes (a CDN, a redeploy)", async () => {
    let deploy = 0;
    const server = await vendor({
      "/openapi.yaml": (_request, response) => {
        deploy++;
        response.writeHead(200, { "content-type": "application/yaml", etag: `"deploy-${deploy}"`, "last-modified": `Wed, 0${deploy} Jul 2026 10:00:00 GMT` }).end(V1);
      },
    });
    const dir = project({ spec: server.url("/openapi.yaml") });
    expect((await run(["generate"], dir)).code).toBe(0);
    const manifest = readFileSync(join(dir, "generated", ".specforge-manifest.json"), "utf8");
    const again = await run(["generate"], dir);
    expect(again.stdout).toMatch(/^specforge: generated\/ 0 written/m);
    expect(readFileSync(join(dir, "generated", ".specforge-manifest.json"), "utf8")).toBe(manifest);
    expect(manifest).toContain('"etag": "\\"deploy-1\\""');
  });

  it("resolves relative $refs against the document's URL: a multi-file spec served over HTTP gives what it gives on disk", async () => {
    const server = await vendor({
      "/api/": folder("/api/", join(FIXTURES, "multi-file")),
      // A same-origin redirect: the $refs then resolve against where the document came from, /api/.
      "/latest": (_request, response) => response.writeHead(302, { location: "/api/openapi.yaml" }).end(),
    });
    const fromUrl = project({ spec: server.url("/latest") });
    const fromFile = project({ spec: "api/openapi.yaml" });
    writeFiles(fromFile, Object.fromEntries(["openapi.yaml", "common.yaml", "paths/pets.yaml", "schemas/pet.yaml", "schemas/owner.yaml"].map((f) => [`api/${f}`, readFileSync(join(FIXTURES, "multi-file", f), "utf8")])));
    expect((await run(["generate"], fromUrl)).stderr).toBe("");
    expect((await run(["generate"], fromFile)).code).toBe(0);

    expect(outputWithoutManifest(fromUrl)).toEqual(outputWithoutManifest(fromFile));
    expect(Object.keys(manifestOf(fromUrl).inputs).sort()).toEqual(
      [server.url("/latest"), ...["common.yaml", "paths/pets.yaml", "schemas/owner.yaml", "schemas/pet.yaml"].map((f) => server.url(`/api/${f}`))].sort(),
    );
  });
});

describe("what is fetched", () => {
  it("the documents the spec's $refs need, each once, and not what extensions such as x-codeSamples name", async () => {
    const server = await vendor({
      "/openapi.yaml": document(() =>
        [
          "openapi: 3.1.0",
          "info: {title: Pets, version: '1'}",
          "paths:",
          "  /pets:",
          "    get:",
          "      x-codeSamples: [{$ref: 'samples/curl.yml'}]",
          "      responses:",
          "        '200': {description: pets, content: {application/json: {schema: {$ref: 'schemas.yaml#/Pets'}}}}",
          "",
        ].join("\n"),
      ),
      "/schemas.yaml": document(() => "Pets: {type: array, items: {$ref: '#/Pet'}}\nPet: {type: object, properties: {id: {type: integer}}}\n"),
    });
    const dir = project({ spec: server.url("/openapi.yaml") });
    expect((await run(["generate"], dir)).code).toBe(0);
    expect(server.requests.map((r) => r.path)).toEqual(["/openapi.yaml", "/schemas.yaml"]);
  });
});

describe("every way fetching can fail is exit 2 with one message naming the URL, and nothing is written", () => {
  it("removed (404) and broken (500)", async () => {
    const server = await vendor({ "/broken.yaml": (_request, response) => response.writeHead(500).end("oops") });
    const gone = project({ spec: server.url("/openapi.yaml") });
    expectRefused(await run(["generate"], gone), gone, `${server.url("/openapi.yaml")}: answered 404 Not Found\n  hint: the vendor may have moved or removed the document: check the URL`);
    const broken = project({ spec: server.url("/broken.yaml") });
    expectRefused(
      await run(["generate"], broken),
      broken,
      `${server.url("/broken.yaml")}: answered 500 Internal Server Error\n  hint: the server could not answer now: try again later, or pass --offline to generate from the copy in the cache`,
    );
  });

  it("slow: no answer, or a body that trickles in, within fetch.timeoutMs", async () => {
    const timers = new Set<NodeJS.Timeout>();
    const server = await vendor({
      "/silent.yaml": () => undefined, // never answers; the socket is closed with the server
      "/trickle.yaml": (_request, response) => {
        response.writeHead(200, { "content-type": "application/yaml" });
        response.write("openapi: 3.1.0\n");
        const timer = setInterval(() => response.write("# still here\n"), 50);
        timers.add(timer);
        response.on("close", () => clearInterval(timer));
      },
    });
    try {
      for (const path of ["/silent.yaml", "/trickle.yaml"]) {
        const dir = project({ spec: server.url(path), fetch: { timeoutMs: 300 } });
        const started = Date.now();
        expectRefused(
          await run(["generate"], dir),
          dir,
          `${server.url(path)}: did not answer within 300 ms\n  hint: a slow server or network: raise \`fetch.timeoutMs\` in the config; there is no copy in the cache to use instead`,
        );
        expect(Date.now() - started).toBeLessThan(10_000);
      }
    } finally {
      for (const timer of timers) clearInterval(timer);
    }
  });

  it("huge: refused by Content-Length before reading, or as soon as the body passes maxSpecFileBytes", async () => {
    let sent = 0;
    const server = await vendor({
      "/declared.yaml": (_request, response) => response.writeHead(200, { "content-length": 1_000_000 }).end("x".repeat(1_000_000)),
      "/endless.yaml": (_request, response) => {
        response.writeHead(200, { "content-type": "application/yaml" });
        const chunk = Buffer.alloc(64 * 1024, "a");
        // Writes while the client reads, at most 256 MiB: a client without a cap would take all of it.
        const pump = () => {
          while (sent < 256 * 1024 * 1024 && !response.destroyed) {
            sent += chunk.length;
            if (!response.write(chunk)) return void response.once("drain", pump);
          }
          response.end();
        };
        pump();
      },
    });
    const declared = project({ spec: server.url("/declared.yaml"), maxSpecFileBytes: 100_000 });
    expectRefused(
      await run(["generate"], declared),
      declared,
      `${server.url("/declared.yaml")}: is 1000000 bytes (Content-Length), more than the limit of 100000 bytes\n  hint: raise \`maxSpecFileBytes\` in the config (or pass --max-spec-file-bytes N) if the document is meant to be this large`,
    );
    const endless = project({ spec: server.url("/endless.yaml"), maxSpecFileBytes: 100_000 });
    expectRefused(
      await run(["generate"], endless),
      endless,
      `${server.url("/endless.yaml")}: sent more than the limit of 100000 bytes\n  hint: raise \`maxSpecFileBytes\` in the config (or pass --max-spec-file-bytes N) if the document is meant to be this large`,
    );
    expect(sent).toBeLessThan(32 * 1024 * 1024);
  });

  it("not JSON or YAML: an HTML page, or text that does not parse (with the line and column)", async () => {
    const server = await vendor({
      "/docs": document(() => "<!doctype html><title>API reference</title>", { contentType: "text/html; charset=utf-8" }),
      "/garbage.yaml": document(() => "openapi: 3.1.0\ninfo: [unclosed\n", { contentType: "text/plain" }),
    });
    const html = project({ spec: server.url("/docs") });
    expectRefused(
      await run(["generate"], html),
      html,
      `${server.url("/docs")}: is not a JSON or YAML document: the server sent an HTML page (Content-Type: text/html; charset=utf-8)\n  hint: the URL may be a documentation or login page: use the URL of the raw document (and its headers, if it needs credentials)`,
    );
    const garbage = project({ spec: server.url("/garbage.yaml") });
    const result = await run(["generate"], garbage);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^specforge: error: ${server.url("/garbage.yaml").replace(/[.]/g, "\\.")}:3:1: invalid YAML: `));
    expect(existsSync(join(garbage, "generated"))).toBe(false);
  });

  it("a host that does not exist, and a port where nothing listens", async () => {
    const dns = project({ spec: "http://specforge-test.invalid/openapi.yaml" });
    expectRefused(
      await run(["generate"], dns),
      dns,
      "http://specforge-test.invalid/openapi.yaml: cannot be fetched: host specforge-test.invalid not found (ENOTFOUND)\n  hint: check the URL's host name, and that this machine is online; there is no copy in the cache to use instead",
    );
    const url = `http://127.0.0.1:${await closedPort()}/openapi.yaml`;
    const refused = project({ spec: url });
    expectRefused(await run(["generate"], refused), refused, `${url}: cannot be fetched: connection refused (ECONNREFUSED)\n  hint: there is no copy in the cache to use instead`);
  });

  it("redirects are followed within the origin only, unless the config allows the other one (which gets its own headers, not the spec's)", async () => {
    const cdn = await vendor({ "/openapi.yaml": document(() => V1) });
    const site = await vendor({ "/openapi.yaml": (_request, response) => response.writeHead(301, { location: cdn.url("/openapi.yaml") }).end() });
    const refused = project({ spec: site.url("/openapi.yaml") });
    expectRefused(
      await run(["generate"], refused, { SPECFORGE_SPEC_TOKEN: "site-token" }),
      refused,
      `${site.url("/openapi.yaml")}: redirects to ${cdn.url("/openapi.yaml")}, another origin: not followed\n  hint: if ${cdn.origin} serves the document, allow it in the config: "fetch": { "origins": { "${cdn.origin}": {} } } (the headers of the spec's origin are not sent there)`,
    );
    expect(cdn.requests).toEqual([]);

    const allowed = project({ spec: site.url("/openapi.yaml"), fetch: { origins: { [cdn.origin]: { headers: { "X-Cdn-Key": "CDN_KEY" } } } } });
    expect((await run(["generate"], allowed, { SPECFORGE_SPEC_TOKEN: "site-token", CDN_KEY: "cdn-key" })).code).toBe(0);
    expect(site.requests.at(-1)!.headers.authorization).toBe("Bearer site-token");
    expect(cdn.requests[0]!.headers.authorization).toBeUndefined();
    expect(cdn.requests[0]!.headers["x-cdn-key"]).toBe("cdn-key");
    expect(manifestOf(allowed).inputs).toEqual({ [site.url("/openapi.yaml")]: expect.objectContaining({ sha256: sha256(V1) }) });
  });

  it("a redirect loop ends", async () => {
    const server = await vendor({ "/a": (_request, response) => response.writeHead(302, { location: "/b" }).end(), "/b": (_request, response) => response.writeHead(302, { location: "/a" }).end() });
    const dir = project({ spec: server.url("/a") });
    expectRefused(await run(["generate"], dir), dir, `${server.url("/a")}: redirects more than 10 times (the last time to ${server.url("/b")})`);
    expect(server.requests).toHaveLength(11);
  });
});

describe("private specs: headers whose values come from environment variables, never argv or the config file", () => {
  const needsToken = (token: string, header = "authorization"): Route => {
    const serve = document(() => V1);
    return (request, response) => (request.headers[header] === token ? serve(request, response) : void response.writeHead(401).end());
  };

  it("Authorization from SPECFORGE_SPEC_TOKEN; without it a 401 says how to send one; the token is written nowhere", async () => {
    const server = await vendor({ "/openapi.yaml": needsToken("Bearer s3cret-token") });
    const without = project({ spec: server.url("/openapi.yaml") });
    expectRefused(
      await run(["generate"], without),
      without,
      `${server.url("/openapi.yaml")}: answered 401 Unauthorized\n  hint: the document needs credentials: set SPECFORGE_SPEC_TOKEN (sent as \`Authorization: Bearer …\`), or name the environment variable of each header in the config's \`fetch.headers\``,
    );
    const dir = project({ spec: server.url("/openapi.yaml") });
    expect((await run(["generate"], dir, { SPECFORGE_SPEC_TOKEN: "s3cret-token" })).code).toBe(0);
    for (const [path, { content }] of snapshotTree(join(dir, "generated"))) expect(content, path).not.toContain("s3cret");
    for (const [path, { content }] of snapshotTree(join(dir, "node_modules", ".cache", "specforge"))) expect(content, path).not.toContain("s3cret");
    // Checking needs no token: the output is verified against the locked document.
    expect((await run(["check"], dir)).code).toBe(0);
  });

  it("configured headers name their environment variables; an unset one is an error naming the variable and where it is asked for", async () => {
    const server = await vendor({ "/openapi.yaml": needsToken("k-123", "x-api-key") });
    const dir = project({ spec: server.url("/openapi.yaml"), fetch: { headers: { "X-Api-Key": "VENDOR_KEY" } } });
    expectRefused(
      await run(["generate"], dir),
      dir,
      `specforge.config.json#/fetch/headers/X-Api-Key: the environment variable VENDOR_KEY is not set: it holds the X-Api-Key header for ${server.origin}\n  hint: set it (in CI, from a secret) to fetch ${server.url("/openapi.yaml")}`,
    );
    expect((await run(["generate"], dir, { VENDOR_KEY: "k-123" })).code).toBe(0);
  });

  it("a secret written into the config, or credentials in the URL, are refused without being echoed", async () => {
    const inConfig = project({ spec: "https://vendor.example.com/openapi.yaml", fetch: { headers: { Authorization: "Bearer s3cret" } } });
    const result = await run(["generate"], inConfig);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'specforge: error: specforge.config.json#/fetch/headers/Authorization: config field `fetch.headers.Authorization` must name the environment variable that holds the value (like "VENDOR_SPEC_TOKEN"), not the value itself\n  hint: secrets do not belong in the config file (it is committed): put the value in an environment variable (in CI, from a secret) and name it here\n',
    );
    const inUrl = project({});
    const flag = await run(["generate", "--spec", "https://me:pa55word@vendor.example.com/openapi.yaml"], inUrl);
    expect(flag.stderr).toBe(
      "specforge: error: command line: --spec must not hold credentials (user:password@): the URL is written to the output's manifest\n  hint: send them as a header whose value is read from an environment variable: `fetch.headers` in the config, or SPECFORGE_SPEC_TOKEN\n",
    );
    expect(flag.code).toBe(2);
    const inProject = project({ projects: [{ name: "vendor", spec: "https://vendor.example.com/openapi.yaml", out: "generated", fetch: { headers: { "X-Api-Key": "k-123" } } }] });
    const projectResult = await run(["generate"], inProject);
    expect(projectResult.stderr).toMatch(/^specforge: error: specforge\.config\.json#\/projects\/0\/fetch\/headers\/X-Api-Key: project "vendor": config field `fetch\.headers\.X-Api-Key` must name the environment variable/);
    expect(projectResult.stderr).not.toContain("k-123");
    const origin = project({ spec: "https://vendor.example.com/openapi.yaml", fetch: { origins: { "https://cdn.example.com/specs": {} } } });
    expect((await run(["generate"], origin)).stderr).toBe(
      'specforge: error: specforge.config.json#/fetch/origins/https:~1~1cdn.example.com~1specs: config field `fetch.origins`: "https://cdn.example.com/specs" is not an origin (scheme://host[:port], nothing after it)\n  hint: write "https://cdn.example.com"\n',
    );
  });
});

describe("offline: the cache", () => {
  it("when the server cannot be reached, generate uses the locked copy and says so; without a copy it is an error", async () => {
    const server = await vendor({ "/openapi.yaml": document(() => V1) });
    const url = server.url("/openapi.yaml");
    const dir = project({ spec: url });
    expect((await run(["generate"], dir)).code).toBe(0);
    await server.close();
    servers.splice(servers.indexOf(server), 1);

    const offline = await run(["generate"], dir);
    expect(offline.code).toBe(0);
    expect(offline.stderr).toBe(
      `specforge: warning: ${url}: cannot be fetched: connection refused (ECONNREFUSED); using the copy in the cache (the locked version: the one the output was generated from)\n  hint: the output is regenerated from the cache; run again online to follow the vendor's current document\n`,
    );
    expect(offline.stdout).toMatch(/^specforge: generated\/ 0 written/m);

    const fresh = project({ spec: url });
    expectRefused(await run(["generate"], fresh), fresh, `${url}: cannot be fetched: connection refused (ECONNREFUSED)\n  hint: there is no copy in the cache to use instead`);
  });

  it("--offline never asks the server: the locked copy, even when the vendor has changed the document", async () => {
    let text = V1;
    const server = await vendor({ "/openapi.yaml": document(() => text) });
    const dir = project({ spec: server.url("/openapi.yaml") });
    expect((await run(["generate"], dir)).code).toBe(0);
    text = ADD_EVENT_TYPE(V1);
    const requests = server.requests.length;
    const result = await run(["generate", "--offline"], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^specforge: generated\/ 0 written/m);
    expect(server.requests).toHaveLength(requests);

    const fresh = project({ spec: server.url("/openapi.yaml") });
    expectRefused(
      await run(["generate", "--offline"], fresh),
      fresh,
      `${server.url("/openapi.yaml")}: no copy in the cache: --offline generates only from documents fetched before on this machine\n  hint: run without --offline once (online) to fetch it`,
    );
  });
});

describe("check: against the locked document, without the network", () => {
  it("proves the output current, and regenerates from the cached locked copy to show a hand edit, with the server gone", async () => {
    const server = await vendor({ "/openapi.yaml": document(() => V1) });
    const dir = project({ spec: server.url("/openapi.yaml") });
    expect((await run(["generate"], dir)).code).toBe(0);
    await server.close();
    servers.splice(servers.indexOf(server), 1);

    expect(await run(["check"], dir)).toEqual({ code: 0, stdout: `specforge: generated/ is up to date with ${server.url("/openapi.yaml")}\n`, stderr: "" });
    writeFileSync(join(dir, "generated", "client.ts"), read(dir, "client.ts") + "// edited by hand\n");
    const edited = await run(["check"], dir);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain("stale:   generated/client.ts (+0 -1 line)\n");
    expect(edited.stderr).toContain("    -// edited by hand\n");
  });

  it("on a new CI runner without the locked copy, judges the files by the hashes the manifest records", async () => {
    const server = await vendor({ "/openapi.yaml": document(() => V1) });
    const url = server.url("/openapi.yaml");
    const dir = project({ spec: url });
    expect((await run(["generate"], dir)).code).toBe(0);
    const runner = { SPECFORGE_CACHE_DIR: tempDir() };
    const requests = server.requests.length;

    expect((await run(["check"], dir, runner)).code).toBe(0);
    writeFileSync(join(dir, "generated", "client.ts"), read(dir, "client.ts") + "// edited by hand\n");
    const edited = await run(["check"], dir, runner);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toBe(
      [
        `specforge: ${url}: the version the output was generated from (sha256 ${sha256(V1).slice(0, 12)}) is not in the cache; the output was compared with the file hashes its manifest records`,
        "",
        "stale:   generated/client.ts",
        "    (client.ts is not the file `generate` wrote; the locked spec is not in the cache, so there is no diff)",
        "",
        "specforge: generated/ is out of date with " + url + " (1 file); run `npx specforge generate`",
        "",
      ].join("\n"),
    );
    expect(server.requests).toHaveLength(requests);
  });
});

describe("check --remote: has the vendor changed the document?", () => {
  it("unchanged: one conditional request with the locked ETag, a 304, exit 0", async () => {
    const server = await vendor({ "/openapi.yaml": document(() => V1) });
    const url = server.url("/openapi.yaml");
    const dir = project({ spec: url });
    expect((await run(["generate"], dir)).code).toBe(0);
    const before = server.requests.length;
    const result = await run(["check", "--remote"], dir, { SPECFORGE_CACHE_DIR: tempDir() });
    expect(result).toEqual({ code: 0, stdout: `specforge: generated/ is up to date with ${url}, and the server still has the version it locks\n`, stderr: "" });
    expect(server.requests.slice(before).map((r) => r.headers["if-none-match"])).toEqual([manifestOf(dir).inputs[url]!.etag]);
  });

  it("changed: exit 1 with the API changes since the locked version, as text, Markdown and GitHub annotations", async () => {
    let text = V1;
    const server = await vendor({ "/openapi.yaml": document(() => text) });
    const url = server.url("/openapi.yaml");
    const dir = project({ spec: url });
    expect((await run(["generate"], dir)).code).toBe(0);
    text = ADD_EVENT_TYPE(V1);
    const summary = join(tempDir(), "summary.md");
    const result = await run(["check", "--remote", "--markdown", "vendor-api.md"], dir, { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        `specforge: ${url} changed on the server (sha256 ${sha256(V1).slice(0, 12)} → ${sha256(text).slice(0, 12)}) since generated/ was generated: 1 API change: 1 breaking for clients, 0 breaking for servers, 0 compatible`,
        "  Breaking for clients (1)",
        '    - TrainingJobEventType: enum value "training_paused" added (in responses)',
        "        #/components/schemas/TrainingJobEventType",
        "        affects GET /v1/preview/training-jobs/{training_job_id}/events",
        "",
        `specforge: generated/ is up to date with the version of ${url} it locks; run \`npx specforge generate\` to follow the current one`,
        "",
      ].join("\n"),
    );
    expect(result.stdout).toBe(
      `::warning title=Breaking API change for clients on the server::${url}: TrainingJobEventType: enum value "training_paused" added (#/components/schemas/TrainingJobEventType)\n`,
    );
    const markdown = readFileSync(join(dir, "vendor-api.md"), "utf8");
    expect(markdown).toContain(`### specforge check --remote: the server's \`${url}\` changed since \`generated/\` was generated`);
    expect(markdown).toContain("**1** breaking for clients · **0** breaking for servers · **0** compatible");
    expect(markdown).toContain("Run `npx specforge generate` to follow it, and commit the result.");
    expect(readFileSync(summary, "utf8")).toBe(markdown);
    // The output itself is still what the locked document gives: plain `check` passes.
    expect((await run(["check"], dir)).code).toBe(0);
  });

  it("changed, on a runner without the locked copy: exit 1, saying why the API changes cannot be shown", async () => {
    let text = V1;
    const server = await vendor({ "/openapi.yaml": document(() => text) });
    const url = server.url("/openapi.yaml");
    const dir = project({ spec: url });
    expect((await run(["generate"], dir)).code).toBe(0);
    text = ADD_EVENT_TYPE(V1);
    const result = await run(["check", "--remote"], dir, { SPECFORGE_CACHE_DIR: tempDir() });
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n")[0]).toBe(
      `specforge: ${url} changed on the server (sha256 ${sha256(V1).slice(0, 12)} → ${sha256(text).slice(0, 12)}) since generated/ was generated; the API changes cannot be shown: ${url}: the version the output was generated from (sha256 ${sha256(V1).slice(0, 12)}) is not in the cache`,
    );
  });

  it("the document is gone, or the server unreachable: exit 2", async () => {
    let serve = true;
    const publish = document(() => V1);
    const server = await vendor({ "/openapi.yaml": (request, response) => (serve ? publish(request, response) : void response.writeHead(404).end()) });
    const dir = project({ spec: server.url("/openapi.yaml") });
    expect((await run(["generate"], dir)).code).toBe(0);
    serve = false;
    const result = await run(["check", "--remote"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`specforge: error: ${server.url("/openapi.yaml")}: answered 404 Not Found\n  hint: the vendor may have moved or removed the document: check the URL\n`);
  });
});

describe("$refs to other URLs", () => {
  const petSchema = ["type: object", "required: [id]", "properties:", "  id: {type: integer}", ""].join("\n");
  const specReferring = (ref: string) =>
    [
      "openapi: 3.1.0",
      "info: {title: Pets, version: '1'}",
      "paths:",
      "  /pets/{id}:",
      "    get:",
      "      operationId: getPet",
      "      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]",
      "      responses:",
      "        '200': {description: a pet, content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}",
      "components:",
      "  schemas:",
      `    Pet: {$ref: '${ref}'}`,
      "",
    ].join("\n");

  it("to another origin: refused unless the config allows that origin", async () => {
    const schemas = await vendor({ "/pet.yaml": document(() => petSchema) });
    const api = await vendor({ "/openapi.yaml": document(() => specReferring(schemas.url("/pet.yaml"))) });
    const refused = project({ spec: api.url("/openapi.yaml") });
    expectRefused(
      await run(["generate"], refused, { SPECFORGE_SPEC_TOKEN: "api-token" }),
      refused,
      `${api.url("/openapi.yaml")}#/components/schemas/Pet/$ref: unresolved $ref "${schemas.url("/pet.yaml")}": ${schemas.url("/pet.yaml")} is not the $id of a schema in the document, and documents are not fetched from ${schemas.origin}\n  hint: $refs to other origins are off: if ${schemas.origin} serves part of the spec, allow it in the config: "fetch": { "origins": { "${schemas.origin}": {} } }`,
    );
    expect(schemas.requests).toEqual([]);

    const allowed = project({ spec: api.url("/openapi.yaml"), fetch: { origins: { [schemas.origin]: {} } } });
    expect((await run(["generate"], allowed, { SPECFORGE_SPEC_TOKEN: "api-token" })).code).toBe(0);
    expect(read(allowed, "schema.ts")).toMatch(/Pet: \{\s+id: number;/);
    expect(schemas.requests.map((r) => r.headers.authorization)).toEqual([undefined]);
  });

  it("from a local spec: off by default, allowed per origin; the manifest locks the fetched document beside the local file", async () => {
    const schemas = await vendor({ "/pet.yaml": document(() => petSchema) });
    const files = { "openapi.yaml": specReferring(schemas.url("/pet.yaml")) };
    const refused = project({ spec: "openapi.yaml" }, files);
    expect((await run(["generate"], refused)).stderr).toContain(`openapi.yaml#/components/schemas/Pet/$ref: unresolved $ref "${schemas.url("/pet.yaml")}"`);
    const allowed = project({ spec: "openapi.yaml", fetch: { origins: { [schemas.origin]: {} } } }, files);
    expect((await run(["generate"], allowed)).code).toBe(0);
    expect(manifestOf(allowed).inputs).toEqual({
      "../openapi.yaml": { sha256: sha256(files["openapi.yaml"]), gitBlob: expect.stringMatching(/^[0-9a-f]{40}$/) },
      [schemas.url("/pet.yaml")]: expect.objectContaining({ sha256: sha256(petSchema) }),
    });
    expect((await run(["check"], allowed)).code).toBe(0);
  });

  it("an origin the config no longer lists is not asked, also by check --remote for a document it locked", async () => {
    const schemas = await vendor({ "/pet.yaml": document(() => petSchema) });
    const files = { "openapi.yaml": specReferring(schemas.url("/pet.yaml")) };
    const dir = project({ spec: "openapi.yaml", fetch: { origins: { [schemas.origin]: {} } } }, files);
    expect((await run(["generate"], dir)).code).toBe(0);
    writeFiles(dir, { "specforge.config.json": JSON.stringify({ spec: "openapi.yaml", outputs: ["client"] }) });
    const requests = schemas.requests.length;
    const result = await run(["check", "--remote"], dir);
    expect(result.stderr).toBe(
      `specforge: error: ${schemas.url("/pet.yaml")}: documents are not fetched from ${schemas.origin}: it is neither the spec's origin nor in \`fetch.origins\`\n`,
    );
    expect(result.code).toBe(2);
    expect(schemas.requests).toHaveLength(requests);
  });

  it("a document from a URL cannot read a file on this machine", async () => {
    const dir = project({});
    writeFiles(dir, { "secret.yaml": "type: object\nproperties:\n  password: {const: hunter2}\n" });
    const api = await vendor({ "/openapi.yaml": document(() => specReferring(`file://${join(dir, "secret.yaml")}`)) });
    const result = await run(["generate", "--spec", api.url("/openapi.yaml")], dir);
    expect(result.stderr).toBe(
      `specforge: error: ${api.url("/openapi.yaml")}#/components/schemas/Pet/$ref: $ref to a local file (secret.yaml) in a document fetched from a URL: refused\n  hint: a document from a URL may $ref only other URLs (on allowed origins), never files on this machine\n`,
    );
    expect(result.code).toBe(2);
    expect(existsSync(join(dir, "generated"))).toBe(false);
  });
});

describe("several specs, and the other commands", () => {
  it("projects: each has its own headers (SPECFORGE_SPEC_TOKEN would go to every vendor, so it is not used); check --remote reports per project", async () => {
    let text = V1;
    const publish = document(() => text);
    const billing = await vendor({ "/openapi.yaml": (request, response) => (request.headers["x-api-key"] === "billing-key" ? publish(request, response) : void response.writeHead(401).end()) });
    const dir = tempDir();
    writeFiles(dir, {
      "package.json": "{}\n",
      "local.yaml": V1,
      "specforge.config.json": JSON.stringify({
        outputs: ["client"],
        projects: [
          { name: "billing", spec: billing.url("/openapi.yaml"), out: "generated/billing", fetch: { headers: { "X-Api-Key": "BILLING_KEY" } } },
          { name: "local", spec: "local.yaml", out: "generated/local" },
        ],
      }),
    });
    const generated = await run(["generate"], dir, { BILLING_KEY: "billing-key", SPECFORGE_SPEC_TOKEN: "not-for-billing" });
    expect(generated.stderr).toBe("");
    expect(generated.code).toBe(0);
    expect(billing.requests.map((r) => r.headers.authorization)).toEqual([undefined]);

    expect((await run(["check", "--remote"], dir, { BILLING_KEY: "billing-key" })).code).toBe(0);
    text = ADD_EVENT_TYPE(V1);
    const changed = await run(["check", "--remote"], dir, { BILLING_KEY: "billing-key" });
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain(`specforge: [billing] ${billing.url("/openapi.yaml")} changed on the server`);
    expect(changed.stdout).toBe("specforge: [local] generated/local/ is up to date with local.yaml (nothing to ask a server: local.yaml reads no documents from URLs)\n");
  });

  it("mock serves a spec from a URL", async () => {
    const server = await vendor({ "/openapi.yaml": document(() => V1) });
    await withMock(server.url("/openapi.yaml"), async (url) => {
      const list = await fetch(`${url}/v1/models`, { headers: { authorization: "Bearer anything" } });
      expect(list.status).toBe(200);
    });
  });
});
