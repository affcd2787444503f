#!/usr/bin/env node
// CPU time of the loader and the model, first calls in a fresh process each (what one `generate` pays): loadSpec,
// buildModel and documentForTypes, with V8's helper threads off (--single-threaded) so the CPU time is the main
// thread's. With --baseline DIR (a built checkout, e.g. of main), that build and this one alternate, round by round.
// Usage: node bench/load-phases.mjs [--runs N] [--baseline DIR] <spec>...
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);

if (args[0] === "--child") {
  const [, root, spec] = args;
  const { loadSpec, documentForTypes } = await import(join(root, "dist/src/load/index.js"));
  const { buildModel } = await import(join(root, "dist/src/ir/build.js"));
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const start = cpu();
  const loaded = loadSpec(spec);
  const loadedAt = cpu();
  buildModel(loaded, spec);
  const modelledAt = cpu();
  documentForTypes(loaded.document);
  const typesAt = cpu();
  console.log(JSON.stringify({ load: loadedAt - start, model: modelledAt - loadedAt, types: typesAt - modelledAt }));
  process.exit(0);
}

let runs = 5;
let baseline;
const specs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--runs") runs = Number(args[++i]);
  else if (args[i] === "--baseline") baseline = resolve(args[++i]);
  else specs.push(resolve(args[i]));
}
if (specs.length === 0) {
  console.error("usage: node bench/load-phases.mjs [--runs N] [--baseline DIR] <spec>...");
  process.exit(2);
}
const builds = [...(baseline ? [["baseline", baseline]] : []), ["this", ROOT]];
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const spec of specs) {
  const samples = new Map(builds.map(([name]) => [name, []]));
  for (let round = 0; round < runs; round++) {
    for (const [name, root] of builds) {
      const child = spawnSync(process.execPath, ["--single-threaded", fileURLToPath(import.meta.url), "--child", root, spec], { encoding: "utf8" });
      if (child.status !== 0) throw new Error(child.stderr);
      samples.get(name).push(JSON.parse(child.stdout));
    }
  }
  console.log(spec);
  for (const [name, rows] of samples) {
    const of = (field) => median(rows.map((row) => row[field])).toFixed(0);
    const total = median(rows.map((row) => row.load + row.model + row.types)).toFixed(0);
    console.log(`  ${name.padEnd(8)} load ${of("load")} ms, model ${of("model")} ms, documentForTypes ${of("types")} ms, together ${total} ms CPU (median of ${rows.length})`);
  }
}
