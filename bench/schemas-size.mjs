/**
 * Schemas output size: what an application ships when it imports schemas of the `schemas` output, i.e. the module
 * that imports them bundled with what it reaches, tree-shaken and minified by esbuild (ESM, any platform), plus
 * gzip -9. For the v1 spec (spec/) and, when ../shared/corpus is there, OpenAI's: one small component schema imported
 * alone, one larger one, one operation's schemas, and every schema (the whole `schemas` namespace); with specforge's
 * validators and with `schemas: { library: "zod" }` (zod bundled in, as the application ships it).
 *
 *   npm run bench:schemas-size [-- --no-save]
 *
 * Writes bench/RESULTS.schemas.md.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { ROOT } from "./runtime/paths.mjs";
import { environment, fmt, table } from "./runtime/report.mjs";

const OUT = join(ROOT, "bench", ".out", "schemas");
const CORPUS = join(ROOT, "..", "shared", "corpus");
const save = !process.argv.includes("--no-save");

/** Per spec: what is imported, as `[label, import statement, use]`. */
const SPECS = [
  {
    name: "v1",
    path: join(ROOT, "spec", "training-api.v1.yaml"),
    imports: [
      ["one small component (`ErrorResponse`)", 'import { ErrorResponse as s } from "./out/schemas-components.ts";'],
      ["one large component (`ChatCompletionRequest`)", 'import { ChatCompletionRequest as s } from "./out/schemas-components.ts";'],
      ["every schema (`schemas` namespace)", 'import * as s from "./out/schemas.ts";'],
    ],
  },
  {
    name: "openai",
    path: join(CORPUS, "openai-3.1.json"),
    imports: [
      ["one small component (`Error`)", 'import { Error as s } from "./out/schemas-components.ts";'],
      ["one large component (`CreateResponse`)", 'import { CreateResponse as s } from "./out/schemas-components.ts";'],
      ["every schema (`schemas` namespace)", 'import * as s from "./out/schemas.ts";'],
    ],
  },
];

const bytes = (text) => Buffer.byteLength(text);
const gzip = (text) => gzipSync(text, { level: 9 }).length;

function generate(spec, library) {
  const dir = join(OUT, `${spec.name}-${library}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "specforge.config.json"), JSON.stringify({ spec: spec.path, out: "out", outputs: ["types", "schemas"], schemas: { library } }));
  if (!existsSync(join(dir, "node_modules"))) symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  const run = spawnSync(process.execPath, [join(ROOT, "bin", "specforge.js"), "generate", "--quiet"], { cwd: dir, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`generate ${spec.name} (${library}) failed: ${run.stderr}`);
  return dir;
}

async function measure(dir, statement) {
  const result = await build({
    stdin: { contents: `${statement}\nconsole.log(s);\n`, resolveDir: dir, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].text;
  return { bytes: bytes(code), gzip: gzip(code) };
}

const rows = [];
for (const spec of SPECS) {
  if (!existsSync(spec.path)) {
    console.log(`${spec.name}: ${spec.path} not found, skipped`);
    continue;
  }
  const dirs = { specforge: generate(spec, "specforge"), zod: generate(spec, "zod") };
  for (const [label, statement] of spec.imports) {
    const ours = await measure(dirs.specforge, statement);
    const zod = await measure(dirs.zod, statement);
    rows.push([spec.name, label, fmt.int(ours.bytes), fmt.int(ours.gzip), fmt.int(zod.bytes), fmt.int(zod.gzip)]);
    console.log(`${spec.name} ${label}: specforge ${ours.bytes} B (${ours.gzip} gzip), zod ${zod.bytes} B (${zod.gzip} gzip)`);
  }
}

const env = environment();
const markdown = `# Schemas output size

What an application ships for the schemas it imports: an entry importing them, bundled, tree-shaken and minified by
esbuild (ESM, platform neutral), and gzip -9 of that. specforge's validators bring the validation engine they share
with the router (runtime/server/validate.ts and the modules it needs) once, whatever the number of schemas; the zod
columns include zod itself. Reproduce: \`npm run bench:schemas-size\`.

${table(["spec", "imported", "specforge (bytes)", "gzip", "zod (bytes)", "gzip"], rows)}

Node ${env.node}, ${env.cpu}, ${env.date}.
`;
if (save) writeFileSync(join(ROOT, "bench", "RESULTS.schemas.md"), markdown);
else console.log(markdown);
