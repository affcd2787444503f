#!/usr/bin/env node
// What a `generate` cannot go under, whatever specforge does: the peak RSS of a process that only loads the libraries
// generation requires (openapi-typescript, which loads TypeScript; ts-morph, which fills the templates), measured
// beside openapi-typescript's own run on the petstore, against the bar of peak RSS ≤ 0.75× openapi-typescript's
// (docs/performance.md, "Start-up").
// Writes nothing.
//
//   node bench/floors.mjs [--runs 5] [--corpus DIR]
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values: flags } = parseArgs({ options: { runs: { type: "string", default: "5" }, corpus: { type: "string", default: join(ROOT, "..", "shared", "corpus") } } });
const runs = Number(flags.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 50) fail(`--runs: expected an integer from 1 to 50, got ${flags.runs}`);
const petstore = join(flags.corpus, "oai-petstore-3.0.yaml");
if (!existsSync(petstore)) fail(`${petstore}: not found (pass --corpus DIR)`);
if (!existsSync(join(ROOT, "dist/src/package/deps.js"))) fail("specforge is not built: run `npm run build`");
if (!existsSync("/usr/bin/time")) fail("needs GNU time (/usr/bin/time)");

function fail(message) {
  console.error(`floors: ${message}`);
  process.exit(2);
}

const deps = pathToFileURL(join(ROOT, "dist/src/package/deps.js")).href;
/** Each: the node arguments of one process whose peak RSS is measured. */
const PROCESSES = {
  "node alone": ["-e", ""],
  "+ TypeScript and openapi-typescript's helpers (specforge's deps.js, code cache as a warm run)": ["--input-type=module", "-e", `await import(${JSON.stringify(deps)});`],
  "+ ts-morph (the libraries generation requires, before any spec is read)": ["--input-type=module", "-e", `(await import(${JSON.stringify(deps)})).loadTsMorph();`],
};

function peakMiB(args) {
  const run = spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, ...args], { encoding: "utf8" });
  if (run.status !== 0) fail(`${args.join(" ")}: exit ${run.status}\n${run.stderr}`);
  return Number(run.stderr.trim().split("\n").at(-1)) / 1024;
}
const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];

// One unmeasured run first, so the code cache exists as it does for every run after a clone's first.
peakMiB(PROCESSES["+ ts-morph (the libraries generation requires, before any spec is read)"]);
const out = mkdtempSync(join(tmpdir(), "specforge-floors-"));
const samples = new Map(Object.keys(PROCESSES).map((name) => [name, []]));
const openapiTypescript = [];
for (let round = 0; round < runs; round++) {
  for (const [name, args] of Object.entries(PROCESSES)) samples.get(name).push(peakMiB(args));
  openapiTypescript.push(peakMiB([join(ROOT, "node_modules/openapi-typescript/bin/cli.js"), petstore, "-o", join(out, "schema.ts")]));
}
rmSync(out, { recursive: true, force: true });

const bar = 0.75 * median(openapiTypescript);
console.log(`peak RSS, median of ${runs} (MiB):`);
for (const [name, values] of samples) console.log(`  ${median(values).toFixed(0).padStart(4)}  ${name}`);
console.log(`  ${median(openapiTypescript).toFixed(0).padStart(4)}  openapi-typescript generating the petstore`);
const floor = median(samples.get("+ ts-morph (the libraries generation requires, before any spec is read)"));
console.log(`the petstore's memory bar: ≤ ${bar.toFixed(0)} MiB (0.75×); the required libraries alone: ${floor.toFixed(0)} MiB = ${(floor / median(openapiTypescript)).toFixed(2)}× — ${floor > bar ? "over the bar before any work" : "under the bar"}`);
