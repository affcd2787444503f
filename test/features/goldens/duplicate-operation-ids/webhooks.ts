import type { webhooks } from "./schema.js";
import {
  createWebhookTools,
  type SchemePreset,
  type WebhookEventOf,
  type WebhookPayloadOf,
  type WebhookSpec,
  type WebhookTools,
} from "./runtime/webhooks/index.js";
import { standardWebhooksScheme } from "./runtime/webhooks/scheme-standard-webhooks.js";
export {
  WebhookVerificationError,
  isWebhookVerificationError,
  type WebhookFailureReason,
  type WebhookScheme,
} from "./runtime/webhooks/index.js";
/** How deliveries are signed, identified and authenticated, and the payload variables: read from the spec. */
export const webhookSpec: WebhookSpec<keyof WebhookEvents & string> =
  JSON.parse(
    '{\
  "events":[\
    "petAdopted"\
  ]\
}',
  );
/** The payload type of each webhook, by event type. */
export type WebhookEvents = {
  petAdopted: WebhookPayloadOf<webhooks["petAdopted"]>;
};
/** The request headers each webhook declares (signature, authorization, …), by event type. */
export type WebhookHeaders = {
  petAdopted: NonNullable<
    webhooks["petAdopted"]["post"]["parameters"]["header"]
  >;
};
/** A verified delivery; narrow it with `event.type`. */
export type WebhookEvent = WebhookEventOf<WebhookEvents>;
/** Every event type the spec declares. */
export const WEBHOOK_EVENT_TYPES: readonly (keyof WebhookEvents)[] =
  JSON.parse('["petAdopted"]');
/** The spec declares no payload variables (`x-payload-variables`): any name is accepted. */
export type PayloadVariables = Record<string, unknown>;
/** The functions below, bound to this spec's events and payload variables. */
export type WebhookToolset = WebhookTools<WebhookEvents, PayloadVariables>;
/** The named signature schemes this output carries: `options.scheme` may name these (and describe an `hmac` one). */
const schemes: SchemePreset[] = [standardWebhooksScheme];
const tools = createWebhookTools<WebhookEvents, PayloadVariables>(
  webhookSpec,
  schemes,
);
/** True when the signature (a signature header you name) is the HMAC-SHA256 of the exact raw body with the secret; constant-time. Never throws. */
export const verifyWebhookSignature: WebhookToolset["verifySignature"] =
  tools.verifySignature;
/** The signature header value for a body, as the sender computes it. */
export const signWebhookPayload: WebhookToolset["sign"] = tools.sign;
/** The signature headers a sender puts on a body, by `options.scheme` (default: `standard-webhooks`), for tests of your receiver. */
export const signWebhookDelivery: WebhookToolset["signDelivery"] =
  tools.signDelivery;
/** Verifies a delivery (signature by `options.scheme`, default: `standard-webhooks`; bearer token when configured), parses it and identifies its event; throws `WebhookVerificationError` and never returns unverified data. */
export const parseWebhook: WebhookToolset["parse"] = tools.parse;
/** A `(request: Request) => Promise<Response>` receiver (signature by `options.scheme`, default: `standard-webhooks`): 401 when verification fails, 400 for bad JSON or an unknown event, 413 past the body limit, 408 past the body time limit, 200 after your handler ran. */
export const createWebhookHandler: WebhookToolset["createHandler"] =
  tools.createHandler;
/** The same receiver as a `node:http` request listener: `http.createServer(createWebhookNodeListener({ secret, on }))`. */
export const createWebhookNodeListener: WebhookToolset["createNodeListener"] =
  tools.createNodeListener;
/** Renders a payload template: `${variable}` (JSON-escaped inside strings), `${artifact_metadata.KEY}`, `${ACCESS_TOKEN}`, `${SECRET}` and `$SECRET`. */
export const renderPayloadTemplate: WebhookToolset["renderTemplate"] =
  tools.renderTemplate;
/** Reports unknown variables and templates that do not render to valid JSON. */
export const checkPayloadTemplate: WebhookToolset["checkTemplate"] =
  tools.checkTemplate;
