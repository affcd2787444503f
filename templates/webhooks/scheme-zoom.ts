/**
 * Zoom (https://developers.zoom.us/docs/api/webhooks/#verify-webhook-events): `x-zm-signature: v0=<hex>` over
 * `v0:{timestamp}:{body}`, the timestamp in `x-zm-request-timestamp`, keyed with the app's secret token. Events by
 * the body's `event`; answers `endpoint.url_validation`.
 */
import { eventInBody, v0Scheme } from "./schemes.js";
import type { EndpointChallenge, SchemePreset } from "./schemes.js";
import { encodeHex, hmacDigest, toBytes } from "./signature.js";

/**
 * Zoom's endpoint check gets `{ plainToken, encryptedToken }`: the hex HMAC-SHA256 of the token with the secret
 * (https://developers.zoom.us/docs/api/webhooks/#validate-your-webhook-endpoint).
 */
const urlValidation: EndpointChallenge = async (payload, key) => {
  const message = payload as { event?: unknown; payload?: { plainToken?: unknown } };
  const plainToken = message.payload?.plainToken;
  if (message.event !== "endpoint.url_validation" || typeof plainToken !== "string" || typeof key !== "string") return undefined;
  return { plainToken, encryptedToken: encodeHex(await hmacDigest(toBytes(plainToken), key)) };
};

/** `scheme: "zoom"`. */
export const zoomScheme: SchemePreset = {
  name: "zoom",
  resolve: (options) =>
    v0Scheme("zoom", "x-zm-signature", "x-zm-request-timestamp", options, urlValidation, {
      eventSources: [eventInBody("event")],
      deliveryIdHeader: "x-zm-trackingid",
    }),
};
