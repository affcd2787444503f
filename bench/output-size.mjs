/**
 * Output size: the bytes and files `specforge generate` writes for each spec, in both forms (`ts`, the default, and
 * `js`), with the default outputs (what the spec has), split by where the bytes are: schema.ts (openapi-typescript's
 * types), the generated files of each output, and the runtime each copies. The v1 spec first, then the corpus specs
 * (../shared/corpus); the peers' output sizes beside them are those `npm run bench` last measured (bench/RESULTS.md).
 *
 *   npm run bench:size [-- --specs petstore,openai] [--no-save]
 *
 * Writes bench/RESULTS.size.md. test/output-size.test.ts holds the v1 output and a client-only petstore's runtime to
 * their budgets; this script is where the figures per spec are read.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { ROOT } from "./runtime/paths.mjs";
import { table } from "./runtime/report.mjs";

const CORPUS = join(ROOT, "..", "shared", "corpus");
/** The specs measured, by short name: v1, then the corpus's (the peers' benchmark specs among them). */
const SPECS = {
  v1: join(ROOT, "spec", "training-api.v1.yaml"),
  petstore: join(CORPUS, "oai-petstore-3.0.yaml"),
  "swagger-petstore": join(CORPUS, "swagger-petstore-3.0.yaml"),
  "webhook-example": join(CORPUS, "oai-webhook-example-3.1.yaml"),
  adyen: join(CORPUS, "adyen-bp-config-webhooks-v2-3.1.json"),
  discord: join(CORPUS, "discord-3.1.json"),
  k8s: join(CORPUS, "k8s-core-v1-3.0.json"),
  openai: join(CORPUS, "openai-3.1.json"),
  stripe: join(CORPUS, "stripe-spec3-2023-09-3.0.json"),
  github: join(CORPUS, "github-api.github.com-3.0.json"),
  "github-webhooks": join(CORPUS, "github-webhooks-3.1.json"),
};
/** Where a file's bytes are counted. */
const GROUPS = ["schema", "client", "server", "webhooks", "index", "runtime/client", "runtime/server", "runtime/webhooks", "runtime/adapters"];

const args = process.argv.slice(2);
const flag = (name) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
};
const save = !args.includes("--no-save");
const wanted = (flag("--specs") ?? Object.keys(SPECS).join(",")).split(",");

/** The group of an output file: its runtime folder, else its name without the extension (server-validators: server). */
function groupOf(path) {
  if (path.startsWith("runtime/")) return path.split("/").slice(0, 2).join("/");
  return path.replace(/\.(d\.ts|ts|js)$/, "").replace(/-validators$/, "");
}

function measure(spec, form) {
  const out = mkdtempSync(join(tmpdir(), "specforge-size-"));
  try {
    const run = spawnSync(process.execPath, [join(ROOT, "bin", "specforge.js"), "generate", "--spec", spec, "--out", out, "--form", form, "--quiet"], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`specforge generate ${spec} --form ${form}: exit ${run.status}\n${run.stderr}`);
    const sizes = Object.fromEntries(GROUPS.map((group) => [group, 0]));
    let files = 0;
    let bytes = 0;
    for (const entry of readdirSync(out, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const size = statSync(join(entry.parentPath, entry.name)).size;
      const group = groupOf(relative(out, join(entry.parentPath, entry.name)).split("\\").join("/"));
      sizes[group] = (sizes[group] ?? 0) + size;
      files++;
      bytes += size;
    }
    return { files, bytes, sizes };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The peers' output per spec as `npm run bench` last wrote it in bench/RESULTS.md: `{ spec: { tool: "16 files, 1.6 MB" } }`. */
function peerSizes() {
  const file = join(ROOT, "bench", "RESULTS.md");
  if (!existsSync(file)) return {};
  const peers = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const size = /; (\d+ files?, [\d.]+ [kM]B)$/.exec(cells[3] ?? "")?.[1];
    if (!size || cells[2]?.startsWith("specforge")) continue;
    (peers[cells[1]] ??= {})[cells[2]] = size;
  }
  return peers;
}

const kb = (bytes) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(1)} kB`);
const rows = [];
const results = {};
for (const name of wanted) {
  const spec = SPECS[name];
  if (!spec) throw new Error(`unknown spec ${name} (known: ${Object.keys(SPECS).join(", ")})`);
  if (!existsSync(spec)) {
    console.error(`skipped ${name}: ${spec} is missing`);
    continue;
  }
  for (const form of ["ts", "js"]) {
    const result = measure(spec, form);
    results[`${name} ${form}`] = result;
    const s = result.sizes;
    const runtime = s["runtime/client"] + s["runtime/server"] + s["runtime/webhooks"] + s["runtime/adapters"];
    rows.push([name, form, String(result.files), `**${kb(result.bytes)}**`, kb(s.schema), kb(s.client), kb(s.server), kb(s.webhooks), kb(runtime), kb(s["runtime/client"]), kb(s["runtime/server"]), kb(s["runtime/webhooks"])]);
    console.log(`${name} ${form}: ${result.files} files, ${result.bytes} bytes`);
  }
}

const peers = peerSizes();
const peerRows = Object.entries(peers).flatMap(([spec, tools]) => Object.entries(tools).map(([tool, size]) => [spec, tool, size]));
const markdown = [
  "# Output size",
  "",
  "Written by `npm run bench:size` (bench/output-size.mjs): what `specforge generate` writes per spec with the default",
  "outputs (what the spec has), prettier-formatted, in both forms; the runtime is the part copied from specforge's",
  "templates (only the modules the spec's files import). `schema` is openapi-typescript's types; `server` includes",
  "server-validators. Budgets (test/output-size.test.ts) and where the bytes are: docs/performance.md.",
  "",
  table(["spec", "form", "files", "total", "schema", "client", "server", "webhooks", "runtime", "runtime/client", "runtime/server", "runtime/webhooks"], rows),
  "",
  "## The peers' output (as `npm run bench` last measured it, bench/RESULTS.md)",
  "",
  peerRows.length > 0 ? table(["spec", "tool", "output"], peerRows) : "Not measured yet: run `npm run bench`.",
  "",
].join("\n");
if (save) {
  writeFileSync(join(ROOT, "bench", "RESULTS.size.md"), markdown);
  console.log("wrote bench/RESULTS.size.md");
} else console.log(markdown);
