/**
 * GitHub (https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries): `X-Hub-Signature-256:
 * sha256=<hex>` over the body. Events by `X-GitHub-Event` and the body's `action`.
 */
import { eventInHeader, HMAC_DEFAULTS } from "./schemes.js";
import type { SchemePreset } from "./schemes.js";

/** `scheme: "github"`. */
export const githubScheme: SchemePreset = {
  name: "github",
  resolve: () => ({
    ...HMAC_DEFAULTS,
    name: "github",
    kind: "hmac",
    header: "X-Hub-Signature-256",
    prefix: "sha256=",
    eventSources: [eventInHeader("X-GitHub-Event")],
    eventWithAction: true,
    deliveryIdHeader: "X-GitHub-Delivery",
  }),
};
