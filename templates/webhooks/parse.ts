import { WebhookVerificationError } from "./errors.js";
import { challengeAnswer, formNames, matchSignature, presentedSignature, resolveScheme, schemeKeys } from "./schemes.js";
import type { PresentedSignature, ResolvedScheme, SchemePreset, SignatureMatch } from "./schemes.js";
import { isBlankSecret, secretsEqual, toBytes } from "./signature.js";
import type { RawBody, SignatureKey } from "./signature.js";
import type { WebhookAuthSpec, WebhookEventSpec, WebhookEventTypeSpec, WebhookScheme, WebhookSignatureSpec, WebhookSpec } from "./types.js";

/** Default body limit of `parseWebhook` and `createWebhookHandler`: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES: number = 1024 * 1024;

/** Default time the whole body may take to arrive: 10 s (a slow sender holds a connection, not the event loop). */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/** Header values as plain objects carry them (Node's `IncomingMessage.headers` fits). */
export type PlainHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * A delivery to verify: a web `Request`, or a body with its headers (any framework), and the URL it was sent to when
 * the scheme signs it (Twilio, a described scheme's `{url}`).
 */
export type WebhookInput = Request | { readonly body: RawBody; readonly headers: Headers | PlainHeaders; readonly url?: string };

/**
 * The signing secret, or several while you rotate it (a delivery signed with any of them verifies). Standard
 * Webhooks: a `whsec_…` secret (`v1` signatures) or the sender's `whpk_…` public key (`v1a`, Ed25519), or both.
 */
export type WebhookSecret = string | readonly string[];

/**
 * Credentials the receiver holds.
 * - `secret` verifies the signature; it is required, and must not be empty, unless you set `insecureNoSignature: true`
 *   (then nothing proves a delivery comes from the sender, except the `accessToken` if you pass one).
 * - `accessToken` also requires `Authorization: Bearer <token>` (the header and scheme of the spec's `x-webhook-auth`).
 */
export type WebhookCredentials =
  | { readonly secret: WebhookSecret; readonly accessToken?: string; readonly insecureNoSignature?: false }
  | { readonly secret?: undefined; readonly accessToken?: string; readonly insecureNoSignature: true };

/** Options of `parseWebhook` (and of `createWebhookHandler`). */
export type ParseWebhookOptions = WebhookCredentials & {
  /**
   * How deliveries are signed: a name (`"stripe"`, `"zoom"`, …), a name with options, or `{ type: "hmac", … }`.
   * Default: what the config or the spec says (`x-webhook-signature`, or the signature header its webhooks declare),
   * else `standard-webhooks`.
   */
  readonly scheme?: WebhookScheme;
  /**
   * Where deliveries name their event, when the spec cannot tell: `{ in: "body", name: "event" }`,
   * `{ in: "header", name: "x-github-event" }`. Only this place is read. Default: what the spec says or the generator
   * inferred, then where the scheme puts it.
   */
  readonly eventType?: WebhookEventTypeSpec;
  /** Body limit in bytes (default 1 MiB): larger deliveries get 413 and are not read further. */
  readonly maxBodyBytes?: number;
  /** Milliseconds the whole body may take to arrive (default 10 000; 0: no limit): slower ones get 408. */
  readonly bodyTimeoutMs?: number;
  /**
   * Fields of the spec's `x-webhook-signature` to override (`{ header, prefix, encoding, acceptEncodings }`).
   * @deprecated Pass `scheme: { type: "hmac-sha256", header, … }`.
   */
  readonly signature?: WebhookSignatureSpec;
};

/** A parsed, verified delivery before it is typed by the caller. */
export interface UntypedWebhookEvent {
  readonly type: string;
  readonly payload: unknown;
  readonly headers: Headers;
  readonly deliveryId: string | undefined;
  readonly replayKey: string | undefined;
}

/** The spec, pre-processed once per `createWebhookTools` call. */
export interface CompiledSpec {
  readonly spec: WebhookSpec;
  /** The named schemes this output carries (the ones its spec and config name). */
  readonly schemes: readonly SchemePreset[];
  /** wire value -> candidate events, the ones with `when` conditions first. */
  readonly byValue: ReadonlyMap<string, readonly WebhookEventSpec[]>;
  /** `normalizeEventName` of every name and value -> its event (null when two events share it). */
  readonly byNormalized: ReadonlyMap<string, WebhookEventSpec | null>;
  readonly single: WebhookEventSpec | undefined;
}

/** Event names compared loosely: GitHub's `issue_comment` + `created` is the spec's `issue-comment-created`. */
export function normalizeEventName(name: string): string {
  return name.toLowerCase().replace(/[._-]+/g, "-");
}

export function compileEvents(spec: WebhookSpec, schemes: readonly SchemePreset[]): CompiledSpec {
  const byValue = new Map<string, WebhookEventSpec[]>();
  const byNormalized = new Map<string, WebhookEventSpec | null>();
  const all: WebhookEventSpec[] = [];
  for (const entry of spec.events ?? []) {
    const event: WebhookEventSpec = typeof entry === "string" ? { name: entry } : entry;
    all.push(event);
    for (const value of new Set([event.name, ...(event.values ?? [])])) {
      const list = byValue.get(value) ?? [];
      list.push(event);
      byValue.set(value, list);
      const key = normalizeEventName(value);
      const seen = byNormalized.get(key);
      byNormalized.set(key, seen === undefined || seen === event ? event : null);
    }
  }
  for (const list of byValue.values()) {
    // Most specific first: an event with conditions wins over a catch-all with the same value.
    list.sort((a, b) => Object.keys(b.when ?? {}).length - Object.keys(a.when ?? {}).length);
  }
  return { spec, schemes, byValue, byNormalized, single: all.length === 1 ? all[0] : undefined };
}

/** One delivery as the verifier reads it: its headers, and its body on demand (bounded in size and time). */
export interface DeliverySource {
  readonly headers: Headers;
  /** The URL the delivery was sent to, as the receiver sees it (Twilio and `{url}` sign it). */
  readonly url?: string;
  /** The whole body: `body_too_large` past `maxBytes` (by Content-Length before reading), `body_timeout` past `timeoutMs`. */
  readBody(maxBytes: number, timeoutMs: number): Promise<Uint8Array>;
}

function isRequest(input: WebhookInput): input is Request {
  return typeof (input as Request).arrayBuffer === "function" && typeof (input as Request).method === "string";
}

function toHeaders(headers: Headers | PlainHeaders): Headers {
  if (typeof (headers as Headers).get === "function") return headers as Headers;
  const out = new Headers();
  for (const [name, value] of Object.entries(headers as PlainHeaders)) {
    if (value === undefined) continue;
    try {
      out.set(name, typeof value === "string" ? value : value.join(", "));
    } catch {
      // An invalid header name/value cannot be one we need; skip it rather than fail the delivery.
    }
  }
  return out;
}

export const bodyTooLarge = (): WebhookVerificationError => new WebhookVerificationError("body_too_large");
export const bodyTimeout = (): WebhookVerificationError => new WebhookVerificationError("body_timeout", "Webhook rejected: the body did not arrive in time");

/** A Content-Length above `max` (checked before reading a byte). */
export function declaredTooLarge(contentLength: string | null, max: number): boolean {
  return contentLength !== null && /^\s*\d+\s*$/.test(contentLength) && Number(contentLength) > max;
}

export function concatChunks(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** Reads a Request's body stream, stopping (and cancelling it) past `max` bytes or `timeoutMs`. */
async function readRequestBody(request: Request, max: number, timeoutMs: number): Promise<Uint8Array> {
  if (declaredTooLarge(request.headers.get("content-length"), max)) throw bodyTooLarge();
  if (request.bodyUsed) throw new TypeError("The request body has already been read");
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline =
    timeoutMs > 0
      ? new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(bodyTimeout()), timeoutMs);
        })
      : undefined;
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await (deadline ? Promise.race([reader.read(), deadline]) : reader.read());
      if (done) break;
      total += value.byteLength;
      // A lying or absent Content-Length must not make us buffer an unbounded body.
      if (total > max) throw bodyTooLarge();
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return concatChunks(chunks, total);
}

/** A `WebhookInput` as a `DeliverySource`. */
export function deliverySource(input: WebhookInput): DeliverySource {
  if (isRequest(input)) return { headers: input.headers, url: input.url, readBody: (max, timeoutMs) => readRequestBody(input, max, timeoutMs) };
  return {
    headers: toHeaders(input.headers),
    ...(typeof input.url === "string" ? { url: input.url } : {}),
    readBody: async (max) => {
      const bytes = toBytes(input.body);
      if (bytes.byteLength > max) throw bodyTooLarge();
      return bytes;
    },
  };
}

function extractToken(value: string | null, auth: WebhookAuthSpec | undefined): string {
  if (value === null) return "";
  const scheme = (auth?.scheme ?? "bearer").trim();
  if (scheme.toLowerCase() === "none" || scheme === "") return value.trim();
  const match = /^\s*(\S+)\s+(\S.*?)\s*$/.exec(value);
  if (!match || match[1]!.toLowerCase() !== scheme.toLowerCase()) return "";
  return match[2]!;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A body property (own, never inherited: `__proto__` is no event name). */
function own(object: Record<string, unknown> | undefined, name: string): unknown {
  return object !== undefined && Object.prototype.hasOwnProperty.call(object, name) ? object[name] : undefined;
}

/**
 * Where a receiver looks for the event name, in order: the `eventType` option alone; else where the config or spec
 * says (or the generator inferred), then the scheme's conventions.
 */
function eventSources(spec: WebhookSpec, scheme: ResolvedScheme, option: WebhookEventTypeSpec | undefined): readonly WebhookEventTypeSpec[] {
  if (option !== undefined) return [option];
  const sources = spec.eventType ? [spec.eventType, ...scheme.eventSources] : scheme.eventSources;
  const key = (s: WebhookEventTypeSpec) => `${s.in}\u0000${s.in === "header" ? s.name.toLowerCase() : s.name}\u0000${s.property ?? ""}`;
  const seen = new Set<string>();
  return sources.filter((source) => !seen.has(key(source)) && seen.add(key(source)));
}

function checkEventType(value: unknown): WebhookEventTypeSpec | undefined {
  if (value === undefined) return undefined;
  const spec = value as Partial<WebhookEventTypeSpec>;
  if (typeof spec !== "object" || spec === null || (spec.in !== "body" && spec.in !== "header") || typeof spec.name !== "string" || spec.name.trim() === "") {
    throw new TypeError('`eventType` must be { in: "body" | "header", name } (like { in: "body", name: "event" })');
  }
  if (spec.property !== undefined && (spec.in !== "body" || typeof spec.property !== "string")) throw new TypeError("`eventType.property` is a property name, of a body property");
  return spec as WebhookEventTypeSpec;
}

function identify(compiled: CompiledSpec, resolved: ResolvedOptions, payload: unknown, headers: Headers): WebhookEventSpec | undefined {
  const { scheme } = resolved;
  const body = asObject(payload);
  const fits = (event: WebhookEventSpec | null | undefined): event is WebhookEventSpec =>
    !!event && Object.entries(event.when ?? {}).every(([key, expected]) => own(body, key) === expected);
  const action = scheme.eventWithAction && typeof own(body, "action") === "string" ? (own(body, "action") as string) : undefined;
  for (const source of resolved.eventSources) {
    const raw =
      source.in === "header" ? headers.get(source.name) : source.property === undefined ? own(body, source.name) : own(asObject(own(body, source.name)), source.property);
    if (typeof raw !== "string" || raw.trim() === "") continue;
    const value = raw.trim();
    const exact = compiled.byValue.get(value)?.find(fits);
    if (exact) return exact;
    // GitHub: `X-GitHub-Event: issues` + `action: opened` is `issues-opened` in GitHub's own spec.
    const withAction = action === undefined || source.in !== "header" ? undefined : compiled.byNormalized.get(normalizeEventName(`${value}-${action}`));
    if (fits(withAction)) return withAction;
    const loose = compiled.byNormalized.get(normalizeEventName(value));
    if (fits(loose)) return loose;
  }
  return fits(compiled.single) ? compiled.single : undefined;
}

/** Options with every default filled in and the secrets turned into keys, once per receiver. */
export interface ResolvedOptions {
  readonly scheme: ResolvedScheme;
  /** Where the event name is looked for, in order. */
  readonly eventSources: readonly WebhookEventTypeSpec[];
  /** The keys (HMAC, or Ed25519 for Standard Webhooks `v1a`); empty with `insecureNoSignature` (nothing is verified). */
  readonly keys: readonly SignatureKey[];
  readonly accessToken: string | undefined;
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
}

/** The scheme a receiver uses: the option, else what the spec says, else Standard Webhooks. */
export function schemeOf(spec: WebhookSpec, options: Pick<ParseWebhookOptions, "scheme" | "signature">): WebhookScheme {
  if (options.scheme !== undefined) return options.scheme;
  if (options.signature !== undefined) return { ...spec.signature, ...options.signature, type: "hmac-sha256" } as WebhookScheme;
  if (spec.scheme !== undefined) return spec.scheme;
  if (spec.signature?.header) return { ...spec.signature, type: "hmac-sha256" } as WebhookScheme;
  return "standard-webhooks";
}

function limit(value: unknown, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || Number.isNaN(value) || value < 0) throw new TypeError(`\`${name}\` must be a non-negative number`);
  return value;
}

/**
 * Checks the options of a receiver (TypeError: a programming error, not a bad delivery). A missing or empty secret
 * is refused unless `insecureNoSignature: true` says that deliveries are not to be verified.
 */
export function resolveOptions(compiled: CompiledSpec, options: ParseWebhookOptions): ResolvedOptions {
  if (typeof options !== "object" || options === null) throw new TypeError("Webhook options are required");
  const { secret, accessToken, insecureNoSignature } = options as {
    secret?: unknown;
    accessToken?: unknown;
    insecureNoSignature?: unknown;
  };
  if (accessToken !== undefined && isBlankSecret(accessToken)) {
    throw new TypeError("Webhook `accessToken` must be a non-empty string, not only whitespace (omit it to not require one)");
  }
  const scheme = resolveScheme(schemeOf(compiled.spec, options), compiled.schemes);
  let keys: SignatureKey[] = [];
  if (insecureNoSignature === true) {
    if (secret !== undefined) throw new TypeError("Pass either a webhook `secret` or `insecureNoSignature: true`, not both");
  } else {
    const secrets = typeof secret === "string" ? [secret] : Array.isArray(secret) ? (secret as unknown[]) : undefined;
    if (secrets === undefined || secrets.length === 0 || secrets.some(isBlankSecret)) {
      throw new TypeError(
        "A webhook `secret` is required (a non-empty string, not only whitespace, or a list of them while you rotate it): " +
          "without one, anyone can send deliveries. Is its environment variable set? To accept unsigned deliveries, pass " +
          "`insecureNoSignature: true`.",
      );
    }
    keys = schemeKeys(scheme, secrets as string[]);
  }
  return {
    scheme,
    eventSources: eventSources(compiled.spec, scheme, checkEventType(options.eventType)),
    keys,
    accessToken: accessToken as string | undefined,
    maxBodyBytes: limit(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, "maxBodyBytes"),
    bodyTimeoutMs: limit(options.bodyTimeoutMs, DEFAULT_BODY_TIMEOUT_MS, "bodyTimeoutMs"),
  };
}

/**
 * Verifies then parses one delivery. Order: access token, signature headers (and timestamp), body (bounded), signature
 * over the raw bytes, JSON, event type: a delivery that cannot verify is refused before its body is read, and
 * nothing is parsed before it is verified.
 */
export async function verifyDelivery(compiled: CompiledSpec, resolved: ResolvedOptions, source: DeliverySource): Promise<UntypedWebhookEvent> {
  const { scheme, keys, accessToken } = resolved;
  const headers = source.headers;

  if (accessToken !== undefined) {
    const auth = compiled.spec.auth;
    const presented = extractToken(headers.get(auth?.header ?? "Authorization"), auth);
    if (presented === "" || !(await secretsEqual(presented, accessToken))) {
      throw new WebhookVerificationError("bad_token", "Webhook rejected: missing or wrong access token");
    }
  }

  let presented: PresentedSignature | undefined;
  if (keys.length > 0) presented = presentedSignature(scheme, headers, { nowSeconds: Math.floor(Date.now() / 1000), url: source.url });

  const raw = await source.readBody(resolved.maxBodyBytes, resolved.bodyTimeoutMs);

  let match: SignatureMatch | undefined;
  if (presented) {
    match = await matchSignature(scheme, presented, raw, keys);
    if (match === undefined) throw new WebhookVerificationError("bad_signature", "Webhook rejected: signature does not match the body");
  }
  const digest = match?.digest;

  const payload = parseBody(raw, headers.get("content-type"));

  const challenge = await challengeAnswer(scheme, payload, match?.key);
  if (challenge) throw new WebhookVerificationError("challenge", `Webhook endpoint check of ${scheme.name}: answer 200 with \`error.challenge\``, challenge);

  const event = identify(compiled, resolved, payload, headers);
  if (!event) throw new WebhookVerificationError("unknown_event", "Webhook rejected: unknown or missing event type");

  const bodyId =
    typeof payload === "object" && payload !== null && typeof (payload as { id?: unknown }).id === "string"
      ? (payload as { id: string }).id
      : undefined;
  const deliveryId =
    presented?.messageId ??
    (scheme.deliveryIdHeader ? (headers.get(scheme.deliveryIdHeader) ?? undefined) : scheme.kind === "stripe" ? bodyId : undefined);
  const replayKey = presented?.messageId ?? (scheme.kind === "stripe" && digest !== undefined ? (bodyId ?? digest) : digest);
  return { type: event.name, payload, headers, deliveryId, replayKey };
}

const FORM = /^\s*application\/x-www-form-urlencoded\s*(;|$)/i;

/**
 * The verified body: JSON, or form parameters (`application/x-www-form-urlencoded`: Twilio, Slack commands) as an
 * object of strings (a repeated name: the list of its values). `bad_json` when it is neither, or not UTF-8.
 */
function parseBody(raw: Uint8Array, contentType: string | null): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
  } catch {
    throw new WebhookVerificationError("bad_json", "Webhook rejected: body is not valid UTF-8");
  }
  if (contentType !== null && FORM.test(contentType)) {
    const form: Record<string, string | string[]> = {};
    const params = new URLSearchParams(text);
    for (const name of formNames(params)) {
      const values = params.getAll(name);
      // defineProperty: a parameter named `__proto__` is data, not the object's prototype.
      Object.defineProperty(form, name, { value: values.length === 1 ? values[0] : values, enumerable: true, writable: true, configurable: true });
    }
    return form;
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new WebhookVerificationError("bad_json", "Webhook rejected: body is not valid JSON");
  }
}

/** `parseWebhook`: resolves the options, then verifies and parses one delivery. */
export function parseDelivery(compiled: CompiledSpec, input: WebhookInput, options: ParseWebhookOptions): Promise<UntypedWebhookEvent> {
  try {
    return verifyDelivery(compiled, resolveOptions(compiled, options), deliverySource(input));
  } catch (error) {
    return Promise.reject(error);
  }
}
