/**
 * The signature schemes: how each provider signs a delivery, where it names the event, and how a sender (or
 * `specforge webhook test`) signs one. Every preset but Standard Webhooks and Stripe is an HMAC over a template of the
 * body, a timestamp, an id or the URL, so one path verifies them all. Web Crypto only; comparisons in constant time
 * over the decoded bytes.
 */
import { WebhookVerificationError } from "./errors.js";
import {
  acceptedEncodings,
  assertSupportedSignature,
  concatBytes,
  decodeBase64,
  decodeDigest,
  decodeHex,
  DIGEST_BYTES_OF,
  ED25519_SIGNATURE_BYTES,
  ed25519Sign,
  ed25519Verify,
  encodeBase64,
  encodeHex,
  hmacDigest,
  sha256Hex,
  timingSafeEqual,
  toBytes,
} from "./signature.js";
import type { HashName, HmacSecret, RawBody, SignatureKey } from "./signature.js";
import { WEBHOOK_SCHEME_NAMES } from "./types.js";
import type {
  HmacAlgorithm,
  HmacSchemeOptions,
  SignatureEncoding,
  WebhookEventTypeSpec,
  WebhookScheme,
  WebhookSchemeName,
  WebhookSignatureSpec,
} from "./types.js";

/** Seconds a timestamped delivery may be off: the default of Standard Webhooks, Stripe, Slack and others. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const STANDARD_SECRET_PREFIX = "whsec_";
const STANDARD_PUBLIC_KEY_PREFIX = "whpk_";
const STANDARD_SECRET_KEY_PREFIX = "whsk_";
const ED25519_KEY_BYTES = 32;
const SHA256_BYTES = 32;

/** A piece of an HMAC scheme's signed content: literal text, or what a placeholder stands for. */
type SignedPart = string | { readonly placeholder: "body" | "timestamp" | "id" | "url" };

/** A scheme with every default filled in. */
export interface ResolvedScheme {
  /** The preset's name, or `hmac` / `hmac-sha256` for a signature you describe: used in messages. */
  readonly name: WebhookSchemeName | "hmac" | "hmac-sha256";
  readonly kind: "standard-webhooks" | "stripe" | "hmac" | "twilio";
  /** The header carrying the signature. */
  readonly header: string;
  /** hmac: text before the digest (`sha256=`, `v0=`), compared case-insensitively. */
  readonly prefix: string;
  /** hmac, twilio: the encodings accepted when verifying. */
  readonly encodings: readonly SignatureEncoding[];
  /** hmac, twilio: the encoding used when signing. */
  readonly signEncoding: SignatureEncoding;
  readonly hash: HashName;
  /** hmac: what is signed, `{body}` among the rest. */
  readonly signedContent: readonly SignedPart[];
  readonly timestampHeader?: string;
  readonly idHeader?: string;
  /** Timestamped schemes: seconds a delivery may be off. */
  readonly toleranceSeconds: number;
  /** Timestamped schemes: a timestamp that far ahead is refused too (all but Stripe). */
  readonly futureToo: boolean;
  /** How a secret becomes key bytes: Standard Webhooks' `whsec_` (and Ed25519) keys, UTF-8, hex or base64. */
  readonly secretFormat: "standard" | "utf8" | "hex" | "base64";
  /** Where the event is named when nothing else says, in order. */
  readonly eventSources: readonly WebhookEventTypeSpec[];
  /** GitHub: the event is `<X-GitHub-Event>-<action>` when the body has an `action`. */
  readonly eventWithAction: boolean;
  /** The header with the provider's delivery id, if it sends one. */
  readonly deliveryIdHeader?: string;
  /** Standard Webhooks: the header names a sender writes (`webhook-*`, or Svix's `svix-*`). */
  readonly headerPrefix?: "webhook" | "svix";
  /** The vendor's endpoint check this receiver answers. */
  readonly challenge?: "zoom" | "slack";
  /** The origin the sender calls, when the receiver sees another (the URL is signed: Twilio, `{url}`). */
  readonly origin?: string;
}

const body = (name: string): WebhookEventTypeSpec => ({ in: "body", name });
const header = (name: string): WebhookEventTypeSpec => ({ in: "header", name });
const BODY_TYPE = body("type");
const BODY_EVENT_TYPE = body("event_type");

const HASHES: Readonly<Record<HmacAlgorithm, HashName>> = { sha1: "SHA-1", sha256: "SHA-256", sha512: "SHA-512" };
const PLACEHOLDER = /\{([A-Za-z_]+)\}/g;
const PLACEHOLDERS = ["body", "timestamp", "id", "url"];

/** `v0:{timestamp}:{body}` as parts; TypeError for an unknown placeholder or a `{body}` that is not there once. */
function parseSignedContent(template: string): SignedPart[] {
  if (typeof template !== "string") throw new TypeError("`signedContent` must be a template string like \"{timestamp}.{body}\"");
  const parts: SignedPart[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1]!;
    if (!PLACEHOLDERS.includes(name)) {
      throw new TypeError(`\`signedContent\` has an unknown placeholder {${name}} (the placeholders are {body}, {timestamp}, {id} and {url})`);
    }
    if (match.index > last) parts.push(template.slice(last, match.index));
    parts.push({ placeholder: name as "body" });
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push(template.slice(last));
  if (parts.filter((part) => typeof part !== "string" && part.placeholder === "body").length !== 1) {
    throw new TypeError("`signedContent` must contain {body} exactly once: a signature that does not cover the body proves nothing about it");
  }
  return parts;
}

function usesPlaceholder(scheme: Pick<ResolvedScheme, "signedContent">, name: string): boolean {
  return scheme.signedContent.some((part) => typeof part !== "string" && part.placeholder === name);
}

function tolerance(value: number | undefined): number {
  if (value === undefined) return DEFAULT_TOLERANCE_SECONDS;
  if (typeof value !== "number" || !(value > 0)) throw new TypeError("`toleranceSeconds` must be a positive number of seconds");
  return value;
}

function nonEmpty(value: unknown, what: string): string {
  if (typeof value !== "string" || value.trim() === "") throw new TypeError(`${what} must be a non-empty string`);
  return value;
}

function originOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(String(value));
  } catch {
    url = undefined;
  }
  if (!url || url.origin !== value || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new TypeError(`\`origin\` must be an origin like "https://hooks.example.com" (scheme, host and port only), got ${JSON.stringify(value)}`);
  }
  return url.origin;
}

const HMAC_DEFAULTS = {
  prefix: "",
  encodings: ["hex"] as readonly SignatureEncoding[],
  signEncoding: "hex" as SignatureEncoding,
  hash: "SHA-256" as HashName,
  signedContent: [{ placeholder: "body" }] as readonly SignedPart[],
  toleranceSeconds: 0,
  futureToo: true,
  secretFormat: "utf8" as const,
  eventWithAction: false,
};

/** A preset that signs `v0:{timestamp}:{body}` with `v0=<hex>` (Zoom, Slack). */
function v0Scheme(
  name: "zoom" | "slack",
  signatureHeader: string,
  timestampHeader: string,
  options: { toleranceSeconds?: number; challenge?: boolean },
  extra: Partial<ResolvedScheme>,
): ResolvedScheme {
  return {
    ...HMAC_DEFAULTS,
    name,
    kind: "hmac",
    header: signatureHeader,
    prefix: "v0=",
    signedContent: ["v0:", { placeholder: "timestamp" }, ":", { placeholder: "body" }],
    timestampHeader,
    toleranceSeconds: tolerance(options.toleranceSeconds),
    eventSources: [],
    ...(options.challenge === false ? {} : { challenge: name }),
    ...extra,
  };
}

function bodyHmacSha256(name: "hmac-sha256" | "wandb", signature: WebhookSignatureSpec & { readonly header: string }): ResolvedScheme {
  assertSupportedSignature(signature);
  return {
    ...HMAC_DEFAULTS,
    name,
    kind: "hmac",
    header: nonEmpty(signature.header, "The `header` of an hmac-sha256 webhook scheme"),
    prefix: signature.prefix ?? "",
    encodings: acceptedEncodings(signature),
    signEncoding: signature.encoding ?? "hex",
    eventSources: name === "wandb" ? [BODY_EVENT_TYPE] : [BODY_TYPE, body("event"), BODY_EVENT_TYPE],
  };
}

function describedHmac(options: HmacSchemeOptions): ResolvedScheme {
  const hash = HASHES[options.algorithm ?? "sha256"];
  if (!hash) throw new TypeError(`Unsupported \`algorithm\` ${JSON.stringify(options.algorithm)} (sha1, sha256 or sha512)`);
  const encoding = options.encoding ?? "hex";
  if (encoding !== "hex" && encoding !== "base64") throw new TypeError(`Unsupported \`encoding\` ${JSON.stringify(encoding)} (hex or base64)`);
  const secretFormat = options.secretEncoding ?? "utf8";
  if (!["utf8", "hex", "base64"].includes(secretFormat)) throw new TypeError(`Unsupported \`secretEncoding\` ${JSON.stringify(secretFormat)} (utf8, hex or base64)`);
  const signedContent = parseSignedContent(options.signedContent ?? "{body}");
  const scheme: ResolvedScheme = {
    ...HMAC_DEFAULTS,
    name: "hmac",
    kind: "hmac",
    header: nonEmpty(options.header, "The `header` of an hmac webhook scheme"),
    prefix: options.prefix ?? "",
    encodings: [encoding],
    signEncoding: encoding,
    hash,
    signedContent,
    ...(options.timestampHeader !== undefined ? { timestampHeader: nonEmpty(options.timestampHeader, "`timestampHeader`") } : {}),
    ...(options.idHeader !== undefined ? { idHeader: nonEmpty(options.idHeader, "`idHeader`"), deliveryIdHeader: options.idHeader } : {}),
    toleranceSeconds: options.timestampHeader !== undefined ? tolerance(options.toleranceSeconds) : 0,
    secretFormat: secretFormat as ResolvedScheme["secretFormat"],
    eventSources: [BODY_TYPE, body("event"), BODY_EVENT_TYPE],
    ...(options.origin !== undefined ? { origin: originOf(options.origin) } : {}),
  };
  if (usesPlaceholder(scheme, "timestamp") && !scheme.timestampHeader) throw new TypeError("`signedContent` has {timestamp}: name the header that carries it (`timestampHeader`)");
  if (usesPlaceholder(scheme, "id") && !scheme.idHeader) throw new TypeError("`signedContent` has {id}: name the header that carries it (`idHeader`)");
  return scheme;
}

/** Turns a scheme option (or the spec's signature config) into a `ResolvedScheme`; TypeError when it is unusable. */
export function resolveScheme(scheme: WebhookScheme): ResolvedScheme {
  const config = typeof scheme === "string" ? { type: scheme } : scheme;
  if (typeof config !== "object" || config === null) throw new TypeError("`scheme` must be a scheme name or object");
  const options = config as { type: string; toleranceSeconds?: number; challenge?: boolean; origin?: string };
  switch (options.type) {
    case "standard-webhooks":
    case "svix":
      return {
        ...HMAC_DEFAULTS,
        name: options.type,
        kind: "standard-webhooks",
        header: `${options.type === "svix" ? "svix" : "webhook"}-signature`,
        encodings: ["base64"],
        signEncoding: "base64",
        toleranceSeconds: tolerance(options.toleranceSeconds),
        secretFormat: "standard",
        eventSources: [BODY_TYPE],
        deliveryIdHeader: "webhook-id",
        headerPrefix: options.type === "svix" ? "svix" : "webhook",
      };
    case "stripe":
      return {
        ...HMAC_DEFAULTS,
        name: "stripe",
        kind: "stripe",
        header: "Stripe-Signature",
        toleranceSeconds: tolerance(options.toleranceSeconds),
        futureToo: false,
        eventSources: [BODY_TYPE],
      };
    case "github":
      return {
        ...HMAC_DEFAULTS,
        name: "github",
        kind: "hmac",
        header: "X-Hub-Signature-256",
        prefix: "sha256=",
        eventSources: [header("X-GitHub-Event")],
        eventWithAction: true,
        deliveryIdHeader: "X-GitHub-Delivery",
      };
    // https://developers.zoom.us/docs/api/webhooks/#verify-webhook-events
    case "zoom":
      return v0Scheme("zoom", "x-zm-signature", "x-zm-request-timestamp", options, { eventSources: [body("event")], deliveryIdHeader: "x-zm-trackingid" });
    // https://api.slack.com/authentication/verifying-requests-from-slack
    case "slack":
      return v0Scheme("slack", "X-Slack-Signature", "X-Slack-Request-Timestamp", options, {
        eventSources: [BODY_TYPE, { in: "body", name: "event", property: "type" }],
      });
    // https://shopify.dev/docs/apps/build/webhooks/subscribe/https#step-5-verify-the-webhook
    case "shopify":
      return {
        ...HMAC_DEFAULTS,
        name: "shopify",
        kind: "hmac",
        header: "X-Shopify-Hmac-Sha256",
        encodings: ["base64"],
        signEncoding: "base64",
        eventSources: [header("X-Shopify-Topic")],
        deliveryIdHeader: "X-Shopify-Webhook-Id",
      };
    // https://www.twilio.com/docs/usage/webhooks/webhooks-security#validating-signatures-from-twilio
    case "twilio":
      return {
        ...HMAC_DEFAULTS,
        name: "twilio",
        kind: "twilio",
        header: "X-Twilio-Signature",
        encodings: ["base64"],
        signEncoding: "base64",
        hash: "SHA-1",
        eventSources: [BODY_TYPE, BODY_EVENT_TYPE],
        deliveryIdHeader: "I-Twilio-Idempotency-Token",
        ...(options.origin !== undefined ? { origin: originOf(options.origin) } : {}),
      };
    case "wandb":
      return bodyHmacSha256("wandb", { header: "X-Wandb-Signature", encoding: "hex", acceptEncodings: ["hex", "base64"] });
    case "hmac":
      return describedHmac(config as HmacSchemeOptions);
    case "hmac-sha256":
      return bodyHmacSha256("hmac-sha256", config as WebhookSignatureSpec & { header: string });
    default:
      throw new TypeError(
        `Unknown webhook scheme ${JSON.stringify(options.type)} (one of ${[...WEBHOOK_SCHEME_NAMES].join(", ")}, or an object { type: "hmac", header, … })`,
      );
  }
}

function decodeKey(secret: string, format: "hex" | "base64"): Uint8Array {
  const bytes = format === "hex" ? decodeHex(secret.trim()) : decodeBase64(secret.trim());
  if (bytes === null || bytes.byteLength === 0) throw new TypeError(`The webhook \`secret\` is not a key in ${format} (the scheme's \`secretEncoding\`)`);
  return bytes;
}

/**
 * The keys of the receiver's (or sender's) secrets, each in its vendor's format. Standard Webhooks (and Svix) secrets
 * are `whsec_` + base64 of the HMAC key bytes (the prefix is optional, as in the `standardwebhooks` package), or an
 * Ed25519 key of its asymmetric `v1a` signatures: `whpk_` + base64 of a public key (what a receiver holds), `whsk_` +
 * base64 of a secret key (what a sender holds). Stripe's `whsec_…`, GitHub's, Zoom's, Slack's, Shopify's and Twilio's
 * secrets key with their UTF-8 bytes as written; a described `hmac` scheme says how (`secretEncoding`).
 */
export function schemeKeys(scheme: ResolvedScheme, secrets: readonly string[]): SignatureKey[] {
  return secrets.map((secret): SignatureKey => {
    switch (scheme.secretFormat) {
      case "utf8":
        return secret;
      case "hex":
      case "base64":
        return decodeKey(secret, scheme.secretFormat);
      case "standard":
        return standardKey(secret, scheme.name === "svix");
    }
  });
}

function standardKey(secret: string, svix: boolean): SignatureKey {
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

/** What the signature headers say, read before the body arrives. */
export interface PresentedSignature {
  /** The signed text around the body: `id.timestamp.` (Standard Webhooks), `v0:timestamp:` (Zoom, Slack), …; Twilio: the URL. */
  readonly around: readonly { readonly before: string; readonly after: string }[];
  /** The digests presented, decoded (several during key rotation). */
  readonly digests: readonly Uint8Array[];
  /** Standard Webhooks: the Ed25519 (`v1a`) signatures presented, decoded. */
  readonly asymmetric?: readonly Uint8Array[];
  /** The signed message id (Standard Webhooks, a described scheme's `{id}`). */
  readonly messageId?: string;
  /** Twilio: the body's form parameters are signed after the URL (not a JSON body, whose hash is in the URL). */
  readonly twilioParams?: boolean;
}

/** What a delivery is verified against besides its headers. */
export interface DeliveryContext {
  readonly nowSeconds: number;
  /** The URL the delivery was sent to, as the receiver sees it. */
  readonly url?: string;
}

const reject = (reason: "missing_signature" | "bad_signature" | "bad_timestamp", message: string) =>
  new WebhookVerificationError(reason, `Webhook rejected: ${message}`);

const DIGITS = /^\d{1,15}$/;

/** The timestamp as signed (an integer, as the providers' libraries read it), once it is within the tolerance. */
function checkTimestamp(text: string, scheme: ResolvedScheme, nowSeconds: number): number {
  if (!DIGITS.test(text)) throw reject("bad_timestamp", "malformed signature timestamp");
  const timestamp = Number(text);
  const age = nowSeconds - timestamp;
  if (age > scheme.toleranceSeconds || (scheme.futureToo && -age > scheme.toleranceSeconds)) {
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

/** The signed content's text before and after `{body}`, its other placeholders filled in. */
function aroundBody(scheme: ResolvedScheme, values: Readonly<Record<string, string>>): { before: string; after: string } {
  const index = scheme.signedContent.findIndex((part) => typeof part !== "string" && part.placeholder === "body");
  const text = (parts: readonly SignedPart[]) => parts.map((part) => (typeof part === "string" ? part : values[part.placeholder]!)).join("");
  return { before: text(scheme.signedContent.slice(0, index)), after: text(scheme.signedContent.slice(index + 1)) };
}

/** The URL a signature covers: the delivery's, on the sender's origin when the receiver is told it (a proxy). */
function signedUrl(scheme: ResolvedScheme, url: string | undefined): string {
  if (url === undefined) throw new TypeError(`The ${scheme.name} scheme signs the URL the delivery was sent to: pass \`url\` with the body and headers`);
  if (!scheme.origin) return url;
  const target = new URL(url);
  return scheme.origin + target.pathname + target.search;
}

/** The URL as written, without its port and with the default one: Twilio's library accepts either form. */
function portForms(url: string): string[] {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is.exec(url);
  if (!match) return [url];
  const [, scheme, authority, rest] = match as unknown as [string, string, string, string];
  const host = authority.replace(/:\d*$/, "");
  const port = scheme.toLowerCase() === "https://" ? ":443" : ":80";
  return [...new Set([url, scheme + host + rest, scheme + host + port + rest])];
}

/** The signature digest after the scheme's prefix, decoded; `bad_signature` when it is not one. */
function presentedDigest(scheme: ResolvedScheme, value: string): Uint8Array {
  let text = value;
  if (scheme.prefix) {
    if (text.slice(0, scheme.prefix.length).toLowerCase() !== scheme.prefix.toLowerCase()) {
      throw reject("bad_signature", `${scheme.header} does not start with ${scheme.prefix}`);
    }
    text = text.slice(scheme.prefix.length).trim();
  }
  const digest = decodeDigest(text, scheme.encodings, DIGEST_BYTES_OF[scheme.hash]);
  if (!digest) throw reject("bad_signature", `${scheme.header} is not a ${scheme.hash} digest in ${scheme.encodings.join(" or ")}`);
  return digest;
}

/**
 * Reads and checks the signature headers (presence, form, timestamp tolerance) without the body: a delivery that
 * cannot verify is refused before its body is read. Throws `WebhookVerificationError`.
 */
export function presentedSignature(scheme: ResolvedScheme, headers: Headers, context: DeliveryContext): PresentedSignature {
  switch (scheme.kind) {
    case "standard-webhooks": {
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
    }
    case "stripe": {
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
    }
    case "hmac": {
      const digest = presentedDigest(scheme, required(headers, scheme.header));
      const values: Record<string, string> = {};
      if (scheme.timestampHeader) values.timestamp = String(checkTimestamp(required(headers, scheme.timestampHeader), scheme, context.nowSeconds));
      if (scheme.idHeader && usesPlaceholder(scheme, "id")) values.id = required(headers, scheme.idHeader);
      if (usesPlaceholder(scheme, "url")) values.url = signedUrl(scheme, context.url);
      return {
        around: [aroundBody(scheme, values)],
        digests: [digest],
        ...(values.id !== undefined ? { messageId: values.id } : {}),
      };
    }
    case "twilio": {
      const digest = presentedDigest(scheme, required(headers, scheme.header));
      const url = signedUrl(scheme, context.url);
      const json = new URL(url).searchParams.has("bodySHA256");
      return { around: portForms(url).map((before) => ({ before, after: "" })), digests: [digest], twilioParams: !json };
    }
  }
}

/** The distinct names of form parameters, in order (`forEach`: the web worker lib types no iterators on them). */
export function formNames(params: URLSearchParams): string[] {
  const names = new Set<string>();
  params.forEach((_value, name) => names.add(name));
  return [...names];
}

/** Twilio's signed form parameters: each name then its value, by name (a repeated name's values sorted). */
function twilioParams(raw: Uint8Array): string {
  const params = new URLSearchParams(new TextDecoder().decode(raw));
  const names = formNames(params).sort();
  return names.map((name) => [...new Set(params.getAll(name))].sort().map((value) => name + value).join("")).join("");
}

/** The bytes each candidate signature covers (Twilio: several forms of the URL). Empty when none can match. */
async function signedMessages(scheme: ResolvedScheme, presented: PresentedSignature, raw: Uint8Array): Promise<Uint8Array[]> {
  if (scheme.kind !== "twilio") return presented.around.map(({ before, after }) => concatBytes([before, raw, after]));
  if (presented.twilioParams) {
    const params = twilioParams(raw);
    return presented.around.map(({ before }) => toBytes(before + params));
  }
  // A JSON body is covered by its hash in the signed URL's `bodySHA256`.
  const expected = new URL(presented.around[0]!.before).searchParams.get("bodySHA256") ?? "";
  const actual = await sha256Hex(raw);
  return timingSafeEqual(toBytes(expected.toLowerCase()), toBytes(actual)) ? presented.around.map(({ before }) => toBytes(before)) : [];
}

/** The key that verified a delivery, and the digest it matched (hex: a replay key). */
export interface SignatureMatch {
  readonly key: SignatureKey;
  readonly digest: string;
}

/**
 * The expected digest of the signed bytes under each key, compared with every presented digest in constant time; an
 * Ed25519 public key verifies the presented `v1a` signatures (a secret key signs and compares, as an HMAC key does).
 * Returns the key that matched and its digest, or undefined when none matches.
 */
export async function matchSignature(
  scheme: ResolvedScheme,
  presented: PresentedSignature,
  body: RawBody,
  keys: readonly SignatureKey[],
): Promise<SignatureMatch | undefined> {
  const raw = toBytes(body);
  const messages = await signedMessages(scheme, presented, raw);
  for (const key of keys) {
    if (typeof key === "object" && "ed25519" in key) {
      const { before } = presented.around[0]!;
      for (const signature of presented.asymmetric ?? []) {
        const valid =
          key.ed25519 === "public"
            ? await ed25519Verify(raw, key, signature, before)
            : timingSafeEqual(signature, await ed25519Sign(raw, key, before));
        if (valid) return { key, digest: encodeHex(signature) };
      }
      continue;
    }
    for (const message of messages) {
      const expected = await hmacDigest(message, key, scheme.hash);
      let matched = false;
      // Every presented digest is compared (no early exit): the time does not say which one matched.
      for (const digest of presented.digests) matched = timingSafeEqual(digest, expected) || matched;
      if (matched) return { key, digest: encodeHex(expected) };
    }
  }
  return undefined;
}

/**
 * The answer to a vendor's endpoint check, once the delivery carrying it verified: Zoom's `endpoint.url_validation`
 * gets `{ plainToken, encryptedToken }` (the hex HMAC-SHA256 of the token with the secret,
 * https://developers.zoom.us/docs/api/webhooks/#validate-your-webhook-endpoint), Slack's `url_verification` gets
 * `{ challenge }` (https://api.slack.com/events/url_verification). Undefined for any other delivery.
 */
export async function challengeAnswer(
  scheme: ResolvedScheme,
  payload: unknown,
  key: SignatureKey | undefined,
): Promise<Readonly<Record<string, string>> | undefined> {
  if (!scheme.challenge || typeof payload !== "object" || payload === null) return undefined;
  const message = payload as { event?: unknown; type?: unknown; challenge?: unknown; payload?: { plainToken?: unknown } };
  if (scheme.challenge === "slack") {
    return message.type === "url_verification" && typeof message.challenge === "string" ? { challenge: message.challenge } : undefined;
  }
  const plainToken = message.payload?.plainToken;
  if (message.event !== "endpoint.url_validation" || typeof plainToken !== "string" || typeof key !== "string") return undefined;
  return { plainToken, encryptedToken: encodeHex(await hmacDigest(toBytes(plainToken), key)) };
}

/** Options of `signDelivery`. */
export interface SignDeliveryOptions {
  /** Standard Webhooks, Svix, `{id}`: the message id (default: a random `msg_…`). */
  readonly id?: string;
  /** Timestamped schemes: the signing time in Unix seconds (default: now). */
  readonly timestamp?: number;
  /**
   * The URL the delivery is sent to: Twilio and `{url}` sign it. Twilio: a JSON body's URL carries its hash as
   * `bodySHA256` (see `twilioJsonUrl`); a form body (`application/x-www-form-urlencoded`) is signed by its parameters.
   */
  readonly url?: string;
}

/** Twilio's URL for a JSON body: `bodySHA256=<hex SHA-256 of the body>` added to the query. */
export async function twilioJsonUrl(url: string, body: RawBody): Promise<string> {
  const target = new URL(url);
  target.searchParams.set("bodySHA256", await sha256Hex(body));
  return target.href;
}

function encodeDigest(digest: Uint8Array, encoding: SignatureEncoding): string {
  return encoding === "base64" ? encodeBase64(digest) : encodeHex(digest);
}

/** The signature headers a sender puts on `body` under `scheme`, signed with `key`. */
export async function signDelivery(
  scheme: ResolvedScheme,
  body: RawBody,
  key: SignatureKey,
  options: SignDeliveryOptions = {},
): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(options.timestamp ?? Date.now() / 1000));
  const id = options.id ?? `msg_${crypto.randomUUID().replace(/-/g, "")}`;
  const ed25519 = typeof key === "object" && "ed25519" in key;
  if (ed25519 && key.ed25519 === "public") throw new TypeError("A public key (`whpk_…`) verifies deliveries; signing one needs the secret key (`whsk_…`)");
  const sign = (around: { before: string; after: string }) => hmacDigest(concatBytes([around.before, body, around.after]), key as HmacSecret, scheme.hash);
  switch (scheme.kind) {
    case "standard-webhooks": {
      const before = `${id}.${timestamp}.`;
      const signature = ed25519
        ? `v1a,${encodeBase64(await ed25519Sign(body, key, before))}`
        : `v1,${encodeBase64(await sign({ before, after: "" }))}`;
      const names = scheme.headerPrefix ?? "webhook";
      return { [`${names}-id`]: id, [`${names}-timestamp`]: timestamp, [`${names}-signature`]: signature };
    }
    case "stripe":
      return { [scheme.header]: `t=${timestamp},v1=${encodeHex(await sign({ before: `${timestamp}.`, after: "" }))}` };
    case "hmac": {
      const headers: Record<string, string> = {};
      if (scheme.timestampHeader) headers[scheme.timestampHeader] = timestamp;
      if (scheme.idHeader) headers[scheme.idHeader] = id;
      else if (scheme.deliveryIdHeader) headers[scheme.deliveryIdHeader] = crypto.randomUUID();
      const url = usesPlaceholder(scheme, "url") ? signedUrl(scheme, options.url) : "";
      headers[scheme.header] = scheme.prefix + encodeDigest(await sign(aroundBody(scheme, { timestamp, id, url })), scheme.signEncoding);
      return headers;
    }
    case "twilio": {
      const url = signedUrl(scheme, options.url);
      const json = new URL(url).searchParams.has("bodySHA256");
      const message = json ? url : url + twilioParams(toBytes(body));
      return { [scheme.header]: encodeDigest(await hmacDigest(toBytes(message), key as HmacSecret, scheme.hash), scheme.signEncoding) };
    }
  }
}
