/** Weights & Biases' automations: `X-Wandb-Signature: <hex>` (base64 accepted) over the body. Events by `event_type`. */
import { bodyHmacSha256 } from "./schemes.js";
import type { SchemePreset } from "./schemes.js";

/** `scheme: "wandb"`. */
export const wandbScheme: SchemePreset = {
  name: "wandb",
  resolve: () => bodyHmacSha256("wandb", { header: "X-Wandb-Signature", encoding: "hex", acceptEncodings: ["hex", "base64"] }),
};
