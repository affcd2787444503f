import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverUrlOption } from "../../src/ir/naming.js";
import { buildGroup, importGenerated, type BuiltGroup } from "./harness.js";

/**
 * Servers with fixed URLs: the first is `baseUrl`, the others are named after their description, host or path
 * (servers.yaml), and each option really moves its operations, over loopback HTTP. Types: servers.types.ts.
 */
let group: BuiltGroup;
let server: Server;
let origin: string;
const hits: string[] = [];

beforeAll(async () => {
  group = await buildGroup("servers", [{ name: "servers", spec: "servers.yaml" }]);
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "application/json" }).end(req.url!.includes("reports") ? '{"region":"eu"}' : '["a"]');
    } else {
      res.writeHead(204).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 300_000);
afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe("server options", () => {
  it("type-check with their assertions under tsc --strict (no server2Url)", () => {
    expect(group.stderr.servers).toBe("");
    expect(group.tsc.output).toBe("");
  });

  it("each option sends its operations to its own URL", async () => {
    const { createClient } = await importGenerated(group, "servers");
    const client = createClient({ baseUrl: `${origin}/main`, uploadsUrl: `${origin}/up`, euRegionUrl: `${origin}/eu`, v0Url: `${origin}/old`, maxRetries: 0 });
    expect(await client.listItems()).toEqual(["a"]);
    await client.upload();
    expect(await client.getReport()).toEqual({ region: "eu" });
    await client.getLegacy();
    expect(hits).toEqual(["GET /main/items", "POST /up/uploads", "GET /eu/reports", "GET /old/legacy"]);
  });

  it("a server that names no host (`https://`) must be given: the call is refused naming its option, else goes where the option says", async () => {
    const { createClient } = await importGenerated(group, "servers");
    hits.length = 0;
    await expect(createClient({ baseUrl: `${origin}/main`, maxRetries: 0 }).uploadBatch()).rejects.toThrow(
      new TypeError('No value for server variable "url" of {url}: set the client option "server5Url"'),
    );
    expect(hits).toEqual([]);
    await createClient({ baseUrl: `${origin}/main`, server5Url: `${origin}/presigned`, maxRetries: 0 }).uploadBatch();
    expect(hits).toEqual(["PUT /presigned/batches/upload"]);
  });

  it("the router serves each operation under its server's path, where the client sends it (one rule for both)", async () => {
    const { createClient, createRouter, toNodeListener } = await importGenerated(group, "servers");
    const ok = () => ({ status: 204 });
    const router = createRouter(
      { listItems: () => ({ status: 200, body: ["from /v1"] }), upload: ok, getReport: () => ({ status: 200, body: { region: "eu" } }), getLegacy: ok, uploadBatch: ok },
      {},
    );
    const served = createServer(toNodeListener(router));
    await new Promise<void>((resolve) => served.listen(0, "127.0.0.1", resolve));
    try {
      const at = `http://127.0.0.1:${(served.address() as AddressInfo).port}`;
      // Each server's URL with this host: the path is the spec's (`/v1`, none, `/reports`, `/v0`).
      const client = createClient({ baseUrl: `${at}/v1`, uploadsUrl: at, euRegionUrl: `${at}/reports`, v0Url: `${at}/v0`, server5Url: at, maxRetries: 0 });
      expect(await client.listItems()).toEqual(["from /v1"]);
      await client.upload();
      expect(await client.getReport()).toEqual({ region: "eu" });
      await client.getLegacy();
      await client.uploadBatch();
      // An operation is not served under another server's path.
      expect((await fetch(`${at}/v0/items`)).status).toBe(404);
      expect((await fetch(`${at}/items`)).status).toBe(404);
    } finally {
      await new Promise((resolve) => served.close(resolve));
    }
  });

  it.each([
    ["https://api.example.com", undefined, 0, [], "baseUrl"],
    ["https://uploads.github.com", "The URL origin (protocol + host name + port) is included in `upload_url`", 1, [], "uploadsUrl"],
    ["https://files.stripe.com/", undefined, 1, [], "filesUrl"],
    ["https://sandbox.example.com", "Sandbox server", 1, [], "sandboxUrl"],
    ["https://inference.do-ai.run", "production", 1, ["production"], "inferenceUrl"],
    ["https://api.inference.example.ai", undefined, 1, [], "inferenceUrl"],
    ["/v2", undefined, 1, [], "v2Url"],
    ["https://example.org", undefined, 1, [], "exampleUrl"],
    ["https://", "Use the exact upload_url returned by the batch endpoint; do not construct it", 3, [], "server4Url"],
  ] as const)("serverUrlOption(%j, %j, %i) = %j", (url, description, index, earlier, want) => {
    expect(serverUrlOption(url, description, index, earlier)).toBe(want);
  });
});
