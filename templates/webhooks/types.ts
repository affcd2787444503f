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
 * A signature scheme by name, as its provider signs deliveries:
 * - `standard-webhooks` ([standardwebhooks.com](https://www.standardwebhooks.com), OpenAI, Svix): `webhook-id`,
 *   `webhook-timestamp` and `webhook-signature: v1,<base64>` (several during key rotation) over `id.timestamp.body`,
 *   with a `whsec_<base64>` secret; timestamps more than 5 minutes off are refused. Events by the body's `type`.
 *   Its asymmetric signatures (`v1a,<base64>`, Ed25519) verify with the sender's `whpk_<base64>` public key (and are
 *   made with its `whsk_<base64>` secret key).
 * - `stripe`: `Stripe-Signature: t=<timestamp>,v1=<hex>` (several `v1` during rotation) over `timestamp.body`, keyed
 *   with the `whsec_…` string; timestamps older than 5 minutes are refused. Events by the body's `type`.
 * - `github`: `X-Hub-Signature-256: sha256=<hex>` over the body. Events by `X-GitHub-Event` and the body's `action`
 *   (`issues` + `opened` is the spec's `issues-opened`). No timestamp: see specforge's docs/security.md on replays.
 * - `wandb`: the training service's `X-Wandb-Signature: <hex>` (base64 accepted) over the body. Events by the body's
 *   `event_type`. No timestamp.
 */
export type WebhookSchemeName = "standard-webhooks" | "stripe" | "github" | "wandb";

/** The names `WebhookSchemeName` allows, for checks at run time. */
export const WEBHOOK_SCHEME_NAMES: readonly WebhookSchemeName[] = ["standard-webhooks", "stripe", "github", "wandb"];

/**
 * How deliveries are signed: a preset by name, a preset with options, or an HMAC-SHA256 of the raw body in a header
 * you name (what the spec's `x-webhook-signature` describes).
 */
export type WebhookScheme =
  | WebhookSchemeName
  | {
      readonly type: "standard-webhooks" | "stripe";
      /** Seconds a delivery's timestamp may be off (Stripe: behind) the receiver's clock. Default 300. */
      readonly toleranceSeconds?: number;
    }
  | { readonly type: "github" | "wandb" }
  | ({ readonly type: "hmac-sha256"; readonly header: string } & Omit<WebhookSignatureSpec, "header">);

/** From `x-webhook-event-type`: where the event type is read. */
export interface WebhookEventTypeSpec {
  readonly in: "body" | "header";
  /** Top-level body property name or header name. */
  readonly name: string;
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
   * The scheme the spec names (`x-webhook-signature: { scheme }`) or implies (its webhooks declare `webhook-signature`,
   * `Stripe-Signature` or `X-Hub-Signature-256`). Absent: `signature` when set, else `standard-webhooks`.
   */
  readonly scheme?: WebhookSchemeName;
  /** The HMAC of the raw body the spec's `x-webhook-signature` describes. */
  readonly signature?: WebhookSignatureSpec;
  /**
   * Absent: where the scheme puts it (GitHub: `X-GitHub-Event` and the body's `action`; Stripe and Standard Webhooks:
   * the body's `type`; others: the body's `type`, then `event_type`). If that names no declared event and exactly one
   * event is declared, it is that one.
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
