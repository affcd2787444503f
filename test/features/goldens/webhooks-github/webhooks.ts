import type { webhooks } from "./schema.js";
import {
  createWebhookTools,
  type SchemePreset,
  type WebhookEventOf,
  type WebhookPayloadOf,
  type WebhookSpec,
  type WebhookTools,
} from "./runtime/webhooks/index.js";
import { githubScheme } from "./runtime/webhooks/scheme-github.js";
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
  "scheme":"github",\
  "eventType":{\
    "in":"header",\
    "name":"X-GitHub-Event"\
  },\
  "events":[\
    {"name":"issues-opened","values":["issues-opened","issues"],"when":{"action":"opened"}},\
    {"name":"issues-closed","values":["issues-closed","issues"],"when":{"action":"closed"}},\
    {"name":"issue-comment-created","values":["issue-comment-created","issue_comment"],"when":{"action":"created"}},\
    {"name":"custom-property-promoted-to-enterprise","values":["custom-property-promoted-to-enterprise","custom_property"],"when":{"action":"promote_to_enterprise"}},\
    "push"\
  ]\
}',
  );
/** The payload type of each webhook, by event type. */
export type WebhookEvents = {
  "issues-opened": WebhookPayloadOf<webhooks["issues-opened"]>;
  "issues-closed": WebhookPayloadOf<webhooks["issues-closed"]>;
  "issue-comment-created": WebhookPayloadOf<webhooks["issue-comment-created"]>;
  "custom-property-promoted-to-enterprise": WebhookPayloadOf<
    webhooks["custom-property-promoted-to-enterprise"]
  >;
  push: WebhookPayloadOf<webhooks["push"]>;
};
/** The request headers each webhook declares (signature, authorization, …), by event type. */
export type WebhookHeaders = {
  "issues-opened": NonNullable<
    webhooks["issues-opened"]["post"]["parameters"]["header"]
  >;
  "issues-closed": NonNullable<
    webhooks["issues-closed"]["post"]["parameters"]["header"]
  >;
  "issue-comment-created": NonNullable<
    webhooks["issue-comment-created"]["post"]["parameters"]["header"]
  >;
  "custom-property-promoted-to-enterprise": NonNullable<
    webhooks["custom-property-promoted-to-enterprise"]["post"]["parameters"]["header"]
  >;
  push: NonNullable<webhooks["push"]["post"]["parameters"]["header"]>;
};
/** A verified delivery; narrow it with `event.type`. */
export type WebhookEvent = WebhookEventOf<WebhookEvents>;
/** Every event type the spec declares. */
export const WEBHOOK_EVENT_TYPES: readonly (keyof WebhookEvents)[] = JSON.parse(
  '[\
  "issues-opened",\
  "issues-closed",\
  "issue-comment-created",\
  "custom-property-promoted-to-enterprise",\
  "push"\
]',
);
/** The spec declares no payload variables (`x-payload-variables`): any name is accepted. */
export type PayloadVariables = Record<string, unknown>;
/** The functions below, bound to this spec's events and payload variables. */
export type WebhookToolset = WebhookTools<WebhookEvents, PayloadVariables>;
/** The named signature schemes this output carries: `options.scheme` may name these (and describe an `hmac` one). */
const schemes: SchemePreset[] = [githubScheme];
const tools = createWebhookTools<WebhookEvents, PayloadVariables>(
  webhookSpec,
  schemes,
);
/** True when the signature (a signature header you name) is the HMAC-SHA256 of the exact raw body with the secret; constant-time. Never throws. */
export const verifyWebhookSignature: WebhookToolset["verifySignature"] =
  tools.verifySignature;
/** The signature header value for a body, as the sender computes it. */
export const signWebhookPayload: WebhookToolset["sign"] = tools.sign;
/** The signature headers a sender puts on a body, by `options.scheme` (default: `github`), for tests of your receiver. */
export const signWebhookDelivery: WebhookToolset["signDelivery"] =
  tools.signDelivery;
/** Verifies a delivery (signature by `options.scheme`, default: `github`; bearer token when configured), parses it and identifies its event; throws `WebhookVerificationError` and never returns unverified data. */
export const parseWebhook: WebhookToolset["parse"] = tools.parse;
/** A `(request: Request) => Promise<Response>` receiver (signature by `options.scheme`, default: `github`): 401 when verification fails, 400 for bad JSON or an unknown event, 413 past the body limit, 408 past the body time limit, 200 after your handler ran. */
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
