/**
 * bench/RESULTS.runtime.md has two sections (router, client). Each script measures one of them; the last
 * results of both are kept in bench/runtime/last-results.json so either script rewrites the whole file.
 */
import { cpus, loadavg } from "node:os";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./paths.mjs";

const STORE = join(ROOT, "bench", "runtime", "last-results.json");
const RESULTS = join(ROOT, "bench", "RESULTS.runtime.md");

/** Node version, CPU model and core count of this machine, and its load average now. */
export function environment() {
  const cpu = cpus();
  // The 1-minute load average when the run started: how much the machine's other processes were competing.
  return { node: process.version, cpu: `${cpu[0]?.model.trim() ?? "unknown"} (${cpu.length} cores)`, date: new Date().toISOString().slice(0, 10), load: loadavg()[0].toFixed(1) };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Stores `section` (`router`, `client` or `size`: `{ markdown, ... }`) and rewrites bench/RESULTS.runtime.md. */
export function saveSection(name, section) {
  const store = existsSync(STORE) ? JSON.parse(readFileSync(STORE, "utf8")) : {};
  store[name] = section;
  writeFileSync(STORE, `${JSON.stringify(store, null, 2)}\n`);
  const part = (key, title, script = `bench:${key}`) => `## ${title}\n\n${store[key]?.markdown ?? `Not measured yet: run \`npm run ${script}\`.\n`}`;
  writeFileSync(
    RESULTS,
    [
      "# Runtime benchmarks",
      "",
      "Written by `npm run bench:router` / `npm run bench:client` (`npm run bench:runtime` runs both); each run",
      "rewrites its own section and keeps the other's last result. How they are measured and what was optimised:",
      "[docs/performance.md](../docs/performance.md#runtime-cost-and-size).",
      "",
      part("router", "Router throughput (generated/server.ts)"),
      part("client", "Client overhead (generated/client.ts)"),
      part("size", "Client size (generated/client.ts with its runtime, minified)", "bench:client-size"),
    ].join("\n"),
  );
}

/** A Markdown table from a header row and rows of cells. */
export function table(header, rows) {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

export const fmt = {
  int: (n) => Math.round(n).toLocaleString("en-US"),
  ratio: (n) => n.toFixed(2),
  us: (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(1)),
  pct: (n) => `${n >= 0 ? "+" : ""}${(n * 100).toFixed(1)} %`,
};
