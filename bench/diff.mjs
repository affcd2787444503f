#!/usr/bin/env node
/**
 * How long `specforge diff` takes on large real pairs, as a user runs it (the built bin, one process per run), and
 * where the time goes (in-process: loading each version, then the comparison). Target: the 13 MB GitHub pair in
 * under 2 s.
 *
 *   npm run build && node bench/diff.mjs [--runs N]
 *
 * The old GitHub versions come from the npm registry (`npm pack`, checked against its SHA-1) into
 * node_modules/.cache/specforge-diff-history/ (shared with test/corpus/diff-history.test.ts); the newest are in
 * ../shared/corpus. Prints a Markdown table with the machine's load average at the start and the end: the machine
 * is shared, so read the numbers with it.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = join(ROOT, "..", "shared", "corpus");
const CACHE = join(ROOT, "node_modules", ".cache", "specforge-diff-history");
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 5;

function fetchFile(spec, shasum, name) {
  const dir = join(CACHE, spec.replace("/", "+"));
  const target = join(dir, "package", "generated", name);
  if (existsSync(target)) return target;
  mkdirSync(dir, { recursive: true });
  const [packed] = JSON.parse(execFileSync("npm", ["pack", spec, "--json", "--pack-destination", dir], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
  const tarball = join(dir, packed.filename);
  if (createHash("sha1").update(readFileSync(tarball)).digest("hex") !== shasum) throw new Error(`${spec}: unexpected tarball`);
  execFileSync("tar", ["-xzf", tarball, "-C", dir, `package/generated/${name}`]);
  rmSync(tarball, { force: true });
  return target;
}

const REST_23_0_0 = fetchFile("@octokit/openapi@23.0.0", "1194fcf99f42c5757ccb6cf9abd88bf07700c008", "api.github.com.json");
const REST_23_0_2 = join(CORPUS, "github-api.github.com-3.0.json");
const GHES_3_18 = fetchFile("@octokit/openapi@23.0.0", "1194fcf99f42c5757ccb6cf9abd88bf07700c008", "ghes-3.18.json");
const GHES_3_19 = fetchFile("@octokit/openapi@23.0.0", "1194fcf99f42c5757ccb6cf9abd88bf07700c008", "ghes-3.19.json");

const pairs = [
  { name: "GitHub REST 23.0.0 → 23.0.2 (13 MB each)", old: REST_23_0_0, new: REST_23_0_2 },
  { name: "GitHub REST 23.0.2 against itself (everything compared, no change)", old: REST_23_0_2, new: REST_23_0_2 },
  { name: "GHES 3.18 → 3.19 (11 MB each, 101 changes)", old: GHES_3_18, new: GHES_3_19 },
];

const HAS_TIME = existsSync("/usr/bin/time");
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (ms) => (ms / 1000).toFixed(2);

const { loadSpec } = await import(join(ROOT, "dist", "src", "load", "index.js"));
const { diffDocuments } = await import(join(ROOT, "dist", "src", "diff", "compare.js"));

const loadBefore = loadavg();
const rows = [];
for (const pair of pairs) {
  const wall = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    // Under /usr/bin/time when there is one, for the CPU time as well (user + system).
    const args = [join(ROOT, "bin", "specforge.js"), "diff", pair.old, pair.new, "--format", "json"];
    const started = performance.now();
    const child = HAS_TIME
      ? spawnSync("/usr/bin/time", ["-f", "%U %S", process.execPath, ...args], { encoding: "utf8", maxBuffer: 1 << 28 })
      : spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 28 });
    wall.push(performance.now() - started);
    if (child.status !== 0) throw new Error(`${pair.name}: exit ${child.status}\n${child.stderr}`);
    const match = /([\d.]+) ([\d.]+)\s*$/.exec(child.stderr ?? "");
    if (HAS_TIME && match) cpu.push((Number(match[1]) + Number(match[2])) * 1000);
  }
  // In process, once warm: where the time goes.
  const t0 = performance.now();
  const a = loadSpec(pair.old);
  const t1 = performance.now();
  const b = loadSpec(pair.new);
  const t2 = performance.now();
  const result = diffDocuments(a.document, b.document);
  const t3 = performance.now();
  rows.push({ name: pair.name, wall: median(wall), min: Math.min(...wall), cpu: cpu.length ? median(cpu) : undefined, loadOld: t1 - t0, loadNew: t2 - t1, compare: t3 - t2, changes: result.changes.length });
}
const loadAfter = loadavg();

const lines = [
  `specforge diff, ${runs} runs per pair (median wall time of the built bin, one process each, \`--format json\`); ${cpus().length} cores, load average ${loadBefore.map((l) => l.toFixed(1)).join(" / ")} at the start, ${loadAfter.map((l) => l.toFixed(1)).join(" / ")} at the end`,
  "",
  "| pair | changes | wall (median) | wall (best) | CPU (median) | load old | load new | compare |",
  "|---|---:|---:|---:|---:|---:|---:|---:|",
  ...rows.map((r) => `| ${r.name} | ${r.changes} | ${seconds(r.wall)} s | ${seconds(r.min)} s | ${r.cpu === undefined ? "–" : `${seconds(r.cpu)} s`} | ${seconds(r.loadOld)} s | ${seconds(r.loadNew)} s | ${seconds(r.compare)} s |`),
];
console.log(lines.join("\n"));
