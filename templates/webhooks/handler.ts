import { isWebhookVerificationError } from "./errors.js";
import type { WebhookVerificationError } from "./errors.js";
import { deliverySource, resolveOptions, verifyDelivery } from "./parse.js";
import type { CompiledSpec, DeliverySource, ParseWebhookOptions, UntypedWebhookEvent } from "./parse.js";
import type { WebhookEventOf, WebhookHandlerResult } from "./types.js";

/** Per-event handlers, keyed by event name; each receives the event narrowed to its type. */
export type WebhookEventHandlers<Events> = {
  readonly [K in keyof Events & string]?: (event: WebhookEventOf<Events, K>) => WebhookHandlerResult;
};

/** Options of `createWebhookHandler`. */
export type WebhookHandlerOptions<Events> = ParseWebhookOptions & {
  /**
   * Handlers by event type. A verified event with no handler here (and no `onUnhandled`)
   * is acknowledged with 200 `{"ok":true}` and otherwise ignored, so the sender does not retry it.
   */
  readonly on: WebhookEventHandlers<Events>;
  /** Called for verified events that have no entry in `on`. */
  readonly onUnhandled?: (event: WebhookEventOf<Events>) => WebhookHandlerResult;
  /**
   * Called when a handler throws (or on an unexpected internal error; then `event` is undefined).
   * The response is 500 `{"ok":false,"error":"internal_error"}` unless this returns a Response.
   */
  readonly onError?: (
    error: unknown,
    context: { readonly request: Request; readonly event: WebhookEventOf<Events> | undefined },
  ) => void | Response | Promise<void | Response>;
  /**
   * Called for each rejected delivery (401/400/408/413), e.g. for logging. It may return a Response to answer
   * differently, e.g. 200 for verified deliveries of events the spec does not declare (`reason: "unknown_event"`).
   * Its errors are ignored.
   */
  readonly onReject?: (error: WebhookVerificationError, request: Request) => void | Response | Promise<void | Response>;
};

export function json(status: number, body: unknown, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function isResponse(value: unknown): value is Response {
  // Duck-typed: a handler may build its Response with another fetch implementation.
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Response).status === "number" &&
    typeof (value as Response).headers === "object" &&
    "body" in value
  );
}

/**
 * Receives one delivery from any transport: `source` gives its headers and body, `request` the web Request the
 * callbacks see (built only when one is called).
 */
export type DeliveryReceiver = (source: DeliverySource, request: () => Request) => Promise<Response>;

/** The answer to every delivery, whatever it arrived through (`createHandler`, `createNodeListener`). */
export function createReceiver<Events>(compiled: CompiledSpec, options: WebhookHandlerOptions<Events>): DeliveryReceiver {
  const resolved = resolveOptions(compiled, options); // Fail at startup, not on the first delivery.
  const handlers = (options.on ?? {}) as Readonly<Record<string, ((event: UntypedWebhookEvent) => WebhookHandlerResult) | undefined>>;
  const onUnhandled = options.onUnhandled as ((event: UntypedWebhookEvent) => WebhookHandlerResult) | undefined;

  const fail = async (error: unknown, request: () => Request, event: UntypedWebhookEvent | undefined): Promise<Response> => {
    try {
      const custom = await options.onError?.(error, { request: request(), event: event as WebhookEventOf<Events> | undefined });
      if (isResponse(custom)) return custom;
    } catch {
      // The error reporter failed too; still answer with a generic 500.
    }
    return json(500, { ok: false, error: "internal_error" });
  };

  return async (source, request) => {
    let event: UntypedWebhookEvent;
    try {
      event = await verifyDelivery(compiled, resolved, source);
    } catch (error) {
      if (!isWebhookVerificationError(error)) return fail(error, request, undefined);
      // The vendor's endpoint check, verified like any delivery: answered as its documentation asks.
      if (error.reason === "challenge" && error.challenge) return json(200, error.challenge);
      try {
        const custom = await options.onReject?.(error, request());
        if (isResponse(custom)) return custom;
      } catch {
        // Logging must not change the answer.
      }
      // 401s do not say which check failed; 400/408/413 name the reason.
      return json(error.status, { ok: false, error: error.status === 401 ? "unauthorized" : error.reason });
    }
    const specific = Object.prototype.hasOwnProperty.call(handlers, event.type) ? handlers[event.type] : undefined;
    const handler = specific ?? onUnhandled;
    if (typeof handler !== "function") return json(200, { ok: true });
    try {
      const result = await handler(event);
      return isResponse(result) ? result : json(200, { ok: true });
    } catch (error) {
      return fail(error, request, event);
    }
  };
}

/**
 * Builds a `(request: Request) => Promise<Response>` receiver.
 *
 * Responses: 405 for non-POST; 413 body too large (Content-Length checked first, then counted while reading); 408
 * body slower than `bodyTimeoutMs`; 401 bad/missing signature, stale timestamp or bad token; 400 bad JSON or unknown
 * event; 200 `{"ok":true}` (or the handler's own Response) after the handler ran; 500 when it threw; 200 with the
 * vendor's expected answer to a verified endpoint check (Zoom, Slack).
 */
export function createHandler<Events>(
  compiled: CompiledSpec,
  options: WebhookHandlerOptions<Events>,
): (request: Request) => Promise<Response> {
  const receive = createReceiver(compiled, options);
  return async (request: Request): Promise<Response> => {
    if (request.method.toUpperCase() !== "POST") {
      return json(405, { ok: false, error: "method_not_allowed" }, { allow: "POST" });
    }
    return receive(deliverySource(request), () => request);
  };
}
