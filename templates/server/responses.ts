/**
 * Streamed responses: an async iterable of items framed as Server-Sent Events, JSON Lines or JSON Text Sequences
 * (RFC 7464). The router's own error bodies are built in errors.ts.
 */
import type { MediaSpec, ResultHeaders, SequenceSpec } from "./types.js";

const encoder = new TextEncoder();

/** Statuses that must not carry a body. */
export function isBodylessStatus(status: number): boolean {
  return status === 204 || status === 205 || status === 304 || (status >= 100 && status < 200);
}

/** Options of `streamResponse`. */
export interface StreamResponseOptions {
  status: number;
  headers?: ResultHeaders;
  /** How items are framed (default: server-sent events whose `data` is each item, as JSON unless it is a string). */
  sequence?: SequenceSpec;
  /** The Content-Type for JSON Lines and JSON Text Sequences (the declared media type); SSE is `text/event-stream`. */
  contentType?: string;
  /** Server-sent events: the final message (`data: <terminator>`); null for none. */
  terminator: string | null;
  /** Aborted when the client goes away: the iterator is then closed with `return()`. */
  signal?: AbortSignal;
  /**
   * Optional per-item step (response stripping and validation): returns the item to send; a thrown error ends the
   * stream like an iterator error.
   */
  prepareEvent?: (event: unknown) => unknown;
  /**
   * Told about iterator errors. An event stream then ends with an `event: error` message; JSON Lines and sequences
   * are cut off (the connection is closed without a proper end), so the client knows the stream is incomplete.
   */
  onError: (error: unknown) => void;
}

/** Options of `sseResponse` (an event stream of data items). */
export type SseOptions = Omit<StreamResponseOptions, "sequence" | "contentType">;

/**
 * Streams an async iterable of items, each framed as soon as the iterator yields it. The stream is pull-based
 * (high water mark 0): the iterator only advances when the client consumes, so a slow client is never read ahead
 * of. When the client disconnects (stream cancelled or `signal` aborted) the iterator's `return()` is called.
 */
export function streamResponse(source: AsyncIterable<unknown>, options: StreamResponseOptions): Response {
  const sequence = options.sequence ?? { format: "sse" };
  const frame = framer(sequence);
  const iterator = source[Symbol.asyncIterator]();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    options.signal?.removeEventListener("abort", close);
    // Fire and forget: an async generator parked at an `await` only runs its `finally` once that settles.
    Promise.resolve()
      .then(() => iterator.return?.())
      .catch(() => undefined);
  };
  if (options.signal?.aborted) close();
  else options.signal?.addEventListener("abort", close, { once: true });

  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (closed) {
          controller.close();
          return;
        }
        try {
          const next = await iterator.next();
          if (closed) return;
          if (next.done) {
            closed = true;
            options.signal?.removeEventListener("abort", close);
            if (sequence.format === "sse" && options.terminator !== null) controller.enqueue(encoder.encode(`data: ${options.terminator}\n\n`));
            controller.close();
            return;
          }
          const item = options.prepareEvent ? options.prepareEvent(next.value) : next.value;
          controller.enqueue(encoder.encode(frame(item)));
        } catch (error) {
          if (closed) return;
          options.onError(error);
          if (sequence.format === "sse") {
            const payload = JSON.stringify({ error: { message: "Internal Server Error", type: "internal_error" } });
            controller.enqueue(encoder.encode(`event: error\ndata: ${payload}\n\n`));
            controller.close();
          } else controller.error(error);
          close(); // let the iterator clean up (no-op for a generator that already threw)
        }
      },
      cancel() {
        close();
      },
    },
    { highWaterMark: 0 },
  );
  const headers = new Headers(options.headers);
  headers.set("content-type", sequence.format === "sse" ? "text/event-stream; charset=utf-8" : (options.contentType ?? (sequence.format === "jsonl" ? "application/jsonl" : "application/json-seq")));
  headers.set("cache-control", "no-cache");
  headers.set("x-accel-buffering", "no"); // ask nginx-style proxies not to buffer the stream
  return new Response(body, { status: options.status, headers });
}

/**
 * Streams an async iterable as Server-Sent Events: each value is one `data:` message (JSON, or the raw text for
 * strings), then `data: [DONE]` unless the terminator is null.
 */
export function sseResponse(source: AsyncIterable<unknown>, options: SseOptions): Response {
  return streamResponse(source, options);
}

/** The text of one item on the wire. Throws a TypeError for an item the framing cannot carry. */
function framer(sequence: SequenceSpec): (item: unknown) => string {
  switch (sequence.format) {
    case "jsonl":
      return (item) => `${json(item)}\n`;
    case "json-seq":
      return (item) => `\u001e${json(item)}\n`;
    default: {
      const sse = sequence.sse;
      if (!sse?.events) {
        // An item is an event's data: strings are sent as text (one `data:` line per line), the rest as JSON.
        const asJson = sse === undefined || sse.json !== false;
        return (item) => dataLines(typeof item === "string" || !asJson ? String(item) : json(item));
      }
      return (item) => sseEvent(item, sse);
    }
  }
}

/** One whole event (`{ event?, data, id?, retry? }`), its `data` JSON or text as the spec says for its event name. */
function sseEvent(item: unknown, sse: NonNullable<SequenceSpec["sse"]>): string {
  if (item === null || typeof item !== "object" || !("data" in item)) throw new TypeError("A server-sent event item must be an object with `data`");
  const event = item as { event?: unknown; data: unknown; id?: unknown; retry?: unknown };
  let text = "";
  if (event.event !== undefined) text += `event: ${field(event.event, "event")}\n`;
  if (event.id !== undefined) {
    const id = field(event.id, "id");
    if (id.includes("\0")) throw new TypeError("A server-sent event `id` must not contain NUL");
    text += `id: ${id}\n`;
  }
  if (event.retry !== undefined) {
    if (!Number.isInteger(event.retry) || (event.retry as number) < 0) throw new TypeError("A server-sent event `retry` must be a non-negative integer");
    text += `retry: ${event.retry as number}\n`;
  }
  const name = typeof event.event === "string" ? event.event : "message";
  const isJson = typeof sse.json === "boolean" ? sse.json : Object.hasOwn(sse.json.byEvent, name) ? sse.json.byEvent[name]! : sse.json.otherwise;
  return text + dataLines(isJson ? json(event.data) : String(event.data));
}

/** An event field's value: a string on one line (a line break would start another field). */
function field(value: unknown, name: string): string {
  const text = String(value);
  if (/[\r\n]/.test(text)) throw new TypeError(`A server-sent event \`${name}\` must not contain a line break`);
  return text;
}

/** `data:` lines for a text (one per line of it), then the blank line that ends the event. */
function dataLines(text: string): string {
  return `${text.split(/\r\n|\r|\n/).map((line) => `data: ${line}`).join("\n")}\n\n`;
}

function json(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`A streamed item must be a JSON value, not ${typeof value}`);
  return text;
}

/** The rank of a streamed format when several are declared: SSE, then JSON Lines, then JSON Text Sequences. */
const SEQUENCE_RANK = { sse: 0, jsonl: 1, "json-seq": 2 } as const;

/**
 * The streamed media types of a content map, best first. A route table written before sequences were described
 * (no `sequence`) still streams `text/event-stream` as events whose data is each item.
 */
export function streamedMedia(content: Record<string, MediaSpec>): { key: string; sequence: SequenceSpec }[] {
  const found: { key: string; sequence: SequenceSpec }[] = [];
  for (const [key, media] of Object.entries(content)) {
    const sequence = media.sequence ?? (key.split(";", 1)[0]!.trim().toLowerCase() === "text/event-stream" ? { format: "sse" as const } : undefined);
    if (sequence) found.push({ key, sequence });
  }
  return found.sort((a, b) => SEQUENCE_RANK[a.sequence.format] - SEQUENCE_RANK[b.sequence.format]);
}
