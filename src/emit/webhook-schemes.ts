import { githubScheme } from "../../templates/webhooks/scheme-github.js";
import { shopifyScheme } from "../../templates/webhooks/scheme-shopify.js";
import { slackScheme } from "../../templates/webhooks/scheme-slack.js";
import { standardWebhooksScheme } from "../../templates/webhooks/scheme-standard-webhooks.js";
import { stripeScheme } from "../../templates/webhooks/scheme-stripe.js";
import { svixScheme } from "../../templates/webhooks/scheme-svix.js";
import { twilioScheme } from "../../templates/webhooks/scheme-twilio.js";
import { wandbScheme } from "../../templates/webhooks/scheme-wandb.js";
import { zoomScheme } from "../../templates/webhooks/scheme-zoom.js";
import type { SchemePreset } from "../../templates/webhooks/schemes.js";
import { WEBHOOK_SCHEME_NAMES, type WebhookScheme, type WebhookSchemeName } from "../../templates/webhooks/types.js";

/**
 * Every named signature scheme, in `WEBHOOK_SCHEME_NAMES`' order: what specforge itself verifies and signs with
 * (`specforge webhook test`, the config's check). A generated output carries only `carriedSchemes`.
 */
export const ALL_SCHEMES: readonly SchemePreset[] = [
  standardWebhooksScheme,
  svixScheme,
  stripeScheme,
  githubScheme,
  zoomScheme,
  slackScheme,
  shopifyScheme,
  twilioScheme,
  wandbScheme,
];

/** The module of the webhooks runtime that carries a named scheme, and the name it exports it under. */
export function schemeModule(name: WebhookSchemeName): { module: string; exported: string } {
  return { module: `scheme-${name}`, exported: `${name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())}Scheme` };
}

/**
 * The named schemes a webhooks output carries: its default (the config's `webhooks.scheme`, else the spec's, else
 * Standard Webhooks unless the spec describes its own HMAC signature header), and those the config's
 * `webhooks.schemes` adds for receivers told another one at run time. A scheme you describe (`hmac`,
 * `hmac-sha256`) needs no module.
 */
export function carriedSchemes(named: WebhookScheme | undefined, specSignatureHeader: string | undefined, added: readonly WebhookSchemeName[] = []): WebhookSchemeName[] {
  const type = named === undefined ? undefined : typeof named === "string" ? named : named.type;
  const byDefault = type ?? (specSignatureHeader ? undefined : "standard-webhooks");
  const wanted = new Set<string>([...(byDefault ? [byDefault] : []), ...added]);
  return WEBHOOK_SCHEME_NAMES.filter((name) => wanted.has(name));
}
