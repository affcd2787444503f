import type { OptionalKind, PropertySignatureStructure, TypeAliasDeclarationStructure } from "ts-morph";
import { WEBHOOK_SCHEME_NAMES } from "../../templates/webhooks/types.js";
import type { WebhooksConfig } from "../config/resolve.js";
import type { ApiModel, Webhook } from "../ir/model.js";
import { propertyKey } from "../ir/naming.js";
import { tsMorph } from "../package/ts-morph.js";
import type { FileTemplateSource } from "../package/templates.js";
import type { EmittedFile } from "./file.js";
import { commentText } from "./literal.js";
import { LongTexts } from "./long-text.js";
import { FileTemplate, typeText } from "./template.js";
import { carriedSchemes, schemeModule } from "./webhook-schemes.js";
import { uniqueEvents, webhookRuntimeSpec } from "./webhook-spec.js";

type Member = OptionalKind<PropertySignatureStructure>;

/**
 * `webhooks.ts`: the event types of the spec's `webhooks:`, and a verifier, parser, receiver and payload-template
 * tools configured from the spec's `x-webhook-signature`, `x-webhook-event-type`, `x-webhook-auth` and
 * `x-payload-variables` extensions (each optional), from templates/files/webhooks.ts. Behaviour lives in the runtime
 * copied from templates/webhooks/.
 */
export function emitWebhooks(model: ApiModel, source: FileTemplateSource, config: WebhooksConfig = {}): EmittedFile[] {
  const template = new FileTemplate(source);
  const settings = model.webhookSettings;
  const hooks = uniqueEvents(model.webhooks);
  const signatureHeader = settings.signature?.header;
  const named = config.scheme ?? settings.scheme;

  // The comments that say which signature the receiver checks unless `options.scheme` says otherwise (the
  // runtime's `schemeOf`).
  const signatureWhere = signatureHeader ? `the \`${commentText(signatureHeader)}\` header` : "a signature header you name";
  const scheme = named
    ? `\`${typeof named === "string" ? named : commentText(named.type)}\``
    : signatureHeader
      ? `the spec's HMAC-SHA256 of the body in \`${commentText(signatureHeader)}\``
      : "`standard-webhooks`";
  const comments: Record<string, string> = {
    verifyWebhookSignature: `True when the signature (${signatureWhere}) is the HMAC-SHA256 of the exact raw body with the secret; constant-time. Never throws.`,
    signWebhookDelivery: `The signature headers a sender puts on a body, by \`options.scheme\` (default: ${scheme}), for tests of your receiver.`,
    parseWebhook: `Verifies a delivery (signature by \`options.scheme\`, default: ${scheme}; bearer token when configured), parses it and identifies its event; throws \`WebhookVerificationError\` and never returns unverified data.`,
    createWebhookHandler: `A \`(request: Request) => Promise<Response>\` receiver (signature by \`options.scheme\`, default: ${scheme}): 401 when verification fails, 400 for bad JSON or an unknown event, 413 past the body limit, 408 past the body time limit, 200 after your handler ran.`,
  };
  for (const [name, comment] of Object.entries(comments)) template.structure(name, "variable").docs = [comment];

  // Only the named schemes this output uses are imported, so only their modules are copied into the runtime.
  const carried = carriedSchemes(named, signatureHeader, config.schemes);
  for (const name of WEBHOOK_SCHEME_NAMES) {
    const slot = `import ./runtime/webhooks/${schemeModule(name).module}.js`;
    if (carried.includes(name)) template.keep(slot);
    else template.remove(slot);
  }
  template.structure("schemes", "variable").declarations[0]!.initializer = `[${carried.map((name) => schemeModule(name).exported).join(", ")}]`;

  // One event (and payload variable) per line.
  template.fillData("webhookSpec", webhookRuntimeSpec(model, config), 2);
  template.fillData("WEBHOOK_EVENT_TYPES", hooks.map((hook) => hook.key));
  const texts = new LongTexts();
  setMembers(template.structure("WebhookEvents", "typeAlias"), hooks.map((hook) => eventMember(hook, texts)), "Record<never, never>");
  setMembers(template.structure("WebhookHeaders", "typeAlias"), hooks.map(headersMember), "Record<never, never>");

  const payloadVariables = template.structure("PayloadVariables", "typeAlias");
  if (settings.payloadVariables.length > 0) {
    payloadVariables.docs = ["Values for `${…}` placeholders of payload templates (secrets are passed separately)."];
  }
  const variables = settings.payloadVariables.filter((v) => v.kind === "value" || v.kind === "map");
  setMembers(
    payloadVariables,
    variables.map((v) => ({
      name: propertyKey(v.name),
      ...(v.description ? { docs: [commentText(v.description)] } : {}),
      type: v.kind === "map" ? "Record<string, unknown>" : typeof v.example === "string" || v.example === undefined ? "string" : "unknown",
    })),
    "Record<string, unknown>",
  );

  return template.printModule("webhook event types, signature verification, receiver and payload templates");
}

/** `type Name = { members }`, or `type Name = empty` without members. */
function setMembers(alias: TypeAliasDeclarationStructure, members: Member[], empty: string): void {
  alias.type = members.length > 0 ? tsMorph.Writers.objectType({ properties: members }) : empty;
}

function eventMember(hook: Webhook, texts: LongTexts): Member {
  const lines = [hook.summary, hook.description !== hook.summary ? hook.description : undefined].filter(Boolean).map((t) => commentText(texts.use(t!, `\`${hook.key}\``)));
  if (hook.deprecated) lines.push("@deprecated");
  return {
    name: propertyKey(hook.key),
    type: typeText.reference("WebhookPayloadOf", [typeText.indexed("webhooks", hook.key)]),
    ...(lines.length > 0 ? { docs: [lines.join("\n\n")] } : {}),
  };
}

function headersMember(hook: Webhook): Member {
  return {
    name: propertyKey(hook.key),
    type: typeText.reference("NonNullable", [typeText.indexed("webhooks", hook.key, hook.method, "parameters", "header")]),
  };
}
