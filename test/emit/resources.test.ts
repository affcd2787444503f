import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { callShape } from "../../src/emit/resources.js";
import { buildModel } from "../../src/ir/build.js";
import { derefIn } from "../../src/load/sequential.js";
import { loadSpec } from "../../src/load/index.js";
import { createRuntime, type OperationSpec } from "../../templates/client/index.js";
import { ApiPromise, PagePromise, resourceTree, type ResourceRow } from "../../templates/client/resources.js";
import { cleanupTempDirs, tempDir } from "../helpers.js";

afterAll(cleanupTempDirs);

/** The model of a spec with these paths (and `components.schemas`). */
function modelOf(paths: Record<string, unknown>, schemas: Record<string, unknown> = {}) {
  const dir = tempDir();
  writeFileSync(join(dir, "openapi.json"), JSON.stringify({ openapi: "3.1.0", info: { title: "t", version: "1" }, paths, components: { schemas } }));
  return buildModel(loadSpec(join(dir, "openapi.json")), "openapi.json");
}

const ok = { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } };
const param = (name: string, where: string) => ({ name, in: where, ...(where === "path" ? { required: true } : {}), schema: { type: "string" } });
const body = (schema: unknown, type = "application/json") => ({ required: true, content: { [type]: { schema } } });

describe("how a resource method takes its arguments (callShape)", () => {
  const INPUT = { type: "object", required: ["model"], properties: { model: { type: "string" }, n: { type: "integer" } } };
  it.each<[string, string, Record<string, unknown>, number, string[]]>([
    ["path parameters only: the options follow them", "/files/{file_id}", { parameters: [param("file_id", "path")] }, 0, ["fileId"]],
    ["path parameters in the order of the path, not of their declaration", "/threads/{thread_id}/runs/{run_id}", { parameters: [param("run_id", "path"), param("thread_id", "path")] }, 0, ["threadId", "runId"]],
    ["query and header parameters by name", "/items", { parameters: [param("limit", "query"), param("OpenAI-Beta", "header")] }, 1, []],
    ["an object body beside a query parameter", "/items", { parameters: [param("limit", "query")], requestBody: body({ $ref: "#/components/schemas/Input" }) }, 1, []],
    ["a query parameter named like a body property: nested", "/items", { parameters: [param("model", "query")], requestBody: body({ $ref: "#/components/schemas/Input" }) }, 2, []],
    ["an array body: nested", "/items", { requestBody: body({ type: "array", items: { type: "string" } }) }, 2, []],
    ["a binary body: nested", "/items", { requestBody: body({ type: "string", format: "binary" }, "application/octet-stream") }, 2, []],
    ["a union of objects: flat", "/items", { requestBody: body({ oneOf: [{ $ref: "#/components/schemas/Input" }, { type: "object", properties: { other: { type: "string" } } }] }) }, 1, []],
    ["a union with a scalar: nested", "/items", { requestBody: body({ oneOf: [{ $ref: "#/components/schemas/Input" }, { type: "string" }] }) }, 2, []],
    ["a multipart object: flat", "/items", { requestBody: body({ type: "object", properties: { file: { type: "string", format: "binary" } } }, "multipart/form-data") }, 1, []],
  ])("%s", (_, path, operation, layout, labels) => {
    const model = modelOf({ [path]: { post: { ...operation, responses: ok } } }, { Input: INPUT });
    const shape = callShape(model.operations[0]!, derefIn(model.document));
    expect(shape.layout).toBe(layout);
    expect(shape.path.map((p) => p.label)).toEqual(labels);
  });
});

describe("the resource tree (templates/client/resources.ts)", () => {
  /** A runtime whose fetch records each request and answers `answer`. */
  function recording(answer: () => Response = () => Response.json({ ok: true })) {
    const sent: { method: string; url: string; headers: Headers; body: string }[] = [];
    const runtime = createRuntime([{ url: "https://api.example" }], {
      maxRetries: 0,
      fetch: async (request) => {
        sent.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() });
        return answer();
      },
    });
    return { sent, runtime };
  }
  const specs: OperationSpec[] = [
    { name: "createItem", method: "POST", path: "/items", params: { query: [{ name: "limit" }], header: [{ name: "X-Beta" }] }, body: { mediaType: "application/json", required: true } },
    { name: "getItem", method: "GET", path: "/items/{a}/{b}", params: { path: [{ name: "b" }, { name: "a" }] } },
    { name: "listItems", method: "GET", path: "/items", params: { query: [{ name: "after" }] }, pagination: { items: "data", cursor: "last", param: "after", hasMore: "more" } },
  ];
  const rows: ResourceRow[] = [
    ["items.create", "createItem", 1],
    ["items.nested.create", "createItem", 2],
    ["items.retrieve", "getItem", 0, ["a", "b"]],
    ["items.list", "listItems", 1],
  ];

  it("splits one params object into query, headers and body by the names the spec declares; __proto__ is a body property", async () => {
    const { sent, runtime } = recording();
    const operations = Object.fromEntries(specs.map((spec) => [spec.name, runtime.operation(spec)]));
    const client = resourceTree(operations, rows) as any;
    await client.items.create(JSON.parse('{ "limit": 5, "X-Beta": "on", "name": "n", "__proto__": { "polluted": true } }'));
    expect(sent[0]!.url).toBe("https://api.example/items?limit=5");
    expect(sent[0]!.headers.get("x-beta")).toBe("on");
    expect(JSON.parse(sent[0]!.body)).toEqual(JSON.parse('{ "name": "n", "__proto__": { "polluted": true } }'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // The nested layout as the flat client takes it; path parameters positionally in the row's order.
    await client.items.nested.create({ query: { limit: 1 }, body: { name: "m" } });
    expect([sent[1]!.url, sent[1]!.body]).toEqual(["https://api.example/items?limit=1", '{"name":"m"}']);
    await client.items.retrieve("x", "y", { headers: { "X-Trace": "t" } });
    expect(sent[2]!.url).toBe("https://api.example/items/x/y");
    expect(sent[2]!.headers.get("x-trace")).toBe("t");
    // A required body is sent even when no property is given.
    await client.items.create();
    expect(sent[3]!.body).toBe("{}");
  });

  it("sends one request per call, in the form asked for in the same tick; a PagePromise iterates without an extra first page", async () => {
    let page = 0;
    const { sent, runtime } = recording(() => Response.json({ data: [++page], last: `c${page}`, more: page < 3 }));
    const client = resourceTree(Object.fromEntries(specs.map((spec) => [spec.name, runtime.operation(spec)])), rows) as any;
    const promise = client.items.list();
    expect(promise).toBeInstanceOf(PagePromise);
    expect(promise).toBeInstanceOf(ApiPromise);
    expect(await promise).toEqual({ data: [1], last: "c1", more: true });
    expect((await promise.withResponse()).data).toEqual({ data: [1], last: "c1", more: true });
    expect(sent).toHaveLength(1);
    const items: number[] = [];
    for await (const item of client.items.list({ after: "c1" })) items.push(item);
    expect(items).toEqual([2, 3]);
    expect(sent.map((s) => s.url)).toEqual(["https://api.example/items", "https://api.example/items?after=c1", "https://api.example/items?after=c2"]);
  });

  it("asResponse hands over the response unread; a required path parameter left out throws before anything is sent", async () => {
    const { sent, runtime } = recording(() => new Response("raw text", { headers: { "content-type": "text/plain" } }));
    const client = resourceTree(Object.fromEntries(specs.map((spec) => [spec.name, runtime.operation(spec)])), rows) as any;
    const response: Response = await client.items.retrieve("x", "y").asResponse();
    expect(response.bodyUsed).toBe(false);
    expect(await response.text()).toBe("raw text");
    expect(() => client.items.retrieve("x")).toThrow('items.retrieve: path parameter "b" (argument 2) is required');
    expect(sent).toHaveLength(1);
  });
});
