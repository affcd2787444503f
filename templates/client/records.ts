/**
 * Streamed JSON records: JSON Lines / NDJSON (one JSON value per line) and JSON Text Sequences (RFC 7464: each
 * value after an RS byte). Only a client whose spec declares such a response imports this module; another client
 * reads a response of these media types as any undeclared one (a `Blob`, see runtime.ts `readBody`).
 */
import type { RuntimeFeatures } from "./runtime.js";
import { DEFAULT_MAX_EVENT_SIZE, Stream, parseJson, readStream, streamAccept, type ParseSSEOptions } from "./sse.js";
import type { ClientOptions, OperationSpec } from "./types.js";
import { mediaTypeEssence } from "./values.js";

/** JSON Lines and JSON Text Sequence streams, for `createRuntime`. */
export const recordsFeature: RuntimeFeatures = { stream: readRecords, accept: streamAccept };

/** Those and server-sent event streams, for a spec that declares both (the request engine takes one stream reader). */
export const streamsFeature: RuntimeFeatures = { stream: (...args) => readRecords(...args) ?? readStream(...args), accept: streamAccept };

/** The JSON Lines media types in use (none is IANA-registered). */
const JSON_LINES = ["application/jsonl", "application/x-jsonl", "application/jsonlines", "application/x-jsonlines", "application/x-ndjson", "application/ndjson"];

/** How a response of `contentType` is split into records, when it is JSON Lines or a JSON Text Sequence. */
export function recordFormat(contentType: string): "jsonl" | "json-seq" | undefined {
  const essence = mediaTypeEssence(contentType);
  if (JSON_LINES.includes(essence)) return "jsonl";
  if (essence === "application/json-seq" || essence.endsWith("+json-seq")) return "json-seq";
  return undefined;
}

/**
 * The records of a JSON Lines body (one per line; blank lines are skipped) or of a JSON Text Sequence (each after
 * an RS byte, up to the next), as text. Bytes may be split anywhere; a record longer than `maxEventSize` characters
 * ends the stream with a `RangeError`. Stopping the iteration early cancels `stream`.
 */
export async function* parseRecords(stream: ReadableStream<Uint8Array>, format: "jsonl" | "json-seq", options: ParseSSEOptions = {}): AsyncGenerator<string, void, undefined> {
  const maxSize = options.maxEventSize ?? DEFAULT_MAX_EVENT_SIZE;
  const separator = format === "jsonl" ? "\n" : "\u001e";
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  /** The record read so far, from earlier chunks (no separator in it). */
  let pending: string[] = [];
  let pendingLength = 0;
  let finished = false;
  const tooLarge = () => new RangeError(`A streamed record is longer than ${maxSize} characters (the client's maxStreamEventSize)`);
  const take = (record: string, out: string[]) => {
    const text = record.trim();
    if (text !== "") out.push(text);
  };
  try {
    while (!finished) {
      const chunk = await reader.read();
      finished = chunk.done;
      const text = finished ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      const records: string[] = [];
      let start = 0;
      for (let at = text.indexOf(separator); at !== -1; at = text.indexOf(separator, start)) {
        let record = text.slice(start, at);
        if (pending.length > 0) {
          pending.push(record);
          record = pending.join("");
          pending = [];
          pendingLength = 0;
        }
        if (record.length > maxSize) throw tooLarge();
        take(record, records);
        start = at + 1;
      }
      if (start < text.length) {
        pending.push(text.slice(start));
        pendingLength += text.length - start;
        if (pendingLength > maxSize) throw tooLarge();
      }
      // The last line of JSON Lines needs no newline; the last record of a sequence ends the stream.
      if (finished && pending.length > 0) take(pending.join(""), records);
      yield* records;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/**
 * The request engine's record-stream reader (`RuntimeFeatures.stream`): a `Stream` of the JSON values of a JSON
 * Lines or JSON Text Sequence response, else `undefined`.
 */
export function readRecords(response: Response, contentType: string, signal: AbortSignal | undefined, close: () => void, options: ClientOptions, _spec?: OperationSpec): Stream<unknown> | undefined {
  const format = recordFormat(contentType);
  return (
    format &&
    new Stream(response, signal, close, {
      maxEventSize: options.maxStreamEventSize,
      maxResponseBytes: options.maxResponseBytes,
      items: async function* (body, limits) {
        for await (const record of parseRecords(body, format, limits)) yield parseJson(record, "A streamed record");
      },
    })
  );
}
