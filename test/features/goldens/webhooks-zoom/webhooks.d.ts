import type { webhooks } from "./schema.js";
import type {
  WebhookEventOf,
  WebhookPayloadOf,
  WebhookSpec,
  WebhookTools,
} from "./runtime/webhooks/index.js";

export {
  WebhookVerificationError,
  isWebhookVerificationError,
  type WebhookFailureReason,
  type WebhookScheme,
} from "./runtime/webhooks/index.js";

/** How deliveries are signed, identified and authenticated, and the payload variables: read from the spec. */
export declare const webhookSpec: WebhookSpec<keyof WebhookEvents & string>;

/** The payload type of each webhook, by event type. */
export type WebhookEvents = {
  "meeting.started": WebhookPayloadOf<webhooks["meeting.started"]>;
  "meeting.ended": WebhookPayloadOf<webhooks["meeting.ended"]>;
  "meeting.participant_joined": WebhookPayloadOf<
    webhooks["meeting.participant_joined"]
  >;
  "recording.completed": WebhookPayloadOf<webhooks["recording.completed"]>;
};
/** The request headers each webhook declares (signature, authorization, …), by event type. */
export type WebhookHeaders = {
  "meeting.started": NonNullable<
    webhooks["meeting.started"]["post"]["parameters"]["header"]
  >;
  "meeting.ended": NonNullable<
    webhooks["meeting.ended"]["post"]["parameters"]["header"]
  >;
  "meeting.participant_joined": NonNullable<
    webhooks["meeting.participant_joined"]["post"]["parameters"]["header"]
  >;
  "recording.completed": NonNullable<
    webhooks["recording.completed"]["post"]["parameters"]["header"]
  >;
};
/** A verified delivery; narrow it with `event.type`. */
export type WebhookEvent = WebhookEventOf<WebhookEvents>;

/** Every event type the spec declares. */
export declare const WEBHOOK_EVENT_TYPES: readonly (keyof WebhookEvents)[];

/** The spec declares no payload variables (`x-payload-variables`): any name is accepted. */
export type PayloadVariables = Record<string, unknown>;

/** The functions below, bound to this spec's events and payload variables. */
export type WebhookToolset = WebhookTools<WebhookEvents, PayloadVariables>;
/** True when the signature (a signature header you name) is the HMAC-SHA256 of the exact raw body with the secret; constant-time. Never throws. */
export declare const verifyWebhookSignature: WebhookToolset["verifySignature"];
/** The signature header value for a body, as the sender computes it. */
export declare const signWebhookPayload: WebhookToolset["sign"];
/** The signature headers a sender puts on a body, by `options.scheme` (default: `standard-webhooks`), for tests of your receiver. */
export declare const signWebhookDelivery: WebhookToolset["signDelivery"];
/** Verifies a delivery (signature by `options.scheme`, default: `standard-webhooks`; bearer token when configured), parses it and identifies its event; throws `WebhookVerificationError` and never returns unverified data. */
export declare const parseWebhook: WebhookToolset["parse"];
/** A `(request: Request) => Promise<Response>` receiver (signature by `options.scheme`, default: `standard-webhooks`): 401 when verification fails, 400 for bad JSON or an unknown event, 413 past the body limit, 408 past the body time limit, 200 after your handler ran. */
export declare const createWebhookHandler: WebhookToolset["createHandler"];
/** The same receiver as a `node:http` request listener: `http.createServer(createWebhookNodeListener({ secret, on }))`. */
export declare const createWebhookNodeListener: WebhookToolset["createNodeListener"];
/** Renders a payload template: `${variable}` (JSON-escaped inside strings), `${artifact_metadata.KEY}`, `${ACCESS_TOKEN}`, `${SECRET}` and `$SECRET`. */
export declare const renderPayloadTemplate: WebhookToolset["renderTemplate"];
/** Reports unknown variables and templates that do not render to valid JSON. */
export declare const checkPayloadTemplate: WebhookToolset["checkTemplate"];
