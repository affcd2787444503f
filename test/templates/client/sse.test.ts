import { describe, expect, test } from "vitest";
import { parseSSE, Stream, type ServerSentEvent } from "../../../templates/client/index.js";

/** A byte stream delivering `chunks` one read at a time; records whether it was cancelled. */
function byteStream(chunks: (string | Uint8Array)[]) {
  const encoder = new TextEncoder();
  const state = { cancelled: false };
  const queue = chunks.map((chunk) => (typeof chunk === "string" ? encoder.encode(chunk) : chunk));
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

/** Every way to cut `bytes` into single bytes. */
function bytewise(text: string): Uint8Array[] {
  return [...new TextEncoder().encode(text)].map((byte) => new Uint8Array([byte]));
}

async function collect(chunks: (string | Uint8Array)[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of parseSSE(byteStream(chunks).stream)) events.push(event);
  return events;
}

const message = (data: string, rest: Partial<ServerSentEvent> = {}): ServerSentEvent => ({ event: "message", data, id: "", ...rest });

describe("parseSSE", () => {
  test("fields, multi-line data, comments and the default event type", async () => {
    const text = ": keep-alive\n\nevent: delta\ndata: {\"a\":\ndata: 1}\nid: 7\nretry: 1500\n\ndata: plain\n\ndata\n\n";
    expect(await collect([text])).toEqual([
      { event: "delta", data: '{"a":\n1}', id: "7", retry: 1500, sent: { event: "delta", id: "7" } },
      message("plain", { id: "7" }),
      message("", { id: "7" }),
    ]);
  });

  test("CRLF, CR and LF line endings, also when CR and LF arrive in different reads", async () => {
    expect(await collect(["data: a\r\n\r\ndata: b\r\rdata: c\n\n"])).toEqual([message("a"), message("b"), message("c")]);
    expect(await collect(["data: a\r", "\n\r", "\ndata: b\r", "\r"])).toEqual([message("a"), message("b")]);
  });

  test("one byte per read, with a BOM and a character split across reads", async () => {
    const text = "\uFEFFdata: h\u00e9llo \u{1F600}\n\nevent: x\ndata: \u4e2d\u6587\n\n";
    expect(await collect(bytewise(text))).toEqual([message("h\u00e9llo \u{1F600}"), { event: "x", data: "\u4e2d\u6587", id: "", sent: { event: "x" } }]);
  });

  test("a field without a space after the colon, unknown fields, invalid retry and NUL in id", async () => {
    expect(await collect(["data:x\nfoo: bar\nretry: 1s\nid: a\u0000b\n\n"])).toEqual([message("x")]);
  });

  test("an event not ended by a blank line is discarded at the end of the stream", async () => {
    expect(await collect(["data: done\n\ndata: cut"])).toEqual([message("done")]);
  });

  test("stopping early cancels the byte stream", async () => {
    const { stream, state } = byteStream(["data: 1\n\n", "data: 2\n\n", "data: 3\n\n"]);
    for await (const event of parseSSE(stream)) {
      expect(event.data).toBe("1");
      break;
    }
    expect(state.cancelled).toBe(true);
  });
});

describe("Stream", () => {
  const response = (chunks: string[]) => new Response(byteStream(chunks).stream, { headers: { "content-type": "text/event-stream" } });

  test("parses JSON data and stops at [DONE]", async () => {
    const closed: string[] = [];
    const stream = new Stream<{ n: number }>(response(['data: {"n":1}\n\n', 'data: {"n":2}\n\ndata: [DONE]\n\ndata: {"n":3}\n\n']), undefined, () => closed.push("closed"));
    const seen: number[] = [];
    for await (const event of stream) seen.push(event.n);
    expect(seen).toEqual([1, 2]);
    expect(closed).toEqual(["closed"]);
  });

  test("can be iterated once only", async () => {
    const stream = new Stream(response([]));
    for await (const _ of stream) void _;
    await expect(stream[Symbol.asyncIterator]().next()).rejects.toThrow(/only once/);
  });

  test("data that is not JSON is an error naming the event", async () => {
    const stream = new Stream(response(["event: oops\ndata: not json\n\n"]));
    await expect(stream[Symbol.asyncIterator]().next()).rejects.toThrow(/Event "oops" is not JSON: not json/);
  });
});
