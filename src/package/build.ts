/**
 * Run after `tsc` in the build (`npm run build`): records the hash of src/ so a built CLI fingerprints itself like the
 * source does, checks the templates import nothing a downstream repository would have to install, and compiles the
 * runtime templates to `.js` + `.d.ts` and formats the three forms once with prettier's defaults, so a run in a project with
 * default settings copies them without a compile or formatting pass.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatWithDefaults } from "../write/format.js";
import { BUILD_INFO, RUNTIME_KINDS } from "./fingerprint.js";
import { hashTree } from "./hash.js";
import { buildInputsHash } from "./build-inputs.js";
import { PACKAGE_ROOT, TEMPLATES_DIR } from "./root.js";
import { templateFiles } from "./template-files.js";
import { compileRuntime } from "./runtime-js.js";
import { foreignImports } from "./template-imports.js";
import { buildJson, FILE_TEMPLATE_KINDS, fileTemplateSource, fileTemplateTexts, FORMATTED_TEMPLATES, PREPARED_TEMPLATES, runtimeSourceHash, runtimeSources, type FormattedTemplates } from "./templates.js";
import { prepare } from "../emit/template.js";

const codeHash = hashTree(join(PACKAGE_ROOT, "src"), (name) => name.endsWith(".ts"));
writeFileSync(BUILD_INFO, JSON.stringify({ codeHash }) + "\n");
// Hashed before anything below runs; recorded once it all succeeded (a build that fails part-way is not current).
const inputsHash = buildInputsHash();

const runtime = RUNTIME_KINDS.flatMap((kind) => runtimeSources(kind).map(({ name, text, sha256 }) => ({ path: `${kind}/${name}`, text, sha256 })));
const fileTemplates = templateFiles("files")
  .filter((file) => file.path.endsWith(".ts"))
  .map((file) => ({ path: `files/${file.path}`, text: file.bytes.toString("utf8") }));
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
for (const { path, text, sha256 } of runtime) {
  const { js, dts } = compiled.get(path)!;
  const base = path.replace(/\.ts$/, "");
  formatted[path] = {
    sourceHash: runtimeSourceHash(sha256),
    js,
    dts,
    formatted: { ts: await formatWithDefaults(text, path), js: await formatWithDefaults(js, `${base}.js`), dts: await formatWithDefaults(dts, `${base}.d.ts`) },
  };
}
writeFileSync(FORMATTED_TEMPLATES, buildJson(formatted));

// The file templates as every generation starts from them (src/emit/template.ts `prepare`), so a run opens each
// with one parse instead of preparing it again.
const prepared = Object.fromEntries(
  FILE_TEMPLATE_KINDS.map((kind) => {
    const file = fileTemplateSource(kind);
    return [kind, { sourceHash: file.sha256, ...prepare(kind, file.bytes.toString("utf8")) }];
  }),
);
writeFileSync(PREPARED_TEMPLATES, buildJson(prepared));

// Written last: dist/ is current only once everything above succeeded (the tests' setup skips a build then).
writeFileSync(BUILD_INFO, JSON.stringify({ codeHash, inputsHash }) + "\n");
