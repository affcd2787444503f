#!/usr/bin/env node
// The generation benchmark: specforge against openapi-typescript, @hey-api/openapi-ts and orval on the
// same specs, in one run, tools alternating. See bench/README.md for what is measured and how.
//
//   npm run bench -- [--runs N] [--warmup N] [--specs petstore,openai,stripe,github] [--tools specforge,orval,…]
//                    [--no-tsc] [--quick] [--corpus DIR] [--results FILE] [--timeout SECONDS] [--keep]
//                    [--baseline DIR]   (another build of specforge, e.g. a worktree of main, as one more tool)
//                    [--threads]        (specforge with SPECFORGE_THREADS=auto as one more tool)
// Tools: specforge (warm: V8 code cache of node_modules/.cache/specforge, as every run after the first),
// specforge-cold (SPECFORGE_CODE_CACHE=0: no code cache, as the first run in a fresh clone or CI), the peers.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { benchCompilerOptions } from "./tsconfig-options.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const MODULES = join(ROOT, "node_modules");
/** The peer generators live in the benchmarks' own package (bench/package.json), not in specforge's install. */
const PEERS = join(ROOT, "bench", "node_modules");

/** The benchmark's specs (files of ../shared/corpus) and the reference numbers of a faster machine (wall seconds, MiB). */
const SPECS = {
  petstore: {
    file: "oai-petstore-3.0.yaml",
    ref: { generate: { "openapi-typescript": 1.52, "hey-api": 1.54, orval: 1.21 } },
  },
  openai: {
    file: "openai-3.1.json",
    ref: { generate: { "openapi-typescript": 3.33, "hey-api": 4.99, orval: 2.67 } },
  },
  stripe: {
    file: "stripe-spec3-2023-09-3.0.json",
    ref: {
      generate: { "openapi-typescript": 3.93, "hey-api": 11.74, orval: 3.95 },
      tsc: { "openapi-typescript": "1.84", "hey-api": "4.77 (does not compile)", orval: "6.96 (does not compile)" },
    },
  },
  github: {
    file: "github-api.github.com-3.0.json",
    ref: {
      generate: { "openapi-typescript": 5.95, "hey-api": 9.46, orval: 6.77 },
      tsc: { "openapi-typescript": "2.77", "hey-api": "5.12", orval: "8.77" },
      rssMiB: { "openapi-typescript": 446, "hey-api": 546, orval: 270 },
    },
  },
};

/**
 * Each tool is run through node on its own bin (no npx), with its defaults, into a fresh folder. `argv` gets the
 * spec, the output folder and a scratch folder for config files; `produces` is the file a successful run must leave;
 * `tscTypes` are the @types packages its output needs to compile.
 */
const TOOLS = {
  specforge: {
    label: "specforge",
    packageDir: ROOT,
    output: "types + client + server + webhooks, prettier-formatted",
    produces: "index.ts",
    tscTypes: ["node"], // runtime/server/node.ts imports node:http; the peers' outputs need only the DOM lib
    argv: (spec, out) => [join(ROOT, "bin/specforge.js"), "generate", "--spec", spec, "--out", out],
  },
  "specforge-cold": {
    label: "specforge, cold",
    packageDir: ROOT,
    output: "the same, without V8's code cache (`SPECFORGE_CODE_CACHE=0`: a fresh clone's first run)",
    produces: "index.ts",
    env: { SPECFORGE_CODE_CACHE: "0" },
    tsc: false, // the same output as specforge's
    argv: (spec, out) => [join(ROOT, "bin/specforge.js"), "generate", "--spec", spec, "--out", out],
  },
  "openapi-typescript": {
    label: "openapi-typescript",
    packageDir: join(MODULES, "openapi-typescript"),
    output: "types only",
    produces: "schema.ts",
    argv: (spec, out) => [join(MODULES, "openapi-typescript/bin/cli.js"), spec, "-o", join(out, "schema.ts")],
  },
  "hey-api": {
    label: "@hey-api/openapi-ts",
    packageDir: join(PEERS, "@hey-api/openapi-ts"),
    output: "types + sdk + client-fetch (default plugins)",
    produces: "index.ts",
    argv: (spec, out) => [join(PEERS, "@hey-api/openapi-ts/bin/run.js"), "-i", spec, "-o", out],
  },
  orval: {
    label: "orval",
    packageDir: join(PEERS, "orval"),
    output: "fetch client (`client: \"fetch\"`)",
    produces: "api.ts",
    argv: (spec, out, scratch) => {
      const config = join(scratch, "orval.config.mjs");
      const options = { api: { input: spec, output: { target: join(out, "api.ts"), client: "fetch" } } };
      writeFileSync(config, `export default ${JSON.stringify(options, null, 2)};\n`);
      return [join(PEERS, "orval/dist/bin/orval.mjs"), "--config", config];
    },
  },
};

const { values: flags } = parseArgs({
  allowNegative: true,
  options: {
    runs: { type: "string", default: process.env.BENCH_RUNS ?? "5" },
    warmup: { type: "string", default: "1" },
    specs: { type: "string", default: Object.keys(SPECS).join(",") },
    tools: { type: "string", default: Object.keys(TOOLS).join(",") },
    tsc: { type: "boolean", default: true },
    quick: { type: "boolean", default: false },
    corpus: { type: "string", default: join(ROOT, "..", "shared", "corpus") },
    results: { type: "string" },
    timeout: { type: "string", default: "1200" },
    keep: { type: "boolean", default: false },
    baseline: { type: "string" },
    threads: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (flags.help) {
  console.log(readFileSync(fileURLToPath(import.meta.url), "utf8").split("\n").slice(1, 6).join("\n").replace(/^\/\/ ?/gm, ""));
  process.exit(0);
}

if (flags.baseline) {
  const base = resolve(flags.baseline);
  if (!existsSync(join(base, "dist/src/cli.js"))) fail(`--baseline ${flags.baseline}: no built specforge there (run \`npm run build\` in it)`);
  TOOLS.baseline = {
    label: "specforge baseline",
    packageDir: base,
    output: `the build in ${base}`,
    produces: "index.ts",
    tsc: false,
    argv: (spec, out) => [join(base, "bin/specforge.js"), "generate", "--spec", spec, "--out", out],
  };
  if (!flags.tools.split(",").includes("baseline")) flags.tools += ",baseline";
}
if (flags.threads) {
  // schema.ts on the second core (src/types-thread.ts), off by default for its memory: measured beside the default.
  TOOLS["specforge-threads"] = { ...TOOLS.specforge, label: "specforge, types thread", output: "the same, schema.ts on a worker thread (`SPECFORGE_THREADS=auto`)", env: { SPECFORGE_THREADS: "auto" }, tsc: false };
  if (!flags.tools.split(",").includes("specforge-threads")) flags.tools += ",specforge-threads";
}

const runs = flags.quick ? 1 : positiveInt(flags.runs, "--runs");
const warmup = flags.quick ? 0 : positiveInt(flags.warmup, "--warmup", true);
const timeoutMs = positiveInt(flags.timeout, "--timeout") * 1000;
const specIds = pick(flags.specs, SPECS, "--specs");
const toolIds = pick(flags.tools, TOOLS, "--tools");
const fullMatrix = !flags.quick && flags.tsc && !flags.baseline && !flags.threads && specIds.length === Object.keys(SPECS).length && toolIds.length === Object.keys(TOOLS).length;
// Only a full run replaces the committed bench/RESULTS.md; smoke tests and subsets go to the ignored bench/.out/.
const resultsFile = resolve(flags.results ?? (fullMatrix ? join(ROOT, "bench/RESULTS.md") : join(ROOT, "bench/.out/RESULTS.md")));

for (const id of specIds) {
  const path = join(flags.corpus, SPECS[id].file);
  if (!existsSync(path)) fail(`${path}: spec not found (pass --corpus DIR, the folder of ../shared/corpus)`);
}
for (const id of toolIds) {
  if (!existsSync(TOOLS[id].packageDir)) fail(`${TOOLS[id].label} is not installed: run \`npm run bench:install\``);
}
if (!existsSync(join(ROOT, "dist/src/cli.js"))) fail("specforge is not built: run `npm run build`");

function positiveInt(text, flag, zeroOk = false) {
  const n = Number(text);
  if (!Number.isInteger(n) || n < (zeroOk ? 0 : 1)) fail(`${flag}: expected a ${zeroOk ? "non-negative" : "positive"} integer, got ${text}`);
  return n;
}
function pick(list, table, flag) {
  const ids = list.split(",").map((s) => s.trim()).filter(Boolean);
  for (const id of ids) if (!(id in table)) fail(`${flag}: unknown ${JSON.stringify(id)} (one of ${Object.keys(table).join(", ")})`);
  return Object.keys(table).filter((id) => ids.includes(id)); // canonical order
}
function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring one process tree

/**
 * GNU time reports the user+sys CPU of the process and all its waited-for descendants and the largest resident
 * set of any single process in the tree (hey-api's bin re-spawns node; orval may spawn a formatter). Without it
 * (e.g. macOS' BSD time) only wall time is measured.
 */
const TIME = "/usr/bin/time";
const haveGnuTime = existsSync(TIME) && spawnSync(TIME, ["-f", "%e", "-o", "/dev/null", "true"]).status === 0;
const work = mkdtempSync(join(os.tmpdir(), "specforge-bench-"));
const timeFile = join(work, "time.txt");
const env = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" };
let running = null;
// Removed however the run ends (normally, on an error, on Ctrl-C), unless --keep.
process.on("exit", () => flags.keep || rmSync(work, { recursive: true, force: true }));

/** Runs `node ...argv` in `cwd`; resolves to { code, wall, cpu, rssMiB, output } (seconds, MiB; null if unknown). */
function measure(argv, cwd, extraEnv = {}) {
  return new Promise((done) => {
    rmSync(timeFile, { force: true });
    const command = haveGnuTime ? [TIME, "-f", "%e %U %S %M", "-o", timeFile, process.execPath, ...argv] : [process.execPath, ...argv];
    const started = performance.now();
    const child = spawn(command[0], command.slice(1), { cwd, env: { ...env, ...extraEnv }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    running = child;
    let output = "";
    const collect = (chunk) => {
      output += chunk;
      if (output.length > 8_000_000) output = output.slice(-4_000_000);
    };
    child.stdout.setEncoding("utf8").on("data", collect);
    child.stderr.setEncoding("utf8").on("data", collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killTree(child);
    }, timeoutMs);
    child.on("close", (code, signal) => {
      const wall = (performance.now() - started) / 1000;
      clearTimeout(timer);
      running = null;
      let cpu = null;
      let rssMiB = null;
      if (haveGnuTime && existsSync(timeFile)) {
        // With a non-zero exit GNU time writes "Command exited with non-zero status N" first: the numbers are last.
        const fields = readFileSync(timeFile, "utf8").trim().split("\n").at(-1).split(" ").map(Number);
        if (fields.length === 4 && fields.every(Number.isFinite)) {
          cpu = fields[1] + fields[2];
          rssMiB = fields[3] / 1024;
        }
      }
      done({ code: timedOut ? `timeout after ${timeoutMs / 1000} s` : (code ?? signal), wall, cpu, rssMiB, output });
    });
  });
}
/** "exit 2", a signal name or "timeout after N s". */
function exitText(code) {
  return typeof code === "number" ? `exit ${code}` : String(code);
}
function killTree(child) {
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}
process.on("SIGINT", () => {
  if (running) killTree(running);
  process.exit(130);
});

// ---------------------------------------------------------------------------------------------------------------
// The run: rounds of (spec × tool), the tool order rotated every round so no tool always follows the same one

/** Samples per "kind/spec/tool": generate, check (specforge only) and tsc. */
const samples = new Map();
const failures = new Map();
const outputs = new Map();
const key = (kind, spec, tool) => `${kind}/${spec}/${tool}`;
const outDir = (spec, tool) => join(work, "out", spec, tool);
const scratchDir = (spec, tool) => join(work, "scratch", spec, tool);

function record(kind, spec, tool, round, result) {
  const k = key(kind, spec, tool);
  if (!samples.has(k)) samples.set(k, []);
  if (round >= warmup) samples.get(k).push({ ...result, output: undefined });
}

function tsconfigFor(spec, tool) {
  // One set of compiler options for every tool (bench/tsconfig-options.mjs says which and why).
  const types = [...new Set(Object.values(TOOLS).flatMap((t) => t.tscTypes ?? []))];
  const config = {
    compilerOptions: benchCompilerOptions(types, join(MODULES, "@types")),
    include: [join(outDir(spec, tool), "**", "*.ts")],
  };
  const file = join(scratchDir(spec, tool), "tsconfig.json");
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

const totalRounds = warmup + runs;
const startedAt = new Date();
const loadStart = os.loadavg();
const t0 = performance.now();
let roundsDone = 0;
let roundFraction = 0; // of the current round, by steps

function progress(round, spec, tool, kind, result) {
  const elapsed = (performance.now() - t0) / 1000;
  let eta = "after the first round";
  if (roundsDone > 0) {
    const perRound = elapsed / (roundsDone + roundFraction);
    eta = `~${duration(Math.max(0, perRound * totalRounds - elapsed))}`;
  }
  const status = result.ok ? (result.errors ? `  (${result.errors} errors)` : "") : `  FAILED (${exitText(result.code)})`;
  const extra = [result.cpu == null ? "" : `cpu ${result.cpu.toFixed(2)} s`, result.rssMiB == null ? "" : `${Math.round(result.rssMiB)} MiB`].filter(Boolean).join("  ");
  console.error(
    `[${round < warmup ? "warm-up" : `run ${round - warmup + 1}/${runs}`}] ${spec.padEnd(8)} ${TOOLS[tool].label.padEnd(20)} ${kind.padEnd(8)} ` +
      `${result.wall.toFixed(2).padStart(7)} s  ${extra}${status}   (elapsed ${duration(elapsed)}, ETA ${eta})`,
  );
}
function duration(seconds) {
  const total = Math.round(seconds);
  const m = Math.floor(total / 60);
  return m > 0 ? `${m}m${String(total % 60).padStart(2, "0")}s` : `${total}s`;
}

console.error(
  `bench: ${specIds.join(", ")} × ${toolIds.map((t) => TOOLS[t].label).join(", ")}; ${warmup} warm-up + ${runs} measured round(s)` +
    `${flags.tsc ? ", tsc --noEmit over every output" : ""}; scratch ${work}` +
    (haveGnuTime ? "" : "\nbench: no GNU time at /usr/bin/time: measuring wall time only"),
);
console.error(`bench: load average ${loadStart.map((l) => l.toFixed(2)).join(" ")} on ${os.cpus().length} cores`);

const stepsPerRound = specIds.length * toolIds.length;
for (let round = 0; round < totalRounds; round++) {
  let step = 0;
  for (const spec of specIds) {
    const specPath = join(flags.corpus, SPECS[spec].file);
    const order = toolIds.map((_, i) => toolIds[(i + round) % toolIds.length]);
    for (const tool of order) {
      step++;
      roundFraction = step / stepsPerRound;
      if (failures.has(key("generate", spec, tool))) continue; // failed once: recorded, not retried every round
      const out = outDir(spec, tool);
      rmSync(out, { recursive: true, force: true }); // every run is a cold write into a missing folder
      mkdirSync(scratchDir(spec, tool), { recursive: true });
      const gen = await measure(TOOLS[tool].argv(specPath, out, scratchDir(spec, tool)), scratchDir(spec, tool), TOOLS[tool].env);
      gen.ok = gen.code === 0 && existsSync(join(out, TOOLS[tool].produces));
      progress(round, spec, tool, "generate", gen);
      if (!gen.ok) {
        failures.set(key("generate", spec, tool), { code: gen.code, message: lastLines(gen.output) });
        continue;
      }
      record("generate", spec, tool, round, gen);
      outputs.set(key("generate", spec, tool), treeSize(out));

      if (tool === "specforge") {
        const check = await measure([join(ROOT, "bin/specforge.js"), "check", "--spec", specPath, "--out", out], scratchDir(spec, tool));
        check.ok = check.code === 0;
        progress(round, spec, tool, "check", check);
        if (check.ok) record("check", spec, tool, round, check);
        else failures.set(key("check", spec, tool), { code: check.code, message: lastLines(check.output) });
      }

      if (flags.tsc && TOOLS[tool].tsc !== false) {
        // Run in the output folder so the errors name its files (`api.ts(…)`).
        const tsc = await measure([join(MODULES, "typescript/bin/tsc"), "-p", tsconfigFor(spec, tool)], out);
        const errors = tsc.output.match(/error TS\d+:/g) ?? [];
        tsc.ok = tsc.code === 0 || (tsc.code === 2 && errors.length > 0); // tsc exits 2 when it reports errors
        tsc.errors = errors.length;
        tsc.firstError = tsc.output.split("\n").find((line) => /error TS\d+:/.test(line));
        progress(round, spec, tool, "tsc", tsc);
        if (tsc.ok) record("tsc", spec, tool, round, tsc);
        else failures.set(key("tsc", spec, tool), { code: tsc.code, message: lastLines(tsc.output) });
      }
    }
  }
  roundsDone++;
  roundFraction = 0;
}
const loadEnd = os.loadavg();
const totalSeconds = (performance.now() - t0) / 1000;

function lastLines(text) {
  return text.replaceAll(work, "<out>").trim().split("\n").filter(Boolean).slice(-3).join(" / ").slice(0, 300);
}
function treeSize(dir) {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      files++;
      bytes += statSync(join(entry.parentPath, entry.name)).size;
    }
  }
  return { files, bytes };
}

// ---------------------------------------------------------------------------------------------------------------
// Statistics and the report

function median(values) {
  const sorted = values.filter((v) => v != null).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
/** Medians of wall, CPU and peak RSS over the measured runs, or null when there is none. */
function stats(kind, spec, tool) {
  const list = samples.get(key(kind, spec, tool));
  if (!list?.length) return null;
  const walls = list.map((s) => s.wall);
  return {
    n: list.length,
    wall: median(walls),
    min: Math.min(...walls),
    max: Math.max(...walls),
    cpu: median(list.map((s) => s.cpu)),
    rssMiB: median(list.map((s) => s.rssMiB)),
    errors: list.at(-1).errors,
    firstError: list.at(-1).firstError,
    compiles: list.at(-1).code === 0,
  };
}

const secs = (v) => (v == null ? "n/a" : v.toFixed(2));
const mib = (v) => (v == null ? "n/a" : String(Math.round(v)));
const ratio = (a, b) => (a == null || b == null ? null : a / b);
const times = (r) => (r == null ? "n/a" : `${r.toFixed(2)}×`);
const size = ({ files, bytes }) => `${files} file${files === 1 ? "" : "s"}, ${bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`}`;
const failedCell = (kind, spec, tool) => {
  const f = failures.get(key(kind, spec, tool));
  return f ? `failed (${exitText(f.code)})${f.message ? `: ${f.message.replaceAll("|", "\\|")}` : ""}` : "not measured";
};
function version(tool) {
  return JSON.parse(readFileSync(join(TOOLS[tool].packageDir, "package.json"), "utf8")).version;
}
function moduleVersion(name) {
  return JSON.parse(readFileSync(join(MODULES, name, "package.json"), "utf8")).version;
}
function git(...args) {
  const r = spawnSync("git", args, { cwd: ROOT, encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
}

const lines = [];
const row = (...cells) => lines.push(`| ${cells.join(" | ")} |`);

lines.push(
  "# Generation benchmark",
  "",
  `Written by \`npm run bench\` (bench/generate.mjs) on ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC; the run took ${duration(totalSeconds)}. ` +
    `${runs} measured run${runs === 1 ? "" : "s"} per tool and spec after ${warmup} warm-up round${warmup === 1 ? "" : "s"}; ` +
    "every round runs every spec with every tool, the tool order rotated each round. Whole process (node started on each tool's bin, " +
    "output into a fresh folder): **wall** = median wall-clock seconds, **CPU** = median user+sys seconds of the process tree, " +
    "**peak RSS** = median over runs of the largest resident set of any one process in the tree. How and caveats: bench/README.md.",
  "",
);
if (!fullMatrix) lines.push("**Partial run** (a subset of specs or tools, `--quick` or `--no-tsc`): not the committed numbers.", "");

lines.push("## Machine and versions", "", "| | |", "|---|---|");
const cpus = os.cpus();
row("CPU", `${cpus[0]?.model ?? "unknown"} × ${cpus.length}`);
row("RAM", `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`);
row("OS", `${os.type()} ${os.release()} (${os.arch()})`);
row("Node", process.version);
row("load average (1/5/15 min) at start → end", `${loadStart.map((l) => l.toFixed(2)).join(" / ")} → ${loadEnd.map((l) => l.toFixed(2)).join(" / ")}`);
const commit = git("rev-parse", "--short", "HEAD");
const dirty = git("status", "--porcelain", "--", "src", "templates", "bin");
for (const tool of toolIds) {
  const extra = tool === "specforge" && commit ? ` (git ${commit}${dirty ? ", uncommitted changes in src/templates" : ""})` : "";
  row(TOOLS[tool].label, version(tool) + extra);
}
row("typescript (tsc over the outputs)", moduleVersion("typescript"));
row("prettier (specforge's formatter)", moduleVersion("prettier"));
row("measured with", haveGnuTime ? "GNU time (`/usr/bin/time -f '%e %U %S %M'`) around `node <bin>`; wall from the parent's clock" : "wall clock only (no GNU time)");
lines.push("");

// Targets
const g = (spec, tool) => stats("generate", spec, tool);
const targets = [];
/** `cpu` is the same ratio over CPU seconds: not the target, but steadier than wall time on a busy machine. */
function target(name, spec, measured, cpu, limit, test, why) {
  let result;
  if (why) result = why;
  else if (measured == null) result = "not measured";
  else result = test(measured) ? "**met**" : "**not met**";
  targets.push({ name, spec, measured, cpu, limit, result });
}
const peerFailed = (spec, tool) => failures.has(key("generate", spec, tool));
const sfFailed = (spec) => failures.has(key("generate", spec, "specforge"));
for (const spec of specIds) {
  for (const [peer, limit, test] of [
    ["hey-api", "< 1", (r) => r < 1],
    ["orval", "< 1", (r) => r < 1],
    ["openapi-typescript", "≤ 1.2", (r) => r <= 1.2],
  ]) {
    if (!toolIds.includes(peer) || !toolIds.includes("specforge")) continue;
    const measured = ratio(g(spec, "specforge")?.wall, g(spec, peer)?.wall);
    const cpu = ratio(g(spec, "specforge")?.cpu, g(spec, peer)?.cpu);
    const why = sfFailed(spec) ? "**not met** (specforge failed)" : peerFailed(spec, peer) ? `n/a (${TOOLS[peer].label} failed)` : null;
    target(`generate wall: specforge ÷ ${TOOLS[peer].label}`, spec, measured, cpu, limit, test, why);
  }
}
// Half of openapi-typescript's time, warm (code cache) and cold (none) reported apart.
for (const spec of specIds) {
  if (!toolIds.includes("openapi-typescript")) continue;
  for (const [tool, name] of [
    ["specforge", "generate wall, warm: specforge ÷ openapi-typescript"],
    ["specforge-cold", "generate wall, cold: specforge without code cache ÷ openapi-typescript"],
  ]) {
    if (!toolIds.includes(tool)) continue;
    const why = failures.has(key("generate", spec, tool)) ? "**not met** (specforge failed)" : peerFailed(spec, "openapi-typescript") ? "n/a (openapi-typescript failed)" : null;
    target(name, spec, ratio(g(spec, tool)?.wall, g(spec, "openapi-typescript")?.wall), ratio(g(spec, tool)?.cpu, g(spec, "openapi-typescript")?.cpu), "≤ 0.5", (r) => r <= 0.5, why);
  }
}
if (specIds.includes("github") && toolIds.includes("specforge") && toolIds.includes("openapi-typescript")) {
  target(
    "`specforge check` (up to date) ÷ openapi-typescript generate",
    "github",
    ratio(stats("check", "github", "specforge")?.wall, g("github", "openapi-typescript")?.wall),
    ratio(stats("check", "github", "specforge")?.cpu, g("github", "openapi-typescript")?.cpu),
    "≤ 0.05",
    (r) => r <= 0.05,
  );
}
// The memory bar is for every spec of the benchmark, like the time bar (not GitHub's alone).
for (const spec of specIds) {
  if (!toolIds.includes("specforge") || !toolIds.includes("openapi-typescript")) continue;
  const why = failures.has(key("generate", spec, "specforge")) ? "**not met** (specforge failed)" : peerFailed(spec, "openapi-typescript") ? "n/a (openapi-typescript failed)" : null;
  target("peak RSS: specforge ÷ openapi-typescript", spec, ratio(g(spec, "specforge")?.rssMiB, g(spec, "openapi-typescript")?.rssMiB), null, "≤ 0.75", (r) => r <= 0.75, why);
}
if (specIds.includes("github") && toolIds.includes("specforge") && toolIds.includes("openapi-typescript")) {
  target(
    "`specforge check` (up to date) ÷ openapi-typescript generate",
    "github",
    ratio(stats("check", "github", "specforge")?.wall, g("github", "openapi-typescript")?.wall),
    ratio(stats("check", "github", "specforge")?.cpu, g("github", "openapi-typescript")?.cpu),
    "≤ 0.25",
    (r) => r <= 0.25,
  );
}
if (flags.tsc && toolIds.includes("specforge") && toolIds.includes("openapi-typescript")) {
  for (const spec of specIds) {
    const sf = stats("tsc", spec, "specforge");
    const ot = stats("tsc", spec, "openapi-typescript");
    target("tsc --noEmit wall: specforge's output ÷ openapi-typescript's", spec, ratio(sf?.wall, ot?.wall), ratio(sf?.cpu, ot?.cpu), "≤ 1.3", (r) => r <= 1.3, sf && !sf.compiles ? "**not met** (specforge's output does not compile)" : null);
  }
  // The client, server and webhooks cost nothing measurable to type-check.
  for (const spec of specIds) {
    const sf = stats("tsc", spec, "specforge");
    const ot = stats("tsc", spec, "openapi-typescript");
    target("tsc --noEmit wall: specforge's output ÷ openapi-typescript's", spec, ratio(sf?.wall, ot?.wall), ratio(sf?.cpu, ot?.cpu), "≤ 1.0", (r) => r <= 1.0, sf && !sf.compiles ? "**not met** (specforge's output does not compile)" : null);
  }
}
if (specIds.includes("github") && toolIds.includes("specforge") && toolIds.includes("openapi-typescript")) {
  target("peak RSS: specforge ÷ openapi-typescript", "github", ratio(g("github", "specforge")?.rssMiB, g("github", "openapi-typescript")?.rssMiB), null, "≤ 1", (r) => r <= 1);
}
if (targets.length) {
  const met = targets.filter((t) => t.result.startsWith("**met")).length;
  lines.push(
    "## Targets (ratios measured in this run)",
    "",
    `${met} of ${targets.length} met. Judged on the measured ratio (wall time, or peak RSS); the same ratio over CPU seconds is shown beside it because it is steadier on a shared machine.`,
    "",
    "| target | spec | measured | (CPU ratio) | limit | result |",
    "|---|---|---:|---:|---:|---|",
  );
  for (const t of targets) row(t.name, t.spec, times(t.measured), t.cpu == null ? "" : times(t.cpu), t.limit, t.result);
  lines.push("");
}

// Generate
lines.push(
  "## Generate (whole process, cold write)",
  "",
  "`specforge ÷ tool` is specforge's median wall time divided by the tool's: below 1 means specforge is faster. " +
    "The last column is the reference wall time measured on a faster machine, to compare the machines.",
  "",
  "| spec | tool | output | wall s | min–max s | CPU s | peak RSS MiB | specforge ÷ tool | reference wall s |",
  "|---|---|---|---:|---:|---:|---:|---:|---:|",
);
for (const spec of specIds) {
  const sf = g(spec, "specforge");
  for (const tool of toolIds) {
    const s = g(spec, tool);
    const out = outputs.get(key("generate", spec, tool));
    const ref = SPECS[spec].ref.generate[tool] ?? "";
    if (!s) {
      row(spec, TOOLS[tool].label, TOOLS[tool].output, failedCell("generate", spec, tool), "", "", "", "", ref);
      continue;
    }
    row(
      spec,
      TOOLS[tool].label,
      `${TOOLS[tool].output}; ${size(out)}`,
      `**${secs(s.wall)}**`,
      `${secs(s.min)}–${secs(s.max)}`,
      secs(s.cpu),
      mib(s.rssMiB),
      tool === "specforge" || tool === "specforge-cold" || tool === "specforge-threads" || tool === "baseline" ? (tool === "specforge" ? "" : `(÷ warm: ${times(ratio(s.wall, sf?.wall))})`) : times(ratio(sf?.wall, s.wall)),
      ref,
    );
  }
}
lines.push("");
if (specIds.includes("github")) {
  const refs = SPECS.github.ref.rssMiB;
  lines.push(`The reference machine's peak memory on GitHub: ${Object.entries(refs).map(([t, v]) => `${TOOLS[t].label} ${v} MiB`).join(", ")}.`, "");
}

// Check
if (toolIds.includes("specforge")) {
  lines.push(
    "## `specforge check` on the output it just wrote (nothing stale)",
    "",
    "| spec | wall s | min–max s | CPU s | peak RSS MiB | ÷ openapi-typescript generate |",
    "|---|---:|---:|---:|---:|---:|",
  );
  for (const spec of specIds) {
    const s = stats("check", spec, "specforge");
    if (!s) row(spec, failures.has(key("check", spec, "specforge")) ? failedCell("check", spec, "specforge") : failedCell("generate", spec, "specforge"), "", "", "", "");
    else row(spec, `**${secs(s.wall)}**`, `${secs(s.min)}–${secs(s.max)}`, secs(s.cpu), mib(s.rssMiB), times(ratio(s.wall, g(spec, "openapi-typescript")?.wall)));
  }
  lines.push("");
}

// tsc
if (flags.tsc) {
  lines.push(
    "## `tsc --noEmit` over each tool's whole output",
    "",
    "The same compiler options for every output, a Node project's: `strict`, `noEmit`, `skipLibCheck`, target ES2022, lib ES2022 + DOM, " +
      "module/moduleResolution NodeNext (all four outputs use `.js`-suffixed relative imports or are one file), `types: [\"node\"]` " +
      "(specforge's Node server adapter imports `node:http`; the peers compile the same with them). " +
      "None of the outputs imports a package: hey-api copies its fetch client into the output, orval's fetch client uses the global `fetch`, " +
      "specforge copies its runtime. Errors = `error TS…` lines; the first is quoted.",
    "",
    "| spec | tool | wall s | min–max s | CPU s | peak RSS MiB | compiles | specforge ÷ tool | reference |",
    "|---|---|---:|---:|---:|---:|---|---:|---|",
  );
  for (const spec of specIds) {
    const sf = stats("tsc", spec, "specforge");
    for (const tool of toolIds) {
      const s = stats("tsc", spec, tool);
      const ref = SPECS[spec].ref.tsc?.[tool] ?? "";
      if (!s) {
        const cause = failures.has(key("tsc", spec, tool)) ? failedCell("tsc", spec, tool) : `no output (${failedCell("generate", spec, tool)})`;
        row(spec, TOOLS[tool].label, cause, "", "", "", "", "", ref);
        continue;
      }
      const compiles = s.compiles ? "yes" : `**no**: ${s.errors} error${s.errors === 1 ? "" : "s"}, e.g. \`${(s.firstError ?? "").replaceAll("|", "\\|").replaceAll("`", "'").slice(0, 160)}\``;
      row(spec, TOOLS[tool].label, `**${secs(s.wall)}**`, `${secs(s.min)}–${secs(s.max)}`, secs(s.cpu), mib(s.rssMiB), compiles, tool === "specforge" ? "" : times(ratio(sf?.wall, s.wall)), ref);
    }
  }
  lines.push("");
}

if (failures.size) {
  lines.push("## Failures", "", "| step | how | last output |", "|---|---|---|");
  for (const [k, f] of failures) row(`\`${k}\``, exitText(f.code), f.message.replaceAll("|", "\\|"));
  lines.push("");
}

const report = lines.join("\n");
mkdirSync(dirname(resultsFile), { recursive: true });
writeFileSync(resultsFile, report);
const raw = { startedAt, runs, warmup, specs: specIds, tools: toolIds, samples: Object.fromEntries(samples), failures: Object.fromEntries(failures) };
mkdirSync(join(ROOT, "bench/.out"), { recursive: true });
writeFileSync(join(ROOT, "bench/.out/samples.json"), JSON.stringify(raw, null, 2));
console.log(report);
console.error(`bench: wrote ${relative(process.cwd(), resultsFile) || resultsFile} (raw samples: bench/.out/samples.json) in ${duration(totalSeconds)}`);
