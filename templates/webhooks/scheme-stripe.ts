/**
 * Stripe (https://docs.stripe.com/webhooks#verify-manually): `Stripe-Signature: t=<timestamp>,v1=<hex>` over
 * `timestamp.body`, keyed with the `whsec_…` string as written.
 */
import { BODY_TYPE, checkTimestamp, HMAC_DEFAULTS, reject, required, tolerance } from "./schemes.js";
import type { SchemePreset, SignatureFormat } from "./schemes.js";
import { concatBytes, decodeHex, encodeHex, hmacDigest } from "./signature.js";
import type { HmacSecret } from "./signature.js";

const SHA256_BYTES = 32;

const stripeFormat: SignatureFormat = {
  present(scheme, headers, context) {
    const value = required(headers, scheme.header);
    let timestamp: string | undefined;
    const digests: Uint8Array[] = [];
    for (const item of value.split(",")) {
      const eq = item.indexOf("=");
      if (eq < 0) continue;
      const key = item.slice(0, eq).trim();
      const text = item.slice(eq + 1).trim();
      if (key === "t") {
        if (timestamp !== undefined) throw reject("bad_signature", "two timestamps in Stripe-Signature");
        timestamp = text;
      } else if (key === "v1") {
        const digest = text.length === SHA256_BYTES * 2 ? decodeHex(text) : null;
        if (digest) digests.push(digest);
      }
    }
    if (timestamp === undefined || digests.length === 0) throw reject("bad_signature", "Stripe-Signature needs t= and v1=");
    // As Stripe's own library: only a timestamp too far in the past is refused.
    const signedAt = checkTimestamp(timestamp, scheme, context.nowSeconds);
    return { around: [{ before: `${signedAt}.`, after: "" }], digests };
  },
  async sign(scheme, body, key, { timestamp }) {
    const digest = await hmacDigest(concatBytes([`${timestamp}.`, body]), key as HmacSecret, scheme.hash);
    return { [scheme.header]: `t=${timestamp},v1=${encodeHex(digest)}` };
  },
};

/** `scheme: "stripe"`. */
export const stripeScheme: SchemePreset = {
  name: "stripe",
  resolve: (options) => ({
    ...HMAC_DEFAULTS,
    name: "stripe",
    kind: "stripe",
    header: "Stripe-Signature",
    toleranceSeconds: tolerance(options.toleranceSeconds),
    futureToo: false,
    eventSources: [BODY_TYPE],
    format: stripeFormat,
  }),
};
