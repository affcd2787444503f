import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGroup, importGenerated, type BuiltGroup } from "./harness.js";

/**
 * Request and response bodies end to end over a loopback HTTP server: the generated client sends form-urlencoded,
 * multipart, binary and text bodies as declared, the generated router (through `toNodeListener`) parses them for
 * typed handlers; `default` responses and operations without operationId. Types: bodies.types.ts.
 */
let group: BuiltGroup;
let server: Server;
let client: Record<string, ((params?: unknown, options?: { headers?: Record<string, string> }) => Promise<any>) & { isError(e: unknown): boolean }>;
const seen: { method: string; url: string; contentType: string | null }[] = [];

beforeAll(async () => {
  group = await buildGroup("bodies", [{ name: "bodies", spec: "bodies.yaml" }]);
  const { createClient, createRouter, toNodeListener } = await importGenerated(group, "bodies");
  const router = createRouter(
    {
      submitForm: ({ body }: any) => ({ status: 200, body }),
      upload: async ({ body }: any) => ({
        status: 201,
        body: { fileName: body.file.name, fileText: await body.file.text(), description: body.description, count: body.count, labels: body.labels, meta: body.meta },
      }),
      putBlob: ({ body }: any) => ({ status: 200, body: { size: body.length, first: body[0] } }),
      getBlob: ({ path }: any) => ({ status: 200, body: new TextEncoder().encode(`blob ${path.id}`) }),
      postNote: ({ body }: any) => ({ status: 200, body: body.toUpperCase() }),
      maybe: ({ request }: any) =>
        request.headers.has("x-fail") ? { status: 503, body: { code: 503, message: "later" } } : { status: 200, body: { ok: true } },
      onlyDefault: () => ({ status: 200, body: { status: "fine" } }),
      getNoOperationIdByPetId: () => ({ status: 204 }),
      postNoOperationIdByPetId: () => ({ status: 204 }),
    },
    { insecureNoAuth: true, validateResponses: true },
  );
  const listener = toNodeListener(router);
  server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, contentType: req.headers["content-type"] ?? null });
    return listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, maxRetries: 0 });
}, 300_000);
afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe("bodies and responses", () => {
  it("type-check with their assertions under tsc --strict", () => {
    expect(group.stderr.bodies).toBe("");
    expect(group.tsc.output).toBe("");
  });

  it("form-urlencoded: sent as a form, read back with the schema's types", async () => {
    seen.length = 0;
    expect(await client.submitForm!({ body: { name: "Ann Lee", age: 30, agree: true, tags: ["a", "b&c"] } })).toEqual({
      name: "Ann Lee",
      age: 30,
      agree: true,
      tags: ["a", "b&c"],
    });
    expect(seen[0]!.contentType).toBe("application/x-www-form-urlencoded");
  });

  it("multipart: a file, text fields, repeated fields and a JSON object part", async () => {
    seen.length = 0;
    const received = await client.upload!({
      body: { file: new File(["hello"], "hello.txt", { type: "text/plain" }), description: "greeting", count: 3, labels: ["x", "y"], meta: { a: 1 } },
    });
    expect(received).toEqual({ fileName: "hello.txt", fileText: "hello", description: "greeting", count: 3, labels: ["x", "y"], meta: { a: 1 } });
    expect(seen[0]!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    // the server validates the parts: a non-integer count is an error
    const error = await client.upload!({ body: { file: new Blob(["x"]), description: "d", count: "many" } }).catch((e: any) => e);
    expect(error.status).toBe(400);
  });

  it("binary: bytes up as application/octet-stream, bytes down as a Blob", async () => {
    seen.length = 0;
    expect(await client.putBlob!({ path: { id: "b1" }, body: new Uint8Array([7, 8, 9]) })).toEqual({ size: 3, first: 7 });
    expect(seen[0]!.contentType).toBe("application/octet-stream");
    const blob = await client.getBlob!({ path: { id: "b1" } });
    expect(blob).toBeInstanceOf(Blob);
    expect(await blob.text()).toBe("blob b1");
  });

  it("text/plain both ways", async () => {
    expect(await client.postNote!({ body: "quiet" })).toBe("QUIET");
  });

  it("`default` responses: an error with any status, or success when no 2xx is declared", async () => {
    expect(await client.maybe!()).toEqual({ ok: true });
    const error = await client.maybe!(undefined, { headers: { "x-fail": "1" } }).catch((e: unknown) => e);
    expect(client.maybe!.isError(error)).toBe(true);
    expect(error).toMatchObject({ status: 503, body: { code: 503, message: "later" } });
    expect(await client.onlyDefault!()).toEqual({ status: "fine" });
  });

  it("operations without operationId are named from method and path and routed", async () => {
    seen.length = 0;
    await expect(client.getNoOperationIdByPetId!({ path: { petId: "p 1" } })).resolves.toBeUndefined();
    await expect(client.postNoOperationIdByPetId!({ path: { petId: "p" } })).resolves.toBeUndefined();
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["GET /no-operation-id/p%201", "POST /no-operation-id/p"]);
  });
});
