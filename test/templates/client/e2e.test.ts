/**
 * The runtime against a real HTTP server on 127.0.0.1: what the server receives for each kind of call, and what the
 * client makes of each kind of answer.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { ApiError, ConnectionError, Stream, TimeoutError } from "../../../templates/client/index.js";
import { createClient, type ClientOptions } from "./fixtures/client.js";
import type { components } from "./fixtures/schema.js";

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}
type Handler = (req: IncomingMessage, res: ServerResponse, received: Received) => void;

let server: Server;
let baseUrl: string;
let handler: Handler;
let received: Received[];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const entry = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) };
      received.push(entry);
      handler(req, res, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = [];
  handler = (_req, res) => json(res, 200, {});
});

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

/** A client of the test server; retries wait only a few milliseconds unless a test says otherwise. */
function client(options: ClientOptions = {}) {
  return createClient({ baseUrl, inferenceBaseUrl: `${baseUrl}/inference/`, apiKey: "sk-test", ...options });
}

const once = (emitter: NodeJS.EventEmitter, event: string) => new Promise<void>((resolve) => emitter.once(event, () => resolve()));

describe("requests", () => {
  test("path, query, header and cookie parameters in every style", async () => {
    await client().echoParams({
      path: { label: ["a", "b c"], matrix: { x: 1, y: 2 }, simple: "s/1" },
      query: {
        q: "hello world",
        ids: [1, 2, 3],
        tags: ["x", "y"],
        point: { x: 1, y: 2 },
        box: { w: 3, h: 4 },
        filter: { role: "admin", age: { gt: 18 } },
        words: ["a", "b"],
        colors: ["red", "green"],
        where: JSON.stringify({ id: 7 }),
        redirect: "https://example.test/cb?x=1",
      },
      headers: { "X-Trace-Id": "trace-1", "X-Flags": ["f1", "f2"] },
      cookies: { session: "abc def" },
    });
    const [request] = received;
    expect(request!.method).toBe("GET");
    expect(request!.url).toBe(
      "/v1/echo/.a.b%20c/;matrix=x,1,y,2/s%2F1" +
        // deepObject brackets and the pipe are percent-encoded, as OpenAPI 3.1.1's examples (RFC 3986) have them
        "?q=hello%20world&ids=1,2,3&tags=x&tags=y&x=1&y=2&box=w,3,h,4&filter%5Brole%5D=admin&filter%5Bage%5D%5Bgt%5D=18" +
        "&words=a%20b&colors=red%7Cgreen&where=%7B%22id%22%3A7%7D&redirect=https://example.test/cb?x%3D1",
    );
    expect(request!.headers).toMatchObject({ "x-trace-id": "trace-1", "x-flags": "f1,f2", cookie: "session=abc%20def" });
  });

  test("the API key is sent on secured operations only", async () => {
    const api = client();
    await api.getTrainingJob({ path: { training_job_id: "j1" } });
    await api.healthCheck();
    expect(received.map((r) => [r.url, r.headers.authorization])).toEqual([
      ["/v1/preview/training-jobs/j1", "Bearer sk-test"],
      ["/v1/health", undefined],
    ]);
  });

  test("each server has its own base URL option; a trailing slash is dropped", async () => {
    await client().listInferenceModels({ headers: { "OpenAI-Project": "team/project" } });
    expect(received[0]!.url).toBe("/inference/v1/models");
    expect(received[0]!.headers["openai-project"]).toBe("team/project");
  });

  test("client headers on every request, call headers win, null removes", async () => {
    const api = client({ headers: { "X-App": "test", "X-Env": "ci" } });
    await api.healthCheck(undefined, { headers: { "X-Env": "local", "X-App": null, "X-Call": "1" } });
    expect(received[0]!.headers).toMatchObject({ "x-env": "local", "x-call": "1" });
    expect(received[0]!.headers["x-app"]).toBeUndefined();
  });

  test("a custom fetch is used", async () => {
    const seen: string[] = [];
    const api = client({
      fetch: (request, init) => {
        seen.push(`${request.method} ${new URL(request.url).pathname}`);
        return fetch(request, init);
      },
    });
    await api.healthCheck();
    expect(seen).toEqual(["GET /v1/health"]);
  });

  test("onRequest may replace the request and onResponse the response", async () => {
    const statuses: number[] = [];
    const api = client({
      onRequest: (request) => new Request(request, { headers: { ...Object.fromEntries(request.headers), "x-signed": "yes" } }),
      onResponse: (response) => {
        statuses.push(response.status);
        return new Response(JSON.stringify({ id: "from-hook" }), { headers: { "content-type": "application/json" } });
      },
    });
    expect(await api.getTrainingJob({ path: { training_job_id: "j" } })).toEqual({ id: "from-hook" });
    expect(received[0]!.headers["x-signed"]).toBe("yes");
    expect(statuses).toEqual([200]);
  });

  test("JSON body", async () => {
    await client().createTrainingJob({ body: { model_id: "m1", trajectory_groups: [] } });
    expect(received[0]!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(received[0]!.body.toString())).toEqual({ model_id: "m1", trajectory_groups: [] });
  });

  test("an optional body may be left out", async () => {
    await client().updateModel({ path: { model_id: "m1" } });
    expect(received[0]!.method).toBe("PATCH");
    expect(received[0]!.body.length).toBe(0);
    expect(received[0]!.headers["content-type"]).toBeUndefined();
  });

  test("form-urlencoded body", async () => {
    await client().submitForm({ body: { name: "a b", tags: ["x", "y"], meta: { a: 1 } } });
    expect(received[0]!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(received[0]!.body.toString()).toBe("name=a%20b&tags=x&tags=y&meta=%7B%22a%22%3A1%7D");
  });

  test("multipart body with a file, repeated fields and a JSON object", async () => {
    const file = new File(["weights"], "model.bin", { type: "application/octet-stream" });
    await client().uploadFile({ body: { file, purpose: "fine-tune", tags: ["a", "b"], metadata: { k: "v" } } });
    const contentType = received[0]!.headers["content-type"]!;
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(Uint8Array.from(received[0]!.body), { headers: { "content-type": contentType } }).formData();
    const part = form.get("file") as File;
    expect([part.name, await part.text()]).toEqual(["model.bin", "weights"]);
    expect(form.get("purpose")).toBe("fine-tune");
    expect(form.getAll("tags")).toEqual(["a", "b"]);
    expect(form.get("metadata")).toBe('{"k":"v"}');
  });

  test("binary body, and a 201 without content gives status and headers through withResponse", async () => {
    handler = (_req, res) => res.writeHead(201, { etag: '"v1"' }).end();
    const result = await client().putBlob.withResponse({ path: { key: "k" }, body: new Uint8Array([0, 1, 255]) });
    expect(received[0]!.headers["content-type"]).toBe("application/octet-stream");
    expect([...received[0]!.body]).toEqual([0, 1, 255]);
    expect(result.status).toBe(201);
    expect(result.headers.get("etag")).toBe('"v1"');
    expect(result.data).toBeUndefined();
  });

  test("a ReadableStream body is streamed to the server", async () => {
    const body = new Blob(["chunked ", "upload"]).stream();
    handler = (_req, res) => res.writeHead(201).end();
    await client().putBlob({ path: { key: "k" }, body });
    expect(received[0]!.body.toString()).toBe("chunked upload");
  });
});

describe("responses", () => {
  test("text body and text response", async () => {
    handler = (_req, res, request) => res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(`got: ${request.body}`);
    expect(await client().createNote({ body: "héllo" })).toBe("got: héllo");
    expect(received[0]!.headers["content-type"]).toBe("text/plain");
  });

  test("binary response as a Blob", async () => {
    handler = (_req, res) => res.writeHead(200, { "content-type": "application/octet-stream" }).end(Buffer.from([1, 2, 3]));
    const blob = await client().getBlob({ path: { key: "k" } });
    expect(blob).toBeInstanceOf(Blob);
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([1, 2, 3]);
  });

  test("204 resolves to undefined", async () => {
    handler = (_req, res) => res.writeHead(204).end();
    await expect(client().deleteModel({ path: { model_id: "m" } })).resolves.toBeUndefined();
  });

  test("withResponse gives status, headers and the response", async () => {
    handler = (_req, res) => json(res, 200, { id: "j" }, { "x-request-id": "req-1" });
    const { data, status, headers, response } = await client().getTrainingJob.withResponse({ path: { training_job_id: "j" } });
    expect(data).toEqual({ id: "j" });
    expect(status).toBe(200);
    expect(headers.get("x-request-id")).toBe("req-1");
    expect(response).toBeInstanceOf(Response);
  });
});

describe("errors", () => {
  test("a declared 422 is a typed ApiError of its operation", async () => {
    const detail = [{ loc: ["body", "model_id"], msg: "Field required", type: "missing" }];
    handler = (_req, res) => json(res, 422, { detail });
    const api = client();
    const error = await api.createTrainingJob({ body: { model_id: "" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(api.createTrainingJob.isError(error)).toBe(true);
    expect(api.getTrainingJob.isError(error)).toBe(false);
    if (!api.createTrainingJob.isError(error)) throw error;
    expect(error.status).toBe(422);
    expect(error.body.detail![0]!.msg).toBe("Field required");
    expect(error).toMatchObject({ name: "ApiError", operation: "createTrainingJob", method: "POST", url: `${baseUrl}/v1/preview/training-jobs` });
    expect(error.message).toContain("failed with 422 Unprocessable Entity");
    expect(error.message).toContain("Field required");
  });

  test("an undeclared status is an ApiError the type guard does not claim; a text body stays text", async () => {
    handler = (_req, res) => res.writeHead(401, { "content-type": "text/plain" }).end("bad key");
    const api = client();
    const error = await api.getTrainingJob({ path: { training_job_id: "j" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(api.getTrainingJob.isError(error)).toBe(false);
    expect((error as ApiError).body).toBe("bad key");
  });

  test("a `default` response or a range covers every status", async () => {
    handler = (_req, res) => json(res, 418, { title: "teapot" }, { "content-type": "application/problem+json" });
    const api = client();
    const legacy = await api.getLegacy().catch((e: unknown) => e);
    expect(api.getLegacy.isError(legacy) && legacy.body.title).toBe("teapot");
    const events = await api.streamEvents().catch((e: unknown) => e);
    expect(api.streamEvents.isError(events) && events.status).toBe(418);
  });
});

describe("retries", () => {
  test("Retry-After (seconds) and retry-after-ms are honoured", async () => {
    let calls = 0;
    handler = (_req, res) => {
      calls++;
      if (calls === 1) json(res, 503, {}, { "retry-after": "0" });
      else if (calls === 2) json(res, 429, {}, { "retry-after-ms": "20", "retry-after": "30" });
      else json(res, 200, { id: "ok" });
    };
    const started = Date.now();
    expect(await client().getTrainingJob({ path: { training_job_id: "j" } })).toEqual({ id: "ok" });
    expect(received).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test("backoff between attempts, then the last error; maxRetries per call", async () => {
    handler = (_req, res) => json(res, 500, { detail: "boom" });
    const started = Date.now();
    const error = await client({ maxRetries: 1 }).getTrainingJob({ path: { training_job_id: "j" } }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(375);
    expect(received).toHaveLength(2);
    expect((error as ApiError).status).toBe(500);

    received = [];
    await client({ maxRetries: 5 }).getTrainingJob({ path: { training_job_id: "j" } }, { maxRetries: 0 }).catch(() => {});
    expect(received).toHaveLength(1);
  });

  test("statuses that are not retryable, and waits longer than a minute, fail at once", async () => {
    handler = (_req, res) => json(res, 404, {});
    await client().getTrainingJob({ path: { training_job_id: "j" } }).catch(() => {});
    handler = (_req, res) => json(res, 429, {}, { "retry-after": "120" });
    await client().getTrainingJob({ path: { training_job_id: "j" } }).catch(() => {});
    expect(received).toHaveLength(2);
  });

  test("POST is not retried after a response unless retryNonIdempotent is set", async () => {
    handler = (_req, res) => json(res, 503, {}, { "retry-after": "0" });
    const body = { model_id: "m" };
    await expect(client().createTrainingJob({ body })).rejects.toBeInstanceOf(ApiError);
    expect(received).toHaveLength(1);

    received = [];
    await expect(client({ retryNonIdempotent: true }).createTrainingJob({ body })).rejects.toBeInstanceOf(ApiError);
    expect(received).toHaveLength(3);
    // The body is sent again on each attempt.
    expect(received.map((r) => r.body.toString())).toEqual(Array(3).fill('{"model_id":"m"}'));

    received = [];
    await client().createTrainingJob({ body }, { retryNonIdempotent: true, maxRetries: 1 }).catch(() => {});
    expect(received).toHaveLength(2);
  });

  test("a multipart body is re-sent whole on retry", async () => {
    handler = (_req, res) => (received.length === 1 ? json(res, 503, {}, { "retry-after": "0" }) : json(res, 200, {}));
    await client({ retryNonIdempotent: true }).uploadFile({ body: { file: new Blob(["abc"]), purpose: "p" } });
    expect(received).toHaveLength(2);
    expect(received[1]!.body.toString()).toContain("abc");
    expect(received[1]!.body.length).toBe(received[0]!.body.length);
  });

  test("a ReadableStream body cannot be re-sent, so it is not retried", async () => {
    handler = (_req, res) => json(res, 503, {}, { "retry-after": "0" });
    await expect(client().putBlob({ path: { key: "k" }, body: new Blob(["x"]).stream() })).rejects.toBeInstanceOf(ApiError);
    expect(received).toHaveLength(1);
  });

  test("connection errors are retried for every method, then thrown as ConnectionError", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    let attempts = 0;
    const api = client({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1, onRequest: () => void attempts++ });
    const error = await api.createTrainingJob({ body: { model_id: "m" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).message).toMatch(/ECONNREFUSED|fetch failed/);
    expect((error as ConnectionError).cause).toBeDefined();
    expect(attempts).toBe(2);
  });
});

describe("timeouts and aborts", () => {
  const hang: Handler = () => {};

  test("an attempt that takes too long is a TimeoutError; GET is retried first", async () => {
    handler = hang;
    const error = await client({ timeoutMs: 50, maxRetries: 1 }).getTrainingJob({ path: { training_job_id: "j" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(received).toHaveLength(2);

    received = [];
    await expect(client().createTrainingJob({ body: { model_id: "m" } }, { timeoutMs: 50 })).rejects.toBeInstanceOf(TimeoutError);
    expect(received).toHaveLength(1);
  });

  test("the timeout covers reading the body", async () => {
    handler = (_req, res) => res.writeHead(200, { "content-type": "application/json" }).write('{"id":');
    await expect(client({ maxRetries: 0 }).getTrainingJob({ path: { training_job_id: "j" } }, { timeoutMs: 100 })).rejects.toBeInstanceOf(TimeoutError);
  });

  test("aborting rejects with the signal's reason", async () => {
    handler = hang;
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    setTimeout(() => controller.abort(reason), 30);
    await expect(client().getTrainingJob({ path: { training_job_id: "j" } }, { signal: controller.signal })).rejects.toBe(reason);
    await expect(client().healthCheck(undefined, { signal: AbortSignal.abort("early") })).rejects.toBe("early");
  });

  test("with the timeout off, fetch follows the caller's signal itself, or none: a signal costs every request", async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const original = globalThis.fetch;
    const spy = (input: RequestInfo | URL, init?: RequestInit) => {
      signals.push(init?.signal ?? undefined);
      return original(input, init);
    };
    globalThis.fetch = spy as typeof fetch;
    try {
      const caller = new AbortController();
      await client({ timeoutMs: 0 }).getTrainingJob({ path: { training_job_id: "j" } });
      await client({ timeoutMs: 0 }).getTrainingJob({ path: { training_job_id: "j" } }, { signal: caller.signal });
      await client().getTrainingJob({ path: { training_job_id: "j" } });
      expect(signals[0]).toBeUndefined();
      expect(signals[1]).toBe(caller.signal);
      expect(signals[2]).toBeInstanceOf(AbortSignal); // the default 10-minute timeout needs a signal of its own
    } finally {
      globalThis.fetch = original;
    }

    // Aborting still works without a timeout: the caller's signal reaches fetch.
    handler = hang;
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    setTimeout(() => controller.abort(reason), 30);
    await expect(client({ timeoutMs: 0 }).getTrainingJob({ path: { training_job_id: "j" } }, { signal: controller.signal })).rejects.toBe(reason);
  });

  test("the Request an onRequest hook sees follows the attempt's signal: it aborts when the attempt times out", async () => {
    handler = hang;
    const seen: Request[] = [];
    const api = client({ timeoutMs: 50, maxRetries: 1, onRequest: (request) => void seen.push(request) });
    await expect(api.getTrainingJob({ path: { training_job_id: "j" } })).rejects.toBeInstanceOf(TimeoutError);
    // Each attempt's Request has the signal of that attempt (a retry is not born aborted).
    expect(seen).toHaveLength(2);
    expect(seen.map((request) => request.signal.aborted)).toEqual([true, true]);
    expect(seen[0]!.signal.reason).toBeInstanceOf(TimeoutError);
  });

  test("aborting during the wait before a retry", async () => {
    handler = (_req, res) => json(res, 503, {}, { "retry-after": "30" });
    const controller = new AbortController();
    const reason = new Error("stop waiting");
    const call = client().getTrainingJob({ path: { training_job_id: "j" } }, { signal: controller.signal });
    await once(server, "request");
    setTimeout(() => controller.abort(reason), 30);
    const started = Date.now();
    await expect(call).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(received).toHaveLength(1);
  });
});

describe("server-sent events", () => {
  const chunk = (content: string) => ({ id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content } }] });
  const sse = (res: ServerResponse) => res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });

  async function contents(stream: Stream<components["schemas"]["ChatCompletionChunk"]>) {
    const out: string[] = [];
    for await (const event of stream) out.push(event.choices[0]!.delta.content!);
    return out;
  }

  test("stream: true gives typed events; comments, multi-line data and [DONE]", async () => {
    handler = (_req, res) => {
      sse(res);
      res.write(": connected\n\n");
      res.write(`data: ${JSON.stringify(chunk("Hel"))}\n\n`);
      // One JSON value over two data lines: joined with "\n", which JSON allows between tokens.
      res.write(`data: {"id":"c1","object":"chat.completion.chunk",\ndata: "choices":[{"index":0,"delta":{"content":"lo"}}]}\r\n\r\n`);
      res.end("data: [DONE]\n\n");
    };
    const stream = await client().createChatCompletion({ body: { messages: [{ role: "user", content: "hi" }], stream: true } });
    expect(stream).toBeInstanceOf(Stream);
    expect(await contents(stream)).toEqual(["Hel", "lo"]);
    expect(received[0]!.headers.accept).toBe("text/event-stream");
    expect(JSON.parse(received[0]!.body.toString()).stream).toBe(true);
  });

  test("without stream: true the same operation returns JSON", async () => {
    handler = (_req, res) => json(res, 200, { id: "c", object: "chat.completion", model: "m", choices: [] });
    const completion = await client().createChatCompletion({ body: { messages: [] } });
    expect(completion.object).toBe("chat.completion");
    expect(received[0]!.headers.accept).not.toBe("text/event-stream");
  });

  test("one byte per write, with characters split inside their UTF-8 bytes", async () => {
    const text = `data: ${JSON.stringify(chunk("héllo 😀"))}\n\ndata: ${JSON.stringify(chunk("中文"))}\n\ndata: [DONE]\n\n`;
    handler = async (_req, res) => {
      sse(res);
      for (const byte of Buffer.from(text)) {
        res.write(Buffer.from([byte]));
        await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
    };
    const stream = await client().createChatCompletion({ body: { messages: [], stream: true } });
    expect(await contents(stream)).toEqual(["héllo 😀", "中文"]);
  });

  test("an operation that only streams needs no flag; the stream ends with the body", async () => {
    handler = (_req, res) => {
      sse(res);
      res.end(`data: ${JSON.stringify(chunk("a"))}\n\ndata: ${JSON.stringify(chunk("b"))}\n\n`);
    };
    expect(await contents(await client().streamEvents())).toEqual(["a", "b"]);
    expect(received[0]!.headers.accept).toBe("text/event-stream");
  });

  test("breaking out of the loop closes the connection", async () => {
    let timer: NodeJS.Timeout | undefined;
    let closed!: Promise<void>;
    handler = (_req, res) => {
      sse(res);
      closed = once(res, "close");
      timer = setInterval(() => res.write(`data: ${JSON.stringify(chunk("tick"))}\n\n`), 5);
    };
    const stream = await client().createChatCompletion({ body: { messages: [], stream: true } });
    for await (const event of stream) {
      expect(event.choices[0]!.delta.content).toBe("tick");
      break;
    }
    await closed;
    clearInterval(timer);
  });

  test("aborting while reading rejects with the reason and closes the connection", async () => {
    let closed!: Promise<void>;
    handler = (_req, res) => {
      sse(res);
      closed = once(res, "close");
      res.write(`data: ${JSON.stringify(chunk("first"))}\n\n`);
    };
    const controller = new AbortController();
    const reason = new Error("user stopped");
    const stream = await client().createChatCompletion({ body: { messages: [], stream: true } }, { signal: controller.signal });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of stream) {
        seen.push(event.choices[0]!.delta.content!);
        controller.abort(reason);
      }
    })();
    await expect(reading).rejects.toBe(reason);
    expect(seen).toEqual(["first"]);
    await closed;
  });
});

describe("pagination", () => {
  test("paginate follows the cursor while has_more is true", async () => {
    const pages: Record<string, { data: { id: string; step: number; metrics: {} }[]; has_more: boolean }> = {
      "": { data: [{ id: "c1", step: 1, metrics: {} }, { id: "c2", step: 2, metrics: {} }], has_more: true },
      c2: { data: [{ id: "c3", step: 3, metrics: {} }], has_more: true },
      c3: { data: [{ id: "c4", step: 4, metrics: {} }], has_more: false },
    };
    handler = (req, res) => {
      const after = new URL(req.url!, baseUrl).searchParams.get("after") ?? "";
      const page = pages[after]!;
      json(res, 200, { object: "list", ...page, first_id: page.data[0]!.id, last_id: page.data.at(-1)!.id });
    };
    const steps: number[] = [];
    for await (const checkpoint of client().listModelCheckpoints.paginate({ path: { model_id: "m" }, query: { limit: 2, order: "asc" } })) {
      steps.push(checkpoint.step);
    }
    expect(steps).toEqual([1, 2, 3, 4]);
    expect(received.map((r) => r.url)).toEqual([
      "/v1/preview/models/m/checkpoints?limit=2&order=asc",
      "/v1/preview/models/m/checkpoints?limit=2&order=asc&after=c2",
      "/v1/preview/models/m/checkpoints?limit=2&order=asc&after=c3",
    ]);
  });
});
