import { ts } from "../deps.js";
import type { ApiModel, Webhook } from "../ir/model.js";
import { jsDoc, jsonConstant, moduleSpecifiers, objectTypeAlias, renderFile, types } from "./canonical.js";
import type { EmittedFile } from "./file.js";
import type { ModuleExports } from "./index-file.js";
import { commentText } from "./literal.js";


const RUNTIME = "./runtime/webhooks/index.js";

/**
 * `webhooks.ts`: the event types of the spec's `webhooks:`, and a verifier, parser, receiver and payload-template
 * tools configured from the spec's `x-webhook-signature`, `x-webhook-event-type`, `x-webhook-auth` and
 * `x-payload-variables` extensions (each optional). Behaviour lives in the runtime copied from `templates/webhooks/`.
 */
export function emitWebhooks(model: ApiModel): { files: EmittedFile[]; exports: ModuleExports } {
  const settings = model.webhookSettings;
  const hooks = uniqueEvents(model.webhooks);
  const hasVariables = settings.payloadVariables.length > 0;
  const signatureHeader = settings.signature?.header;

  const spec = webhookRuntimeSpec(model);
  const signatureWhere = signatureHeader ? `the \`${commentText(signatureHeader)}\` header` : "a signature header you name";
  // What the receiver verifies unless `options.scheme` says otherwise (the runtime's `schemeOf`).
  const scheme = settings.scheme
    ? `\`${settings.scheme}\``
    : signatureHeader
      ? `the spec's HMAC-SHA256 of the body in \`${commentText(signatureHeader)}\``
      : "`standard-webhooks`";
  const exported: [string, string, string][] = [
    ["verifyWebhookSignature", "verifySignature", `True when the signature (${signatureWhere}) is the HMAC-SHA256 of the exact raw body with the secret; constant-time. Never throws.`],
    ["signWebhookPayload", "sign", "The signature header value for a body, as the sender computes it."],
    ["signWebhookDelivery", "signDelivery", `The signature headers a sender puts on a body, by \`options.scheme\` (default: ${scheme}), for tests of your receiver.`],
    ["parseWebhook", "parse", `Verifies a delivery (signature by \`options.scheme\`, default: ${scheme}; bearer token when configured), parses it and identifies its event; throws \`WebhookVerificationError\` and never returns unverified data.`],
    ["createWebhookHandler", "createHandler", `A \`(request: Request) => Promise<Response>\` receiver (signature by \`options.scheme\`, default: ${scheme}): 401 when verification fails, 400 for bad JSON or an unknown event, 413 past the body limit, 408 past the body time limit, 200 after your handler ran.`],
    ["createWebhookNodeListener", "createNodeListener", "The same receiver as a `node:http` request listener: `http.createServer(createWebhookNodeListener({ secret, on }))`."],
    ["renderPayloadTemplate", "renderTemplate", "Renders a payload template: `${variable}` (JSON-escaped inside strings), `${artifact_metadata.KEY}`, `${ACCESS_TOKEN}`, `${SECRET}` and `$SECRET`."],
    ["checkPayloadTemplate", "checkTemplate", "Reports unknown variables and templates that do not render to valid JSON."],
  ];
  const content = renderFile([
    [
      moduleSpecifiers("import type", ["webhooks"], "./schema.js"),
      moduleSpecifiers("import", ["createWebhookTools", "type WebhookEventOf", "type WebhookPayloadOf", "type WebhookSpec"], RUNTIME),
    ],
    [moduleSpecifiers("export", ["WebhookVerificationError", "isWebhookVerificationError", "type WebhookFailureReason", "type WebhookScheme"], RUNTIME)],
    [
      jsDoc("How deliveries are signed, identified and authenticated, and the payload variables: read from the spec."),
      jsonConstant("export const webhookSpec: WebhookSpec<keyof WebhookEvents & string>", spec),
    ],
    [
      jsDoc("The payload type of each webhook, by event type."),
      objectTypeAlias(
        "export type WebhookEvents",
        hooks.map((hook) => ({ name: hook.key, doc: eventDocs(hook), type: types.reference("WebhookPayloadOf", [types.indexed("webhooks", hook.key)]) })),
        "Record<never, never>",
      ),
      jsDoc("The request headers each webhook declares (signature, authorization, …), by event type."),
      objectTypeAlias(
        "export type WebhookHeaders",
        hooks.map((hook) => ({
          name: hook.key,
          type: types.reference("NonNullable", [
            ts.factory.createIndexedAccessTypeNode(
              ts.factory.createIndexedAccessTypeNode(types.indexed("webhooks", hook.key, hook.method), types.string("parameters")),
              types.string("header"),
            ),
          ]),
        })),
        "Record<never, never>",
      ),
      jsDoc("A verified delivery; narrow it with `event.type`."),
      "export type WebhookEvent = WebhookEventOf<WebhookEvents>;",
    ],
    [jsDoc("Every event type the spec declares."), jsonConstant("export const WEBHOOK_EVENT_TYPES: readonly (keyof WebhookEvents)[]", hooks.map((h) => h.key))],
    [
      jsDoc(
        hasVariables
          ? "Values for `${…}` placeholders of payload templates (secrets are passed separately)."
          : "The spec declares no payload variables (`x-payload-variables`): any name is accepted.",
      ),
      objectTypeAlias(
        "export type PayloadVariables",
        settings.payloadVariables
          .filter((v) => v.kind === "value" || v.kind === "map")
          .map((v) => ({
            name: v.name,
            doc: v.description ? commentText(v.description) : undefined,
            type:
              v.kind === "map"
                ? types.reference("Record", [types.keyword("string"), types.keyword("unknown")])
                : types.keyword(typeof v.example === "string" || v.example === undefined ? "string" : "unknown"),
          })),
        "Record<string, unknown>",
      ),
    ],
    [
      "const tools = createWebhookTools<WebhookEvents, PayloadVariables>(webhookSpec);",
      ...exported.flatMap(([name, member, doc]) => [jsDoc(doc), `export const ${name} = tools.${member};`]),
    ],
  ]);
  return {
    files: [{ path: "webhooks.ts", content, canonical: content, description: "webhook event types, signature verification, receiver and payload templates" }],
    exports: {
      module: "webhooks",
      values: ["webhookSpec", "WEBHOOK_EVENT_TYPES", "verifyWebhookSignature", "signWebhookPayload", "signWebhookDelivery", "parseWebhook", "createWebhookHandler", "createWebhookNodeListener", "renderPayloadTemplate", "checkPayloadTemplate", "WebhookVerificationError", "isWebhookVerificationError"],
      types: ["WebhookEvents", "WebhookHeaders", "WebhookEvent", "PayloadVariables", "WebhookFailureReason", "WebhookScheme"],
    },
  };
}

/**
 * The descriptor the webhooks runtime is configured with (`WebhookSpec` of templates/webhooks): emitted into
 * webhooks.ts, and used as is by `specforge webhook test`.
 */
export function webhookRuntimeSpec(model: ApiModel): Record<string, unknown> {
  const settings = model.webhookSettings;
  const spec: Record<string, unknown> = {};
  if (settings.scheme) spec.scheme = settings.scheme;
  if (settings.signature) {
    const { header, algorithm, encoding, acceptEncodings, prefix } = settings.signature;
    spec.signature = { header, algorithm, signedContent: "raw-body", encoding, acceptEncodings, ...(prefix ? { prefix } : {}) };
  }
  if (settings.eventType) spec.eventType = settings.eventType;
  if (settings.auth) spec.auth = settings.auth;
  spec.events = uniqueEvents(model.webhooks).map((hook) => {
    const values = [...new Set([...hook.wireValues, ...(hook.eventHeader ? [hook.eventHeader] : [])])];
    const when = Object.keys(hook.conditions).length > 0 ? { when: hook.conditions } : {};
    if (values.length === 1 && values[0] === hook.key && !when.when) return hook.key;
    return { name: hook.key, ...(values.length === 1 && values[0] === hook.key ? {} : { values }), ...when };
  });
  if (settings.payloadVariables.length > 0) {
    spec.variables = settings.payloadVariables.map((v) => ({ name: v.name, kind: v.kind, ...(v.events ? { events: v.events } : {}) }));
  }
  return spec;
}

/** One entry per webhook key (a key with several methods is one event: its first method is used). */
function uniqueEvents(webhooks: Webhook[]): Webhook[] {
  const seen = new Set<string>();
  return webhooks.filter((hook) => !seen.has(hook.key) && seen.add(hook.key));
}

function eventDocs(hook: Webhook): string | undefined {
  const lines = [hook.summary, hook.description !== hook.summary ? hook.description : undefined].filter(Boolean).map((t) => commentText(t!));
  if (hook.deprecated) lines.push("@deprecated");
  return lines.length > 0 ? lines.join("\n\n") : undefined;
}

