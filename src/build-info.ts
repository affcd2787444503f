/**
 * Run after `tsc` in the build: records the hash of src/ so a built CLI fingerprints itself like the source does,
 * checks the runtime templates import nothing a downstream repository would have to install, and formats them
 * once with prettier's defaults, so a run in a project with default settings copies them without a formatting pass.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT, RUNTIME_KINDS, TEMPLATES_DIR, hashTree } from "./fingerprint.js";
import { formatWithDefaults } from "./write/format.js";
import { sha256 } from "./write/manifest.js";
import { foreignImports } from "./template-imports.js";
import { FORMATTED_TEMPLATES, type FormattedTemplates } from "./templates.js";

const codeHash = hashTree(join(PACKAGE_ROOT, "src"), (name) => name.endsWith(".ts"));
writeFileSync(join(PACKAGE_ROOT, "dist", "build-info.json"), JSON.stringify({ codeHash }) + "\n");

const templates = RUNTIME_KINDS.flatMap((kind) =>
  readdirSync(join(TEMPLATES_DIR, kind))
    .filter((n) => n.endsWith(".ts"))
    .sort()
    .map((name) => ({ path: `${kind}/${name}`, text: readFileSync(join(TEMPLATES_DIR, kind, name), "utf8") })),
);
const foreign = foreignImports(templates);
if (foreign.length > 0) {
  console.error(`specforge build: runtime templates must import only siblings and node: built-ins:\n  ${foreign.join("\n  ")}`);
  process.exit(1);
}

const formatted: FormattedTemplates = {};
for (const { path, text } of templates) formatted[path] = { sourceHash: sha256(text), text: await formatWithDefaults(text) };
writeFileSync(FORMATTED_TEMPLATES, JSON.stringify(formatted));
