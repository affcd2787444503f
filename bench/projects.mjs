#!/usr/bin/env node
/**
 * `specforge check` of a config with several up-to-date projects (the bound: ten specs checked in under a second),
 * and `specforge generate` of the same projects from scratch, as real processes (wall time, Node's startup
 * included), on copies of the embedded v1 spec with all four outputs.
 *
 *   npm run bench:projects [-- --projects 10 --runs 5]
 *
 * Prints a small table and the target; writes nothing in the repository (the scratch project is in the temp dir).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(ROOT, "bin", "specforge.js");
const { values: args } = parseArgs({ options: { projects: { type: "string", default: "10" }, runs: { type: "string", default: "5" } } });
const PROJECTS = Number(args.projects);
const RUNS = Number(args.runs);
/** The bound for a check of ten up-to-date specs. */
const TARGET_MS = 1000;

if (!existsSync(join(ROOT, "dist", "src", "cli.js"))) {
  console.error("bench: specforge is not built: run `npm run build`");
  process.exit(1);
}

const scratch = mkdtempSync(join(tmpdir(), "specforge-bench-projects-"));
try {
  const projects = Array.from({ length: PROJECTS }, (_, i) => ({ name: `api-${i + 1}`, spec: `specs/api-${i + 1}.yaml`, out: `generated/api-${i + 1}` }));
  for (const project of projects) cpSync(join(ROOT, "spec", "training-api.v1.yaml"), join(scratch, project.spec));
  writeFileSync(join(scratch, "specforge.config.json"), JSON.stringify({ projects }, null, 2));

  // CPU time (user + sys, from GNU time) next to wall time: on a busy shared machine the wall time mostly measures
  // the other processes; the CPU time is what the check costs.
  const gnuTime = existsSync("/usr/bin/time");
  const time = (command) => {
    const started = process.hrtime.bigint();
    const argv = [process.execPath, BIN, command];
    const result = gnuTime
      ? spawnSync("/usr/bin/time", ["-f", "%U %S", ...argv], { cwd: scratch, encoding: "utf8" })
      : spawnSync(argv[0], argv.slice(1), { cwd: scratch, encoding: "utf8" });
    const wall = Number(process.hrtime.bigint() - started) / 1e6;
    if (result.status !== 0) throw new Error(`specforge ${command} exited with ${result.status}: ${result.stderr}`);
    const [user, sys] = gnuTime ? result.stderr.trim().split("\n").at(-1).split(" ").map(Number) : [NaN, NaN];
    return { wall, cpu: (user + sys) * 1000 };
  };
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

  const generate = time("generate").wall; // from scratch, once: the folders the checks then find current
  time("check"); // one unmeasured run (disk cache, V8 code cache)
  const runs = Array.from({ length: RUNS }, () => time("check"));
  const checks = runs.map((r) => r.wall);
  const checkMedian = median(checks);
  const cpuMedian = median(runs.map((r) => r.cpu));
  const load = (await import("node:os")).loadavg()[0].toFixed(1);

  const node = process.version;
  const cpu = `${cpus()[0]?.model ?? "?"} (${availableParallelism()} threads available)`;
  const commit = (() => {
    try {
      return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    } catch {
      return "?";
    }
  })();
  console.log(`| ${PROJECTS} projects (v1 spec, all outputs) | wall time |`);
  console.log("|---|---:|");
  console.log(`| generate, from scratch (1 run) | ${(generate / 1000).toFixed(2)} s |`);
  console.log(`| check, all up to date (median of ${RUNS}; runs: ${checks.map((ms) => Math.round(ms)).join(", ")} ms) | ${Math.round(checkMedian)} ms |`);
  if (gnuTime) console.log(`| check, CPU time (user + sys, median) | ${Math.round(cpuMedian)} ms |`);
  console.log("");
  console.log(`target: check under ${TARGET_MS} ms: ${checkMedian < TARGET_MS ? "met" : "NOT met"}. Node ${node}, ${cpu}, load average ${load}, specforge ${commit}.`);
  process.exitCode = checkMedian < TARGET_MS ? 0 : 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
