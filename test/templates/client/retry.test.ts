import { describe, expect, test } from "vitest";
import { backoffDelay, isIdempotent, isRetryableStatus, retryAfterDelay, sleep } from "../../../templates/client/retry.js";

describe("retry policy", () => {
  test("retryable statuses", () => {
    expect([408, 409, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([200, 400, 401, 403, 404, 422].some(isRetryableStatus)).toBe(false);
  });

  test("POST and PATCH are not idempotent", () => {
    expect(["GET", "PUT", "DELETE", "HEAD", "OPTIONS"].every((m) => isIdempotent(m as "GET"))).toBe(true);
    expect(isIdempotent("POST") || isIdempotent("PATCH")).toBe(false);
  });

  test("backoff doubles from 0.5 s, caps at 8 s, with ±25 % jitter", () => {
    const at = (attempt: number, random: number) => backoffDelay(attempt, () => random);
    expect([0, 1, 2, 3, 4, 5, 10].map((n) => at(n, 0.5))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(at(0, 0)).toBe(375);
    expect(at(0, 1)).toBe(625);
  });

  test("Retry-After in seconds or as a date, retry-after-ms first", () => {
    const now = Date.parse("2024-01-01T00:00:00Z");
    const delay = (headers: Record<string, string>) => retryAfterDelay(new Headers(headers), now);
    expect(delay({ "retry-after": "3" })).toBe(3000);
    expect(delay({ "retry-after": "0.5" })).toBe(500);
    expect(delay({ "retry-after": "Mon, 01 Jan 2024 00:00:10 GMT" })).toBe(10_000);
    expect(delay({ "retry-after": "Sun, 31 Dec 2023 00:00:00 GMT" })).toBe(0);
    expect(delay({ "retry-after-ms": "250", "retry-after": "9" })).toBe(250);
    expect(delay({ "retry-after": "soon" })).toBeUndefined();
    expect(delay({ "retry-after": "" })).toBeUndefined();
    expect(delay({})).toBeUndefined();
  });

  test("sleep rejects with the abort reason", async () => {
    const controller = new AbortController();
    const waiting = sleep(10_000, controller.signal);
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    await expect(sleep(1, AbortSignal.abort("already"))).rejects.toBe("already");
  });
});
