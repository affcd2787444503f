/**
 * Shopify (https://shopify.dev/docs/apps/build/webhooks/subscribe/https#step-5-verify-the-webhook):
 * `X-Shopify-Hmac-Sha256: <base64>` over the body, keyed with the app's client secret. Events by `X-Shopify-Topic`.
 */
import { eventInHeader, HMAC_DEFAULTS } from "./schemes.js";
import type { SchemePreset } from "./schemes.js";

/** `scheme: "shopify"`. */
export const shopifyScheme: SchemePreset = {
  name: "shopify",
  resolve: () => ({
    ...HMAC_DEFAULTS,
    name: "shopify",
    kind: "hmac",
    header: "X-Shopify-Hmac-Sha256",
    encodings: ["base64"],
    signEncoding: "base64",
    eventSources: [eventInHeader("X-Shopify-Topic")],
    deliveryIdHeader: "X-Shopify-Webhook-Id",
  }),
};
