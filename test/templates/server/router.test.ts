import { describe, expect, it, vi } from "vitest";
import { createRouter, document, routes, type Credentials } from "./fixtures/server.js";
import { createRouterRuntime, type RouteSpec } from "../../../templates/server/index.js";
import { RouteTrie } from "../../../templates/server/routing.js";

const BASE = "http://api.test";
const auth = { authorization: "Bearer good" };
const authenticate = ({ HTTPBearer }: Credentials) => (HTTPBearer.token === "good" ? { user: "u1" } : null);

function call(router: { fetch(r: Request): Promise<Response> }, method: string, path: string, init: { headers?: Record<string, string>; body?: unknown; raw?: string } = {}) {
  const headers = new Headers(init.headers);
  let body: string | undefined = init.raw;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  return router.fetch(new Request(`${BASE}${path}`, { method, headers, body }));
}

describe("segment trie", () => {
  it("prefers static segments, backtracks into params, handles mixed segments", () => {
    const trie = new RouteTrie<string>();
    trie.add("GET", "/a/{x}/c", "param-c");
    trie.add("GET", "/a/b/d", "static-d");
    trie.add("GET", "/files/{name}.{ext}", "file");
    trie.add("GET", "/files/{id}", "file-id");
    trie.add("GET", "/cmp/{base}...{head}", "compare");
    trie.add("GET", "/", "root");
    expect(trie.match("GET", "/a/b/d")?.value).toBe("static-d");
    expect(trie.match("GET", "/a/b/c")).toEqual({ value: "param-c", captures: ["b"] });
    expect(trie.match("GET", "/files/report.final.txt")).toEqual({ value: "file", captures: ["report.final", "txt"] });
    expect(trie.match("GET", "/files/readme")).toEqual({ value: "file-id", captures: ["readme"] });
    expect(trie.match("GET", "/cmp/main...feature/x")).toBeUndefined();
    expect(trie.match("GET", "/cmp/main...feature")?.captures).toEqual(["main", "feature"]);
    expect(trie.match("GET", "/cmp/v1.0...v2.0")?.captures).toEqual(["v1.0", "v2.0"]);
    expect(trie.match("GET", "/")?.value).toBe("root");
    expect(trie.match("GET", "/a//c")).toBeUndefined();
    expect(trie.match("POST", "/a/b/d")).toBeUndefined();
    expect(trie.allowedMethods("/a/b/d")).toEqual(["GET"]);
    expect(trie.allowedMethods("/nope")).toEqual([]);
  });

  it("rejects duplicate routes", () => {
    const trie = new RouteTrie<number>();
    trie.add("GET", "/x/{a}", 1);
    expect(() => trie.add("GET", "/x/{b}", 2)).toThrow(/Duplicate route/);
  });

  it("lookup cost does not grow with the number of routes", () => {
    const trie = new RouteTrie<number>();
    let added = 0;
    const visits = (count: number) => {
      for (; added < count; added++) trie.add("GET", `/r${added}/{id}/items`, added);
      let best = Infinity; // best of 5: robust against GC pauses and a busy machine
      for (let round = 0; round < 5; round++) {
        const start = performance.now();
        for (let i = 0; i < 20_000; i++) trie.match("GET", "/r7/abc/items");
        best = Math.min(best, performance.now() - start);
      }
      return best;
    };
    const small = visits(10);
    const large = visits(5_000);
    expect(trie.match("GET", "/r4999/x/items")?.value).toBe(4999);
    // 500x more routes: a linear scan would be ~500x slower; the trie stays within noise.
    expect(large).toBeLessThan(small * 5 + 20);
  });
});

describe("routing through the router", () => {
  const router = createRouter(
    {
      createChatCompletion: ({ request }) => ({
        status: 200,
        body: { id: new URL(request.url).pathname, object: "chat.completion", created: 0, model: "m", choices: [], usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } },
      }),
      compareRefs: ({ path }) => ({ status: 200, body: path }),
      getFile: ({ path }) => ({ status: 200, body: `${path.name}|${path.ext}`, contentType: "text/plain" }),
      deleteModel: ({ path }) => (path.model_id === "gone" ? { status: 404, body: { error: { message: "no", type: "not_found" } } } : { status: 204 }),
      healthCheck: () => ({ status: 200, body: { status: "ok" } }),
    },
    { authenticate },
  );
  const chat = { messages: [{ role: "user", content: "hi" }] };

  it("serves both trailing-slash forms with the same handler, exactly as declared", async () => {
    const a = await call(router, "POST", "/v1/chat/completions", { headers: auth, body: chat });
    const b = await call(router, "POST", "/v1/chat/completions/", { headers: auth, body: chat });
    expect([a.status, (await a.json()).id]).toEqual([200, "/v1/chat/completions"]);
    expect([b.status, (await b.json()).id]).toEqual([200, "/v1/chat/completions/"]);
    // Only declared forms exist: /v1/health/ is not /v1/health.
    expect((await call(router, "GET", "/v1/health/")).status).toBe(404);
    expect((await call(router, "GET", "/v1/health")).status).toBe(200);
  });

  it("decodes params after matching: %2F stays inside the parameter", async () => {
    const res = await call(router, "GET", "/v1/repos/acme/app/compare/release%2F1.0...feature%2Fx%20y");
    expect(await res.json()).toEqual({ owner: "acme", repo: "app", base: "release/1.0", head: "feature/x y" });
    const file = await call(router, "GET", "/v1/files/report.v2.md");
    expect(await file.text()).toBe("report.v2|md");
    expect(file.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  });

  it("validates mixed-segment params too", async () => {
    const res = await call(router, "GET", "/v1/files/report.pdf");
    expect(res.status).toBe(400);
    // The operation declares no 400: RFC 9457 problem details, the problems in `errors`.
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toEqual({
      type: "about:blank",
      title: "Bad Request",
      status: 400,
      detail: "Request validation failed",
      instance: "/v1/files/report.pdf",
      errors: [{ loc: ["path", "ext"], msg: "Input should be 'txt' or 'md'", type: "enum" }],
    });
    const bad = await call(router, "GET", "/v1/files/%E0%A4%A.txt");
    expect(bad.status).toBe(400);
  });

  it("404 for unknown paths, 405 + Allow for known paths with another method, HEAD via GET", async () => {
    const missing = await call(router, "GET", "/v2/nothing");
    expect(missing.status).toBe(404);
    // The fixture's operations declare 404 as OpenAI's envelope: the spec at large answers so.
    expect(await missing.json()).toEqual({ error: { message: "Not Found", type: "invalid_request_error", param: null, code: "not_found" } });
    const wrong = await call(router, "PUT", "/v1/preview/models/abc", { headers: auth });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("DELETE");
    // No operation declares a 405; the `default` error response is the spec's last word on it.
    expect(await wrong.json()).toEqual({ error: { message: "Method Not Allowed", type: "invalid_request_error", param: null, code: "method_not_allowed" } });
    const getOnly = await call(router, "POST", "/v1/health");
    expect(getOnly.headers.get("allow")).toBe("GET, HEAD");
    const head = await call(router, "HEAD", "/v1/health");
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("204 responses have no body; other declared statuses carry theirs", async () => {
    const gone = await call(router, "DELETE", "/v1/preview/models/gone", { headers: auth });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ error: { message: "no", type: "not_found" } });
    const deleted = await call(router, "DELETE", "/v1/preview/models/m1", { headers: auth });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
  });

  it("basePath strips a mount prefix", async () => {
    const mounted = createRouter({ healthCheck: () => ({ status: 200, body: { status: "ok" } }) }, { basePath: "/api/" });
    expect((await call(mounted, "GET", "/api/v1/health")).status).toBe(200);
    expect((await call(mounted, "GET", "/v1/health")).status).toBe(404);
  });
});

describe("base paths: each route under its server's path unless `basePath` says otherwise", () => {
  const route = (name: string, path: string, server?: number): RouteSpec => ({
    name,
    method: "GET",
    path,
    ...(server === undefined ? {} : { server }),
    secured: false,
    params: { path: [], query: [], header: [] },
    responses: { "204": {} },
    validationErrorStatus: 400,
  });
  const routes = [route("items", "/items"), route("uploads", "/uploads", 1), route("reports", "/reports", 2)];
  const called: string[] = [];
  const handlers = Object.fromEntries(routes.map(({ name }) => [name, () => (called.push(name), { status: 204 })]));
  const router = (serverPaths: string[][] | undefined, basePath?: string) =>
    createRouterRuntime({ components: { schemas: {} } }, routes, handlers, basePath === undefined ? {} : { basePath }, serverPaths ? { serverPaths } : {});
  const get = async (r: ReturnType<typeof router>, path: string) => {
    called.length = 0;
    const response = await call(r, "GET", path);
    return { status: response.status, called: [...called], body: response.status === 404 ? ((await response.json()) as { detail?: string }) : undefined };
  };

  it("serves each operation under the path of its server (longest first), and the root server's at the root", async () => {
    const r = router([["/v1"], [""], ["/v1/beta"]]);
    expect(await get(r, "/v1/items")).toMatchObject({ status: 204, called: ["items"] });
    expect(await get(r, "/uploads")).toMatchObject({ status: 204, called: ["uploads"] });
    expect(await get(r, "/v1/beta/reports")).toMatchObject({ status: 204, called: ["reports"] });
    // Each under its own server only.
    expect(await get(r, "/items")).toMatchObject({ status: 404, called: [] });
    expect(await get(r, "/v1/uploads")).toMatchObject({ status: 404, called: [] });
    expect(await get(r, "/v1/reports")).toMatchObject({ status: 404, called: [] });
    expect((await call(r, "POST", "/v1/items")).status).toBe(405);
  });

  it("a path outside every base path is 404 saying which paths were expected", async () => {
    const r = router([["/v1"], ["/v1"], ["/v2"]]);
    expect(await get(r, "/items")).toMatchObject({ status: 404, body: { detail: "Not Found: expected paths under /v1 or /v2" } });
    expect(await get(r, "/v1x/items")).toMatchObject({ status: 404, body: { detail: "Not Found: expected paths under /v1 or /v2" } });
    // Under a base path, an unknown path is a plain 404.
    expect(await get(r, "/v1/nothing")).toMatchObject({ status: 404, body: { detail: "Not Found" } });
    expect(await get(r, "/v2/reports")).toMatchObject({ status: 204, called: ["reports"] });
  });

  it("a server with several paths (an enumerated variable) serves under each", async () => {
    const r = router([["/v1", "/v2"], [""], [""]]);
    expect(await get(r, "/v1/items")).toMatchObject({ status: 204, called: ["items"] });
    expect(await get(r, "/v2/items")).toMatchObject({ status: 204, called: ["items"] });
  });

  it("`basePath` puts every route under one path, \"\" at the root; without server paths the routes are at the root", async () => {
    const mounted = router([["/v1"], [""], ["/v2"]], "/mount/");
    for (const path of ["/mount/items", "/mount/uploads", "/mount/reports"]) expect((await get(mounted, path)).status, path).toBe(204);
    expect(await get(mounted, "/v1/items")).toMatchObject({ status: 404, body: { detail: "Not Found: expected paths under /mount" } });
    const root = router([["/v1"], [""], ["/v2"]], "");
    for (const path of ["/items", "/uploads", "/reports"]) expect((await get(root, path)).status, path).toBe(204);
    expect((await get(root, "/v1/items")).status).toBe(404);
    const plain = router(undefined);
    for (const path of ["/items", "/uploads", "/reports"]) expect((await get(plain, path)).status, path).toBe(204);
    expect((await get(router(undefined, "api"), "/api/items")).status).toBe(204);
  });
});

describe("parameters", () => {
  const seen: unknown[] = [];
  const router = createRouter(
    {
      listModelCheckpoints: (ctx) => {
        seen.push({ path: ctx.path, query: ctx.query, headers: ctx.headers });
        return { status: 200, body: { object: "list", data: [], first_id: "", last_id: "", has_more: false } };
      },
      listTrainingJobEvents: (ctx) => {
        seen.push(ctx.query);
        return { status: 200, body: { object: "list", data: [], has_more: false } };
      },
    },
    { authenticate },
  );
  const uuid = "3b241101-e2bb-4255-8caf-4136c566a962";

  it("coerces query strings by schema type and applies defaults", async () => {
    seen.length = 0;
    const res = await call(router, "GET", `/v1/preview/models/m%201/checkpoints?limit=5&order=desc&unknown=1`, { headers: { ...auth, "x-request-id": uuid } });
    expect(res.status).toBe(200);
    await call(router, "GET", "/v1/preview/models/m1/checkpoints", { headers: auth });
    expect(seen).toEqual([
      { path: { model_id: "m 1" }, query: { limit: 5, order: "desc" }, headers: { "X-Request-Id": uuid } },
      { path: { model_id: "m1" }, query: { limit: 20, order: "asc" }, headers: {} },
    ]);
  });

  it("reports every invalid parameter with FastAPI locs (422)", async () => {
    const res = await call(router, "GET", "/v1/preview/models/m1/checkpoints?limit=abc&order=up", { headers: { ...auth, "X-Request-Id": "nope" } });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      detail: [
        { loc: ["query", "limit"], msg: "Input should be a valid integer, unable to parse string as an integer", type: "int_parsing" },
        { loc: ["query", "order"], msg: "Input should be 'asc' or 'desc'", type: "enum" },
        { loc: ["header", "X-Request-Id"], msg: "Input should be a valid UUID", type: "uuid_parsing" },
      ],
    });
    const range = await call(router, "GET", "/v1/preview/models/m1/checkpoints?limit=101", { headers: auth });
    expect((await range.json()).detail).toEqual([{ loc: ["query", "limit"], msg: "Input should be less than or equal to 100", type: "less_than_equal" }]);
    const zero = await call(router, "GET", "/v1/preview/models/m1/checkpoints?limit=0", { headers: auth });
    expect((await zero.json()).detail[0].type).toBe("greater_than_equal");
  });

  it("arrays: exploded repeated keys and comma-separated; booleans; nullable unions", async () => {
    seen.length = 0;
    const ok = await call(router, "GET", `/v1/preview/training-jobs/${uuid}/events?type=gradient_step&type=training_ended&steps=1,2,3&verbose=true`, { headers: auth });
    expect(ok.status).toBe(200);
    await call(router, "GET", `/v1/preview/training-jobs/${uuid}/events?verbose=0`, { headers: auth });
    expect(seen).toEqual([{ type: ["gradient_step", "training_ended"], steps: [1, 2, 3], verbose: true }, { verbose: false }]);
    const bad = await call(router, "GET", `/v1/preview/training-jobs/not-a-uuid/events?type=nope&steps=1,x&verbose=maybe`, { headers: auth });
    expect((await bad.json()).detail).toEqual([
      { loc: ["path", "training_job_id"], msg: "Input should be a valid UUID", type: "uuid_parsing" },
      { loc: ["query", "type", 0], msg: "Input should be 'training_started', 'gradient_step', 'training_ended' or 'training_failed'", type: "enum" },
      { loc: ["query", "steps", 1], msg: "Input should be a valid integer, unable to parse string as an integer", type: "int_parsing" },
      { loc: ["query", "verbose"], msg: "Input should be a valid boolean, unable to interpret input", type: "bool_parsing" },
    ]);
  });

  it("required params, deepObject, form objects and cookies", async () => {
    const spec: RouteSpec = {
      name: "search",
      method: "GET",
      path: "/search",
      secured: false,
      params: {
        path: [],
        query: [
          { name: "q", required: true, schema: { type: "string", minLength: 1 } },
          { name: "filter", required: false, style: "deepObject", explode: true, schema: { type: "object", properties: { min: { type: "integer" }, tag: { type: "string" } } } },
          { name: "page", required: false, style: "form", explode: false, schema: { type: "object", properties: { size: { type: "integer" }, cursor: { type: "string" } } } },
          { name: "json", required: false, contentType: "application/json", schema: { type: "object", required: ["a"] } },
        ],
        header: [{ name: "X-Tags", required: false, schema: { type: "array", items: { type: "string" } } }],
        cookie: [{ name: "session", required: true, schema: { type: "string" } }],
      },
      responses: { "200": { content: { "application/json": { schema: {} } } } },
      validationErrorStatus: 400,
    };
    const search = createRouterRuntime({}, [spec], { search: (ctx: unknown) => ({ status: 200, body: ctx as object }) }, {});
    const res = await search.fetch(
      new Request(`${BASE}/search?q=x&filter[min]=3&filter[tag]=a&page=size,10,cursor,abc&json=${encodeURIComponent('{"a":1}')}`, {
        headers: { cookie: "other=1; session=s%201", "x-tags": "a, b" },
      }),
    );
    const body = await res.json();
    expect(body.query).toEqual({ q: "x", filter: { min: 3, tag: "a" }, page: { size: 10, cursor: "abc" }, json: { a: 1 } });
    expect(body.cookies).toEqual({ session: "s 1" });
    expect(body.headers).toEqual({ "X-Tags": ["a", "b"] });
    const missing = await search.fetch(new Request(`${BASE}/search?filter[min]=x&json=%7B`));
    expect((await missing.json()).errors).toEqual([
      { loc: ["query", "q"], msg: "Field required", type: "missing" },
      { loc: ["query", "filter", "min"], msg: "Input should be a valid integer, unable to parse string as an integer", type: "int_parsing" },
      { loc: ["query", "json"], msg: "Invalid JSON", type: "json_invalid" },
      { loc: ["cookie", "session"], msg: "Field required", type: "missing" },
    ]);
  });
});

describe("exploded form objects (`?prop=x&n=1` for an object parameter)", () => {
  it("are gathered from the properties the schema declares through $refs and unions, as hey-api's fixture writes them", async () => {
    const document = { components: { schemas: { Model: { type: "object", properties: { prop: { type: "string" }, n: { type: "integer" } } } } } };
    const spec: RouteSpec = {
      name: "defaults",
      method: "GET",
      path: "/defaults",
      secured: false,
      params: {
        path: [],
        query: [{ name: "parameterModel", required: false, schema: { oneOf: [{ $ref: "#/components/schemas/Model" }, { type: "null" }] } }],
        header: [],
        cookie: [],
      },
      responses: { "200": { content: { "application/json": { schema: {} } } } },
      validationErrorStatus: 400,
    };
    const router = createRouterRuntime(document, [spec], { defaults: (ctx: { query: unknown }) => ({ status: 200, body: ctx.query as object }) }, {});
    const res = await router.fetch(new Request(`${BASE}/defaults?prop=x%2Fy&n=2&other=1`));
    expect(await res.json()).toEqual({ parameterModel: { prop: "x/y", n: 2 } });
    expect(await (await router.fetch(new Request(`${BASE}/defaults`))).json()).toEqual({});
  });

  it("a list property repeats its key, an object property is JSON, an emptyable number is typed (as the client writes them)", async () => {
    const spec: RouteSpec = {
      name: "page",
      method: "GET",
      path: "/page",
      secured: false,
      params: {
        path: [],
        query: [
          {
            name: "page",
            required: true,
            schema: {
              type: "object",
              properties: {
                size: { anyOf: [{ type: "integer" }, { type: "string", enum: [""] }] },
                sort: { type: "array", items: { type: "string" } },
                range: { type: "object", properties: { from: { type: "integer" } } },
              },
            },
          },
        ],
        header: [],
        cookie: [],
      },
      responses: { "200": { content: { "application/json": { schema: {} } } } },
      validationErrorStatus: 400,
    };
    const router = createRouterRuntime({}, [spec], { page: (ctx: { query: unknown }) => ({ status: 200, body: ctx.query as object }) }, {});
    const res = await router.fetch(new Request(`${BASE}/page?size=8&sort=name&sort=%2Bid&range=%7B%22from%22%3A1%7D`));
    expect(await res.json()).toEqual({ page: { size: 8, sort: ["name", "+id"], range: { from: 1 } } });
    const empty = await router.fetch(new Request(`${BASE}/page?size=&sort=a`));
    expect(await empty.json()).toEqual({ page: { size: "", sort: ["a"] } });
  });
});

describe("a path with a query of its own (OpenAI's /responses and /responses?beta=true)", () => {
  const route = (name: string, path: string): RouteSpec => ({
    name,
    method: "POST",
    path,
    secured: false,
    params: { path: [], query: [], header: [] },
    responses: { "200": { content: { "application/json": { schema: {} } } } },
    validationErrorStatus: 400,
  });
  const router = createRouterRuntime(
    {},
    [route("createResponse", "/responses"), route("betaCreateResponse", "/responses?beta=true"), route("betaOnly", "/previews/{id}?beta=true&v=2")],
    Object.fromEntries(["createResponse", "betaCreateResponse", "betaOnly"].map((name) => [name, (ctx: { path: object }) => ({ status: 200, body: { name, path: ctx.path } })])),
    {},
  );
  const post = async (target: string) => {
    const res = await router.fetch(new Request(`${BASE}${target}`, { method: "POST" }));
    return res.status === 200 ? ((await res.json()) as { name: string }).name : res.status;
  };

  it("is the operation a request carrying that query reaches; the path alone reaches the other", async () => {
    expect(await post("/responses")).toBe("createResponse");
    expect(await post("/responses?beta=true")).toBe("betaCreateResponse");
    expect(await post("/responses?stream=1&beta=true")).toBe("betaCreateResponse");
    expect(await post("/responses?beta=false")).toBe("createResponse");
  });

  it("without a route for the path alone, a request that lacks the query is not found", async () => {
    expect(await post("/previews/p1?beta=true&v=2")).toBe("betaOnly");
    expect(await post("/previews/p1?beta=true")).toBe(404);
    const res = await router.fetch(new Request(`${BASE}/previews/p%201?v=2&beta=true`, { method: "POST" }));
    expect(await res.json()).toEqual({ name: "betaOnly", path: { id: "p 1" } });
  });
});

describe("request bodies", () => {
  const handled = vi.fn();
  const router = createRouter(
    {
      createModel: ({ body, auth: principal }) => {
        handled(body, principal);
        return { status: 200, body: { id: "00000000-0000-4000-8000-000000000000", entity: body.entity ?? "me", project: body.project, name: body.name, base_model: body.base_model } };
      },
      createSftTrainingJob: ({ body }) => {
        handled(body);
        return { status: 201, body: { id: body.model_id } };
      },
      submitFeedback: ({ body, contentType }) => {
        handled(body, contentType);
        return { status: 204 };
      },
    },
    { authenticate, maxBodyBytes: 1000 },
  );
  const model = { project: "p", name: "m", base_model: "OpenPipe/Qwen3-14B-Instruct" };

  it("parses and validates JSON, applying defaults before the handler sees it", async () => {
    handled.mockClear();
    const res = await call(router, "POST", "/v1/preview/models", { headers: auth, body: model });
    expect(res.status).toBe(200);
    expect(handled).toHaveBeenCalledWith({ ...model, return_existing: false }, { user: "u1" });
  });

  it("422 with detail locs for invalid bodies (FastAPI shape)", async () => {
    const res = await call(router, "POST", "/v1/preview/models", { headers: auth, body: { project: "", name: "bad name!", entity: 5 } });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      detail: [
        { loc: ["body", "entity"], msg: "Input should be a valid string", type: "string_type" },
        { loc: ["body", "project"], msg: "String should have at least 1 character", type: "string_too_short" },
        { loc: ["body", "name"], msg: "String should match pattern '^[A-Za-z0-9][A-Za-z0-9._-]*$'", type: "string_pattern_mismatch" },
        { loc: ["body", "base_model"], msg: "Field required", type: "missing" },
      ],
    });
  });

  it("malformed JSON → json_invalid with the same status; missing body → missing", async () => {
    const res = await call(router, "POST", "/v1/preview/models", { headers: { ...auth, "content-type": "application/json" }, raw: '{"project": ' });
    expect(res.status).toBe(422);
    const [issue] = (await res.json()).detail;
    expect(issue).toMatchObject({ msg: "JSON decode error", type: "json_invalid" });
    expect(issue.loc[0]).toBe("body");
    const empty = await call(router, "POST", "/v1/preview/models", { headers: auth });
    expect(await empty.json()).toEqual({ detail: [{ loc: ["body"], msg: "Field required", type: "missing" }] });
  });

  it("400 in the operation's declared error shape (OpenAI's envelope here), every problem in the message", async () => {
    const res = await call(router, "POST", "/v1/preview/sft-training-jobs", { headers: auth, body: { model_id: "x", training_data_url: "s3://x", extra: 1, config: { batch_size: 0 } } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        message:
          "Request validation failed: body.model_id: Input should be a valid UUID; body.training_data_url: String should match pattern '^wandb-artifact:///'; body.config.batch_size: Input should be greater than or equal to 1; body.extra: Extra inputs are not permitted",
        type: "invalid_request_error",
        param: "model_id",
        code: "validation_error",
      },
    });
  });

  it("415 for a wrong or missing content type", async () => {
    const wrong = await call(router, "POST", "/v1/preview/models", { headers: { ...auth, "content-type": "text/plain" }, raw: "hi" });
    expect(wrong.status).toBe(415);
    expect(await wrong.json()).toMatchObject({ status: 415, title: "Unsupported Media Type", detail: "Unsupported Content-Type 'text/plain'; expected application/json" });
    const none = await router.fetch(new Request(`${BASE}/v1/preview/models`, { method: "POST", headers: auth, body: new Blob(["{}"]) }));
    expect(none.status).toBe(415);
    const charset = await call(router, "POST", "/v1/preview/models", { headers: { ...auth, "content-type": "application/json; charset=utf-8" }, raw: JSON.stringify(model) });
    expect(charset.status).toBe(200);
  });

  it("413 by Content-Length and while streaming, cancelling the reader", async () => {
    const big = await call(router, "POST", "/v1/preview/models", { headers: auth, body: { ...model, project: "x".repeat(2000) } });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ status: 413, title: "Content Too Large", detail: "Request body exceeds 1000 bytes" });
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(400));
      },
      cancel() {
        cancelled = true;
      },
    });
    const init = { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: endless, duplex: "half" };
    const res = await router.fetch(new Request(`${BASE}/v1/preview/models`, init as RequestInit));
    expect(res.status).toBe(413);
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThan(10);
  });

  it("form-urlencoded bodies are coerced by schema and validated", async () => {
    handled.mockClear();
    const ok = await call(router, "POST", "/v1/feedback", { headers: { "content-type": "application/x-www-form-urlencoded" }, raw: "rating=4&comment=nice&tags=a&tags=b" });
    expect(ok.status).toBe(204);
    expect(handled).toHaveBeenCalledWith({ rating: 4, comment: "nice", tags: ["a", "b"] }, "application/x-www-form-urlencoded");
    const bad = await call(router, "POST", "/v1/feedback", { headers: { "content-type": "application/x-www-form-urlencoded" }, raw: "rating=9" });
    expect((await bad.json()).error).toEqual({
      message: "Request validation failed: body.rating: Input should be less than or equal to 5",
      type: "invalid_request_error",
      param: "rating",
      code: "validation_error",
    });
  });

  it("multipart bodies: files pass `format: binary` fields", async () => {
    const spec: RouteSpec = {
      name: "upload",
      method: "POST",
      path: "/upload",
      secured: false,
      params: { path: [], query: [], header: [] },
      body: {
        required: true,
        content: { "multipart/form-data": { schema: { type: "object", required: ["file", "purpose"], properties: { file: { type: "string", format: "binary" }, purpose: { type: "string" }, n: { type: "integer" } } } } },
      },
      responses: { "200": { content: { "application/json": { schema: {} } } } },
      validationErrorStatus: 400,
    };
    const upload = createRouterRuntime({}, [spec], {
      upload: async ({ body }: { body: { file: File; purpose: string; n: number } }) => ({ status: 200, body: { name: body.file.name, text: await body.file.text(), purpose: body.purpose, n: body.n } }),
    });
    const form = new FormData();
    form.append("file", new Blob(["hello"]), "a.txt");
    form.append("purpose", "fine-tune");
    form.append("n", "3");
    const res = await upload.fetch(new Request(`${BASE}/upload`, { method: "POST", body: form }));
    expect(await res.json()).toEqual({ name: "a.txt", text: "hello", purpose: "fine-tune", n: 3 });
  });
});

describe("routes table", () => {
  it("fixture routes compile and every schema ref resolves", () => {
    expect(() => createRouterRuntime(document, routes, {}, { mock: true, validateResponses: true })).not.toThrow();
  });
});

describe("robustness", () => {
  it("operation names never resolve to Object.prototype members; undeclared template params still arrive", async () => {
    const spec: RouteSpec = {
      name: "constructor",
      method: "GET",
      path: "/things/{id}",
      secured: false,
      params: { path: [], query: [], header: [] },
      responses: { "200": { content: { "application/json": { schema: {} } } } },
      validationErrorStatus: 400,
    };
    expect((await createRouterRuntime({}, [spec], {}).fetch(new Request(`${BASE}/things/1`))).status).toBe(501);
    const echo = createRouterRuntime({}, [spec], { constructor: ({ path }: { path: object }) => ({ status: 200, body: path }) });
    expect(await (await echo.fetch(new Request(`${BASE}/things/a%20b`))).json()).toEqual({ id: "a b" });
  });

  it("a handler returning garbage or an impossible status → 500 + onError", async () => {
    const errors: unknown[] = [];
    const spec: RouteSpec = { ...routes.find((r) => r.name === "healthCheck")!, name: "h" };
    const make = (result: unknown) => createRouterRuntime({}, [spec], { h: () => result }, { onError: (e) => errors.push(e) });
    expect((await make("nope").fetch(new Request(`${BASE}/v1/health`))).status).toBe(500);
    expect((await make({ status: 1000, body: {} }).fetch(new Request(`${BASE}/v1/health`))).status).toBe(500);
    expect(errors).toHaveLength(2);
  });
});
