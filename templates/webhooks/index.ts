/**
 * specforge webhooks runtime: verify, parse and dispatch incoming webhook deliveries, and
 * render/check payload templates. Web-standard APIs only (Web Crypto, Request/Response,
 * TextEncoder), so it runs on Node 20+, Deno, Bun and edge workers. No dependencies.
 *
 * The generated `webhooks.ts` calls `createWebhookTools<WebhookEvents, PayloadVariables>(spec)`
 * once and re-exports the returned functions under their public names.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { compileEvents, parseDelivery, schemeOf } from "./parse.js";
import type { ParseWebhookOptions, WebhookInput } from "./parse.js";
import { createHandler, createReceiver } from "./handler.js";
import type { WebhookHandlerOptions } from "./handler.js";
import { createNodeListener } from "./node.js";
import { resolveScheme, schemeKeys, signDelivery } from "./schemes.js";
import type { SchemePreset, SignDeliveryOptions } from "./schemes.js";
import { assertSupportedSignature, isBlankSecret, signPayload, verifySignature } from "./signature.js";
import type { RawBody } from "./signature.js";
import { checkTemplate, compileVariables, renderTemplate } from "./template.js";
import type { CheckTemplateOptions, PayloadTemplateVariables, TemplateCheckResult } from "./template.js";
import type { SignatureEncoding, WebhookEventOf, WebhookScheme, WebhookSignatureSpec, WebhookSpec } from "./types.js";

export { WebhookVerificationError, isWebhookVerificationError } from "./errors.js";
export type { WebhookFailureReason } from "./errors.js";
export { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES, normalizeEventName } from "./parse.js";
export type { ParseWebhookOptions, PlainHeaders, WebhookCredentials, WebhookInput, WebhookSecret } from "./parse.js";
export type { WebhookEventHandlers, WebhookHandlerOptions } from "./handler.js";
export { DEFAULT_TOLERANCE_SECONDS } from "./schemes.js";
export type { SchemePreset, SignDeliveryOptions } from "./schemes.js";
export type { RawBody } from "./signature.js";
export { WEBHOOK_SCHEME_NAMES } from "./types.js";
export type {
  CheckTemplateOptions,
  PayloadTemplateVariables,
  TemplateCheckResult,
  TemplateProblem,
} from "./template.js";
export type {
  HmacAlgorithm,
  HmacSchemeOptions,
  PayloadVariableKind,
  PayloadVariableSpec,
  SignatureEncoding,
  WebhookAuthSpec,
  WebhookEventOf,
  WebhookEventSpec,
  WebhookEventTypeSpec,
  WebhookHandlerResult,
  WebhookPayloadOf,
  WebhookPayloadsOf,
  WebhookScheme,
  WebhookSchemeName,
  WebhookSignatureSpec,
  WebhookSpec,
} from "./types.js";

/** Options of `signDelivery`. */
export type SignWebhookDeliveryOptions = SignDeliveryOptions & {
  /** The scheme to sign with; default: the spec's, else `standard-webhooks` (as the receiver chooses). */
  readonly scheme?: WebhookScheme;
};

/** The functions bound to one spec. All are plain functions (safe to destructure / re-export). */
export interface WebhookTools<Events, Vars> {
  /** The descriptors these tools were built from. */
  readonly spec: WebhookSpec<keyof Events & string>;

  /**
   * True when `signature` (the header value, with the spec's `prefix` if any) is the
   * HMAC-SHA256 of the exact `rawBody` bytes keyed with `secret`, in an accepted encoding
   * (hex any case; base64 standard or URL-safe, padding optional). Constant-time comparison.
   * Never throws: missing/empty/malformed signature or empty secret → `false`.
   * `options.signature` overrides the spec's signature config.
   */
  readonly verifySignature: (
    rawBody: RawBody,
    signature: string | null | undefined,
    secret: string,
    options?: { readonly signature?: WebhookSignatureSpec },
  ) => Promise<boolean>;

  /**
   * The signature header value for `rawBody` (prefix + digest), as a sender would set it.
   * `encoding` defaults to the spec's `encoding`, else hex. Throws on an empty secret.
   */
  readonly sign: (rawBody: RawBody, secret: string, encoding?: SignatureEncoding) => Promise<string>;

  /**
   * The signature headers a sender puts on `body` under a scheme (default: the spec's, else `standard-webhooks`):
   * `webhook-id`/`webhook-timestamp`/`webhook-signature`, `Stripe-Signature`, `X-Hub-Signature-256` (with
   * `X-GitHub-Delivery`), `x-zm-signature` and `x-zm-request-timestamp`, … For tests of your receiver. Throws
   * TypeError on an empty, blank or malformed secret. Twilio and `{url}` sign `options.url`.
   * Standard Webhooks with a `whsk_…` secret key signs `v1a` (Ed25519) instead of `v1` (HMAC).
   */
  readonly signDelivery: (body: RawBody, secret: string, options?: SignWebhookDeliveryOptions) => Promise<Record<string, string>>;

  /**
   * Reads the raw body once, verifies the access token and/or signature, then parses the JSON
   * and identifies the event. Throws `WebhookVerificationError` (reason `missing_signature`,
   * `bad_signature`, `bad_timestamp`, `bad_token`, `bad_json`, `unknown_event`, `body_too_large` or `body_timeout`)
   * on any failure; throws `TypeError` for misuse (no secret, unknown scheme, body already read).
   */
  readonly parse: (input: WebhookInput, options: ParseWebhookOptions) => Promise<WebhookEventOf<Events>>;

  /**
   * A `(request) => Promise<Response>` receiver: 405 non-POST, 413 too large, 408 too slow, 401 unverified,
   * 400 bad JSON/unknown event, 200 `{"ok":true}` (or the handler's Response), 500 if the handler throws.
   * Verified events without a handler are acknowledged with 200 and ignored. Throws TypeError at creation for
   * unusable options (no secret, unknown scheme).
   */
  readonly createHandler: (options: WebhookHandlerOptions<Events>) => (request: Request) => Promise<Response>;

  /** The same receiver as a `node:http` request listener: `http.createServer(createNodeListener(options))`. */
  readonly createNodeListener: (options: WebhookHandlerOptions<Events>) => (req: IncomingMessage, res: ServerResponse) => void;

  /**
   * Substitutes `${var}` / `$SECRET` placeholders: JSON-escaped inside JSON strings, as JSON
   * values outside them. Missing variables render empty; event-specific variables (`${alias}`,
   * `${tag}`) render empty for other `event_type`s.
   */
  readonly renderTemplate: (
    template: string,
    variables?: PayloadTemplateVariables<Vars>,
    secrets?: Readonly<Record<string, string>>,
  ) => string;

  /** Reports unknown variables and templates that would not render to valid JSON. */
  readonly checkTemplate: (template: string, options?: CheckTemplateOptions) => TemplateCheckResult;
}

/**
 * Binds the runtime to one spec. `Events` maps each declared event name to its payload type
 * (see `WebhookPayloadOf`); `Vars` types the payload-template variables. `schemes` are the named signature schemes
 * the receiver and sender can be told (`scheme: "zoom"`), each from its module (`./scheme-zoom.js`); the schemes
 * you describe (`hmac`, `hmac-sha256`) need none.
 * Throws `TypeError` for an unsupported signature config (algorithm other than hmac-sha256).
 */
export function createWebhookTools<Events, Vars = Record<string, unknown>>(
  spec: WebhookSpec<keyof Events & string>,
  schemes: readonly SchemePreset[],
): WebhookTools<Events, Vars> {
  assertSupportedSignature(spec.signature);
  if (spec.scheme !== undefined) resolveScheme(spec.scheme, schemes); // an unusable scheme fails here, at start-up
  const compiled = compileEvents(spec, schemes);
  const variables = compileVariables(spec.variables);
  return {
    spec,
    verifySignature: (rawBody, signature, secret, options) =>
      verifySignature(rawBody, signature, secret, { ...spec.signature, ...options?.signature }),
    sign: (rawBody, secret, encoding) => signPayload(rawBody, secret, encoding, spec.signature),
    signDelivery: async (body, secret, options = {}) => {
      const scheme = resolveScheme(schemeOf(spec, { scheme: options.scheme }), schemes);
      if (isBlankSecret(secret)) throw new TypeError("The webhook `secret` must be a non-empty string (not only whitespace)");
      return signDelivery(scheme, body, schemeKeys(scheme, [secret])[0]!, options);
    },
    parse: async (input, options) => (await parseDelivery(compiled, input, options)) as WebhookEventOf<Events>,
    createHandler: (options) => createHandler<Events>(compiled, options),
    createNodeListener: (options) => createNodeListener(createReceiver<Events>(compiled, options)),
    renderTemplate: (template, vars, secrets) =>
      renderTemplate(variables, template, vars as Readonly<Record<string, unknown>> | undefined, secrets),
    checkTemplate: (template, options) => checkTemplate(variables, template, options),
  };
}

/** Verifies a signature without a spec (defaults: no prefix, hex or base64). See `WebhookTools.verifySignature`. */
export function verifyWebhookSignature(
  rawBody: RawBody,
  signature: string | null | undefined,
  secret: string,
  signatureSpec?: WebhookSignatureSpec,
): Promise<boolean> {
  return verifySignature(rawBody, signature, secret, signatureSpec);
}

/** Signs without a spec (hex unless told otherwise). See `WebhookTools.sign`. */
export function signWebhookPayload(
  rawBody: RawBody,
  secret: string,
  encoding?: SignatureEncoding,
  signatureSpec?: WebhookSignatureSpec,
): Promise<string> {
  return signPayload(rawBody, secret, encoding, signatureSpec);
}
