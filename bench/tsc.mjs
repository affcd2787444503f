#!/usr/bin/env node
// `tsc --noEmit` over specforge's whole output (in both forms) against openapi-typescript's types alone (the target: ≤ 1.0), and
// nothing else: each output is generated once, then the type-checks alternate, many rounds, so a busy machine
// slows both sides alike. Prints, per spec, tsc's own counts (load-independent: files, lines, identifiers, symbols,
// types, memory) and the medians of CPU, wall and tsc's parse/bind/check times, with two like-for-like rows (each
// side's types alone marked `// @ts-nocheck`: see DERIVED). Writes nothing in the repository.
//
//   node bench/tsc.mjs [--runs 7] [--specs petstore,openai,stripe,github] [--corpus DIR] [--baseline DIR] [--keep]
//     --baseline DIR   another build of specforge (e.g. a copy of the branch point) as a third column
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { benchCompilerOptions } from "./tsconfig-options.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const MODULES = join(ROOT, "node_modules");
const SPECS = {
  petstore: "oai-petstore-3.0.yaml",
  openai: "openai-3.1.json",
  stripe: "stripe-spec3-2023-09-3.0.json",
  github: "github-api.github.com-3.0.json",
};
/** Per process; a generate or tsc that takes longer fails the run. */
const TIMEOUT_MS = 600_000;

const { values: flags } = parseArgs({
  options: {
    runs: { type: "string", default: "7" },
    specs: { type: "string", default: Object.keys(SPECS).join(",") },
    corpus: { type: "string", default: join(ROOT, "..", "shared", "corpus") },
    baseline: { type: "string" },
    keep: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (flags.help) {
  console.log(readFileSync(fileURLToPath(import.meta.url), "utf8").split("\n").slice(1, 8).join("\n").replace(/^\/\/ ?/gm, ""));
  process.exit(0);
}
const runs = Number(flags.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 100) fail(`--runs: expected an integer from 1 to 100, got ${flags.runs}`);
const specIds = flags.specs.split(",").map((s) => s.trim()).filter(Boolean);
for (const id of specIds) {
  if (!(id in SPECS)) fail(`--specs: unknown ${JSON.stringify(id)} (one of ${Object.keys(SPECS).join(", ")})`);
  if (!existsSync(join(flags.corpus, SPECS[id]))) fail(`${join(flags.corpus, SPECS[id])}: spec not found (pass --corpus DIR)`);
}
if (!existsSync(join(ROOT, "dist/src/cli.js"))) fail("specforge is not built: run `npm run build`");
const baseline = flags.baseline && resolve(flags.baseline);
if (baseline && !existsSync(join(baseline, "dist/src/cli.js"))) fail(`--baseline ${flags.baseline}: no built specforge there`);
if (!existsSync("/usr/bin/time")) fail("needs GNU time (/usr/bin/time) for the CPU time of tsc");

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(2);
}

/** Each tool's way to write its output for a spec into a folder; `main` is the file that must exist after. */
const TOOLS = {
  specforge: { main: "index.ts", argv: (spec, out) => [join(ROOT, "bin/specforge.js"), "generate", "--spec", spec, "--out", out] },
  // The other output form: the modules as .js + .d.ts (tsc reads the declarations only).
  "specforge --form js": { main: "index.ts", argv: (spec, out) => [join(ROOT, "bin/specforge.js"), "generate", "--spec", spec, "--out", out, "--form", "js"] },
  ...(baseline ? { baseline: { main: "index.ts", argv: (spec, out) => [join(baseline, "bin/specforge.js"), "generate", "--spec", spec, "--out", out] } } : {}),
  "openapi-typescript": { main: "schema.ts", argv: (spec, out) => [join(MODULES, "openapi-typescript/bin/cli.js"), spec, "-o", join(out, "schema.ts")] },
};
/**
 * Like for like, beside the target's ratio: specforge marks schema.ts `// @ts-nocheck` (a project's compiler then
 * resolves its types where they are used instead of checking every declaration), so two more rows show what the
 * client, server and webhooks themselves add (specforge's schema.ts alone) and what openapi-typescript's types cost
 * with the same directive.
 */
const DERIVED = {
  "specforge schema.ts alone": { from: "specforge", include: (out) => [join(out, "schema.ts")] },
  "openapi-typescript + @ts-nocheck": { from: "openapi-typescript", include: (out) => [nocheckCopy(join(out, "schema.ts"))] },
};
const toolIds = [...Object.keys(TOOLS), ...Object.keys(DERIVED)];

/** A copy of a types file with `// @ts-nocheck` on top, beside it. */
function nocheckCopy(file) {
  const copy = join(dirname(dirname(file)), "nocheck", "schema.ts");
  mkdirSync(dirname(copy), { recursive: true });
  writeFileSync(copy, `// @ts-nocheck\n${readFileSync(file, "utf8")}`);
  return copy;
}
const COUNTS = ["Files", "Lines of Definitions", "Lines of TypeScript", "Identifiers", "Symbols", "Types", "Instantiations", "Memory used"];

/** Bytes of the files below `dir` (the output a tool wrote), and of those below its runtime/ folder. */
function sizes(dir) {
  let total = 0;
  let runtime = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const bytes = statSync(path).size;
    total += bytes;
    if (path.slice(dir.length).startsWith("/runtime/")) runtime += bytes;
  }
  return { total, runtime };
}
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const PHASES = ["Parse", "Bind", "Check"];

const work = mkdtempSync(join(os.tmpdir(), "specforge-bench-tsc-"));
process.on("exit", () => flags.keep || rmSync(work, { recursive: true, force: true }));
process.on("SIGINT", () => process.exit(130));

function run(argv, cwd) {
  const result = spawnSync("/usr/bin/time", ["-f", "%e %U %S", process.execPath, ...argv], { cwd, encoding: "utf8", timeout: TIMEOUT_MS, maxBuffer: 64 << 20 });
  const [wall, user, sys] = result.stderr.trim().split("\n").at(-1).split(" ").map(Number);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, wall, cpu: user + sys };
}

const tsconfigs = {};
const outputSizes = {};
for (const spec of specIds) {
  for (const tool of Object.keys(TOOLS)) {
    const out = join(work, spec, tool, "out");
    mkdirSync(out, { recursive: true });
    const generated = run(TOOLS[tool].argv(join(flags.corpus, SPECS[spec]), out), dirname(out));
    if (generated.status !== 0 || !existsSync(join(out, TOOLS[tool].main))) fail(`${tool} did not generate ${spec}:\n${generated.stderr.slice(-2000)}`);
    const file = join(work, spec, tool, "tsconfig.json");
    writeFileSync(file, JSON.stringify({ compilerOptions: benchCompilerOptions(["node"], join(MODULES, "@types")), include: [join(out, "**", "*.ts")] }, null, 2));
    tsconfigs[`${spec}/${tool}`] = file;
    outputSizes[`${spec}/${tool}`] = sizes(out);
  }
  for (const [id, derived] of Object.entries(DERIVED)) {
    const file = join(work, spec, id.replace(/\W+/g, "-") + ".tsconfig.json");
    const include = derived.include(join(work, spec, derived.from, "out"));
    writeFileSync(file, JSON.stringify({ compilerOptions: benchCompilerOptions(["node"], join(MODULES, "@types")), include }, null, 2));
    tsconfigs[`${spec}/${id}`] = file;
  }
}

const load = [os.loadavg()[0]];
const samples = {};
for (const spec of specIds) {
  for (let round = 0; round < runs; round++) {
    // Rotated every round: no tool always runs first, or right after the same neighbour.
    const order = toolIds.map((_, i) => toolIds[(i + round) % toolIds.length]);
    for (const tool of order) {
      const result = run([join(MODULES, "typescript/bin/tsc"), "-p", tsconfigs[`${spec}/${tool}`], "--extendedDiagnostics"], work);
      if (result.status !== 0) fail(`tsc over ${tool}'s ${spec} output failed:\n${result.stdout.slice(-2000)}`);
      const field = (name) => result.stdout.match(new RegExp(`^${name}:\\s+(\\S+)`, "m"))?.[1];
      const s = (samples[`${spec}/${tool}`] ??= { cpu: [], wall: [], Parse: [], Bind: [], Check: [] });
      s.cpu.push(result.cpu);
      s.wall.push(result.wall);
      for (const phase of PHASES) s[phase].push(Number.parseFloat(field(`${phase} time`)));
      s.counts ??= Object.fromEntries(COUNTS.map((name) => [name, field(name)]));
      process.stderr.write(`${spec} ${tool} round ${round + 1}/${runs}: cpu ${result.cpu.toFixed(2)} s\n`);
    }
  }
}
load.push(os.loadavg()[0]);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const lines = [
  `tsc --noEmit over each output, ${runs} alternating rounds per spec, medians; load average ${load[0].toFixed(1)} at the start, ${load[1].toFixed(1)} at the end (${os.cpus().length} cores)`,
  "",
  `| spec | output | bytes (runtime) | ${COUNTS.join(" | ")} | parse s | bind s | check s | CPU s | wall s | CPU ÷ oat | wall ÷ oat |`,
  `|---|---|---:|${COUNTS.map(() => "---:").join("|")}|---:|---:|---:|---:|---:|---:|---:|`,
];
for (const spec of specIds) {
  const ref = samples[`${spec}/openapi-typescript`];
  for (const tool of toolIds) {
    const s = samples[`${spec}/${tool}`];
    const ratio = (k) => (median(s[k]) / median(ref[k])).toFixed(3);
    const size = outputSizes[`${spec}/${tool}`];
    lines.push(
      `| ${spec} | ${tool} | ${size ? `${kB(size.total)} (${kB(size.runtime)})` : "–"} | ${COUNTS.map((name) => s.counts[name]).join(" | ")} | ${PHASES.map((p) => (s[p].every(Number.isNaN) ? "–" : median(s[p]).toFixed(2))).join(" | ")} | ` +
        `${median(s.cpu).toFixed(2)} | ${median(s.wall).toFixed(2)} | ${ratio("cpu")} | ${ratio("wall")} |`,
    );
  }
}
lines.push("");
for (const spec of specIds) {
  const cpu = (tool) => median(samples[`${spec}/${tool}`].cpu);
  lines.push(
    `${spec}: whole output ÷ openapi-typescript's types ${(cpu("specforge") / cpu("openapi-typescript")).toFixed(3)} (ts form), ` +
      `${(cpu("specforge --form js") / cpu("openapi-typescript")).toFixed(3)} (js form); ` +
      `like for like, whole output ÷ specforge's schema.ts alone ${(cpu("specforge") / cpu("specforge schema.ts alone")).toFixed(3)} ` +
      `(what the client, server and webhooks add), whole output ÷ openapi-typescript's types with @ts-nocheck ` +
      `${(cpu("specforge") / cpu("openapi-typescript + @ts-nocheck")).toFixed(3)} (CPU medians)`,
  );
}
console.log(lines.join("\n"));
