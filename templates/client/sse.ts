/**
 * Server-sent events: a parser for the `text/event-stream` format
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream) and `Stream`, the typed
 * iterable a streaming operation resolves to.
 */
import { ConnectionError } from "./errors.js";

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
}

/** Default cap of one event (and of one line), in characters: 16 Mi. */
export const DEFAULT_MAX_EVENT_SIZE = 16 * 1024 * 1024;

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
  let event: { type: string; data: string[]; size: number; retry?: number } = { type: "", data: [], size: 0 };

  const tooLarge = (what: string) =>
    new RangeError(`A server-sent event ${what} is longer than ${maxEventSize} characters (maxEventSize / the client's maxStreamEventSize)`);

  /** Applies one line; returns the event when the line is blank and one is pending. */
  const takeLine = (line: string): ServerSentEvent | undefined => {
    if (line === "") {
      const current = event;
      event = { type: "", data: [], size: 0 };
      if (current.data.length === 0) return undefined;
      const dispatched: ServerSentEvent = { event: current.type || "message", data: current.data.join("\n"), id: lastId };
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
    } else if (field === "event") event.type = value;
    else if (field === "id" && !value.includes("\0")) lastId = value;
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

/**
 * The events of a streamed response, each `data` parsed as JSON, ending at `data: [DONE]` or at the end of the stream.
 * Iterate it once with `for await`; leaving the loop early (or aborting the call's signal) closes the connection.
 * For events that are not JSON, read `stream.response.body` with `parseSSE` instead of iterating.
 */
export class Stream<T> implements AsyncIterable<T> {
  /** The response the events are read from. */
  readonly response: Response;
  readonly #signal: AbortSignal | undefined;
  readonly #close: () => void;
  readonly #options: ParseSSEOptions;
  #iterated = false;

  /**
   * @param signal - the caller's signal: when it aborts, iteration rejects with its reason.
   * @param close - called once the stream is done with, however it ends (releases timers, aborts the request).
   * @param options - limits of the parser (`maxEventSize`).
   */
  constructor(response: Response, signal?: AbortSignal, close: () => void = () => {}, options: ParseSSEOptions = {}) {
    this.response = response;
    this.#signal = signal;
    this.#close = close;
    this.#options = options;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    if (this.#iterated) throw new TypeError("A Stream can be iterated only once");
    this.#iterated = true;
    const body = this.response.body;
    try {
      if (body === null) return;
      // Leaving this loop by any path (break, return, throw) runs parseSSE's cleanup, which cancels the body.
      for await (const event of parseSSE(body, this.#options)) {
        if (event.data === "[DONE]") return;
        yield parseEvent<T>(event);
      }
    } catch (error) {
      if (this.#signal?.aborted) throw this.#signal.reason;
      // A JSON error in an event and an event over the size cap are the server's data, not a broken connection.
      if (error instanceof SyntaxError || error instanceof RangeError) throw error;
      throw new ConnectionError("The event stream was interrupted", { cause: error });
    } finally {
      this.#close();
    }
  }
}

function parseEvent<T>(event: ServerSentEvent): T {
  try {
    return JSON.parse(event.data) as T;
  } catch (error) {
    throw new SyntaxError(`Event ${JSON.stringify(event.event)} is not JSON: ${event.data.slice(0, 200)}`, { cause: error });
  }
}
