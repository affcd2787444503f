/** Runtime behaviour that needs no server: a fake fetch records the requests. */
import { describe, expect, test } from "vitest";
import { ApiError, ConnectionError, createRuntime, type ClientOptions, type ServerSpec } from "../../../templates/client/index.js";

function recorder(response: () => Response = () => Response.json({})) {
  const urls: string[] = [];
  const fetch = async (request: Request) => {
    urls.push(request.url);
    return response();
  };
  return { urls, fetch };
}

describe("server URLs", () => {
  const servers: ServerSpec[] = [
    { url: "https://{region}.api.example/{version}", variables: { region: { option: "region", default: "us" }, version: { default: "v2" } } },
    { url: "{base_url}", variables: { base_url: { option: "baseUrl" } } },
  ];
  const call = async (options: ClientOptions & Record<string, unknown>, server: number) => {
    const { urls, fetch } = recorder();
    await createRuntime(servers, { ...options, fetch }).operation({ name: "op", method: "GET", path: "/x", server })();
    return urls[0];
  };

  test("variables come from their option, else their default", async () => {
    expect(await call({}, 0)).toBe("https://us.api.example/v2/x");
    expect(await call({ region: "eu" }, 0)).toBe("https://eu.api.example/v2/x");
    expect(await call({ baseUrl: "http://localhost:8080/api/" }, 1)).toBe("http://localhost:8080/api/x");
  });

  test("a variable without value or default is reported when an operation on that server is called", async () => {
    await expect(call({}, 1)).rejects.toThrow(/set the client option "baseUrl"/);
    await expect(call({}, 5)).rejects.toThrow(/server the client does not have/);
  });
});

describe("operations", () => {
  test("isError only claims statuses the spec declares", async () => {
    const { fetch } = recorder(() => Response.json({ detail: "no" }, { status: 404 }));
    const runtime = createRuntime([{ url: "http://api.test" }], { fetch, maxRetries: 0 });
    const declared = runtime.operation({ name: "a", method: "GET", path: "/a", errors: [404] });
    const ranged = runtime.operation({ name: "b", method: "GET", path: "/b", errors: ["4XX"] });
    const undeclared = runtime.operation({ name: "c", method: "GET", path: "/c", errors: [422] });
    const silent = runtime.operation({ name: "d", method: "GET", path: "/d" });
    const errors = await Promise.all([declared(), ranged(), undeclared(), silent()].map((p) => p.catch((e: unknown) => e)));
    expect(errors.every((e) => e instanceof ApiError && e.status === 404)).toBe(true);
    expect([declared.isError(errors[0]), ranged.isError(errors[1]), undeclared.isError(errors[2]), silent.isError(errors[3])]).toEqual([true, true, false, false]);
    expect(declared.isError(errors[1])).toBe(false);
  });

  test("a success body that is not the JSON it claims to be is a SyntaxError", async () => {
    const { fetch } = recorder(() => new Response("{oops", { headers: { "content-type": "application/json" } }));
    const op = createRuntime([{ url: "http://api.test" }], { fetch }).operation({ name: "op", method: "GET", path: "/x" });
    await expect(op()).rejects.toThrow(/op: the 200 response is not valid JSON/);
  });

  test("paginate stops when the cursor does not move", async () => {
    const { urls, fetch } = recorder(() => Response.json({ data: [1], next: "same" }));
    const op = createRuntime([{ url: "http://api.test" }], { fetch }).operation({
      name: "op",
      method: "GET",
      path: "/x",
      pagination: { items: "data", cursor: "next", param: "cursor" },
    });
    const items: unknown[] = [];
    for await (const item of op.paginate!()) items.push(item);
    expect(items).toEqual([1, 1]);
    expect(urls).toEqual(["http://api.test/x", "http://api.test/x?cursor=same"]);
  });
});

describe("a path with a query of its own (OpenAI's /responses/{id}?beta=true)", () => {
  test("sends that query first and the call's after it, joined with & (never a second ?)", async () => {
    const { urls, fetch } = recorder();
    const operation = createRuntime([{ url: "http://api.test/v1" }], { fetch, maxRetries: 0 }).operation({
      name: "betaGetResponse",
      method: "GET",
      path: "/responses/{response_id}?beta=true",
      params: { path: [{ name: "response_id" }], query: [{ name: "include" }] },
    });
    await operation({ path: { response_id: "r 1" }, query: { include: ["a b"] } });
    await operation({ path: { response_id: "r" } });
    expect(urls).toEqual(["http://api.test/v1/responses/r%201?beta=true&include=a%20b", "http://api.test/v1/responses/r?beta=true"]);
  });
});

describe("requests the fetch standard refuses", () => {
  // Without a custom fetch or hooks the runtime calls fetch(url, init) without building a Request; what the
  // Request constructor would refuse must still be a TypeError of the call, not a (retried) ConnectionError.
  const refused = async (servers: ServerSpec[], spec: Parameters<ReturnType<typeof createRuntime>["operation"]>[0], params?: object) => {
    const op = createRuntime(servers, { maxRetries: 2 }).operation(spec);
    const error = await op(params).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(ConnectionError);
  };

  test("a base URL that does not parse, or carries credentials", async () => {
    await refused([{ url: "http://[::1" }], { name: "op", method: "GET", path: "/x" });
    await refused([{ url: "http://user:secret@127.0.0.1:9" }], { name: "op", method: "GET", path: "/x" });
  });

  test("TRACE, and a GET with a body", async () => {
    await refused([{ url: "http://127.0.0.1:9" }], { name: "op", method: "TRACE" as never, path: "/x" });
    await refused([{ url: "http://127.0.0.1:9" }], { name: "op", method: "GET", path: "/x", body: { mediaType: "application/json", required: true } }, { body: { a: 1 } });
  });
});
