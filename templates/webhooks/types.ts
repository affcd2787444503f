/**
 * Descriptors the generator derives from the OpenAPI document and passes to
 * `createWebhookTools`. Every part except `events` is optional so that documents
 * without the `x-webhook-*` extensions (GitHub, OpenAI, plain OAS 3.1 webhooks) work too.
 */

/** How the digest in the signature header is written. */
export type SignatureEncoding = "hex" | "base64";

/** From `x-webhook-signature`. */
export interface WebhookSignatureSpec {
  /** Header carrying the signature, e.g. `X-Wandb-Signature` or `X-Hub-Signature-256`. */
  readonly header?: string;
  /** Only `hmac-sha256` is supported (the default). */
  readonly algorithm?: "hmac-sha256";
  /** Only `raw-body` (the exact request bytes) is supported (the default). */
  readonly signedContent?: "raw-body";
  /** Encoding used when signing. Default `hex`. */
  readonly encoding?: SignatureEncoding;
  /**
   * Encodings accepted when verifying. Default: `[encoding]` when `encoding` is set,
   * otherwise both `hex` and `base64`. (A SHA-256 digest is 64 hex chars or 43/44
   * base64 chars, so the two can never be confused.)
   */
  readonly acceptEncodings?: readonly SignatureEncoding[];
  /** Text before the digest, e.g. `sha256=` for GitHub. Required on verify when set (case-insensitive). */
  readonly prefix?: string;
}

/**
 * A signature scheme by name, as its provider signs deliveries (docs/webhooks.md has the headers and the
 * secret formats):
 * - `standard-webhooks` ([standardwebhooks.com](https://www.standardwebhooks.com), OpenAI): `webhook-id`,
 *   `webhook-timestamp` and `webhook-signature: v1,<base64>` (several during key rotation) over `id.timestamp.body`,
 *   with a `whsec_<base64>` secret; asymmetric `v1a,<base64>` (Ed25519) signatures verify with the sender's
 *   `whpk_<base64>` public key. Events by the body's `type`.
 * - `svix`: the same signatures under `svix-id`, `svix-timestamp` and `svix-signature` (either set is accepted).
 * - `stripe`: `Stripe-Signature: t=<timestamp>,v1=<hex>` over `timestamp.body`, keyed with the `whsec_…` string.
 * - `github`: `X-Hub-Signature-256: sha256=<hex>` over the body. Events by `X-GitHub-Event` and the body's `action`.
 * - `zoom`: `x-zm-signature: v0=<hex>` over `v0:{timestamp}:{body}`, the timestamp in `x-zm-request-timestamp`,
 *   keyed with the app's secret token. Events by the body's `event`; answers `endpoint.url_validation`.
 * - `slack`: `X-Slack-Signature: v0=<hex>` over `v0:{timestamp}:{body}`, the timestamp in
 *   `X-Slack-Request-Timestamp`, keyed with the signing secret. Events by the body's `type`, then `event.type`;
 *   answers `url_verification`.
 * - `shopify`: `X-Shopify-Hmac-Sha256: <base64>` over the body, keyed with the app's client secret. Events by
 *   `X-Shopify-Topic`.
 * - `twilio`: `X-Twilio-Signature: <base64>` HMAC-SHA1 of the URL Twilio called followed by the form parameters
 *   sorted by name (JSON bodies: of the URL, whose `bodySHA256` is the body's SHA-256), keyed with the auth token.
 * - `wandb`: the training service's `X-Wandb-Signature: <hex>` (base64 accepted) over the body. Events by
 *   `event_type`.
 * Timestamped schemes refuse deliveries more than 5 minutes off the receiver's clock (Stripe: only behind).
 */
export type WebhookSchemeName = "standard-webhooks" | "svix" | "stripe" | "github" | "zoom" | "slack" | "shopify" | "twilio" | "wandb";

/** The names `WebhookSchemeName` allows, for checks at run time. */
export const WEBHOOK_SCHEME_NAMES: readonly WebhookSchemeName[] = [
  "standard-webhooks",
  "svix",
  "stripe",
  "github",
  "zoom",
  "slack",
  "shopify",
  "twilio",
  "wandb",
];

/** The hash of an HMAC scheme. */
export type HmacAlgorithm = "sha1" | "sha256" | "sha512";

/**
 * Any other HMAC signature, described: what is signed (`signedContent`, a template over `{body}` (the raw bytes),
 * `{timestamp}`, `{id}` and `{url}`), with which hash, how the digest is written and in which header.
 */
export interface HmacSchemeOptions {
  readonly type: "hmac";
  /** @default "sha256" */
  readonly algorithm?: HmacAlgorithm;
  /** How the digest is written. @default "hex" */
  readonly encoding?: SignatureEncoding;
  /** The signed text; `{body}` must appear once. @default "{body}" */
  readonly signedContent?: string;
  /** The header carrying the signature. */
  readonly header: string;
  /** Text before the digest (`v1=`), compared case-insensitively. */
  readonly prefix?: string;
  /** The header carrying the Unix timestamp in seconds; required when `signedContent` has `{timestamp}`. */
  readonly timestampHeader?: string;
  /** The header carrying the message id; required when `signedContent` has `{id}`. */
  readonly idHeader?: string;
  /** Seconds the timestamp may be off the receiver's clock, either way. @default 300 */
  readonly toleranceSeconds?: number;
  /** How the secret is written: its UTF-8 bytes, or the key bytes in hex or base64. @default "utf8" */
  readonly secretEncoding?: "utf8" | "hex" | "base64";
  /** `{url}`: the origin the sender calls (`https://hooks.example.com`) when the receiver sees another (a proxy). */
  readonly origin?: string;
}

/** Options of the timestamped presets. */
interface TimestampOptions {
  /** Seconds a delivery's timestamp may be off (Stripe: behind) the receiver's clock. @default 300 */
  readonly toleranceSeconds?: number;
}

/**
 * How deliveries are signed: a preset by name, a preset with options, an HMAC you describe (`{ type: "hmac", … }`), or
 * an HMAC-SHA256 of the raw body in a header you name (what the spec's `x-webhook-signature` describes).
 */
export type WebhookScheme =
  | WebhookSchemeName
  | ({ readonly type: "standard-webhooks" | "svix" | "stripe" } & TimestampOptions)
  | ({
      readonly type: "zoom" | "slack";
      /** Answer the vendor's endpoint check (Zoom's `endpoint.url_validation`, Slack's `url_verification`). @default true */
      readonly challenge?: boolean;
    } & TimestampOptions)
  | { readonly type: "github" | "shopify" | "wandb" }
  | {
      readonly type: "twilio";
      /** The origin Twilio calls (`https://hooks.example.com`) when the receiver sees another one (behind a proxy). */
      readonly origin?: string;
    }
  | HmacSchemeOptions
  | ({ readonly type: "hmac-sha256"; readonly header: string } & Omit<WebhookSignatureSpec, "header">);

/** Where a delivery names its event (`x-webhook-event-type`, inferred from the spec, or the `eventType` option). */
export interface WebhookEventTypeSpec {
  readonly in: "body" | "header";
  /** Top-level body property name or header name. */
  readonly name: string;
  /** Body only: the property of the object in `name` that holds it (Slack's `event` + `type`). */
  readonly property?: string;
}

/** From `x-webhook-auth`. */
export interface WebhookAuthSpec {
  /**
   * `bearer` (default) expects `Bearer <token>`; any other word `w` expects `<w> <token>`
   * (case-insensitive scheme); `none` means the header value is the token itself.
   */
  readonly scheme?: string;
  /** Default `Authorization`. */
  readonly header?: string;
  /** Informational: the sender may be configured without a token. The check runs only when an `accessToken` is passed. */
  readonly optional?: boolean;
}

/**
 * One declared webhook. A plain string `"X"` means `{ name: "X" }`.
 *
 * `name` is the key in the OpenAPI `webhooks` map (and in the `WebhookEvents` type).
 * `values` are the wire values of the event-type field that select it (default `[name]`),
 * e.g. OpenAI's `batch_cancelled` is sent as `type: "batch.cancelled"`.
 * `when` adds top-level body equality conditions, e.g. GitHub's
 * `{ name: "issues-opened", values: ["issues"], when: { action: "opened" } }`.
 */
export interface WebhookEventSpec<Name extends string = string> {
  readonly name: Name;
  readonly values?: readonly string[];
  readonly when?: Readonly<Record<string, string>>;
}

/**
 * Kind of a payload-template variable (from `x-payload-variables`).
 * - `value`: `${name}` is replaced by `variables[name]`.
 * - `map`: `${name.KEY}` reads the top-level key `KEY` of `variables[name]` (`${name}` alone is the whole object).
 * - `secret`: `${NAME}` / `$NAME` is replaced by `secrets[NAME]` (e.g. `ACCESS_TOKEN`).
 * - `named-secret`: declares that any secret may be referenced as `${NAME}` or `$NAME`.
 */
export type PayloadVariableKind = "value" | "map" | "secret" | "named-secret";

export interface PayloadVariableSpec {
  readonly name: string;
  /** Default `value`. */
  readonly kind?: PayloadVariableKind;
  /** When set, the variable renders empty unless `variables.event_type` is one of these. */
  readonly events?: readonly string[];
}

/** Everything the generated `webhooks.ts` passes to `createWebhookTools`. */
export interface WebhookSpec<Name extends string = string> {
  /**
   * The scheme the config names (`webhooks: { scheme }`), or the spec names (`x-webhook-signature: { scheme }`) or
   * implies (its webhooks declare `webhook-signature`, `Stripe-Signature`, `X-Hub-Signature-256`, `x-zm-signature`,
   * …). Absent: `signature` when set, else `standard-webhooks`.
   */
  readonly scheme?: WebhookScheme;
  /** The HMAC of the raw body the spec's `x-webhook-signature` describes. */
  readonly signature?: WebhookSignatureSpec;
  /**
   * Where deliveries name their event: the config's `webhooks.eventType`, the spec's `x-webhook-event-type`, or the
   * property the generator found telling the spec's webhooks apart (`type`, `event`, …). Looked at first, then where
   * the scheme puts it (GitHub: `X-GitHub-Event` and the body's `action`; Zoom: the body's `event`; others: the body's
   * `type`, then `event_type`). If that names no declared event and exactly one event is declared, it is that one.
   */
  readonly eventType?: WebhookEventTypeSpec;
  readonly auth?: WebhookAuthSpec;
  readonly events: readonly (Name | WebhookEventSpec<Name>)[];
  /** Absent: templates substitute any `${name}` from `variables` and `checkPayloadTemplate` reports no unknown variables. */
  readonly variables?: readonly PayloadVariableSpec[];
}

/** The discriminated union of verified events for an `Events` map (`{ [eventName]: payload }`). */
export type WebhookEventOf<Events, K extends keyof Events = keyof Events> = {
  [P in K & string]: {
    /** The declared event name (key of the OpenAPI `webhooks` map). */
    readonly type: P;
    /** The parsed JSON body, typed from the spec (not validated against the schema). */
    readonly payload: Events[P];
    /** The request headers (case-insensitive). */
    readonly headers: Headers;
    /**
     * The provider's id of this delivery, when it sends one: `webhook-id` (Standard Webhooks), the event's `id`
     * (Stripe), `X-GitHub-Delivery` (GitHub; not covered by the signature).
     */
    readonly deliveryId: string | undefined;
    /**
     * The same for every copy of this delivery and covered by its signature: remember the ones you handled to drop
     * replays and redeliveries. `webhook-id` (Standard Webhooks), the event's `id` (Stripe), else the hex HMAC of the
     * body (GitHub, `wandb`, `hmac-sha256`). Undefined only with `insecureNoSignature`.
     */
    readonly replayKey: string | undefined;
  };
}[K & string];

type JsonBodyOfOperation<Op> = Op extends { requestBody?: infer Body }
  ? NonNullable<Body> extends { content: infer Content }
    ? Content extends { "application/json": infer Payload }
      ? Payload
      : Content[keyof Content]
    : unknown
  : unknown;

/**
 * The JSON request body of a webhook path item as emitted by openapi-typescript 7
 * (`webhooks["X"]`), taken from `post` (else `put`). Handles the optional `requestBody?`.
 */
export type WebhookPayloadOf<PathItem> = PathItem extends { post: infer Op }
  ? JsonBodyOfOperation<Op>
  : PathItem extends { put: infer Op }
    ? JsonBodyOfOperation<Op>
    : unknown;

/** `{ [K in keyof webhooks]: WebhookPayloadOf<webhooks[K]> }`. */
export type WebhookPayloadsOf<Webhooks> = { [K in keyof Webhooks]: WebhookPayloadOf<Webhooks[K]> };

/** What a per-event handler may return: nothing (answer 200 `{"ok":true}`) or its own Response. */
export type WebhookHandlerResult = void | Response | Promise<void | Response>;
