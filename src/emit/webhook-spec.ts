import type { SignatureEncoding, WebhookSignatureSpec, WebhookSpec } from "../../templates/webhooks/types.js";
import type { WebhooksConfig } from "../config/resolve.js";
import type { ApiModel, Webhook } from "../ir/model.js";

/**
 * The descriptor the webhooks runtime (templates/webhooks/) is configured with: written into webhooks.ts, and used as
 * it is by `specforge webhook test`. The config's `webhooks` (scheme, eventType) win over what the spec says.
 */
export function webhookRuntimeSpec(model: ApiModel, config: WebhooksConfig = {}): WebhookSpec {
  const settings = model.webhookSettings;
  const signature = settings.signature;
  const scheme = config.scheme ?? settings.scheme;
  const eventType = config.eventType ?? settings.eventType;
  return {
    ...(scheme ? { scheme } : {}),
    ...(signature
      ? {
          // As the spec writes them: the runtime refuses an algorithm or encoding it does not implement when it starts.
          signature: {
            header: signature.header,
            algorithm: signature.algorithm as WebhookSignatureSpec["algorithm"],
            signedContent: "raw-body",
            encoding: signature.encoding as SignatureEncoding,
            acceptEncodings: signature.acceptEncodings as SignatureEncoding[],
            ...(signature.prefix ? { prefix: signature.prefix } : {}),
          },
        }
      : {}),
    ...(eventType ? { eventType } : {}),
    ...(settings.auth ? { auth: settings.auth } : {}),
    events: uniqueEvents(model.webhooks).map((hook) => {
      const values = [...new Set([...hook.wireValues, ...(hook.eventHeader ? [hook.eventHeader] : [])])];
      const when = Object.keys(hook.conditions).length > 0 ? { when: hook.conditions } : {};
      if (values.length === 1 && values[0] === hook.key && !when.when) return hook.key;
      return { name: hook.key, ...(values.length === 1 && values[0] === hook.key ? {} : { values }), ...when };
    }),
    ...(settings.payloadVariables.length > 0
      ? { variables: settings.payloadVariables.map((v) => ({ name: v.name, kind: v.kind, ...(v.events ? { events: v.events } : {}) })) }
      : {}),
  };
}

/** One entry per webhook key (a key with several methods is one event: its first method is used). */
export function uniqueEvents(webhooks: readonly Webhook[]): Webhook[] {
  const seen = new Set<string>();
  return webhooks.filter((hook) => !seen.has(hook.key) && seen.add(hook.key));
}
