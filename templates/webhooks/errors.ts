/**
 * Why a webhook delivery was rejected.
 *
 * - `missing_signature`: the signature header is absent or empty.
 * - `bad_signature`: the signature does not match the raw body (or is malformed).
 * - `bad_timestamp`: the signed timestamp (Standard Webhooks, Stripe) is malformed or outside the tolerance: a replay
 *   or a clock that is off.
 * - `bad_token`: the access token (`Authorization: Bearer …`) is absent or wrong.
 * - `bad_json`: the verified body is not valid UTF-8 JSON.
 * - `unknown_event`: the event type could not be found or is not declared in the spec.
 * - `body_too_large`: the body exceeds the configured byte limit.
 * - `body_timeout`: the body did not arrive within the configured time.
 * - `challenge`: not a failure: a verified endpoint check of the vendor (Zoom's `endpoint.url_validation`, Slack's
 *   `url_verification`), to be answered 200 with `error.challenge` as JSON (`createWebhookHandler` does).
 */
export type WebhookFailureReason =
  | "missing_signature"
  | "bad_signature"
  | "bad_timestamp"
  | "bad_token"
  | "bad_json"
  | "unknown_event"
  | "body_too_large"
  | "body_timeout"
  | "challenge";

const STATUS: Readonly<Record<WebhookFailureReason, number>> = {
  missing_signature: 401,
  bad_signature: 401,
  bad_timestamp: 401,
  bad_token: 401,
  bad_json: 400,
  unknown_event: 400,
  body_too_large: 413,
  body_timeout: 408,
  challenge: 200,
};

/**
 * Thrown by `parseWebhook` (and turned into an HTTP response by `createWebhookHandler`)
 * whenever a delivery cannot be trusted or understood. No payload data is attached:
 * an error never carries unverified content.
 */
export class WebhookVerificationError extends Error {
  /** Machine-readable failure reason. */
  readonly reason: WebhookFailureReason;
  /** The HTTP status a receiver should answer with (401, 400, 408 or 413; 200 for a `challenge`). */
  readonly status: number;
  /** `challenge`: the JSON body of the answer the vendor expects. */
  readonly challenge?: Readonly<Record<string, string>>;

  constructor(reason: WebhookFailureReason, message?: string, challenge?: Readonly<Record<string, string>>) {
    super(message ?? `Webhook rejected: ${reason}`);
    // Keeps `instanceof` working when a downstream project compiles to ES5.
    Object.setPrototypeOf(this, new.target.prototype);
    this.name = "WebhookVerificationError";
    this.reason = reason;
    this.status = STATUS[reason];
    if (challenge !== undefined) this.challenge = challenge;
  }
}

/** True for a {@link WebhookVerificationError}, also across duplicated copies of this runtime. */
export function isWebhookVerificationError(error: unknown): error is WebhookVerificationError {
  return (
    error instanceof WebhookVerificationError ||
    (typeof error === "object" &&
      error !== null &&
      (error as { name?: unknown }).name === "WebhookVerificationError" &&
      typeof (error as { reason?: unknown }).reason === "string")
  );
}
