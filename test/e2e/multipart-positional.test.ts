import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGroup, importGenerated, type BuiltGroup } from "../features/harness.js";

/**
 * Part headers of multipart bodies by position (OpenAPI 3.2 `prefixEncoding`, `itemEncoding`), and of an operation
 * with two multipart media types, over HTTP on 127.0.0.1: the router validates each part's declared headers like
 * `encoding` headers (issues at `["body", index, "headers", name]`) and hands them to the handler as
 * `ctx.partHeaders`, one record per part; the generated client writes the ones the schema pins. The handler types
 * are checked by tsc (test/fixtures/features/multipart-positional.types.ts).
 */
let group: BuiltGroup;
let server: Server;
let url: string;
let client: Record<string, (params?: unknown) => Promise<any>>;
let formPart: (value: unknown, options?: object) => unknown;
const wire: string[] = [];

const echo = (ctx: { partHeaders: unknown; body: unknown; contentType: string | undefined }) => ({
  status: 200,
  body: { partHeaders: ctx.partHeaders, contentType: ctx.contentType, parts: Array.isArray(ctx.body) ? ctx.body.length : Object.keys(ctx.body as object) },
});

beforeAll(async () => {
  group = await buildGroup("multipart-positional", [{ name: "multipart-positional", spec: "multipart-positional.yaml" }]);
  const generated = await importGenerated(group, "multipart-positional");
  formPart = generated.formPart;
  const router = generated.createRouter({ uploadBatch: echo, addNote: echo }, { insecureNoAuth: true });
  server = createServer(generated.toNodeListener(router));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = generated.createClient({
    baseUrl: url,
    maxRetries: 0,
    fetch: async (request: Request) => {
      wire.push(Buffer.from(await request.clone().arrayBuffer()).toString("latin1"));
      return fetch(request);
    },
  });
}, 300_000);
afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

const B = "sf-positional-b";
/** A multipart body by hand: each part's header lines and body, CRLF throughout. */
const body = (parts: { headers: string[]; body: string }[]) => parts.map((p) => `--${B}\r\n${p.headers.map((h) => `${h}\r\n`).join("")}\r\n${p.body}\r\n`).join("") + `--${B}--\r\n`;
const manifest = (headers = ["X-Manifest-Version: 2"]) => ({ headers: ["Content-Type: application/json", ...headers], body: '{"count":2}' });
const blob = (headers: string[]) => ({ headers: ["Content-Type: application/octet-stream", ...headers], body: "bytes" });

async function post(path: string, payload: string, type = "multipart/mixed") {
  const res = await fetch(`${url}${path}`, { method: "POST", headers: { "content-type": `${type}; boundary=${B}` }, body: payload });
  return { status: res.status, json: (await res.json()) as any };
}

describe("part headers of parts by position (prefixEncoding, itemEncoding)", () => {
  it("the handler types type-check under tsc --strict", () => {
    expect(group.stderr["multipart-positional"]).toBe("");
    expect(group.tsc.output).toBe("");
  });

  it("the generated client's parts: the pinned headers (const, default) and formPart's own arrive validated, one record per part", async () => {
    wire.length = 0;
    const result = await client.uploadBatch!({
      body: [{ count: 2 }, formPart(new Blob(["one"]), { headers: { "X-Checksum": "0a1b2c3d" } }), formPart(new Blob(["two"]), { headers: { "X-Checksum": "ffffffff", "X-Source": "cli" } })],
    });
    expect(result.partHeaders).toEqual([{ "X-Manifest-Version": 2 }, { "X-Checksum": "0a1b2c3d", "X-Source": "specforge" }, { "X-Checksum": "ffffffff", "X-Source": "cli" }]);
    // On the wire: the manifest's pinned header, and each later part's from itemEncoding (default) or formPart.
    expect(wire[0]).toMatch(/Content-Type: application\/json\r\nX-Manifest-Version: 2\r\n\r\n\{"count":2\}/);
    expect(wire[0]).toMatch(/Content-Type: application\/octet-stream\r\nX-Source: specforge\r\nX-Checksum: 0a1b2c3d\r\n\r\none/);
  });

  it("a missing required header, a value off its const, a $ref'd pattern: 400s at [body, index, headers, name]", async () => {
    const missing = await post("/batches", body([manifest(), blob(["X-Checksum: 0a1b2c3d"]), blob([])]));
    expect(missing.status).toBe(400);
    expect(missing.json.errors).toEqual([{ loc: ["body", 2, "headers", "X-Checksum"], msg: "Field required", type: "missing" }]);
    const version = await post("/batches", body([manifest(["X-Manifest-Version: 3"]), blob(["X-Checksum: 0a1b2c3d"])]));
    expect(version.json.errors).toEqual([{ loc: ["body", 0, "headers", "X-Manifest-Version"], msg: expect.any(String), type: expect.any(String) }]);
    const pattern = await post("/batches", body([manifest(), blob(["x-checksum: NOPE"])]));
    expect(pattern.json.errors).toEqual([{ loc: ["body", 1, "headers", "X-Checksum"], msg: expect.any(String), type: expect.stringMatching(/pattern/) }]);
  });

  it("Content-Type listed among an encoding's headers is not validated (the encoding's contentType governs it)", async () => {
    const ok = await post("/batches", body([manifest(), blob(["X-Checksum: 0a1b2c3d"])]));
    expect(ok.status).toBe(200);
    expect(ok.json.partHeaders).toEqual([{ "X-Manifest-Version": 2 }, { "X-Checksum": "0a1b2c3d", "X-Source": "specforge" }]);
  });
});

describe("an operation with two multipart media types: each one's part headers", () => {
  it("multipart/form-data: by property, validated by the form's encoding", async () => {
    const form = (lang: string) => body([{ headers: ['Content-Disposition: form-data; name="note"', "Content-Type: text/plain", lang], body: "hi" }]);
    const ok = await post("/notes", form("X-Lang: fr"), "multipart/form-data");
    expect([ok.status, ok.json.partHeaders]).toEqual([200, { note: [{ "X-Lang": "fr" }] }]);
    const bad = await post("/notes", form("X-Lang: de"), "multipart/form-data");
    expect(bad.json.errors).toEqual([{ loc: ["body", "note", "headers", "X-Lang"], msg: expect.any(String), type: expect.any(String) }]);
  });

  it("multipart/related: by position, validated by its prefixEncoding", async () => {
    const related = (priority: string) => body([{ headers: ["Content-Type: text/plain", priority], body: "hi" }]);
    const ok = await post("/notes", related("X-Priority: 2"), "multipart/related");
    expect([ok.status, ok.json.partHeaders, ok.json.contentType]).toEqual([200, [{ "X-Priority": 2 }], "multipart/related"]);
    const bad = await post("/notes", related("X-Priority: 0"), "multipart/related");
    expect(bad.json.errors).toEqual([{ loc: ["body", 0, "headers", "X-Priority"], msg: expect.any(String), type: expect.any(String) }]);
  });
});
