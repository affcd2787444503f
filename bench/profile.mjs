#!/usr/bin/env node
// Profiles one `specforge generate` with --cpu-prof and prints where the time went: self time by package and by
// function, and inclusive time of specforge's own functions. Usage: node bench/profile.mjs <spec> [more CLI args]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const [spec, ...rest] = process.argv.slice(2);
if (!spec) {
  console.error("usage: node bench/profile.mjs <spec> [specforge generate options]");
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), "specforge-profile-"));
const run = spawnSync(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${work}`, join(root, "bin/specforge.js"), "generate", "--spec", spec, "--out", join(work, "out"), ...rest], { stdio: ["ignore", "inherit", "inherit"] });
if (run.status !== 0) process.exit(run.status ?? 1);
const file = readdirSync(work).find((name) => name.endsWith(".cpuprofile"));
const profile = JSON.parse(readFileSync(join(work, file), "utf8"));
rmSync(work, { recursive: true, force: true });

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const self = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  self.set(id, (self.get(id) ?? 0) + dt);
  total += dt;
});
const bucket = (url) => {
  if (!url) return "(native, GC, idle)";
  const pkg = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  const own = url.match(/(dist\/)?(src|templates)\/.*$/);
  return own ? own[0].replace(/^dist\//, "") : url.replace(/^file:\/\//, "").replace(/^node:internal\/.*/, "node internals");
};
const add = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms);
const byBucket = new Map();
const byFunction = new Map();
const inclusive = new Map();
for (const [id, us] of self) {
  const node = byId.get(id);
  add(byBucket, bucket(node.callFrame.url), us);
  add(byFunction, `${node.callFrame.functionName || "(anonymous)"}  ${bucket(node.callFrame.url)}`, us);
  const seen = new Set();
  for (let at = id; at !== undefined; at = parentOf.get(at)) {
    const frame = byId.get(at).callFrame;
    const key = `${frame.functionName || "(anonymous)"}  ${bucket(frame.url)}`;
    if (/^(src|templates)\//.test(bucket(frame.url)) && !seen.has(key)) {
      seen.add(key);
      add(inclusive, key, us);
    }
  }
}
const show = (title, map, n) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
};
console.log(`\nCPU profile of the main thread: ${(total / 1000).toFixed(0)} ms`);
show("self time by package / file", byBucket, 15);
show("self time by function", byFunction, 20);
show("inclusive time of specforge's functions", inclusive, 20);
