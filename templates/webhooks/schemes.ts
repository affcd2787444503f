/**
 * The signature schemes: how each provider signs a delivery, where it names the event, and how a sender (or
 * `specforge webhook test`) signs one. Verification is HMAC-SHA256 with Web Crypto, compared in constant time.
 */
import { WebhookVerificationError } from "./errors.js";
import {
  acceptedEncodings,
  assertSupportedSignature,
  decodeBase64,
  decodeDigest,
  decodeHex,
  ED25519_SIGNATURE_BYTES,
  ed25519Sign,
  ed25519Verify,
  encodeBase64,
  encodeHex,
  hmacSha256,
  timingSafeEqual,
} from "./signature.js";
import type { RawBody, SignatureKey } from "./signature.js";
import { WEBHOOK_SCHEME_NAMES } from "./types.js";
import type { SignatureEncoding, WebhookEventTypeSpec, WebhookScheme, WebhookSchemeName, WebhookSignatureSpec } from "./types.js";

/** Seconds a timestamped delivery may be off: Standard Webhooks' and Stripe's default. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const DIGEST_BYTES = 32;
const STANDARD_SECRET_PREFIX = "whsec_";
const STANDARD_PUBLIC_KEY_PREFIX = "whpk_";
const STANDARD_SECRET_KEY_PREFIX = "whsk_";
const ED25519_KEY_BYTES = 32;

/** A scheme with every default filled in. */
export interface ResolvedScheme {
  /** The preset's name, or `hmac-sha256` for a header you name: used in messages. */
  readonly name: WebhookSchemeName | "hmac-sha256";
  readonly kind: "standard-webhooks" | "stripe" | "body-hmac";
  /** The header carrying the signature. */
  readonly header: string;
  /** body-hmac: text before the digest (`sha256=`), compared case-insensitively. */
  readonly prefix: string;
  /** body-hmac: the encodings accepted when verifying. */
  readonly encodings: readonly SignatureEncoding[];
  /** body-hmac: the encoding used when signing. */
  readonly signEncoding: SignatureEncoding;
  /** Timestamped schemes: seconds a delivery may be off. */
  readonly toleranceSeconds: number;
  /** Where the event is named when the spec does not say (`x-webhook-event-type`), in order. */
  readonly eventSources: readonly WebhookEventTypeSpec[];
  /** GitHub: the event is `<X-GitHub-Event>-<action>` when the body has an `action`. */
  readonly eventWithAction: boolean;
  /** The header with the provider's delivery id, if it sends one. */
  readonly deliveryIdHeader?: string;
}

const BODY_TYPE: WebhookEventTypeSpec = { in: "body", name: "type" };
const BODY_EVENT_TYPE: WebhookEventTypeSpec = { in: "body", name: "event_type" };

function bodyHmac(
  name: ResolvedScheme["name"],
  signature: WebhookSignatureSpec & { readonly header: string },
  eventSources: readonly WebhookEventTypeSpec[],
  extra: Partial<ResolvedScheme> = {},
): ResolvedScheme {
  assertSupportedSignature(signature);
  if (typeof signature.header !== "string" || signature.header.trim() === "") {
    throw new TypeError("An hmac-sha256 webhook scheme needs the `header` that carries the signature");
  }
  return {
    name,
    kind: "body-hmac",
    header: signature.header,
    prefix: signature.prefix ?? "",
    encodings: acceptedEncodings(signature),
    signEncoding: signature.encoding ?? "hex",
    toleranceSeconds: 0,
    eventSources,
    eventWithAction: false,
    ...extra,
  };
}

function tolerance(value: number | undefined): number {
  if (value === undefined) return DEFAULT_TOLERANCE_SECONDS;
  if (typeof value !== "number" || !(value > 0)) throw new TypeError("`toleranceSeconds` must be a positive number of seconds");
  return value;
}

/** Turns a scheme option (or the spec's signature config) into a `ResolvedScheme`; TypeError when it is unusable. */
export function resolveScheme(scheme: WebhookScheme): ResolvedScheme {
  const config = typeof scheme === "string" ? { type: scheme } : scheme;
  if (typeof config !== "object" || config === null) throw new TypeError("`scheme` must be a scheme name or object");
  switch (config.type) {
    case "standard-webhooks":
      return {
        name: "standard-webhooks",
        kind: "standard-webhooks",
        header: "webhook-signature",
        prefix: "",
        encodings: ["base64"],
        signEncoding: "base64",
        toleranceSeconds: tolerance((config as { toleranceSeconds?: number }).toleranceSeconds),
        eventSources: [BODY_TYPE],
        eventWithAction: false,
        deliveryIdHeader: "webhook-id",
      };
    case "stripe":
      return {
        name: "stripe",
        kind: "stripe",
        header: "Stripe-Signature",
        prefix: "",
        encodings: ["hex"],
        signEncoding: "hex",
        toleranceSeconds: tolerance((config as { toleranceSeconds?: number }).toleranceSeconds),
        eventSources: [BODY_TYPE],
        eventWithAction: false,
      };
    case "github":
      return bodyHmac("github", { header: "X-Hub-Signature-256", prefix: "sha256=", encoding: "hex" }, [{ in: "header", name: "X-GitHub-Event" }], {
        eventWithAction: true,
        deliveryIdHeader: "X-GitHub-Delivery",
      });
    case "wandb":
      return bodyHmac("wandb", { header: "X-Wandb-Signature", encoding: "hex", acceptEncodings: ["hex", "base64"] }, [BODY_EVENT_TYPE]);
    case "hmac-sha256":
      return bodyHmac("hmac-sha256", config as WebhookSignatureSpec & { header: string }, [BODY_TYPE, BODY_EVENT_TYPE]);
    default:
      throw new TypeError(
        `Unknown webhook scheme ${JSON.stringify((config as { type?: unknown }).type)} (one of ${[...WEBHOOK_SCHEME_NAMES, "hmac-sha256"].join(", ")})`,
      );
  }
}

/**
 * The keys of the receiver's (or sender's) secrets. Standard Webhooks secrets are `whsec_` + base64 of the HMAC key
 * bytes (the prefix is optional, as in the `standardwebhooks` package), or an Ed25519 key of its asymmetric `v1a`
 * signatures: `whpk_` + base64 of a public key (what a receiver holds), `whsk_` + base64 of a secret key (what a
 * sender holds). Every other scheme keys with the secret's UTF-8 bytes.
 */
export function schemeKeys(scheme: ResolvedScheme, secrets: readonly string[]): SignatureKey[] {
  if (scheme.kind !== "standard-webhooks") return [...secrets];
  return secrets.map((secret): SignatureKey => {
    if (secret.startsWith(STANDARD_PUBLIC_KEY_PREFIX)) {
      const bytes = decodeBase64(secret.slice(STANDARD_PUBLIC_KEY_PREFIX.length));
      if (bytes === null || bytes.byteLength !== ED25519_KEY_BYTES) {
        throw new TypeError("A Standard Webhooks public key is `whpk_` followed by the 32-byte Ed25519 key in base64; this one is not");
      }
      return { ed25519: "public", bytes };
    }
    if (secret.startsWith(STANDARD_SECRET_KEY_PREFIX)) {
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
      throw new TypeError("A Standard Webhooks secret is `whsec_` followed by the key in base64 (or an Ed25519 key: `whpk_…`, `whsk_…`); this one is not");
    }
    return key;
  });
}

/** What the signature headers say, read before the body arrives. */
export interface PresentedSignature {
  /** Text signed before the body: `id.timestamp.` (Standard Webhooks), `timestamp.` (Stripe), empty otherwise. */
  readonly signedPrefix: string;
  /** The digests presented, decoded (several during key rotation). */
  readonly digests: readonly Uint8Array[];
  /** Standard Webhooks: the Ed25519 (`v1a`) signatures presented, decoded. */
  readonly asymmetric?: readonly Uint8Array[];
  /** Standard Webhooks: the signed message id. */
  readonly messageId?: string;
}

const reject = (reason: "missing_signature" | "bad_signature" | "bad_timestamp", message: string) =>
  new WebhookVerificationError(reason, `Webhook rejected: ${message}`);

const DIGITS = /^\d{1,15}$/;

/** The timestamp as signed (an integer, as both providers' libraries read it), once it is within the tolerance. */
function checkTimestamp(text: string, scheme: ResolvedScheme, nowSeconds: number, futureToo: boolean): number {
  if (!DIGITS.test(text)) throw reject("bad_timestamp", "malformed signature timestamp");
  const timestamp = Number(text);
  const age = nowSeconds - timestamp;
  if (age > scheme.toleranceSeconds || (futureToo && -age > scheme.toleranceSeconds)) {
    throw reject("bad_timestamp", `signature timestamp more than ${scheme.toleranceSeconds} s from now`);
  }
  return timestamp;
}

/** A header value, or `missing_signature` when absent or blank. */
function required(headers: Headers, name: string): string {
  const value = headers.get(name);
  if (value === null || value.trim() === "") throw reject("missing_signature", `no ${name} header`);
  return value.trim();
}

/**
 * Reads and checks the signature headers (presence, form, timestamp tolerance) without the body: a delivery that
 * cannot verify is refused before its body is read. Throws `WebhookVerificationError`.
 */
export function presentedSignature(scheme: ResolvedScheme, headers: Headers, nowSeconds: number): PresentedSignature {
  switch (scheme.kind) {
    case "standard-webhooks": {
      // Svix, the reference implementation, sends the same headers under `svix-*`.
      const id = headers.get("webhook-id") ?? headers.get("svix-id");
      const timestamp = headers.get("webhook-timestamp") ?? headers.get("svix-timestamp");
      const signature = headers.get("webhook-signature") ?? headers.get("svix-signature");
      if (!id || !timestamp || !signature || !id.trim() || !signature.trim()) {
        throw reject("missing_signature", "webhook-id, webhook-timestamp and webhook-signature are required");
      }
      const signedAt = checkTimestamp(timestamp.trim(), scheme, nowSeconds, true);
      const digests: Uint8Array[] = [];
      const asymmetric: Uint8Array[] = [];
      for (const entry of signature.split(" ")) {
        const comma = entry.indexOf(",");
        if (comma < 0) continue;
        const version = entry.slice(0, comma);
        if (version !== "v1" && version !== "v1a") continue; // versions of the future are not ours to read
        const bytes = decodeBase64(entry.slice(comma + 1));
        if (version === "v1" && bytes && bytes.byteLength === DIGEST_BYTES) digests.push(bytes);
        if (version === "v1a" && bytes && bytes.byteLength === ED25519_SIGNATURE_BYTES) asymmetric.push(bytes);
      }
      if (digests.length === 0 && asymmetric.length === 0) throw reject("bad_signature", "no v1 or v1a signature in webhook-signature");
      return { signedPrefix: `${id}.${signedAt}.`, digests, asymmetric, messageId: id };
    }
    case "stripe": {
      const header = required(headers, scheme.header);
      let timestamp: string | undefined;
      const digests: Uint8Array[] = [];
      for (const item of header.split(",")) {
        const eq = item.indexOf("=");
        if (eq < 0) continue;
        const key = item.slice(0, eq).trim();
        const value = item.slice(eq + 1).trim();
        if (key === "t") {
          if (timestamp !== undefined) throw reject("bad_signature", "two timestamps in Stripe-Signature");
          timestamp = value;
        } else if (key === "v1") {
          const digest = value.length === DIGEST_BYTES * 2 ? decodeHex(value) : null;
          if (digest) digests.push(digest);
        }
      }
      if (timestamp === undefined || digests.length === 0) throw reject("bad_signature", "Stripe-Signature needs t= and v1=");
      // As Stripe's own library: only a timestamp too far in the past is refused.
      const signedAt = checkTimestamp(timestamp, scheme, nowSeconds, false);
      return { signedPrefix: `${signedAt}.`, digests };
    }
    case "body-hmac": {
      let text = required(headers, scheme.header);
      if (scheme.prefix) {
        if (text.slice(0, scheme.prefix.length).toLowerCase() !== scheme.prefix.toLowerCase()) {
          throw reject("bad_signature", `${scheme.header} does not start with ${scheme.prefix}`);
        }
        text = text.slice(scheme.prefix.length).trim();
      }
      const digest = decodeDigest(text, scheme.encodings);
      if (!digest) throw reject("bad_signature", `${scheme.header} is not a SHA-256 digest in ${scheme.encodings.join(" or ")}`);
      return { signedPrefix: "", digests: [digest] };
    }
  }
}

/**
 * The expected digest of the body under each key, compared with every presented digest in constant time; an Ed25519
 * public key verifies the presented `v1a` signatures (a secret key signs and compares, as an HMAC key does).
 * Returns the matching expected digest or signature (hex), or undefined when none matches.
 */
export async function matchSignature(presented: PresentedSignature, body: RawBody, keys: readonly SignatureKey[]): Promise<string | undefined> {
  for (const key of keys) {
    if (typeof key === "object" && "ed25519" in key) {
      for (const signature of presented.asymmetric ?? []) {
        const valid =
          key.ed25519 === "public"
            ? await ed25519Verify(body, key, signature, presented.signedPrefix)
            : timingSafeEqual(signature, await ed25519Sign(body, key, presented.signedPrefix));
        if (valid) return encodeHex(signature);
      }
      continue;
    }
    const expected = await hmacSha256(body, key, presented.signedPrefix);
    let matched = false;
    // Every presented digest is compared (no early exit): the time does not say which one matched.
    for (const digest of presented.digests) matched = timingSafeEqual(digest, expected) || matched;
    if (matched) return encodeHex(expected);
  }
  return undefined;
}

/** Options of `signDelivery`. */
export interface SignDeliveryOptions {
  /** Standard Webhooks: the message id (default: a random `msg_…`). */
  readonly id?: string;
  /** Standard Webhooks and Stripe: the signing time in Unix seconds (default: now). */
  readonly timestamp?: number;
}

/** The signature headers a sender puts on `body` under `scheme`, signed with the first key. */
export async function signDelivery(
  scheme: ResolvedScheme,
  body: RawBody,
  key: SignatureKey,
  options: SignDeliveryOptions = {},
): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(options.timestamp ?? Date.now() / 1000));
  const ed25519 = typeof key === "object" && "ed25519" in key;
  if (ed25519 && key.ed25519 === "public") throw new TypeError("A public key (`whpk_…`) verifies deliveries; signing one needs the secret key (`whsk_…`)");
  // (schemeKeys makes Ed25519 keys only for Standard Webhooks: `v1a` is its asymmetric signature, `v1` its HMAC.)
  if (ed25519 || scheme.kind === "standard-webhooks") {
    const id = options.id ?? `msg_${crypto.randomUUID().replace(/-/g, "")}`;
    const signed = `${id}.${timestamp}.`;
    const signature = ed25519 ? `v1a,${encodeBase64(await ed25519Sign(body, key, signed))}` : `v1,${encodeBase64(await hmacSha256(body, key, signed))}`;
    return { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signature };
  }
  switch (scheme.kind) {
    case "stripe":
      return { [scheme.header]: `t=${timestamp},v1=${encodeHex(await hmacSha256(body, key, `${timestamp}.`))}` };
    case "body-hmac": {
      const digest = await hmacSha256(body, key);
      const text = scheme.signEncoding === "base64" ? encodeBase64(digest) : encodeHex(digest);
      const headers: Record<string, string> = { [scheme.header]: scheme.prefix + text };
      if (scheme.deliveryIdHeader) headers[scheme.deliveryIdHeader] = crypto.randomUUID();
      return headers;
    }
  }
}
