#!/usr/bin/env node
// What an editor feels (docs/performance.md, "Editor completion"): the time the TypeScript language service takes to answer a completion at
// `client.` in a file importing specforge's output, against openapi-fetch's `client.GET("` (path-string completions)
// on openapi-typescript's types, for the same spec and with the same compiler options.
//
//   node bench/completion.mjs [--spec github] [--runs 5] [--corpus DIR]
//   (SPECFORGE_BENCH_OPENAPI_FETCH=DIR: openapi-fetch 0.17.0 installed elsewhere than bench/node_modules)
//
// cold = the first request of a fresh process: language service and program created, every file parsed and bound,
//        the completion's types checked (what opening the file in an editor costs);
// warm = a second request after an edit of the file (a character typed above the cursor), in the same service.
// Each run is its own node process (`--child`); medians are printed as a Markdown table.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SPECS = { petstore: "oai-petstore-3.0.yaml", openai: "openai-3.1.json", stripe: "stripe-spec3-2023-09-3.0.json", github: "github-api.github.com-3.0.json" };
const { values: flags } = parseArgs({
  options: {
    spec: { type: "string", default: "github" },
    runs: { type: "string", default: "5" },
    corpus: { type: "string", default: join(ROOT, "..", "shared", "corpus") },
    child: { type: "string" },
  },
});

/** The same compiler options for both projects: a Node project's (as bench/generate.mjs type-checks the outputs). */
const COMPILER_OPTIONS = {
  target: "ES2022",
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: ["node"],
  typeRoots: [join(ROOT, "node_modules/@types")],
};

if (flags.child) {
  // One measurement: --child <json {dir, file, marker}>; prints {cold, warm, entries} (ms).
  const { dir, file, marker } = JSON.parse(flags.child);
  const t0 = performance.now();
  const ts = createRequire(join(ROOT, "package.json"))("typescript");
  const loaded = performance.now() - t0;
  const text = readFileSync(file, "utf8");
  let content = text;
  let version = 0;
  const options = ts.convertCompilerOptionsFromJson({ ...COMPILER_OPTIONS, lib: COMPILER_OPTIONS.lib.map((l) => l.replace(/^lib\.|\.d\.ts$/g, "")) }, dir).options;
  const host = {
    getScriptFileNames: () => [file],
    getScriptVersion: (name) => (name === file ? String(version) : "0"),
    getScriptSnapshot: (name) => {
      if (name === file) return ts.ScriptSnapshot.fromString(content);
      return existsSync(name) ? ts.ScriptSnapshot.fromString(readFileSync(name, "utf8")) : undefined;
    },
    getCurrentDirectory: () => dir,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
  };
  const complete = (service) => {
    const at = content.indexOf(marker) + marker.length;
    const result = service.getCompletionsAtPosition(file, at, { includeCompletionsForModuleExports: false, triggerCharacter: marker.endsWith('"') ? '"' : "." });
    return result?.entries.length ?? 0;
  };
  const t1 = performance.now();
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  const entries = complete(service);
  const cold = performance.now() - t1;
  // An edit above the cursor: a comment grows by one character, as typing does.
  content = content.replace("// edit here", "// edit here.");
  version++;
  const t2 = performance.now();
  const again = complete(service);
  const warm = performance.now() - t2;
  // Why a request answers nothing: on GitHub, openapi-fetch's `client.GET("` with the path not yet typed makes the
  // checker infer the call over all ~900 GET paths, and it stops with error 2589 ("Type instantiation is excessively
  // deep and possibly infinite"): the call is typed `any`, so there are no path strings to offer. A complete path
  // type-checks (docs/performance.md, "Editor completion"). The request's errors (not "expected 2 arguments") are reported.
  // Asked of a fresh service (after a completion the checker has cached the failed instantiation and does not
  // report it again), and only when nothing was offered: a full check of GitHub's types costs seconds.
  const errors = entries > 0 ? [] : ts.createLanguageService(host, ts.createDocumentRegistry()).getSemanticDiagnostics(file).map((d) => d.code).filter((code) => code !== 2554);
  console.log(JSON.stringify({ loaded, cold, warm, entries, again, errors }));
  process.exit(0);
}

const specFile = join(flags.corpus, SPECS[flags.spec] ?? flags.spec);
if (!existsSync(specFile)) {
  console.error(`bench: ${specFile}: spec not found (pass --corpus DIR or --spec petstore|openai|stripe|github)`);
  process.exit(2);
}
const runs = Number(flags.runs);
const work = mkdtempSync(join(os.tmpdir(), "specforge-completion-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
const run = (argv, cwd = work) => {
  const r = spawnSync(process.execPath, argv, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${argv.join(" ")}: exit ${r.status}\n${r.stderr}`);
  return r.stdout;
};

// specforge's whole output, and a file using its client.
run([join(ROOT, "bin/specforge.js"), "generate", "--spec", specFile, "--out", join(work, "specforge", "gen"), "--quiet"]);
writeFileSync(join(work, "specforge", "package.json"), JSON.stringify({ type: "module" }));
const specforgeFile = join(work, "specforge", "main.ts");
writeFileSync(specforgeFile, ['import { createClient } from "./gen/index.js";', "", "const client = createClient();", "// edit here", "client.", ""].join("\n"));

// openapi-typescript's types and openapi-fetch (from the bench install), and the same kind of file.
const openapiFetch = process.env.SPECFORGE_BENCH_OPENAPI_FETCH ?? join(ROOT, "bench", "node_modules", "openapi-fetch");
if (!existsSync(openapiFetch)) {
  console.error("bench: openapi-fetch is not installed: run `npm run bench:install`");
  process.exit(2);
}
run([join(ROOT, "node_modules/openapi-typescript/bin/cli.js"), specFile, "-o", join(work, "openapi-fetch", "schema.ts")]);
writeFileSync(join(work, "openapi-fetch", "package.json"), JSON.stringify({ type: "module" }));
const fetchFile = join(work, "openapi-fetch", "main.ts");
writeFileSync(
  fetchFile,
  [`import createClient from ${JSON.stringify(join(openapiFetch, "dist", "index.mjs"))};`, 'import type { paths } from "./schema.js";', "", "const client = createClient<paths>();", "// edit here", 'client.GET("");', ""].join("\n"),
);

const cases = [
  { name: "specforge: `client.` (one method per operation)", dir: join(work, "specforge"), file: specforgeFile, marker: "client." },
  { name: 'openapi-fetch: `client.GET("` (path strings)', dir: join(work, "openapi-fetch"), file: fetchFile, marker: 'client.GET("' },
];
const results = new Map(cases.map((c) => [c.name, []]));
for (let i = 0; i < runs; i++) {
  for (const c of i % 2 ? [...cases].reverse() : cases) {
    results.get(c.name).push(JSON.parse(run([fileURLToPath(import.meta.url), "--child", JSON.stringify({ dir: c.dir, file: c.file, marker: c.marker })])));
  }
}
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const load = os.loadavg().map((l) => l.toFixed(2)).join(" / ");
console.log(`Completion in the TypeScript language service (typescript ${createRequire(join(ROOT, "package.json"))("typescript").version}), ${flags.spec}, median of ${runs} processes; load average ${load}\n`);
console.log("| case | completions | cold ms (first request: program + check) | warm ms (after an edit) |");
console.log("|---|---:|---:|---:|");
for (const c of cases) {
  const r = results.get(c.name);
  const gaveUp = r[0].errors.length > 0 ? ` (TypeScript error${r[0].errors.length > 1 ? "s" : ""} ${[...new Set(r[0].errors)].map((code) => `TS${code}`).join(", ")} at the request: it gave up)` : "";
  console.log(`| ${c.name} | ${r[0].entries}${gaveUp} | ${median(r.map((x) => x.cold)).toFixed(0)} | ${median(r.map((x) => x.warm)).toFixed(0)} |`);
}
