import type { RuntimeKind } from "../package/fingerprint.js";
import type { RuntimeTemplate } from "../package/templates.js";
import type { EmittedFile } from "./file.js";

/** The hand-written runtime of one output kind, copied as it is from `templates/<kind>/` to `runtime/<kind>/`. */
export function emitRuntime(kind: RuntimeKind, templates: readonly RuntimeTemplate[]): EmittedFile[] {
  return templates.map((template) => ({
    path: `runtime/${kind}/${template.name}`,
    content: template.text,
    description: `${kind} runtime, copied from specforge's templates/${kind}/${template.name} (type-checked there)`,
    canonical: template.formatted,
    noCheck: true,
  }));
}
