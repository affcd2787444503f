/**
 * Slack (https://api.slack.com/authentication/verifying-requests-from-slack): `X-Slack-Signature: v0=<hex>` over
 * `v0:{timestamp}:{body}`, the timestamp in `X-Slack-Request-Timestamp`, keyed with the signing secret. Events by the
 * body's `type`, then `event.type`; answers `url_verification`.
 */
import { BODY_TYPE, v0Scheme } from "./schemes.js";
import type { EndpointChallenge, SchemePreset } from "./schemes.js";

/** Slack's endpoint check gets `{ challenge }` (https://api.slack.com/events/url_verification). */
const urlVerification: EndpointChallenge = (payload) => {
  const message = payload as { type?: unknown; challenge?: unknown };
  return Promise.resolve(message.type === "url_verification" && typeof message.challenge === "string" ? { challenge: message.challenge } : undefined);
};

/** `scheme: "slack"`. */
export const slackScheme: SchemePreset = {
  name: "slack",
  resolve: (options) =>
    v0Scheme("slack", "X-Slack-Signature", "X-Slack-Request-Timestamp", options, urlVerification, {
      eventSources: [BODY_TYPE, { in: "body", name: "event", property: "type" }],
    }),
};
