import { WebhookVerificationError } from "./errors.js";
import { secretsEqual, toBytes, verifySignature } from "./signature.js";
import type { RawBody } from "./signature.js";
import type { WebhookAuthSpec, WebhookEventSpec, WebhookSignatureSpec, WebhookSpec } from "./types.js";

/** Default body limit of `parseWebhook` and `createWebhookHandler`: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Header values as plain objects carry them (Node's `IncomingMessage.headers` fits). */
export type PlainHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A delivery to verify: a web `Request`, or a body with its headers (any framework). */
export type WebhookInput = Request | { readonly body: RawBody; readonly headers: Headers | PlainHeaders };

/**
 * Credentials the receiver holds. At least one is required:
 * - `secret` verifies the HMAC signature header;
 * - `accessToken` verifies the `Authorization: Bearer <token>` header.
 * An explicitly empty string never verifies (fail closed).
 */
export type WebhookCredentials =
  | { readonly secret: string; readonly accessToken?: string }
  | { readonly secret?: undefined; readonly accessToken: string };

/** Options of `parseWebhook`. */
export type ParseWebhookOptions = WebhookCredentials & {
  /** Body limit in bytes (default 1 MiB). */
  readonly maxBodyBytes?: number;
  /**
   * Overrides the spec's signature config, field by field. Required (`{ header }`) when the
   * spec declares no signature header, e.g. `{ header: "X-Hub-Signature-256", prefix: "sha256=" }`.
   */
  readonly signature?: WebhookSignatureSpec;
};

/** A parsed, verified delivery before it is typed by the caller. */
export interface UntypedWebhookEvent {
  readonly type: string;
  readonly payload: unknown;
  readonly headers: Headers;
}

/** The spec, pre-processed once per `createWebhookTools` call. */
export interface CompiledSpec {
  readonly spec: WebhookSpec;
  /** wire value -> candidate events, the ones with `when` conditions first. */
  readonly byValue: ReadonlyMap<string, readonly WebhookEventSpec[]>;
  readonly single: WebhookEventSpec | undefined;
}

export function compileEvents(spec: WebhookSpec): CompiledSpec {
  const byValue = new Map<string, WebhookEventSpec[]>();
  const all: WebhookEventSpec[] = [];
  for (const entry of spec.events ?? []) {
    const event: WebhookEventSpec = typeof entry === "string" ? { name: entry } : entry;
    all.push(event);
    for (const value of event.values ?? [event.name]) {
      const list = byValue.get(value) ?? [];
      list.push(event);
      byValue.set(value, list);
    }
  }
  for (const list of byValue.values()) {
    // Most specific first: an event with conditions wins over a catch-all with the same value.
    list.sort((a, b) => Object.keys(b.when ?? {}).length - Object.keys(a.when ?? {}).length);
  }
  return { spec, byValue, single: all.length === 1 ? all[0] : undefined };
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

/** Reads at most `max` bytes; stops (and cancels the stream) as soon as the limit is passed. */
async function readBody(input: WebhookInput, max: number): Promise<Uint8Array> {
  if (!isRequest(input)) {
    const bytes = toBytes(input.body);
    if (bytes.byteLength > max) throw new WebhookVerificationError("body_too_large");
    return bytes;
  }
  const declared = input.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared.trim()) > max) {
    throw new WebhookVerificationError("body_too_large");
  }
  if (input.bodyUsed) throw new TypeError("The request body has already been read");
  if (input.body === null) return new Uint8Array(0);
  const reader = input.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      // A lying or absent Content-Length must not make us buffer an unbounded body.
      await reader.cancel().catch(() => undefined);
      throw new WebhookVerificationError("body_too_large");
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function extractToken(value: string | null, auth: WebhookAuthSpec | undefined): string {
  if (value === null) return "";
  const scheme = (auth?.scheme ?? "bearer").trim();
  if (scheme.toLowerCase() === "none" || scheme === "") return value.trim();
  const match = /^\s*(\S+)\s+(\S.*?)\s*$/.exec(value);
  if (!match || match[1]!.toLowerCase() !== scheme.toLowerCase()) return "";
  return match[2]!;
}

function identify(compiled: CompiledSpec, payload: unknown, headers: Headers): WebhookEventSpec | undefined {
  const body = typeof payload === "object" && payload !== null && !Array.isArray(payload) ? (payload as Record<string, unknown>) : undefined;
  const matches = (value: unknown): WebhookEventSpec | undefined => {
    if (typeof value !== "string") return undefined;
    return compiled.byValue
      .get(value.trim())
      ?.find((event) => Object.entries(event.when ?? {}).every(([key, expected]) => body?.[key] === expected));
  };
  const where = compiled.spec.eventType;
  if (where) {
    return matches(where.in === "header" ? headers.get(where.name) : body?.[where.name]);
  }
  // No x-webhook-event-type: the common conventions, then the only declared event.
  return matches(body?.["type"]) ?? matches(body?.["event_type"]) ?? compiled.single;
}

interface ResolvedOptions {
  readonly secret: string | undefined;
  readonly accessToken: string | undefined;
  readonly signature: WebhookSignatureSpec;
  readonly maxBodyBytes: number;
}

/** Throws TypeError for missing credentials (a programming error, not a bad delivery). */
export function resolveOptions(compiled: CompiledSpec, options: ParseWebhookOptions): ResolvedOptions {
  if (typeof options !== "object" || options === null) throw new TypeError("Webhook options are required");
  const secret = options.secret ?? undefined;
  const accessToken = options.accessToken ?? undefined;
  if (secret === undefined && accessToken === undefined) {
    throw new TypeError("Webhook verification needs a `secret` (signature) and/or an `accessToken`");
  }
  if (secret !== undefined && typeof secret !== "string") throw new TypeError("Webhook `secret` must be a string");
  if (accessToken !== undefined && typeof accessToken !== "string") throw new TypeError("Webhook `accessToken` must be a string");
  const signature: WebhookSignatureSpec = { ...compiled.spec.signature, ...options.signature };
  if (secret !== undefined && !signature.header) {
    throw new TypeError(
      "The spec declares no webhook signature header (x-webhook-signature); pass it: { signature: { header: \"X-Signature\" } }",
    );
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (typeof maxBodyBytes !== "number" || Number.isNaN(maxBodyBytes) || maxBodyBytes < 0) {
    throw new TypeError("`maxBodyBytes` must be a non-negative number");
  }
  return { secret, accessToken, signature, maxBodyBytes };
}

/**
 * Verifies then parses one delivery. Order: access token, signature presence, body size,
 * signature over the raw bytes, JSON, event type. Nothing is parsed before it is verified.
 */
export async function parseDelivery(
  compiled: CompiledSpec,
  input: WebhookInput,
  options: ParseWebhookOptions,
): Promise<UntypedWebhookEvent> {
  const { secret, accessToken, signature, maxBodyBytes } = resolveOptions(compiled, options);
  const headers = toHeaders(input.headers);

  if (accessToken !== undefined) {
    const auth = compiled.spec.auth;
    const presented = extractToken(headers.get(auth?.header ?? "Authorization"), auth);
    if (accessToken === "" || presented === "" || !(await secretsEqual(presented, accessToken))) {
      throw new WebhookVerificationError("bad_token", "Webhook rejected: missing or wrong access token");
    }
  }

  let signatureValue: string | null = null;
  if (secret !== undefined) {
    signatureValue = headers.get(signature.header!);
    if (signatureValue === null || signatureValue.trim() === "") {
      throw new WebhookVerificationError("missing_signature", `Webhook rejected: no ${signature.header} header`);
    }
  }

  const raw = await readBody(input, maxBodyBytes);

  if (secret !== undefined && !(await verifySignature(raw, signatureValue, secret, signature))) {
    throw new WebhookVerificationError("bad_signature", "Webhook rejected: signature does not match the body");
  }

  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(raw));
  } catch {
    throw new WebhookVerificationError("bad_json", "Webhook rejected: body is not valid JSON");
  }

  const event = identify(compiled, payload, headers);
  if (!event) throw new WebhookVerificationError("unknown_event", "Webhook rejected: unknown or missing event type");
  return { type: event.name, payload, headers };
}
