import type { webhooks } from "./schema.js";
import {
  createWebhookTools,
  type SchemePreset,
  type WebhookEventOf,
  type WebhookPayloadOf,
  type WebhookSpec,
  type WebhookTools,
} from "../webhooks/index.js";

/** @slot only where the spec or config names the standard-webhooks scheme, or it is the default (`emitWebhooks`) */
import { standardWebhooksScheme } from "../webhooks/scheme-standard-webhooks.js";
/** @slot only where the spec or config names the svix scheme, or it is the default (`emitWebhooks`) */
import { svixScheme } from "../webhooks/scheme-svix.js";
/** @slot only where the spec or config names the stripe scheme, or it is the default (`emitWebhooks`) */
import { stripeScheme } from "../webhooks/scheme-stripe.js";
/** @slot only where the spec or config names the github scheme, or it is the default (`emitWebhooks`) */
import { githubScheme } from "../webhooks/scheme-github.js";
/** @slot only where the spec or config names the zoom scheme, or it is the default (`emitWebhooks`) */
import { zoomScheme } from "../webhooks/scheme-zoom.js";
/** @slot only where the spec or config names the slack scheme, or it is the default (`emitWebhooks`) */
import { slackScheme } from "../webhooks/scheme-slack.js";
/** @slot only where the spec or config names the shopify scheme, or it is the default (`emitWebhooks`) */
import { shopifyScheme } from "../webhooks/scheme-shopify.js";
/** @slot only where the spec or config names the twilio scheme, or it is the default (`emitWebhooks`) */
import { twilioScheme } from "../webhooks/scheme-twilio.js";
/** @slot only where the spec or config names the wandb scheme, or it is the default (`emitWebhooks`) */
import { wandbScheme } from "../webhooks/scheme-wandb.js";

export {
  WebhookVerificationError,
  isWebhookVerificationError,
  type WebhookFailureReason,
  type WebhookScheme,
} from "../webhooks/index.js";

/** @slot data: how deliveries are signed, identified and authenticated (`webhookRuntimeSpec` in src/emit/webhook-spec.ts) */
/** How deliveries are signed, identified and authenticated, and the payload variables: read from the spec. */
export const webhookSpec: WebhookSpec<keyof WebhookEvents & string> = { events: ["pet.adopted"] };

/** @slot members: one per webhook (`eventMember`); `Record<never, never>` when the spec has none */
/** The payload type of each webhook, by event type. */
export type WebhookEvents = {
  /**
   * Pet adopted
   *
   * Sent when a pet finds a home.
   */
  "pet.adopted": WebhookPayloadOf<webhooks["pet.adopted"]>;
};
/** @slot members: one per webhook (`headersMember`); `Record<never, never>` when the spec has none */
/** The request headers each webhook declares (signature, authorization, …), by event type. */
export type WebhookHeaders = {
  "pet.adopted": NonNullable<
    webhooks["pet.adopted"]["post"]["parameters"]["header"]
  >;
};
/** A verified delivery; narrow it with `event.type`. */
export type WebhookEvent = WebhookEventOf<WebhookEvents>;

/** @slot data: the webhooks' keys */
/** Every event type the spec declares. */
export const WEBHOOK_EVENT_TYPES: readonly (keyof WebhookEvents)[] = ["pet.adopted"];

/** @slot members: one per `x-payload-variables` value (`variableMember`); `Record<string, unknown>` and this comment when there are none */
/** The spec declares no payload variables (`x-payload-variables`): any name is accepted. */
export type PayloadVariables = Record<string, unknown>;

/** The functions below, bound to this spec's events and payload variables. */
export type WebhookToolset = WebhookTools<WebhookEvents, PayloadVariables>;

/** @slot the named signature schemes the spec and config use, from the imports above (`emitWebhooks`) */
/** The named signature schemes this output carries: `options.scheme` may name these (and describe an `hmac` one). */
const schemes: SchemePreset[] = [standardWebhooksScheme, svixScheme, stripeScheme, githubScheme, zoomScheme, slackScheme, shopifyScheme, twilioScheme, wandbScheme];

const tools = createWebhookTools<WebhookEvents, PayloadVariables>(webhookSpec, schemes);
/** @slot comment: names the signature header */
/** True when the signature (a signature header you name) is the HMAC-SHA256 of the exact raw body with the secret; constant-time. Never throws. */
export const verifyWebhookSignature: WebhookToolset["verifySignature"] = tools.verifySignature;
/** The signature header value for a body, as the sender computes it. */
export const signWebhookPayload: WebhookToolset["sign"] = tools.sign;
/** @slot comment: names the default scheme */
/** The signature headers a sender puts on a body, by `options.scheme` (default: `standard-webhooks`), for tests of your receiver. */
export const signWebhookDelivery: WebhookToolset["signDelivery"] = tools.signDelivery;
/** @slot comment: names the default scheme */
/** Verifies a delivery (signature by `options.scheme`, default: `standard-webhooks`; bearer token when configured), parses it and identifies its event; throws `WebhookVerificationError` and never returns unverified data. */
export const parseWebhook: WebhookToolset["parse"] = tools.parse;
/** @slot comment: names the default scheme */
/** A `(request: Request) => Promise<Response>` receiver (signature by `options.scheme`, default: `standard-webhooks`): 401 when verification fails, 400 for bad JSON or an unknown event, 413 past the body limit, 408 past the body time limit, 200 after your handler ran. */
export const createWebhookHandler: WebhookToolset["createHandler"] = tools.createHandler;
/** The same receiver as a `node:http` request listener: `http.createServer(createWebhookNodeListener({ secret, on }))`. */
export const createWebhookNodeListener: WebhookToolset["createNodeListener"] = tools.createNodeListener;
/** Renders a payload template: `${variable}` (JSON-escaped inside strings), `${artifact_metadata.KEY}`, `${ACCESS_TOKEN}`, `${SECRET}` and `$SECRET`. */
export const renderPayloadTemplate: WebhookToolset["renderTemplate"] = tools.renderTemplate;
/** Reports unknown variables and templates that do not render to valid JSON. */
export const checkPayloadTemplate: WebhookToolset["checkTemplate"] = tools.checkTemplate;
