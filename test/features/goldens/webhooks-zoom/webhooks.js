// @ts-self-types="./webhooks.d.ts"
import { createWebhookTools } from "./runtime/webhooks/index.js";

import { standardWebhooksScheme } from "./runtime/webhooks/scheme-standard-webhooks.js";

export {
  WebhookVerificationError,
  isWebhookVerificationError,
} from "./runtime/webhooks/index.js";

/** How deliveries are signed, identified and authenticated, and the payload variables: read from the spec. */
export const webhookSpec = JSON.parse(
  '{\
  "eventType":{\
    "in":"body",\
    "name":"event"\
  },\
  "events":[\
    "meeting.started",\
    "meeting.ended",\
    "meeting.participant_joined",\
    "recording.completed"\
  ]\
}',
);

/** Every event type the spec declares. */
export const WEBHOOK_EVENT_TYPES = JSON.parse(
  '[\
  "meeting.started",\
  "meeting.ended",\
  "meeting.participant_joined",\
  "recording.completed"\
]',
);

/** The named signature schemes this output carries: `options.scheme` may name these (and describe an `hmac` one). */
const schemes = [standardWebhooksScheme];

const tools = createWebhookTools(webhookSpec, schemes);
/** True when the signature (a signature header you name) is the HMAC-SHA256 of the exact raw body with the secret; constant-time. Never throws. */
export const verifyWebhookSignature = tools.verifySignature;
/** The signature header value for a body, as the sender computes it. */
export const signWebhookPayload = tools.sign;
/** The signature headers a sender puts on a body, by `options.scheme` (default: `standard-webhooks`), for tests of your receiver. */
export const signWebhookDelivery = tools.signDelivery;
/** Verifies a delivery (signature by `options.scheme`, default: `standard-webhooks`; bearer token when configured), parses it and identifies its event; throws `WebhookVerificationError` and never returns unverified data. */
export const parseWebhook = tools.parse;
/** A `(request: Request) => Promise<Response>` receiver (signature by `options.scheme`, default: `standard-webhooks`): 401 when verification fails, 400 for bad JSON or an unknown event, 413 past the body limit, 408 past the body time limit, 200 after your handler ran. */
export const createWebhookHandler = tools.createHandler;
/** The same receiver as a `node:http` request listener: `http.createServer(createWebhookNodeListener({ secret, on }))`. */
export const createWebhookNodeListener = tools.createNodeListener;
/** Renders a payload template: `${variable}` (JSON-escaped inside strings), `${artifact_metadata.KEY}`, `${ACCESS_TOKEN}`, `${SECRET}` and `$SECRET`. */
export const renderPayloadTemplate = tools.renderTemplate;
/** Reports unknown variables and templates that do not render to valid JSON. */
export const checkPayloadTemplate = tools.checkTemplate;
