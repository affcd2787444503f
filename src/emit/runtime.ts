import type { RuntimeKind } from "../package/fingerprint.js";
import type { RuntimeTemplate } from "../package/templates.js";
import type { EmittedFile } from "./file.js";

/**
 * The hand-written runtime of one output kind, shipped as npm packages ship code: each module of `templates/<kind>/`
 * as `runtime/<kind>/<name>.js` (compiled by specforge's build, comments kept) and `<name>.d.ts` (its declarations),
 * so a downstream `tsc` reads declarations only. The `.js` names its declarations for Deno (`@ts-self-types`).
 */
export function emitRuntime(kind: RuntimeKind, templates: readonly RuntimeTemplate[]): EmittedFile[] {
  return templates.flatMap((template): EmittedFile[] => {
    const description = `${kind} runtime, compiled from specforge's templates/${kind}/${template.name}.ts (type-checked there)`;
    const selfTypes = `// @ts-self-types="./${template.name}.d.ts"\n`;
    return [
      {
        path: `runtime/${kind}/${template.name}.d.ts`,
        content: template.dts,
        description: `${description}: its declarations`,
        canonical: template.formatted?.dts,
        noCheck: true,
      },
      {
        path: `runtime/${kind}/${template.name}.js`,
        content: selfTypes + template.js,
        description,
        canonical: template.formatted && selfTypes + template.formatted.js,
        noCheck: true,
      },
    ];
  });
}
