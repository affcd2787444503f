/**
 * Profiles one router target under load: starts bench/runtime/server.mjs with `node --cpu-prof`, sends one
 * scenario with autocannon, stops the server and prints where its CPU time went (self time by function and by
 * file; inclusive time of the runtime's own functions).
 *
 *   node bench/runtime/profile.mjs [target=specforge] [scenario=chat] [seconds=10] [interval µs=1000]
 *
 * The .cpuprofile is left in bench/.out/runtime/profiles/ (open it in Chrome DevTools for the flame chart).
 */
import { fork } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import autocannon from "autocannon";
import { OUT, ROOT, compileDeepOneOf, compileGenerated } from "./compile.mjs";
import { SCENARIOS } from "./workload.mjs";

const [target = "specforge", scenarioId = "chat", seconds = "10", interval = "1000"] = process.argv.slice(2);
const scenario = SCENARIOS.find((s) => s.id === scenarioId);
const generated = compileGenerated();
const dir = join(OUT, "profiles", `${target}-${scenarioId}`);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const child = fork(join(ROOT, "bench", "runtime", "server.mjs"), [target, generated, compileDeepOneOf()], { execArgv: ["--cpu-prof", `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${interval}`], stdio: "inherit" });
const port = await new Promise((resolve) => child.once("message", (m) => resolve(m.port)));
const run = (duration) =>
  autocannon({ url: `http://127.0.0.1:${port}${scenario.path}`, method: scenario.method, headers: scenario.headers, body: scenario.body, connections: 16, duration });
await run(2);
const result = await run(Number(seconds));
console.log(`${target} ${scenarioId}: ${Math.round(result.requests.total / result.duration)} req/s under the profiler (non-2xx ${result.non2xx})`);
child.send("exit");
child.disconnect();
await new Promise((resolve) => child.once("exit", resolve));

const file = join(dir, readdirSync(dir).find((f) => f.endsWith(".cpuprofile")));
const profile = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = new Map();
for (let i = 0; i < profile.samples.length; i++) dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...dt.values()].reduce((a, b) => a + b, 0);
const where = (cf) => `${cf.functionName || "(anonymous)"} ${cf.url ? `${relative(ROOT, cf.url.replace("file://", "")).replace(/^node_modules\//, "")}:${cf.lineNumber + 1}` : ""}`.trim();
const self = new Map();
const byFile = new Map();
for (const node of profile.nodes) {
  const t = dt.get(node.id) ?? 0;
  const key = where(node.callFrame);
  self.set(key, (self.get(key) ?? 0) + t);
  const f = node.callFrame.url ? relative(ROOT, node.callFrame.url.replace("file://", "")) || node.callFrame.url : `(${node.callFrame.functionName || "native"})`;
  byFile.set(f, (byFile.get(f) ?? 0) + t);
}
// Inclusive time: a node's own samples plus its descendants', counted once per function on the stack.
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map();
for (const [id, t] of dt) {
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const key = where(byId.get(cur).callFrame);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + t);
  }
}
const pct = (t) => `${((100 * t) / total).toFixed(1).padStart(5)} %`;
const top = (map, n, filter = () => true) => [...map].filter(([k]) => filter(k)).sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, t]) => `  ${pct(t)}  ${k}`).join("\n");
console.log(`\nself time, top 30:\n${top(self, 30)}`);
console.log(`\nself time by file, top 15:\n${top(byFile, 15)}`);
console.log(`\ninclusive time, generated runtime and bench code:\n${top(inclusive, 30, (k) => k.includes(".out/runtime") || k.includes("bench/runtime"))}`);
console.log(`\nprofile: ${relative(ROOT, file)}`);
