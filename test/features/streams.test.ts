import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGroup, importGenerated, type BuiltGroup } from "./harness.js";

/**
 * OpenAPI 3.2 sequential media types end to end (streams-3.2.yaml): the generated router frames what handlers yield
 * as Server-Sent Events, JSON Lines or JSON Text Sequences, and the generated client hands back the same items, over
 * real HTTP on 127.0.0.1. Types: streams-3.2.types.ts.
 */
let group: BuiltGroup;
let server: Server;
let origin: string;
/** The handlers of the router under test; each test sets what it needs. */
let handlers: Record<string, unknown> = {};
let routerOptions: Record<string, unknown> = {};
let mod: Record<string, any>;

beforeAll(async () => {
  group = await buildGroup("streams", [{ name: "streams-3.2", spec: "streams-3.2.yaml" }]);
  mod = await importGenerated(group, "streams-3.2");
  // One server whose router is rebuilt from the current handlers on every request.
  server = createServer((req, res) => mod.toNodeListener(mod.createRouter(handlers, routerOptions))(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 300_000);
afterAll(() => new Promise<void>((resolve) => (server ? (server.closeAllConnections(), server.close(() => resolve())) : resolve())));

const client = (options: Record<string, unknown> = {}) => mod.createClient({ baseUrl: origin, maxRetries: 0, ...options });
const TICKS = [
  { seq: 1, at: "2025-01-01T00:00:00Z" },
  { seq: 2, at: "2025-01-01T00:00:01Z", note: "second" },
];
async function* yieldAll<T>(items: T[]) {
  for (const item of items) yield item;
}
async function collect<T = any>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}
/** Waits (at most `ms`) until `condition` holds. */
async function eventually(condition: () => boolean, ms = 3_000): Promise<void> {
  for (const start = Date.now(); !condition(); ) {
    if (Date.now() - start > ms) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("streams (OpenAPI 3.2 itemSchema)", () => {
  it("type-check with their assertions under tsc --strict", () => {
    expect(group.stderr["streams-3.2"]).toBe("");
    expect(group.tsc.output).toBe("");
  });

  it("an event itemSchema: whole events, JSON data for ticks and text for notes, framed as the spec says", async () => {
    const events = [
      { event: "tick", data: TICKS[0], id: "1" },
      { event: "note", data: "two lines\nof text" },
      { event: "tick", data: TICKS[1], retry: 1500 },
    ];
    handlers = { streamEvents: () => ({ status: 200, stream: yieldAll(events) }) };
    routerOptions = { validateResponses: true };
    expect(await collect(await client().streamEvents())).toEqual(events);
    const raw = await (await fetch(`${origin}/events`)).text();
    expect(raw).toBe(
      [
        `event: tick\nid: 1\ndata: ${JSON.stringify(TICKS[0])}\n\n`,
        "event: note\ndata: two lines\ndata: of text\n\n",
        `event: tick\nretry: 1500\ndata: ${JSON.stringify(TICKS[1])}\n\n`,
        "data: [DONE]\n\n",
      ].join(""),
    );
  });

  it("an itemSchema without `data` describes each event's data (Scalar Galaxy): items are the JSON data", async () => {
    handlers = { streamPlanetEvents: () => ({ status: 200, stream: yieldAll(TICKS) }) };
    routerOptions = { sseTerminator: null };
    expect(await collect(await client().streamPlanetEvents())).toEqual(TICKS);
    const response = await fetch(`${origin}/planet-events`, { headers: { accept: "text/event-stream" } });
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(await response.text()).toBe(TICKS.map((tick) => `data: ${JSON.stringify(tick)}\n\n`).join(""));
  });

  it("one response in three framings: the request's Accept picks JSON Lines or JSON Text Sequences", async () => {
    handlers = { streamPlanetEvents: () => ({ status: 200, stream: yieldAll(TICKS) }) };
    routerOptions = {};
    const jsonl = await fetch(`${origin}/planet-events`, { headers: { accept: "application/jsonl" } });
    expect(jsonl.headers.get("content-type")).toBe("application/jsonl");
    expect(await jsonl.text()).toBe(TICKS.map((tick) => `${JSON.stringify(tick)}\n`).join(""));
    const seq = await fetch(`${origin}/planet-events`, { headers: { accept: "application/json-seq, text/event-stream" } });
    expect(seq.headers.get("content-type")).toBe("application/json-seq");
    expect(await seq.text()).toBe(TICKS.map((tick) => `\u001e${JSON.stringify(tick)}\n`).join(""));
  });

  it("JSON Lines, NDJSON and JSON Text Sequences: the client yields each JSON value", async () => {
    handlers = {
      streamTicksJsonl: ({ query }: { query: { count: number } }) => ({ status: 200, stream: yieldAll(TICKS.slice(0, query.count)) }),
      streamTicksNdjson: () => ({ status: 200, stream: yieldAll(TICKS) }),
      streamTicksSeq: () => ({ status: 200, stream: yieldAll(TICKS) }),
    };
    routerOptions = { validateResponses: true };
    const c = client();
    expect(await collect(await c.streamTicksJsonl({ query: { count: 1 } }))).toEqual(TICKS.slice(0, 1));
    expect(await collect(await c.streamTicksNdjson())).toEqual(TICKS);
    expect(await collect(await c.streamTicksSeq())).toEqual(TICKS);
  });

  it("records split anywhere, CRLF line ends, blank lines and a last line without its newline are read", async () => {
    const body = `{"seq":1,"at":"a"}\r\n\n{"seq":2,\n`.replace(",\n", ",") + `"at":"b"}`;
    const pieces = body.match(/[^]{1,3}/g)!;
    handlers = {};
    const raw = createServer(async (_req, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      for (const piece of pieces) {
        res.write(piece);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      res.end();
    });
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
      expect(await collect(await client({ baseUrl: url }).streamTicksNdjson())).toEqual([
        { seq: 1, at: "a" },
        { seq: 2, at: "b" },
      ]);
    } finally {
      raw.closeAllConnections();
      raw.close();
    }
  });

  it("a line longer than maxStreamEventSize ends the stream with a RangeError", async () => {
    handlers = { streamTicksJsonl: () => ({ status: 200, stream: yieldAll([{ seq: 1, at: "x".repeat(5_000) }]) }) };
    routerOptions = {};
    const stream = await client({ maxStreamEventSize: 1_000 }).streamTicksJsonl();
    await expect(collect(stream)).rejects.toBeInstanceOf(RangeError);
  });

  it("the stream flag: events whose data is a chunk, or the JSON answer", async () => {
    handlers = {
      createChat: ({ body }: { body: { prompt: string; stream?: boolean } }) =>
        body.stream ? { status: 200, stream: yieldAll([{ data: { delta: "Hel" } }, { data: { delta: "lo" } }]) } : { status: 200, body: { text: "Hello" } },
    };
    routerOptions = { validateResponses: true };
    const c = client();
    const events = await collect(await c.createChat({ body: { prompt: "p", stream: true } }));
    expect(events.map((event: any) => event.data.delta).join("")).toBe("Hello");
    expect(await c.createChat({ body: { prompt: "p" } })).toEqual({ text: "Hello" });
  });

  it("breaking out of the loop closes the connection: the handler's generator sees it end", async () => {
    let produced = 0;
    let closed = false;
    handlers = {
      streamTicksJsonl: () => ({
        status: 200,
        stream: (async function* () {
          try {
            for (let seq = 0; seq < 100_000; seq++) {
              produced++;
              yield { seq, at: "t" };
              await new Promise((resolve) => setTimeout(resolve, 2));
            }
          } finally {
            closed = true;
          }
        })(),
      }),
    };
    routerOptions = {};
    let seen = 0;
    for await (const tick of await client().streamTicksJsonl()) {
      expect(tick.seq).toBe(seen);
      if (++seen === 3) break;
    }
    await eventually(() => closed);
    expect(produced).toBeLessThan(100);
  });

  it("back-pressure: a client that stops reading stops the handler's generator (nothing is read ahead unbounded)", async () => {
    let produced = 0;
    let closed = false;
    const note = "x".repeat(64 * 1024);
    handlers = {
      streamTicksSeq: () => ({
        status: 200,
        stream: (async function* () {
          try {
            for (let seq = 0; seq < 1_000_000; seq++) {
              produced++;
              yield { seq, at: "t", note };
            }
          } finally {
            closed = true;
          }
        })(),
      }),
    };
    routerOptions = {};
    const iterator = (await client().streamTicksSeq())[Symbol.asyncIterator]();
    expect((await iterator.next()).value.seq).toBe(0);
    // Read nothing for a while: the generator may only run as far as the socket buffers reach.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const stalled = produced;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(produced).toBe(stalled);
    expect(produced).toBeLessThan(1_000); // 64 MiB: far more than loopback socket buffers hold
    // Reading again resumes it, in order.
    expect((await iterator.next()).value.seq).toBe(1);
    await iterator.return!();
    await eventually(() => closed);
  });

  it("mock mode streams schema-valid items: the example's dataValue list, else generated items", async () => {
    handlers = {};
    routerOptions = { mock: true };
    const c = client();
    expect(await collect(await c.streamTicksJsonl())).toEqual([
      { seq: 1, at: "2025-01-01T00:00:00Z" },
      { seq: 2, at: "2025-01-01T00:00:01Z" },
    ]);
    const ticks = await collect(await c.streamTicksSeq());
    expect(ticks.length).toBe(3);
    for (const tick of ticks) expect(tick).toEqual({ seq: expect.any(Number), at: expect.any(String), ...(tick.note === undefined ? {} : { note: expect.any(String) }) });
    const events = await collect(await c.streamEvents());
    expect(events.length).toBe(3);
    for (const event of events) {
      if (event.event === "tick") expect(event.data).toMatchObject({ seq: expect.any(Number) });
      else expect(event).toMatchObject({ event: "note", data: expect.any(String) });
    }
  });

  it("a handler that names a streamed media type its response does not declare gets a 500, and onError is told", async () => {
    const errors: unknown[] = [];
    handlers = { streamTicksJsonl: () => ({ status: 200, contentType: "text/event-stream", stream: yieldAll(TICKS) }) };
    routerOptions = { onError: (error: unknown) => errors.push(error) };
    const response = await fetch(`${origin}/ticks.jsonl`);
    expect(response.status).toBe(500);
    expect(String(errors[0])).toContain("No text/event-stream stream declared for status 200");
  });

  it("an item that fails validateResponses ends the stream: an error event for SSE, a cut-off connection otherwise", async () => {
    const errors: unknown[] = [];
    handlers = {
      streamTicksJsonl: () => ({ status: 200, stream: yieldAll([TICKS[0], { seq: -1, at: "t" }]) }),
      streamEvents: () => ({ status: 200, stream: yieldAll([{ event: "tick", data: TICKS[0] }, { event: "tick", data: { seq: "one" } }]) }),
    };
    routerOptions = { validateResponses: true, onError: (error: unknown) => errors.push(error) };
    const c = client();
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const tick of await c.streamTicksJsonl()) seen.push(tick);
      })(),
    ).rejects.toThrow();
    // The valid item may or may not get through before the connection is cut; the invalid one never does.
    expect(seen).toEqual([TICKS[0]].slice(0, seen.length));
    const raw = await (await fetch(`${origin}/events`)).text();
    expect(raw).toContain("event: error\n");
    expect(errors.length).toBe(2);
  });
});
