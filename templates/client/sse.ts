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

/**
 * Parses a byte stream of server-sent events. Bytes may be split anywhere (even inside a UTF-8 character or between
 * CR and LF); a leading BOM is dropped; comments and events without data are skipped; an event not terminated by a
 * blank line when the stream ends is discarded, as the standard says. Stopping the iteration early cancels `stream`.
 */
export async function* parseSSE(stream: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent, void, undefined> {
  const reader = stream.getReader();
  // The default TextDecoder drops a leading BOM and holds back bytes of a character split across chunks.
  const decoder = new TextDecoder();
  let buffer = "";
  let finished = false;
  let lastId = "";
  let event: { type: string; data: string[]; retry?: number } = { type: "", data: [] };

  /** Applies one line; returns the event when the line is blank and one is pending. */
  const takeLine = (line: string): ServerSentEvent | undefined => {
    if (line === "") {
      const pending = event;
      event = { type: "", data: [] };
      if (pending.data.length === 0) return undefined;
      const dispatched: ServerSentEvent = { event: pending.type || "message", data: pending.data.join("\n"), id: lastId };
      if (pending.retry !== undefined) dispatched.retry = pending.retry;
      return dispatched;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") event.data.push(value);
    else if (field === "event") event.type = value;
    else if (field === "id" && !value.includes("\0")) lastId = value;
    else if (field === "retry" && /^\d+$/.test(value)) event.retry = Number(value);
    return undefined;
  };

  try {
    while (!finished) {
      const chunk = await reader.read();
      finished = chunk.done;
      const carried = buffer.length;
      buffer += finished ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      let start = 0;
      // Positions of the next CR and LF (-1: none left), searched again only once passed so that text is scanned
      // once; the text carried over from the last read holds no line break but perhaps a final CR.
      let cr = buffer.indexOf("\r", Math.max(0, carried - 1));
      let lf = buffer.indexOf("\n", carried);
      for (;;) {
        if (cr !== -1 && cr < start) cr = buffer.indexOf("\r", start);
        if (lf !== -1 && lf < start) lf = buffer.indexOf("\n", start);
        const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
        if (end === -1) break;
        // A CR at the end of what we have may be the first half of CRLF: wait for the next chunk to tell.
        if (end === cr && cr === buffer.length - 1 && !finished) break;
        const next = end === cr && buffer[cr + 1] === "\n" ? end + 2 : end + 1;
        const dispatched = takeLine(buffer.slice(start, end));
        start = next;
        if (dispatched) yield dispatched;
      }
      buffer = buffer.slice(start);
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
  #iterated = false;

  /**
   * @param signal - the caller's signal: when it aborts, iteration rejects with its reason.
   * @param close - called once the stream is done with, however it ends (releases timers, aborts the request).
   */
  constructor(response: Response, signal?: AbortSignal, close: () => void = () => {}) {
    this.response = response;
    this.#signal = signal;
    this.#close = close;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    if (this.#iterated) throw new TypeError("A Stream can be iterated only once");
    this.#iterated = true;
    const body = this.response.body;
    try {
      if (body === null) return;
      // Leaving this loop by any path (break, return, throw) runs parseSSE's cleanup, which cancels the body.
      for await (const event of parseSSE(body)) {
        if (event.data === "[DONE]") return;
        yield parseEvent<T>(event);
      }
    } catch (error) {
      if (this.#signal?.aborted) throw this.#signal.reason;
      if (error instanceof SyntaxError) throw error;
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
