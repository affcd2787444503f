/**
 * Run after `tsc` in the build (`npm run build`): records the hash of src/ so a built CLI fingerprints itself like the
 * source does, checks the templates import nothing a downstream repository would have to install, and compiles the
 * runtime templates to `.js` + `.d.ts` and formats them once with prettier's defaults, so a run in a project with
 * default settings copies them without a compile or formatting pass.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatWithDefaults } from "../write/format.js";
import { BUILD_INFO, RUNTIME_KINDS } from "./fingerprint.js";
import { hashTree, sha256 } from "./hash.js";
import { PACKAGE_ROOT, TEMPLATES_DIR } from "./root.js";
import { compileRuntime } from "./runtime-js.js";
import { foreignImports } from "./template-imports.js";
import { FILE_TEMPLATE_KINDS, fileTemplateTexts, FORMATTED_TEMPLATES, PREPARED_TEMPLATES, runtimeSourceHash, runtimeSources, type FormattedTemplates } from "./templates.js";
import { prepare } from "../emit/template.js";

const codeHash = hashTree(join(PACKAGE_ROOT, "src"), (name) => name.endsWith(".ts"));
writeFileSync(BUILD_INFO, JSON.stringify({ codeHash }) + "\n");

const runtime = RUNTIME_KINDS.flatMap((kind) => runtimeSources(kind).map(({ name, text }) => ({ path: `${kind}/${name}`, text })));
const fileTemplates = readdirSync(join(TEMPLATES_DIR, "files"))
  .filter((name) => name.endsWith(".ts"))
  .sort()
  .map((name) => ({ path: `files/${name}`, text: readFileSync(join(TEMPLATES_DIR, "files", name), "utf8") }));
const foreign = foreignImports([...runtime, ...fileTemplates]);
if (foreign.length > 0) {
  console.error(`specforge build: templates must import only siblings and node: built-ins:\n  ${foreign.join("\n  ")}`);
  process.exit(1);
}

// The runtime as it is shipped: each template compiled to `.js` and `.d.ts` (src/package/runtime-js.ts), formatted.
const compiled = compileRuntime(
  new Map(runtime.map(({ path, text }) => [path, text])),
  TEMPLATES_DIR,
  fileTemplateTexts(),
);
const formatted: FormattedTemplates = {};
for (const { path, text } of runtime) {
  const { js, dts } = compiled.get(path)!;
  const base = path.replace(/\.ts$/, "");
  formatted[path] = { sourceHash: runtimeSourceHash(text, fileTemplateTexts()), js, dts, formatted: { js: await formatWithDefaults(js, `${base}.js`), dts: await formatWithDefaults(dts, `${base}.d.ts`) } };
}
writeFileSync(FORMATTED_TEMPLATES, JSON.stringify(formatted));

// The file templates as every generation starts from them (src/emit/template.ts `prepare`), so a run opens each
// with one parse instead of preparing it again.
const prepared = Object.fromEntries(
  FILE_TEMPLATE_KINDS.map((kind) => {
    const text = readFileSync(join(TEMPLATES_DIR, "files", `${kind}.ts`), "utf8");
    return [kind, { sourceHash: sha256(text), ...prepare(kind, text) }];
  }),
);
writeFileSync(PREPARED_TEMPLATES, JSON.stringify(prepared));
