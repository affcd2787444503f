import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createRouter, toNodeListener, type Handlers } from "./fixtures/server.js";
import type { paths } from "./fixtures/schema.js";
import { deferred, listen, type Running } from "./helpers.js";
import { ResponseValidationError, type RouterOptions } from "../../../templates/server/index.js";

type Chunk = paths["/v1/chat/completions"]["post"]["responses"][200]["content"]["text/event-stream"];
type Principal = { user: string };

const token = { authorization: "Bearer good" };
const chunk = (content: string, finish: "stop" | null = null): Chunk => ({
  id: "c1",
  object: "chat.completion.chunk",
  created: 1,
  model: "m",
  choices: [{ index: 0, delta: { content }, finish_reason: finish }],
});
const model = { project: "p", name: "m", base_model: "b" };

/** Starts a server with the fixture router; returns it and an `onError` spy. */
async function start(handlers: Handlers<Principal>, options: RouterOptions<Principal> = {}) {
  const onError = vi.fn();
  const router = createRouter<Principal>(handlers, {
    authenticate: ({ HTTPBearer }) => (HTTPBearer.token === "good" ? { user: "u1" } : null),
    onError,
    ...options,
  });
  const running = await listen(toNodeListener(router));
  return { ...running, onError };
}

describe("node:http end to end: error statuses", () => {
  let app: Running & { onError: ReturnType<typeof vi.fn> };
  const createModel = vi.fn();
  let sseGate = deferred();

  beforeAll(async () => {
    app = await start({
      healthCheck: () => ({ status: 200, body: { status: "ok" } }),
      createModel: ({ body, auth }) => {
        createModel(body, auth);
        return { status: 200, body: { ...body, id: "00000000-0000-4000-8000-000000000000", entity: auth.user } };
      },
      createSftTrainingJob: () => ({ status: 201, body: { id: "00000000-0000-4000-8000-000000000000" } }),
      listModels: () => {
        throw new Error("database password is hunter2");
      },
      getTree: (): never => {
        throw Object.assign(new Error("boom"), { stack: "secret stack" });
      },
      createChatCompletion: () => ({
        status: 200,
        stream: (async function* () {
          yield chunk("a");
          await sseGate.promise;
          yield chunk("b");
        })(),
      }),
    });
  });
  afterAll(() => app.close());

  it("health without a token → 200", async () => {
    const res = await fetch(`${app.url}/v1/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("content-length")).toBe("15");
    expect(res.headers.get("connection")).toBe("keep-alive");
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("404 JSON for an unknown path, in the shape the spec's operations declare for 404", async () => {
    const res = await fetch(`${app.url}/v1/unknown`, { headers: token });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { message: "Not Found", type: "invalid_request_error", param: null, code: "not_found" } });
  });

  it("405 with Allow for a known path and another method", async () => {
    const res = await fetch(`${app.url}/v1/preview/models`, { headers: token });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(await res.json()).toEqual({ error: { message: "Method Not Allowed", type: "invalid_request_error", param: null, code: "method_not_allowed" } });
  });

  it("401 with WWW-Authenticate for a missing or rejected token", async () => {
    const missing = await fetch(`${app.url}/v1/preview/models`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(model) });
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe("Bearer");
    expect(missing.headers.get("connection")).toBe("close"); // unread request body: closed, not drained
    // createModel declares no 401: RFC 9457 problem details.
    expect(missing.headers.get("content-type")).toBe("application/problem+json");
    expect(await missing.json()).toEqual({ type: "about:blank", title: "Unauthorized", status: 401, detail: "Not authenticated", instance: "/v1/preview/models" });
    const bad = await fetch(`${app.url}/v1/preview/models`, { method: "POST", headers: { authorization: "Bearer nope", "content-type": "application/json" }, body: "{}" });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    const basic = await fetch(`${app.url}/v1/preview/models`, { method: "POST", headers: { authorization: "Basic Zm9vOmJhcg==" }, body: "{}" });
    expect(basic.status).toBe(401);
    expect(createModel).not.toHaveBeenCalled();
  });

  it("authenticated request reaches the handler with ctx.auth", async () => {
    const res = await fetch(`${app.url}/v1/preview/models`, { method: "POST", headers: { ...token, "content-type": "application/json" }, body: JSON.stringify(model) });
    expect(res.status).toBe(200);
    // The body was fully read, so the connection stays reusable (no forced close).
    expect(res.headers.get("connection")).toBe("keep-alive");
    expect(await res.json()).toMatchObject({ entity: "u1", project: "p" });
    expect(createModel).toHaveBeenCalledWith({ ...model, return_existing: false }, { user: "u1" });
  });

  it("415 for a wrong content type", async () => {
    const res = await fetch(`${app.url}/v1/preview/models`, { method: "POST", headers: { ...token, "content-type": "text/csv" }, body: "a,b" });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ status: 415, detail: "Unsupported Content-Type 'text/csv'; expected application/json" });
  });

  it("422 with FastAPI detail locs", async () => {
    const res = await fetch(`${app.url}/v1/preview/models`, {
      method: "POST",
      headers: { ...token, "content-type": "application/json" },
      body: JSON.stringify({ project: 1, name: "ok", return_existing: "yes" }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      detail: [
        { loc: ["body", "project"], msg: "Input should be a valid string", type: "string_type" },
        { loc: ["body", "base_model"], msg: "Field required", type: "missing" },
        { loc: ["body", "return_existing"], msg: "Input should be a valid boolean", type: "bool_type" },
      ],
    });
    const malformed = await fetch(`${app.url}/v1/preview/models`, { method: "POST", headers: { ...token, "content-type": "application/json" }, body: "{nope" });
    expect(malformed.status).toBe(422);
    expect((await malformed.json()).detail[0]).toMatchObject({ type: "json_invalid", loc: ["body", 1] });
  });

  it("400 in the declared error envelope for an operation without a 422", async () => {
    const res = await fetch(`${app.url}/v1/preview/sft-training-jobs`, { method: "POST", headers: { ...token, "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        message: "Request validation failed: body.model_id: Field required; body.training_data_url: Field required",
        type: "invalid_request_error",
        param: "model_id",
        code: "validation_error",
      },
    });
  });

  it("501 naming the operation when no handler is registered", async () => {
    const res = await fetch(`${app.url}/v1/preview/models/m1`, { method: "DELETE", headers: token });
    expect(res.status).toBe(501);
    expect(await res.json()).toMatchObject({ status: 501, title: "Not Implemented", detail: "Operation deleteModel is not implemented" });
  });

  it("500 with a generic body when the handler throws; onError gets the error", async () => {
    app.onError.mockClear();
    const res = await fetch(`${app.url}/v1/models`, { headers: token });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ type: "about:blank", title: "Internal Server Error", status: 500, detail: "Internal Server Error", instance: "/v1/models" });
    expect(text).not.toContain("hunter2");
    expect(app.onError).toHaveBeenCalledTimes(1);
    const [error, context] = app.onError.mock.calls[0];
    expect((error as Error).message).toBe("database password is hunter2");
    expect(context.operation).toBe("listModels");
    expect(context.request).toBeInstanceOf(Request);
    const tree = await fetch(`${app.url}/v1/tree`);
    expect(await tree.text()).not.toContain("stack");
  });

  it("413 by Content-Length: the server answers without reading the upload, the handler never runs", async () => {
    createModel.mockClear();
    const declared = 64 * 1024 * 1024;
    const result = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
      let sent = 0;
      const req = httpRequest(`${app.url}/v1/preview/models`, {
        method: "POST",
        headers: { ...token, "content-type": "application/json", "content-length": String(declared) },
      });
      req.on("response", (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (body += d));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body, sent });
          req.destroy();
        });
      });
      req.on("error", reject);
      req.write(Buffer.alloc(16 * 1024, 32));
      sent += 16 * 1024;
    });
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ status: 413, detail: "Request body exceeds 1048576 bytes" });
    expect(result.sent).toBeLessThan(declared);
    expect(createModel).not.toHaveBeenCalled();
  });

  it("413 while streaming a chunked upload: the response arrives long before the client is done", async () => {
    createModel.mockClear();
    const planned = 256 * 1024 * 1024; // far more than the socket buffers could ever absorb
    const result = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const req = httpRequest(`${app.url}/v1/preview/models`, { method: "POST", headers: { ...token, "content-type": "application/json" } });
      req.on("response", (res) => {
        answered = true;
        res.resume();
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, sent });
          req.destroy();
        });
      });
      req.on("error", (error) => (answered ? undefined : reject(error)));
      const piece = Buffer.alloc(64 * 1024, 32);
      const pump = () => {
        while (!answered && sent < planned) {
          sent += piece.length;
          if (!req.write(piece)) {
            req.once("drain", pump);
            return;
          }
        }
        if (!answered) req.end();
      };
      pump();
    });
    expect(result.status).toBe(413);
    // Typically ~4 MiB: the 1 MiB the router read plus what the kernel socket buffers absorbed.
    expect(result.sent).toBeLessThan(32 * 1024 * 1024);
    expect(createModel).not.toHaveBeenCalled();
  });

  it("SSE: events are flushed one by one, then data: [DONE]", async () => {
    sseGate = deferred();
    const res = await fetch(`${app.url}/v1/chat/completions`, {
      method: "POST",
      headers: { ...token, "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], stream: true }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const first = await reader.read();
    // The handler is still parked before its second yield: the first event was flushed on its own.
    expect(sseGate.settled()).toBe(false);
    expect(first.value).toBe(`data: ${JSON.stringify(chunk("a"))}\n\n`);
    sseGate.resolve();
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += r.value;
    expect(rest).toBe(`data: ${JSON.stringify(chunk("b"))}\n\ndata: [DONE]\n\n`);
  });
});

describe("node:http end to end: streams and disconnects", () => {
  it("client disconnect during SSE calls the iterator's return()", async () => {
    const returned = deferred<string>();
    const nextCalls = vi.fn();
    let step = 0;
    const iterator: AsyncIterableIterator<Chunk> = {
      [Symbol.asyncIterator]() {
        return this;
      },
      async next() {
        nextCalls();
        step++;
        if (step === 1) return { done: false, value: chunk("first") };
        return new Promise<IteratorResult<Chunk>>(() => undefined); // never yields again
      },
      async return() {
        returned.resolve("returned");
        return { done: true, value: undefined };
      },
    };
    const signalAborted = deferred();
    const app = await start({
      createChatCompletion: ({ request }) => {
        request.signal.addEventListener("abort", () => signalAborted.resolve());
        return { status: 200, stream: iterator };
      },
    });
    try {
      const controller = new AbortController();
      const res = await fetch(`${app.url}/v1/chat/completions/`, {
        method: "POST",
        headers: { ...token, "content-type": "application/json" },
        body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
        signal: controller.signal,
      });
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toContain("first");
      controller.abort();
      expect(await Promise.race([returned.promise, new Promise((r) => setTimeout(() => r("timeout"), 3000))])).toBe("returned");
      await signalAborted.promise;
      expect(nextCalls).toHaveBeenCalledTimes(2);
    } finally {
      await app.close();
    }
  });

  it("iterator errors end the stream with an error event; a generator's finally runs after disconnect", async () => {
    const cleanups: ReturnType<typeof deferred<void>>[] = [];
    const app = await start({
      createChatCompletion: ({ body }) => {
        const cleanedUp = deferred();
        cleanups.push(cleanedUp);
        return {
          status: 200,
          stream: (async function* () {
            try {
              yield chunk("x");
              if (body.model === "explode") throw new Error("upstream died");
              for (;;) {
                await new Promise((r) => setTimeout(r, 5));
                yield chunk("tick");
              }
            } finally {
              cleanedUp.resolve();
            }
          })(),
        };
      },
    });
    const post = (payload: object, signal?: AbortSignal) =>
      fetch(`${app.url}/v1/chat/completions`, { method: "POST", headers: { ...token, "content-type": "application/json" }, body: JSON.stringify(payload), signal });
    try {
      const failing = await post({ model: "explode", messages: [{ role: "user", content: "hi" }] });
      expect(await failing.text()).toBe(
        `data: ${JSON.stringify(chunk("x"))}\n\nevent: error\ndata: {"error":{"message":"Internal Server Error","type":"internal_error"}}\n\n`,
      );
      expect(app.onError).toHaveBeenCalledWith(expect.objectContaining({ message: "upstream died" }), expect.objectContaining({ operation: "createChatCompletion" }));
      await cleanups[0].promise;

      const controller = new AbortController();
      const endless = await post({ messages: [{ role: "user", content: "hi" }] }, controller.signal);
      const reader = endless.body!.getReader();
      await reader.read();
      await reader.read();
      expect(cleanups[1].settled()).toBe(false);
      controller.abort();
      await cleanups[1].promise; // the generator was closed (return()) after the disconnect
    } finally {
      await app.close();
    }
  });

  it("request.signal aborts when the client goes away mid-request", async () => {
    const aborted = deferred();
    const started = deferred();
    const app = await start({
      listModels: ({ request }) =>
        new Promise((resolve) => {
          started.resolve();
          request.signal.addEventListener("abort", () => {
            aborted.resolve();
            resolve({ status: 200, body: { object: "list", data: [] } });
          });
        }),
    });
    try {
      const controller = new AbortController();
      const pending = fetch(`${app.url}/v1/models`, { headers: token, signal: controller.signal }).catch(() => "aborted");
      await started.promise;
      controller.abort();
      expect(await pending).toBe("aborted");
      await aborted.promise;
    } finally {
      await app.close();
    }
  });

  it("large responses stream with backpressure; headers and cookies pass through", async () => {
    const big = "x".repeat(8 * 1024 * 1024);
    const app = await start(
      {
        healthCheck: () => {
          const headers = new Headers({ "x-trace": "t1" });
          headers.append("set-cookie", "a=1");
          headers.append("set-cookie", "b=2");
          return new Response(big, { status: 200, headers });
        },
        listModels: () => ({ status: 200, body: { object: "list", data: [] }, headers: { "x-total": "0" } }),
      },
    );
    try {
      const res = await fetch(`${app.url}/v1/health`);
      expect(res.headers.get("x-trace")).toBe("t1");
      expect(res.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
      expect((await res.text()).length).toBe(big.length);
      const list = await fetch(`${app.url}/v1/models`, { headers: token });
      expect(list.headers.get("x-total")).toBe("0");
    } finally {
      await app.close();
    }
  });
});

describe("node:http end to end: auth modes and response validation", () => {
  it("secure by default: no authenticate → 401 on secured ops; insecureNoAuth opts out", async () => {
    const handlers: Handlers = { listModels: () => ({ status: 200, body: { object: "list", data: [] } }), healthCheck: () => ({ status: 200, body: { status: "ok" } }) };
    const strict = await listen(toNodeListener(createRouter(handlers)));
    const open = await listen(toNodeListener(createRouter(handlers, { insecureNoAuth: true })));
    try {
      const denied = await fetch(`${strict.url}/v1/models`, { headers: { authorization: "Bearer anything" } });
      expect(denied.status).toBe(401);
      expect(denied.headers.get("www-authenticate")).toBe("Bearer");
      expect((await fetch(`${strict.url}/v1/health`)).status).toBe(200);
      expect((await fetch(`${open.url}/v1/models`)).status).toBe(200);
    } finally {
      await strict.close();
      await open.close();
    }
  });

  it("validateResponses turns a handler bug into 500 + onError", async () => {
    const app = await start(
      {
        listModels: () => ({ status: 200, body: { object: "list", data: [{ id: "m" }] } }) as never,
        healthCheck: () => ({ status: 201, body: { status: "ok" } }) as never,
        deleteModel: () => ({ status: 204 }),
      },
      { validateResponses: true },
    );
    try {
      const res = await fetch(`${app.url}/v1/models`, { headers: token });
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({ status: 500, detail: "Internal Server Error" });
      const [error] = app.onError.mock.calls[0];
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).issues.map((i) => i.loc.join("."))).toEqual([
        "response.data.0.object",
        "response.data.0.created",
        "response.data.0.owned_by",
        "response.data.0.root",
      ]);
      const undeclared = await fetch(`${app.url}/v1/health`);
      expect(undeclared.status).toBe(500);
      expect((app.onError.mock.calls[1][0] as ResponseValidationError).issues[0].type).toBe("undeclared_status");
      expect((await fetch(`${app.url}/v1/preview/models/x`, { method: "DELETE", headers: token })).status).toBe(204);
    } finally {
      await app.close();
    }
  });
});
