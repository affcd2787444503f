/**
 * When and how long to wait before retrying a request.
 */
import type { HttpMethod } from "./types.js";

/** Statuses worth retrying: timeout, conflict (lock contention), rate limit and server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The methods RFC 9110 (and the QUERY draft) define as idempotent. */
const IDEMPOTENT = new Set("GET HEAD PUT DELETE OPTIONS TRACE QUERY".split(" "));

/**
 * Whether repeating the request cannot do more than sending it once. POST and PATCH may have taken effect even when
 * the response is an error, so a repeat could duplicate work; so may any other method a spec lists under
 * `additionalOperations` (`COPY`, `LINK`), about which nothing is known.
 */
export function isIdempotent(method: HttpMethod): boolean {
  return IDEMPOTENT.has(method);
}

/** Longest wait a server may ask for; a longer `Retry-After` is not waited out, the error is thrown instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Exponential backoff before retry number `attempt + 1`: 0.5 s, 1 s, 2 s, … capped at 8 s, each ±25 % at random so
 * that many clients failing together do not retry together.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(500 * 2 ** attempt, 8_000);
  return base * (0.75 + random() * 0.5);
}

/**
 * The wait a response asks for, in milliseconds: `retry-after-ms` (a non-standard header some APIs send), else
 * `Retry-After` as seconds or as an HTTP date. `undefined` when neither is present or valid.
 */
export function retryAfterDelay(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (ms >= 0) return ms;
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  const seconds = Number(value);
  if (value.trim() !== "" && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms` milliseconds; rejects with `signal.reason` as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Error codes (Node's and undici's) of failures that happen before a request is written: the connection was never
 * made, so the server cannot have acted and any method may be sent again. A reset or closed connection is not among
 * them: it may break after the server read the request.
 */
const NOT_SENT_CODES = new Set("ECONNREFUSED ENOTFOUND EAI_AGAIN EAI_NONAME EHOSTUNREACH ENETUNREACH EADDRNOTAVAIL UND_ERR_CONNECT_TIMEOUT".split(" "));

/** True when `error` (or its causes, or every error of an AggregateError among them) says the request never left. */
export function certainlyNotSent(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 8) return false;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string" && NOT_SENT_CODES.has(code)) return true;
  // Happy eyeballs tries every address and reports them all.
  if (Array.isArray(errors) && errors.length > 0 && errors.every((inner) => certainlyNotSent(inner, depth + 1))) return true;
  return certainlyNotSent(cause, depth + 1);
}
