import type { OutputKind } from "../config/resolve.js";
import type { SpecWarning } from "../errors.js";
import type { ApiModel } from "../ir/model.js";

/** What each output is made from, as a warning names it. */
const SOURCE: Record<"client" | "server" | "webhooks", { has: (model: ApiModel) => boolean; what: string }> = {
  client: { has: (model) => model.operations.length > 0, what: "operations (`paths`)" },
  server: { has: (model) => model.operations.length > 0, what: "operations (`paths`)" },
  webhooks: { has: (model) => model.webhooks.length > 0, what: "`webhooks`" },
};

/**
 * The outputs a spec gets. By default, those it has something for: a spec without `paths` (a vendor's webhooks
 * description) gets no empty `Client` or router and none of their runtime; one without `webhooks` gets no webhook
 * files. A list the user gave (`from`: the flag or config field) is kept as it is, with a warning for each output
 * the spec has nothing for (the webhooks, which have no empty form, are then left out).
 */
export function outputsForSpec(
  model: ApiModel,
  asked: Readonly<Record<OutputKind, boolean>>,
  from: string | undefined,
): { outputs: Record<OutputKind, boolean>; warnings: SpecWarning[] } {
  const outputs = { ...asked };
  const warnings: SpecWarning[] = [];
  for (const kind of ["client", "server", "webhooks"] as const) {
    if (!asked[kind] || SOURCE[kind].has(model)) continue;
    if (from === undefined || kind === "webhooks") outputs[kind] = false;
    if (from !== undefined) {
      warnings.push({
        message: `the ${kind} output has nothing to generate: the spec has no ${SOURCE[kind].what}${kind === "webhooks" ? "; no webhook files are written" : `; an empty ${kind} is written`}`,
        location: from,
        hint: `leave "${kind}" out of \`outputs\`, or leave \`outputs\` out to get what the spec has`,
      });
    }
  }
  return { outputs, warnings };
}
