/**
 * Response builders: Server-Sent Events streams (the router's own error bodies are built in errors.ts).
 */
import type { ResultHeaders } from "./types.js";

const encoder = new TextEncoder();

/** Statuses that must not carry a body. */
export function isBodylessStatus(status: number): boolean {
  return status === 204 || status === 205 || status === 304 || (status >= 100 && status < 200);
}

/** Options of `sseResponse`. */
export interface SseOptions {
  status: number;
  headers?: ResultHeaders;
  /** Final message (`data: <terminator>`); null for none. */
  terminator: string | null;
  /** Aborted when the client goes away: the iterator is then closed with `return()`. */
  signal?: AbortSignal;
  /**
   * Optional per-event step (response stripping and validation): returns the event to send; a thrown error ends
   * the stream like an iterator error.
   */
  prepareEvent?: (event: unknown) => unknown;
  /** Told about iterator errors (the client gets an `event: error` message and the stream ends). */
  onError: (error: unknown) => void;
}

/**
 * Streams an async iterable as Server-Sent Events: each value is one `data:` message (JSON, or the raw text for
 * strings), flushed as soon as the iterator yields it, then `data: [DONE]`. The stream is pull-based (high
 * water mark 0), so the iterator only advances when the client consumes — natural backpressure. When the
 * client disconnects (stream cancelled or `signal` aborted) the iterator's `return()` is called.
 */
export function sseResponse(source: AsyncIterable<unknown>, options: SseOptions): Response {
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
            if (options.terminator !== null) controller.enqueue(encoder.encode(`data: ${options.terminator}\n\n`));
            controller.close();
            return;
          }
          const event = options.prepareEvent ? options.prepareEvent(next.value) : next.value;
          controller.enqueue(encoder.encode(formatEvent(event)));
        } catch (error) {
          if (closed) return;
          options.onError(error);
          const payload = JSON.stringify({ error: { message: "Internal Server Error", type: "internal_error" } });
          controller.enqueue(encoder.encode(`event: error\ndata: ${payload}\n\n`));
          controller.close();
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
  headers.set("content-type", "text/event-stream; charset=utf-8");
  headers.set("cache-control", "no-cache");
  headers.set("x-accel-buffering", "no"); // ask nginx-style proxies not to buffer the stream
  return new Response(body, { status: options.status, headers });
}

/** One SSE message: strings are sent as text (one `data:` line per line), everything else as JSON. */
function formatEvent(value: unknown): string {
  if (typeof value === "string") return `${value.split(/\r\n|\r|\n/).map((line) => `data: ${line}`).join("\n")}\n\n`;
  return `data: ${JSON.stringify(value)}\n\n`;
}
