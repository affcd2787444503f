/**
 * Streamed responses: the parser for server-sent events (`text/event-stream`,
 * https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream), and `Stream`, the typed
 * iterable a streaming operation resolves to. JSON Lines and JSON Text Sequences are records.ts's, which only a spec
 * declaring them imports.
 */
import { ConnectionError, responseTooLarge } from "./errors.js";
import type { RequestParams, RuntimeFeatures } from "./runtime.js";
import type { ClientOptions, OperationSpec, SseItemsSpec } from "./types.js";
import { isRecord, mediaTypeEssence } from "./values.js";

/** Server-sent event streams, for `createRuntime`. */
export const sseFeature: RuntimeFeatures = { stream: readStream, accept: streamAccept };

/**
 * The stream's media type when this call asks a streaming operation to stream (sent as `Accept`): always for an
 * operation that always streams, else when the call's body or query sets the operation's flag (`stream: true`).
 */
export function streamAccept(spec: OperationSpec, params: RequestParams): string | undefined {
  const when = spec.stream?.when;
  const source = when && ((when.in === "body" ? params.body : params.query) as Record<string, unknown> | undefined);
  return !when || (isRecord(source) && source[when.name] === true) ? spec.stream?.mediaType : undefined;
}

/** One dispatched event. */
export interface ServerSentEvent {
  /** The `event:` field, `"message"` when the event has none. */
  event: string;
  /** The `data:` lines of the event joined by `\n`. */
  data: string;
  /** The last `id:` seen in the stream so far (it carries over to later events, as in `EventSource`). */
  id: string;
  /** The `retry:` field of this event in milliseconds, when it has a valid one. */
  retry?: number;
  /** The `event` and `id` fields this event was sent with, when it had either (`event` and `id` above have defaults). */
  sent?: { event?: string; id?: string };
}

/** Default cap of one event (and of one line), in characters: 16 Mi. */
export const DEFAULT_MAX_EVENT_SIZE: number = 16 * 1024 * 1024;

export interface ParseSSEOptions {
  /**
   * Largest event accepted, in characters: its data lines and the line breaks between them, and also any single
   * line (a line that never ends is refused as soon as it passes the cap). Past it the parser throws a `RangeError`.
   * @default 16777216
   */
  maxEventSize?: number | undefined;
}

/**
 * Parses a byte stream of server-sent events. Bytes may be split anywhere (even inside a UTF-8 character or between
 * CR and LF); a leading BOM is dropped; comments and events without data are skipped; an event not terminated by a
 * blank line when the stream ends is discarded, as the standard says. Stopping the iteration early cancels `stream`.
 *
 * Each character is looked at once: text without a line break is kept as pieces until the line ends (no rescans of
 * a growing buffer), and a line or event past `maxEventSize` ends the stream with a `RangeError`.
 */
export async function* parseSSE(stream: ReadableStream<Uint8Array>, options: ParseSSEOptions = {}): AsyncGenerator<ServerSentEvent, void, undefined> {
  const maxEventSize = options.maxEventSize ?? DEFAULT_MAX_EVENT_SIZE;
  const reader = stream.getReader();
  // The default TextDecoder drops a leading BOM and holds back bytes of a character split across chunks.
  const decoder = new TextDecoder();
  /** The start of the current line, from earlier chunks (no line break in it). */
  let pending: string[] = [];
  let pendingLength = 0;
  /** The last chunk ended with CR: an LF opening the next one belongs to it. */
  let afterCR = false;
  let finished = false;
  let lastId = "";
  let event: { type: string; data: string[]; size: number; retry?: number; typed?: boolean; id?: string } = { type: "", data: [], size: 0 };

  const tooLarge = (what: string) =>
    new RangeError(`A server-sent event ${what} is longer than ${maxEventSize} characters (maxEventSize / the client's maxStreamEventSize)`);

  /** Applies one line; returns the event when the line is blank and one is pending. */
  const takeLine = (line: string): ServerSentEvent | undefined => {
    if (line === "") {
      const current = event;
      event = { type: "", data: [], size: 0 };
      if (current.data.length === 0) return undefined;
      const dispatched: ServerSentEvent = { event: current.type || "message", data: current.data.join("\n"), id: lastId };
      if (current.typed || current.id !== undefined) {
        dispatched.sent = {};
        if (current.typed) dispatched.sent.event = current.type;
        if (current.id !== undefined) dispatched.sent.id = current.id;
      }
      if (current.retry !== undefined) dispatched.retry = current.retry;
      return dispatched;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      event.size += value.length + (event.data.length > 0 ? 1 : 0);
      if (event.size > maxEventSize) throw tooLarge("(its data)");
      event.data.push(value);
    } else if (field === "event") {
      event.type = value;
      event.typed = true;
    } else if (field === "id" && !value.includes("\0")) lastId = event.id = value;
    else if (field === "retry" && /^\d+$/.test(value)) event.retry = Number(value);
    return undefined;
  };

  try {
    while (!finished) {
      const chunk = await reader.read();
      finished = chunk.done;
      const text = finished ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      let start = 0;
      if (afterCR && text.startsWith("\n")) start = 1;
      afterCR = false;
      const lines: ServerSentEvent[] = [];
      for (let i = start; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c !== 13 && c !== 10) continue;
        let line = text.slice(start, i);
        if (pending.length > 0) {
          pending.push(line);
          line = pending.join("");
          pending = [];
          pendingLength = 0;
        }
        if (line.length > maxEventSize) throw tooLarge("line");
        if (c === 13) {
          if (i + 1 < text.length) {
            if (text.charCodeAt(i + 1) === 10) i++;
          } else afterCR = true;
        }
        start = i + 1;
        const dispatched = takeLine(line);
        if (dispatched) lines.push(dispatched);
      }
      if (start < text.length) {
        pending.push(text.slice(start));
        pendingLength += text.length - start;
        if (pendingLength > maxEventSize) throw tooLarge("line");
      }
      yield* lines;
    }
  } finally {
    // Reached when the consumer stops early too: cancelling the body lets fetch close the connection.
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** Options of a `Stream`: the parser's limits, how the body is framed and how event streams are read. */
export interface StreamOptions extends ParseSSEOptions {
  /**
   * Most bytes read from the body over the whole stream (as decoded); past it iteration ends with a
   * `ResponseTooLargeError` and the body is cancelled.
   * @default 67108864 (64 MiB)
   */
  maxResponseBytes?: number | undefined;
  /** The body's items (records.ts gives JSON Lines and JSON Text Sequences); default: server-sent events. */
  items?: ((body: ReadableStream<Uint8Array>, options: ParseSSEOptions) => AsyncIterable<unknown>) | undefined;
  /** Event streams: whole events or their data, and which data is JSON (default: every event's data, as JSON). */
  sse?: SseItemsSpec | undefined;
}

/**
 * The items of a streamed response, ending at the end of the body. For server-sent events an item is each event's
 * `data` parsed as JSON (or the whole event, `{ event?, data, id?, retry? }`, when the spec's OpenAPI 3.2 `itemSchema`
 * describes events), and the stream also ends at `data: [DONE]` (OpenAI's end marker); for JSON Lines and JSON Text
 * Sequences an item is each JSON value. Iterate it once with `for await`; leaving the loop early (or aborting the
 * call's signal) closes the connection. The body is read only as fast as the loop asks for items.
 */
export class Stream<T> implements AsyncIterable<T> {
  /** The response the items are read from. */
  readonly response: Response;
  readonly #signal: AbortSignal | undefined;
  readonly #close: () => void;
  readonly #options: StreamOptions;
  #iterated = false;

  /**
   * @param signal - the caller's signal: when it aborts, iteration rejects with its reason.
   * @param close - called once the stream is done with, however it ends (releases timers, aborts the request).
   * @param options - limits of the parser (`maxEventSize`), the framing and how events are read.
   */
  constructor(response: Response, signal?: AbortSignal, close: () => void = () => {}, options: StreamOptions = {}) {
    this.response = response;
    this.#signal = signal;
    this.#close = close;
    this.#options = options;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    if (this.#iterated) throw new TypeError("A Stream can be iterated only once");
    this.#iterated = true;
    const response = this.response.body;
    try {
      if (response === null) return;
      const max = this.#options.maxResponseBytes ?? 2 ** 26;
      let size = 0;
      // (An error in the transform cancels the response body: the connection closes.)
      const body: ReadableStream<Uint8Array> = response.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            if ((size += chunk.byteLength) > max) throw responseTooLarge("The stream", max);
            controller.enqueue(chunk);
          },
        }),
      );
      const items = this.#options.items;
      // Leaving these loops by any path (break, return, throw) runs the parser's cleanup, which cancels the body.
      if (items) yield* items(body, this.#options) as AsyncIterable<T>;
      else {
        const sse = this.#options.sse;
        for await (const event of parseSSE(body, this.#options)) {
          if (event.data === "[DONE]") return;
          yield sseItem<T>(event, sse);
        }
      }
    } catch (error) {
      if (this.#signal?.aborted) throw this.#signal.reason;
      // A JSON error in an item and an item or a stream over its size cap (RangeErrors) are the server's data, not a
      // broken connection.
      if (error instanceof SyntaxError || error instanceof RangeError) throw error;
      throw new ConnectionError("The stream was interrupted", { cause: error });
    } finally {
      this.#close();
    }
  }
}

/** One item of an event stream, as `sse` says items are read. */
function sseItem<T>(event: ServerSentEvent, sse: SseItemsSpec | undefined): T {
  const json = sse === undefined || (typeof sse.json === "boolean" ? sse.json : Object.hasOwn(sse.json.byEvent, event.event) ? sse.json.byEvent[event.event]! : sse.json.otherwise);
  const data = json ? parseJson(event.data, `Event ${JSON.stringify(event.event)}`) : event.data;
  if (!sse?.events) return data as T;
  const item: Record<string, unknown> = {};
  if (event.sent?.event !== undefined) item["event"] = event.sent.event;
  item["data"] = data;
  if (event.sent?.id !== undefined) item["id"] = event.sent.id;
  if (event.retry !== undefined) item["retry"] = event.retry;
  return item as T;
}

export function parseJson<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new SyntaxError(`${what} is not JSON: ${text.slice(0, 200)}`, { cause: error });
  }
}

/**
 * The request engine's event-stream reader (`RuntimeFeatures.stream`): a `Stream` over a `text/event-stream`
 * response, read as `spec` says, else `undefined`.
 */
export function readStream(response: Response, contentType: string, signal: AbortSignal | undefined, close: () => void, options: ClientOptions, spec: OperationSpec): Stream<unknown> | undefined {
  return mediaTypeEssence(contentType) === "text/event-stream" ? new Stream(response, signal, close, { maxEventSize: options.maxStreamEventSize, maxResponseBytes: options.maxResponseBytes, sse: spec.stream?.sse }) : undefined;
}
