/**
 * Standard Webhooks (https://www.standardwebhooks.com, OpenAI, Svix): `webhook-id`, `webhook-timestamp` and
 * `webhook-signature: v1,<base64>` (several during key rotation) over `id.timestamp.body`, with a `whsec_<base64>`
 * secret; asymmetric `v1a,<base64>` (Ed25519) signatures verify with the sender's `whpk_<base64>` public key.
 */
import { BODY_TYPE, checkTimestamp, HMAC_DEFAULTS, reject, tolerance } from "./schemes.js";
import type { PresetOptions, ResolvedScheme, SchemePreset, SignatureFormat } from "./schemes.js";
import { concatBytes, decodeBase64, ED25519_SIGNATURE_BYTES, ed25519Sign, encodeBase64, hmacDigest } from "./signature.js";
import type { Ed25519Key, SignatureKey } from "./signature.js";

const STANDARD_SECRET_PREFIX = "whsec_";
const STANDARD_PUBLIC_KEY_PREFIX = "whpk_";
const STANDARD_SECRET_KEY_PREFIX = "whsk_";
const ED25519_KEY_BYTES = 32;
const SHA256_BYTES = 32;

/**
 * A Standard Webhooks (or Svix) secret: `whsec_` + base64 of the HMAC key bytes (the prefix is optional, as in the
 * `standardwebhooks` package), or an Ed25519 key of its asymmetric `v1a` signatures: `whpk_` + base64 of a public
 * key (what a receiver holds), `whsk_` + base64 of a secret key (what a sender holds). Svix has no Ed25519 keys.
 */
function standardKey(scheme: ResolvedScheme, secret: string): SignatureKey {
  const svix = scheme.name === "svix";
  if (!svix && secret.startsWith(STANDARD_PUBLIC_KEY_PREFIX)) {
    const bytes = decodeBase64(secret.slice(STANDARD_PUBLIC_KEY_PREFIX.length));
    if (bytes === null || bytes.byteLength !== ED25519_KEY_BYTES) {
      throw new TypeError("A Standard Webhooks public key is `whpk_` followed by the 32-byte Ed25519 key in base64; this one is not");
    }
    return { ed25519: "public", bytes };
  }
  if (!svix && secret.startsWith(STANDARD_SECRET_KEY_PREFIX)) {
    const bytes = decodeBase64(secret.slice(STANDARD_SECRET_KEY_PREFIX.length));
    // 32 bytes: the seed; 64: seed then public key (libsodium's secret key).
    if (bytes === null || (bytes.byteLength !== ED25519_KEY_BYTES && bytes.byteLength !== 2 * ED25519_KEY_BYTES)) {
      throw new TypeError("A Standard Webhooks secret key is `whsk_` followed by the Ed25519 secret key (32 or 64 bytes) in base64; this one is not");
    }
    return { ed25519: "secret", seed: bytes.slice(0, ED25519_KEY_BYTES) };
  }
  const encoded = secret.startsWith(STANDARD_SECRET_PREFIX) ? secret.slice(STANDARD_SECRET_PREFIX.length) : secret;
  const key = decodeBase64(encoded);
  if (key === null || key.byteLength === 0) {
    throw new TypeError(
      svix
        ? "A Svix secret is `whsec_` followed by the key in base64 (as the dashboard shows it); this one is not"
        : "A Standard Webhooks secret is `whsec_` followed by the key in base64 (or an Ed25519 key: `whpk_…`, `whsk_…`); this one is not",
    );
  }
  return key;
}

const standardFormat: SignatureFormat = {
  present(scheme, headers, context) {
    // Svix, the reference implementation, sends the same headers under `svix-*`; either set is read.
    const either = (name: string) => headers.get(`webhook-${name}`) ?? headers.get(`svix-${name}`);
    const id = either("id");
    const timestamp = either("timestamp");
    const signature = either("signature");
    if (!id || !timestamp || !signature || !id.trim() || !signature.trim()) {
      throw reject("missing_signature", `${scheme.headerPrefix}-id, ${scheme.headerPrefix}-timestamp and ${scheme.headerPrefix}-signature are required`);
    }
    const signedAt = checkTimestamp(timestamp.trim(), scheme, context.nowSeconds);
    const digests: Uint8Array[] = [];
    const asymmetric: Uint8Array[] = [];
    for (const entry of signature.split(" ")) {
      const comma = entry.indexOf(",");
      if (comma < 0) continue;
      const version = entry.slice(0, comma);
      if (version !== "v1" && version !== "v1a") continue; // versions of the future are not ours to read
      const bytes = decodeBase64(entry.slice(comma + 1));
      if (version === "v1" && bytes && bytes.byteLength === SHA256_BYTES) digests.push(bytes);
      if (version === "v1a" && bytes && bytes.byteLength === ED25519_SIGNATURE_BYTES) asymmetric.push(bytes);
    }
    if (digests.length === 0 && asymmetric.length === 0) throw reject("bad_signature", "no v1 or v1a signature in the signature header");
    return { around: [{ before: `${id}.${signedAt}.`, after: "" }], digests, asymmetric, messageId: id };
  },
  async sign(scheme, body, key, { timestamp, id }) {
    const before = `${id}.${timestamp}.`;
    const signature =
      typeof key === "object" && "ed25519" in key
        ? `v1a,${encodeBase64(await ed25519Sign(body, key as Ed25519Key & { ed25519: "secret" }, before))}`
        : `v1,${encodeBase64(await hmacDigest(concatBytes([before, body]), key, scheme.hash))}`;
    const names = scheme.headerPrefix ?? "webhook";
    return { [`${names}-id`]: id, [`${names}-timestamp`]: timestamp, [`${names}-signature`]: signature };
  },
  key: standardKey,
};

/** Standard Webhooks' scheme under either header names: `webhook-*`, or Svix's `svix-*` (svix). */
export function standardScheme(name: "standard-webhooks" | "svix", options: PresetOptions): ResolvedScheme {
  return {
    ...HMAC_DEFAULTS,
    name,
    kind: "standard-webhooks",
    header: `${name === "svix" ? "svix" : "webhook"}-signature`,
    encodings: ["base64"],
    signEncoding: "base64",
    toleranceSeconds: tolerance(options.toleranceSeconds),
    eventSources: [BODY_TYPE],
    deliveryIdHeader: "webhook-id",
    headerPrefix: name === "svix" ? "svix" : "webhook",
    format: standardFormat,
  };
}

/** `scheme: "standard-webhooks"`. */
export const standardWebhooksScheme: SchemePreset = { name: "standard-webhooks", resolve: (options) => standardScheme("standard-webhooks", options) };
