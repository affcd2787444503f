import type { SignatureEncoding, WebhookSignatureSpec } from "./types.js";

/** A raw request body: the exact bytes that were signed. Strings are encoded as UTF-8. */
export type RawBody = string | ArrayBuffer | Uint8Array;

const DIGEST_BYTES = 32; // SHA-256
const encoder = new TextEncoder();

type CryptoKeyOf = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/** HMAC key material: a secret string (its UTF-8 bytes) or raw key bytes (Standard Webhooks' decoded `whsec_`). */
export type HmacSecret = string | Uint8Array;

// Importing a key costs more than the HMAC (or Ed25519 check) of a small body; senders reuse one secret,
// so a handful of cached keys is enough. Insertion order = age (oldest evicted first).
const KEY_CACHE_SIZE = 16;
const keyCache = new Map<string, Promise<CryptoKeyOf>>();

/** The imported key under `cacheKey` (one namespace per kind of key material), importing it on first use. */
function cachedKey(cacheKey: string, importKey: () => Promise<CryptoKeyOf>): Promise<CryptoKeyOf> {
  let key = keyCache.get(cacheKey);
  if (key === undefined) {
    if (keyCache.size >= KEY_CACHE_SIZE) {
      const oldest = keyCache.keys().next();
      if (!oldest.done) keyCache.delete(oldest.value);
    }
    key = importKey();
    keyCache.set(cacheKey, key);
    key.catch(() => keyCache.delete(cacheKey));
  }
  return key;
}

/** The hashes of the HMAC schemes, as Web Crypto names them. */
export type HashName = "SHA-1" | "SHA-256" | "SHA-512";

/** Bytes of each hash's digest. */
export const DIGEST_BYTES_OF: Readonly<Record<HashName, number>> = { "SHA-1": 20, "SHA-256": 32, "SHA-512": 64 };

function hmacKey(secret: HmacSecret, hash: HashName): Promise<CryptoKeyOf> {
  // The string "ab" and the bytes 0xab are different keys; so are one key's SHA-1 and SHA-256 imports.
  return cachedKey(hash + (typeof secret === "string" ? "s" + secret : "b" + encodeHex(secret)), () => {
    const bytes = typeof secret === "string" ? encoder.encode(secret) : secret;
    return crypto.subtle.importKey("raw", toArrayBuffer(bytes), { name: "HMAC", hash }, false, ["sign"]);
  });
}

/** Copies only when needed: Web Crypto wants an ArrayBuffer-backed, exact view. */
export function toBytes(raw: RawBody): Uint8Array {
  if (typeof raw === "string") return encoder.encode(raw);
  if (raw instanceof Uint8Array) return raw;
  if (raw instanceof ArrayBuffer) return new Uint8Array(raw);
  throw new TypeError("Webhook body must be a string, ArrayBuffer or Uint8Array");
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  // The casts keep this compiling with both older (non-generic) and newer TypedArray typings.
  const buffer = bytes.buffer as ArrayBuffer;
  if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength) return buffer;
  // Not `bytes.slice()`: on a Node Buffer that is a view into the shared pool, not a copy.
  return new Uint8Array(bytes).buffer as ArrayBuffer;
}

/** The parts one after the other, text as UTF-8: what a scheme signs (`v0:` + timestamp + `:` + the body's bytes). */
export function concatBytes(parts: readonly RawBody[]): Uint8Array {
  const bytes = parts.map(toBytes);
  if (bytes.length === 1) return bytes[0]!;
  const joined = new Uint8Array(bytes.reduce((total, part) => total + part.byteLength, 0));
  let offset = 0;
  for (const part of bytes) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
}

/** The signed bytes: `prefix` (the `id.timestamp.` of the timestamped schemes), then the body. */
function signedBytes(raw: RawBody, prefix: string | undefined): Uint8Array {
  return prefix ? concatBytes([prefix, raw]) : toBytes(raw);
}

/** The HMAC of `message` keyed with `secret`. */
export async function hmacDigest(message: Uint8Array, secret: HmacSecret, hash: HashName = "SHA-256"): Promise<Uint8Array> {
  const key = await hmacKey(secret, hash);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, toArrayBuffer(message)));
}

/**
 * HMAC-SHA256 of `raw` (after `prefix`, when given: the `id.timestamp.` of the timestamped schemes) keyed with
 * `secret`.
 */
export function hmacSha256(raw: RawBody, secret: HmacSecret, prefix?: string): Promise<Uint8Array> {
  return hmacDigest(signedBytes(raw, prefix), secret);
}

/** The SHA-256 of `raw`, in lowercase hex (Twilio's `bodySHA256`). */
export async function sha256Hex(raw: RawBody): Promise<string> {
  return encodeHex(new Uint8Array(await crypto.subtle.digest("SHA-256", toArrayBuffer(toBytes(raw)))));
}

/** An unusable secret: not a string, empty, or only whitespace (an environment variable set to " "). */
export function isBlankSecret(secret: unknown): boolean {
  return typeof secret !== "string" || secret.trim() === "";
}

/**
 * An Ed25519 key of Standard Webhooks' asymmetric (`v1a`) signatures: a receiver's public key (`whpk_` + base64 of
 * its 32 bytes), or a sender's secret key (`whsk_` + base64 of the 32-byte seed, or of seed + public key as
 * libsodium writes it).
 */
export type Ed25519Key = { readonly ed25519: "public"; readonly bytes: Uint8Array } | { readonly ed25519: "secret"; readonly seed: Uint8Array };

/** Key material of a scheme: an HMAC secret, or an Ed25519 key (Standard Webhooks `v1a`). */
export type SignatureKey = HmacSecret | Ed25519Key;

export const ED25519_SIGNATURE_BYTES = 64;
const ED25519 = { name: "Ed25519" } as const;
// PKCS #8 wrapping of a 32-byte Ed25519 seed (RFC 8410): Web Crypto imports a secret key only in this form or JWK.
const ED25519_PKCS8_HEAD = new Uint8Array([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]);

function ed25519Key(key: Ed25519Key): Promise<CryptoKeyOf> {
  if (key.ed25519 === "public") return cachedKey("p" + encodeHex(key.bytes), () => crypto.subtle.importKey("raw", toArrayBuffer(key.bytes), ED25519, false, ["verify"]));
  return cachedKey("k" + encodeHex(key.seed), () => {
    const pkcs8 = new Uint8Array(ED25519_PKCS8_HEAD.byteLength + key.seed.byteLength);
    pkcs8.set(ED25519_PKCS8_HEAD, 0);
    pkcs8.set(key.seed, ED25519_PKCS8_HEAD.byteLength);
    return crypto.subtle.importKey("pkcs8", toArrayBuffer(pkcs8), ED25519, false, ["sign"]);
  });
}

/** The Ed25519 signature of `prefix` + `raw` under a secret key (deterministic: the same bytes sign the same). */
export async function ed25519Sign(raw: RawBody, key: Ed25519Key & { ed25519: "secret" }, prefix?: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign(ED25519, await ed25519Key(key), toArrayBuffer(signedBytes(raw, prefix))));
}

/** Whether `signature` is an Ed25519 signature of `prefix` + `raw` by the holder of the public key. */
export async function ed25519Verify(raw: RawBody, key: Ed25519Key & { ed25519: "public" }, signature: Uint8Array, prefix?: string): Promise<boolean> {
  return crypto.subtle.verify(ED25519, await ed25519Key(key), toArrayBuffer(signature), toArrayBuffer(signedBytes(raw, prefix)));
}

/** Length check + XOR accumulate: the time taken does not depend on where the bytes differ. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

/** Compares two secrets in constant time, hiding their lengths too (compares SHA-256 digests). */
export async function secretsEqual(a: string, b: string): Promise<boolean> {
  const [da, db] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(a)),
    crypto.subtle.digest("SHA-256", encoder.encode(b)),
  ]);
  return timingSafeEqual(new Uint8Array(da), new Uint8Array(db));
}

const HEX_DIGEST = /^[0-9a-fA-F]+$/;
const HEX = "0123456789abcdef";

export function decodeHex(text: string): Uint8Array | null {
  if (text.length % 2 !== 0 || !HEX_DIGEST.test(text)) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function encodeHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += HEX[b >> 4]! + HEX[b & 15]!;
  return out;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_VALUES: Record<string, number> = {};
for (let i = 0; i < 64; i++) B64_VALUES[B64[i]!] = i;
B64_VALUES["-"] = 62; // base64url
B64_VALUES["_"] = 63;

/** Standard or URL-safe base64, padding optional. Null when malformed. */
export function decodeBase64(text: string): Uint8Array | null {
  const unpadded = text.replace(/={1,2}$/, "");
  if (unpadded.length % 4 === 1) return null;
  if (unpadded.length !== text.length && text.length % 4 !== 0) return null; // padding present but wrong
  const out = new Uint8Array(Math.floor((unpadded.length * 3) / 4));
  let bits = 0;
  let buffer = 0;
  let o = 0;
  for (const ch of unpadded) {
    const v = B64_VALUES[ch];
    if (v === undefined) return null;
    buffer = ((buffer << 6) | v) & 0xffffff; // only the low 14 bits are ever pending
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (buffer >> bits) & 0xff;
    }
  }
  return out;
}

export function encodeBase64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]!;
    out += i + 1 < bytes.length ? B64[(n >> 6) & 63]! : "=";
    out += i + 2 < bytes.length ? B64[n & 63]! : "=";
  }
  return out;
}

/** The encodings a verifier accepts for this signature config. */
export function acceptedEncodings(spec: WebhookSignatureSpec | undefined): readonly SignatureEncoding[] {
  if (spec?.acceptEncodings && spec.acceptEncodings.length > 0) return spec.acceptEncodings;
  if (spec?.encoding) return [spec.encoding];
  return ["hex", "base64"];
}

/** Decodes a digest written in one of the accepted encodings; null unless it is exactly `length` bytes. */
export function decodeDigest(text: string, accept: readonly SignatureEncoding[], length: number = DIGEST_BYTES): Uint8Array | null {
  // Hex is tried first: 2n hex characters are never a valid n-byte base64 digest, and vice versa.
  if (accept.includes("hex") && text.length === length * 2) return decodeHex(text);
  if (accept.includes("base64")) {
    const bytes = decodeBase64(text);
    if (bytes && bytes.length === length) return bytes;
  }
  return null;
}

/** Rejects configurations this runtime cannot honour, at creation time rather than per request. */
export function assertSupportedSignature(spec: WebhookSignatureSpec | undefined): void {
  if (!spec) return;
  if (spec.algorithm !== undefined && spec.algorithm !== "hmac-sha256") {
    throw new TypeError(`Unsupported webhook signature algorithm: ${String(spec.algorithm)} (only hmac-sha256)`);
  }
  if (spec.signedContent !== undefined && spec.signedContent !== "raw-body") {
    throw new TypeError(`Unsupported webhook signedContent: ${String(spec.signedContent)} (only raw-body)`);
  }
  for (const e of [spec.encoding, ...(spec.acceptEncodings ?? [])]) {
    if (e !== undefined && e !== "hex" && e !== "base64") throw new TypeError(`Unsupported signature encoding: ${String(e)}`);
  }
}

/**
 * True when `signature` is the HMAC-SHA256 of the exact `rawBody` bytes keyed with `secret`.
 * Never throws: a missing, empty or malformed signature, or an empty secret, gives `false`.
 */
export async function verifySignature(
  rawBody: RawBody,
  signature: string | null | undefined,
  secret: string,
  spec?: WebhookSignatureSpec,
): Promise<boolean> {
  try {
    if (isBlankSecret(secret) || typeof signature !== "string") return false;
    let text = signature.trim();
    const prefix = spec?.prefix ?? "";
    if (prefix) {
      if (text.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()) return false;
      text = text.slice(prefix.length).trim();
    }
    if (text === "") return false;
    const provided = decodeDigest(text, acceptedEncodings(spec));
    if (!provided) return false;
    return timingSafeEqual(provided, await hmacSha256(rawBody, secret));
  } catch {
    return false;
  }
}

/**
 * The signature header value a sender puts on `rawBody`: `prefix + digest` in `encoding`
 * (default: the spec's `encoding`, else hex). Throws on an empty secret.
 */
export async function signPayload(
  rawBody: RawBody,
  secret: string,
  encoding: SignatureEncoding | undefined,
  spec?: WebhookSignatureSpec,
): Promise<string> {
  if (isBlankSecret(secret)) throw new TypeError("The webhook `secret` must be a non-empty string (not only whitespace)");
  const digest = await hmacSha256(rawBody, secret);
  const enc = encoding ?? spec?.encoding ?? "hex";
  if (enc !== "hex" && enc !== "base64") throw new TypeError(`Unsupported signature encoding: ${String(enc)}`);
  return (spec?.prefix ?? "") + (enc === "hex" ? encodeHex(digest) : encodeBase64(digest));
}
