import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { EmittedFile } from "./emit/file.js";
import { PACKAGE_ROOT, TEMPLATES_DIR } from "./fingerprint.js";
import { sha256 } from "./write/manifest.js";

/** Written by the build: each runtime template formatted with prettier's defaults, keyed by `<kind>/<file>`. */
export const FORMATTED_TEMPLATES = join(PACKAGE_ROOT, "dist", "templates.formatted.json");
export type FormattedTemplates = Record<string, { sourceHash: string; text: string }>;

let formatted: FormattedTemplates | undefined;
function formattedTemplates(): FormattedTemplates {
  formatted ??= existsSync(FORMATTED_TEMPLATES) ? (JSON.parse(readFileSync(FORMATTED_TEMPLATES, "utf8")) as FormattedTemplates) : {};
  return formatted;
}

/**
 * The hand-written runtime of one output kind, copied from `templates/<kind>/` to `runtime/<kind>/`, with its
 * build-time formatted text when the template has not changed since the build.
 */
export function runtimeFiles(kind: "client" | "server" | "webhooks"): EmittedFile[] {
  const dir = join(TEMPLATES_DIR, kind);
  return readdirSync(dir)
    .filter((name) => name.endsWith(".ts"))
    .sort()
    .map((name) => {
      const content = readFileSync(join(dir, name), "utf8");
      const built = formattedTemplates()[`${kind}/${name}`];
      return {
        path: `runtime/${kind}/${name}`,
        content,
        description: `${kind} runtime, copied from specforge's templates/${kind}/${name} (type-checked there)`,
        canonical: built?.sourceHash === sha256(content) ? built.text : undefined,
        noCheck: true,
      };
    });
}
