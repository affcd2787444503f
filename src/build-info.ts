/**
 * Run after `tsc` in the build: records the hash of src/ so a built CLI fingerprints itself like the source does,
 * and formats the runtime templates once with prettier's defaults, so a run in a project with default settings
 * copies them without a formatting pass.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT, RUNTIME_KINDS, TEMPLATES_DIR, hashTree } from "./fingerprint.js";
import { formatWithDefaults } from "./write/format.js";
import { sha256 } from "./write/manifest.js";
import { FORMATTED_TEMPLATES, type FormattedTemplates } from "./templates.js";

const codeHash = hashTree(join(PACKAGE_ROOT, "src"), (name) => name.endsWith(".ts"));
writeFileSync(join(PACKAGE_ROOT, "dist", "build-info.json"), JSON.stringify({ codeHash }) + "\n");

const formatted: FormattedTemplates = {};
for (const kind of RUNTIME_KINDS) {
  for (const name of readdirSync(join(TEMPLATES_DIR, kind)).filter((n) => n.endsWith(".ts")).sort()) {
    const source = readFileSync(join(TEMPLATES_DIR, kind, name), "utf8");
    formatted[`${kind}/${name}`] = { sourceHash: sha256(source), text: await formatWithDefaults(source) };
  }
}
writeFileSync(FORMATTED_TEMPLATES, JSON.stringify(formatted));
