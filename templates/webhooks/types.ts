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
  readonly signature?: WebhookSignatureSpec;
  /**
   * Absent: the event is identified by the body property `type`, then `event_type`;
   * if neither names a declared event and exactly one event is declared, it is that one.
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
