import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { buildGroup, importGenerated, type BuiltGroup } from "./harness.js";

/**
 * Parameters end to end: the generated client serialises every style/explode combination, the generated router
 * (behind the client's `fetch`) parses it back, and its handlers echo what they received. Path-level, `$ref`'d and
 * overridden parameters are typed (parameters.types.ts) and served as the spec says.
 */
let group: BuiltGroup;
let client: Record<string, (params?: unknown) => Promise<any>>;
const urls: string[] = [];

beforeAll(async () => {
  group = await buildGroup("parameters", [
    { name: "parameters", spec: "parameters.yaml" },
    { name: "path-templates", spec: "path-templates.yaml" },
  ]);
  const { createClient, createRouter } = await importGenerated(group, "parameters");
  const echo = ({ path, query, headers, cookies }: Record<string, unknown>) => ({ status: 200, body: { path, query, headers, cookies } });
  const router = createRouter(
    { getItem: echo, deleteItem: echo, search: echo, pathStyles: echo, pathScalars: echo },
    { insecureNoAuth: true, basePath: "/api", validateResponses: true },
  );
  client = createClient({
    maxRetries: 0,
    fetch: (request: Request) => {
      urls.push(request.url.replace("http://localhost/api", ""));
      return router.fetch(request);
    },
  });
}, 300_000);

describe("parameters", () => {
  it("type-check with their assertions under tsc --strict", () => {
    expect(group.stderr.parameters).toBe("");
    expect(group.tsc.output).toBe("");
  });

  it("path-level parameters apply to every operation; an operation-level one overrides it", async () => {
    expect(await client.getItem!({ path: { id: 7 }, query: { verbose: true } })).toMatchObject({ path: { id: 7 }, query: { verbose: true } });
    expect(await client.deleteItem!({ path: { id: 7 }, query: { verbose: "no" } })).toMatchObject({ query: { verbose: "no", limit: 20 } });
    // the server enforces the override too: `true` is not one of yes/no, and it is required
    const error = await client.deleteItem!({ path: { id: 7 }, query: { verbose: true } }).catch((e: any) => e);
    expect(error.status).toBe(400);
    expect((await client.deleteItem!({ path: { id: 7 }, query: {} }).catch((e: any) => e)).status).toBe(400);
  });

  it("query arrays and objects in every style, $ref'd parameters, headers and cookies", async () => {
    urls.length = 0;
    const echoed = await client.search!({
      query: {
        ids: [1, 2],
        idsCsv: [3, 4],
        idsSpace: ["a b", "c"],
        idsPipe: ["d", "e"],
        filter: { color: "red", size: 2 },
        point: { x: 1.5, y: -2 },
        where: { name: "Ann", age: 30 },
        bar: { R: 100, G: 200 },
        limit: 5,
      },
      headers: { "X-Trace": "t-1", "X-Coords": { x: 1, y: 2 }, "X-Tags": ["a", "b"] },
      cookies: { session: "s 1" },
    });
    expect(urls).toEqual([
      // (pipes and deepObject brackets percent-encoded, as in OpenAPI 3.1.1's examples)
      "/search?ids=1&ids=2&idsCsv=3,4&idsSpace=a%20b%20c&idsPipe=d%7Ce&color=red&size=2&point=x,1.5,y,-2&where%5Bname%5D=Ann&where%5Bage%5D=30&bar=R%7C100%7CG%7C200&limit=5",
    ]);
    expect(echoed.query).toEqual({
      ids: [1, 2],
      idsCsv: [3, 4],
      // spaceDelimited cannot tell a space inside a value from the delimiter: the spec's own limitation
      idsSpace: ["a", "b", "c"],
      idsPipe: ["d", "e"],
      filter: { color: "red", size: 2 },
      point: { x: 1.5, y: -2 },
      where: { name: "Ann", age: 30 },
      bar: { R: 100, G: 200 },
      limit: 5,
    });
    expect(echoed.headers).toEqual({ "X-Trace": "t-1", "X-Coords": { x: 1, y: 2 }, "X-Tags": ["a", "b"] });
    expect(echoed.cookies).toEqual({ session: "s 1" });
  });

  it("path parameters in simple, label and matrix style, exploded or not", async () => {
    urls.length = 0;
    const echoed = await client.pathStyles!({
      path: {
        simple: [1, 2],
        label: ["a,b", "c.d"], // an encoded delimiter stays inside its value
        matrix: [3, 4],
        labelExplode: { x: 1, y: 2 },
        matrixExplode: [5, 6],
        simpleObject: { x: 7, y: 8 },
        simpleExplode: { x: 9, y: 10 },
      },
    });
    expect(urls).toEqual(["/styles/1,2/.a%2Cb,c.d/;matrix=3,4/.x=1.y=2/;matrixExplode=5;matrixExplode=6/x,7,y,8/x=9,y=10"]);
    expect(echoed.path).toEqual({
      simple: [1, 2],
      label: ["a,b", "c.d"],
      matrix: [3, 4],
      labelExplode: { x: 1, y: 2 },
      matrixExplode: [5, 6],
      simpleObject: { x: 7, y: 8 },
      simpleExplode: { x: 9, y: 10 },
    });
    urls.length = 0;
    expect((await client.pathScalars!({ path: { label: 5, matrix: "a b" } })).path).toEqual({ label: 5, matrix: "a b" });
    expect(urls).toEqual(["/scalars/.5/;matrix=a%20b"]);
  });
});

describe("path templates and path parameters that do not match", () => {
  it("is a required string path parameter of the operations that lack one; one the path has no place for is left out", () => {
    expect(group.stderr["path-templates"]).toBe(
      [
        "specforge: warning: test/fixtures/features/path-templates.yaml#/paths/~1v{api-version}~1items~1{id}: the path has {api-version}, which no path parameter declares on 1 of its 2 operations: a required string path parameter is assumed; the path has no {shard}: path parameter `shard` cannot be sent, and is left out",
        "  hint: declare each template variable of the path, and nothing else, as a parameter with `in: path`",
        "",
      ].join("\n"),
    );
  });

  it("goes from the client to the router over 127.0.0.1 like a declared one", async () => {
    const { createClient, createRouter, toNodeListener } = await importGenerated(group, "path-templates");
    const echo = ({ path }: Record<string, unknown>) => ({ status: 200, body: { path } });
    const router = createRouter({ getItem: echo, deleteItem: () => ({ status: 204 }) }, { basePath: "/api" });
    const server = createServer(toNodeListener(router));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, maxRetries: 0 });
      expect(await client.getItem({ path: { "api-version": "2.1 beta", id: 7 } })).toEqual({ path: { "api-version": "2.1 beta", id: 7 } });
      expect(await client.deleteItem({ path: { "api-version": "1", id: 7 } })).toBeUndefined();
      // The declared one keeps its schema on the router too.
      expect((await client.deleteItem({ path: { "api-version": "3", id: 7 } }).catch((e: { status: number }) => e)).status).toBe(400);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
