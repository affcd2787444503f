/**
 * How signature schemes verify and sign deliveries: the HMAC over a template of the body, a timestamp, an id or the
 * URL that most providers use (and that a scheme you describe, `hmac` or `hmac-sha256`, is), and the steps every
 * scheme shares. Each named scheme (Standard Webhooks, Stripe, GitHub, Zoom…) is its own module, `scheme-<name>.ts`,
 * which the generated `webhooks.ts` imports and passes to `createWebhookTools` only when its spec or config names it:
 * an output carries the schemes it uses. A scheme whose headers are not such an HMAC (Standard Webhooks, Stripe,
 * Twilio) brings its own `SignatureFormat`. Web Crypto only; comparisons in constant time over the decoded bytes.
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
  ed25519Sign,
  ed25519Verify,
  encodeBase64,
  encodeHex,
  hmacDigest,
  timingSafeEqual,
  toBytes,
} from "./signature.js";
import type { HashName, RawBody, SignatureKey } from "./signature.js";
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
  /** How a secret becomes key bytes when the format does not say (`SignatureFormat.key`): UTF-8, hex or base64. */
  readonly secretFormat: "utf8" | "hex" | "base64";
  /** Where the event is named when nothing else says, in order. */
  readonly eventSources: readonly WebhookEventTypeSpec[];
  /** GitHub: the event is `<X-GitHub-Event>-<action>` when the body has an `action`. */
  readonly eventWithAction: boolean;
  /** The header with the provider's delivery id, if it sends one. */
  readonly deliveryIdHeader?: string;
  /** Standard Webhooks: the header names a sender writes (`webhook-*`, or Svix's `svix-*`). */
  readonly headerPrefix?: "webhook" | "svix";
  /** The vendor's endpoint check this receiver answers (see `challengeAnswer`). */
  readonly challenge?: EndpointChallenge;
  /** The origin the sender calls, when the receiver sees another (the URL is signed: Twilio, `{url}`). */
  readonly origin?: string;
  /** How the signature headers are read and written, when they are not an HMAC over `signedContent`. */
  readonly format?: SignatureFormat;
}

/** What a named scheme's module exports, for `createWebhookTools` (the generated `webhooks.ts` passes them). */
export interface SchemePreset {
  readonly name: WebhookSchemeName;
  /** The scheme with every default filled in, from the options of `{ type: name, … }`; TypeError when unusable. */
  readonly resolve: (options: PresetOptions) => ResolvedScheme;
}

/** The options a named scheme takes besides its name (`WebhookScheme`'s object forms). */
export interface PresetOptions {
  readonly toleranceSeconds?: number;
  readonly challenge?: boolean;
  readonly origin?: string;
}

/** The values a sender signs with besides the body and the key. */
export interface SigningValues {
  readonly timestamp: string;
  readonly id: string;
  readonly url?: string;
}

/** How a scheme whose headers are not an HMAC over a template reads and writes them (Standard Webhooks, Stripe, Twilio). */
export interface SignatureFormat {
  /** Reads and checks the signature headers before the body is read (see `presentedSignature`). */
  readonly present: (scheme: ResolvedScheme, headers: Headers, context: DeliveryContext) => PresentedSignature;
  /** The bytes each candidate signature covers; default: the text around the body, with the body. */
  readonly signedMessages?: (presented: PresentedSignature, raw: Uint8Array) => Promise<Uint8Array[]>;
  /** The signature headers a sender puts on `body`. */
  readonly sign: (scheme: ResolvedScheme, body: RawBody, key: SignatureKey, values: SigningValues) => Promise<Record<string, string>>;
  /** A secret's key in the vendor's format; default: by `secretFormat`. */
  readonly key?: (scheme: ResolvedScheme, secret: string) => SignatureKey;
}

/** A vendor's endpoint check: the answer to a verified delivery that carries one, else undefined. */
export type EndpointChallenge = (payload: object, key: SignatureKey | undefined) => Promise<Readonly<Record<string, string>> | undefined>;

/** Where schemes find the event: a property of the body, or a header. */
export const eventInBody = (name: string): WebhookEventTypeSpec => ({ in: "body", name });
export const eventInHeader = (name: string): WebhookEventTypeSpec => ({ in: "header", name });
const body = eventInBody;
export const BODY_TYPE: WebhookEventTypeSpec = body("type");
export const BODY_EVENT_TYPE: WebhookEventTypeSpec = body("event_type");

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

export function tolerance(value: number | undefined): number {
  if (value === undefined) return DEFAULT_TOLERANCE_SECONDS;
  if (typeof value !== "number" || !(value > 0)) throw new TypeError("`toleranceSeconds` must be a positive number of seconds");
  return value;
}

function nonEmpty(value: unknown, what: string): string {
  if (typeof value !== "string" || value.trim() === "") throw new TypeError(`${what} must be a non-empty string`);
  return value;
}

export function originOf(value: unknown): string | undefined {
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

/** An HMAC-SHA256 of the body in hex, keyed with the secret's UTF-8 bytes, no timestamp: what presets start from. */
export const HMAC_DEFAULTS = {
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

/** A preset that signs `v0:{timestamp}:{body}` with `v0=<hex>` (Zoom, Slack), answering its vendor's endpoint check. */
export function v0Scheme(
  name: "zoom" | "slack",
  signatureHeader: string,
  timestampHeader: string,
  options: PresetOptions,
  challenge: EndpointChallenge,
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
    ...(options.challenge === false ? {} : { challenge }),
    ...extra,
  };
}

/** An HMAC-SHA256 of the body in a header (`hmac-sha256`, and presets of that form). */
export function bodyHmacSha256(name: "hmac-sha256" | "wandb", signature: WebhookSignatureSpec & { readonly header: string }): ResolvedScheme {
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

/**
 * Turns a scheme option (or the spec's signature config) into a `ResolvedScheme`, a named one by its module among
 * `presets` (the schemes this output carries); TypeError when it is unusable or not carried.
 */
export function resolveScheme(scheme: WebhookScheme, presets: readonly SchemePreset[]): ResolvedScheme {
  const config = typeof scheme === "string" ? { type: scheme } : scheme;
  if (typeof config !== "object" || config === null) throw new TypeError("`scheme` must be a scheme name or object");
  const options = config as PresetOptions & { type: string };
  if (options.type === "hmac") return describedHmac(config as HmacSchemeOptions);
  if (options.type === "hmac-sha256") return bodyHmacSha256("hmac-sha256", config as WebhookSignatureSpec & { header: string });
  const preset = presets.find((candidate) => candidate.name === options.type);
  if (preset) return preset.resolve(options);
  if ((WEBHOOK_SCHEME_NAMES as readonly string[]).includes(options.type)) {
    const carried = presets.map((candidate) => candidate.name);
    throw new TypeError(
      `The ${options.type} webhook scheme is not in this generated output (it carries ${carried.length > 0 ? carried.join(", ") : "only the schemes you describe, hmac and hmac-sha256"}): ` +
        `add it to the specforge config field \`webhooks.schemes\` (or make it the default with \`webhooks.scheme\`) and regenerate`,
    );
  }
  throw new TypeError(
    `Unknown webhook scheme ${JSON.stringify(options.type)} (one of ${[...WEBHOOK_SCHEME_NAMES].join(", ")}, or an object { type: "hmac", header, … })`,
  );
}

function decodeKey(secret: string, format: "hex" | "base64"): Uint8Array {
  const bytes = format === "hex" ? decodeHex(secret.trim()) : decodeBase64(secret.trim());
  if (bytes === null || bytes.byteLength === 0) throw new TypeError(`The webhook \`secret\` is not a key in ${format} (the scheme's \`secretEncoding\`)`);
  return bytes;
}

/**
 * The keys of the receiver's (or sender's) secrets, each in its vendor's format (the scheme's `SignatureFormat.key`:
 * Standard Webhooks' `whsec_…`), else by `secretFormat`: Stripe's `whsec_…`, GitHub's, Zoom's, Slack's, Shopify's and
 * Twilio's secrets key with their UTF-8 bytes as written; a described `hmac` scheme says how (`secretEncoding`).
 */
export function schemeKeys(scheme: ResolvedScheme, secrets: readonly string[]): SignatureKey[] {
  return secrets.map((secret): SignatureKey => {
    if (scheme.format?.key) return scheme.format.key(scheme, secret);
    return scheme.secretFormat === "utf8" ? secret : decodeKey(secret, scheme.secretFormat);
  });
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

export const reject = (reason: "missing_signature" | "bad_signature" | "bad_timestamp", message: string): WebhookVerificationError =>
  new WebhookVerificationError(reason, `Webhook rejected: ${message}`);

const DIGITS = /^\d{1,15}$/;

/** The timestamp as signed (an integer, as the providers' libraries read it), once it is within the tolerance. */
export function checkTimestamp(text: string, scheme: ResolvedScheme, nowSeconds: number): number {
  if (!DIGITS.test(text)) throw reject("bad_timestamp", "malformed signature timestamp");
  const timestamp = Number(text);
  const age = nowSeconds - timestamp;
  if (age > scheme.toleranceSeconds || (scheme.futureToo && -age > scheme.toleranceSeconds)) {
    throw reject("bad_timestamp", `signature timestamp more than ${scheme.toleranceSeconds} s from now`);
  }
  return timestamp;
}

/** A header value, or `missing_signature` when absent or blank. */
export function required(headers: Headers, name: string): string {
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
export function signedUrl(scheme: ResolvedScheme, url: string | undefined): string {
  if (url === undefined) throw new TypeError(`The ${scheme.name} scheme signs the URL the delivery was sent to: pass \`url\` with the body and headers`);
  if (!scheme.origin) return url;
  const target = new URL(url);
  return scheme.origin + target.pathname + target.search;
}

/** The signature digest after the scheme's prefix, decoded; `bad_signature` when it is not one. */
export function presentedDigest(scheme: ResolvedScheme, value: string): Uint8Array {
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
  if (scheme.format) return scheme.format.present(scheme, headers, context);
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

/** The distinct names of form parameters, in order (`forEach`: the web worker lib types no iterators on them). */
export function formNames(params: URLSearchParams): string[] {
  const names = new Set<string>();
  params.forEach((_value, name) => names.add(name));
  return [...names];
}

/** The bytes each candidate signature covers: the signed text around the body, unless the format says otherwise. */
function signedMessages(scheme: ResolvedScheme, presented: PresentedSignature, raw: Uint8Array): Promise<Uint8Array[]> {
  if (scheme.format?.signedMessages) return scheme.format.signedMessages(presented, raw);
  return Promise.resolve(presented.around.map(({ before, after }) => concatBytes([before, raw, after])));
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
 * The answer to a vendor's endpoint check (Zoom's `endpoint.url_validation`, Slack's `url_verification`), once the
 * delivery carrying it verified; undefined for any other delivery.
 */
export async function challengeAnswer(
  scheme: ResolvedScheme,
  payload: unknown,
  key: SignatureKey | undefined,
): Promise<Readonly<Record<string, string>> | undefined> {
  if (!scheme.challenge || typeof payload !== "object" || payload === null) return undefined;
  return scheme.challenge(payload, key);
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

/** A digest as the scheme writes it. */
export function encodeDigest(digest: Uint8Array, encoding: SignatureEncoding): string {
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
  if (typeof key === "object" && "ed25519" in key && key.ed25519 === "public") {
    throw new TypeError("A public key (`whpk_…`) verifies deliveries; signing one needs the secret key (`whsk_…`)");
  }
  if (scheme.format) return scheme.format.sign(scheme, body, key, { timestamp, id, ...(options.url !== undefined ? { url: options.url } : {}) });
  if (typeof key === "object" && "ed25519" in key) throw new TypeError(`The ${scheme.name} scheme signs with an HMAC key, not an Ed25519 key`);
  const headers: Record<string, string> = {};
  if (scheme.timestampHeader) headers[scheme.timestampHeader] = timestamp;
  if (scheme.idHeader) headers[scheme.idHeader] = id;
  else if (scheme.deliveryIdHeader) headers[scheme.deliveryIdHeader] = crypto.randomUUID();
  const url = usesPlaceholder(scheme, "url") ? signedUrl(scheme, options.url) : "";
  const around = aroundBody(scheme, { timestamp, id, url });
  headers[scheme.header] = scheme.prefix + encodeDigest(await hmacDigest(concatBytes([around.before, body, around.after]), key, scheme.hash), scheme.signEncoding);
  return headers;
}
