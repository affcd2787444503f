/**
 * Client runtime size: what an application ships for a generated client, i.e. its client.ts bundled with the
 * runtime it imports (runtime/client/), tree-shaken and minified, as ESM for any platform. The v1 client
 * (generated/) first, then the client of each corpus spec below, each generated with `--outputs client`.
 *
 *   npm run bench:client-size [-- --specs petstore,openai] [--specforge DIR] [--no-save]
 *
 * `--specforge DIR`: generate the corpus clients with another built checkout's bin/specforge.js (and bundle its
 * generated/client.ts, or client.js, for v1), for before/after tables; implies --no-save.
 *
 * Measured with two minifiers: rolldown (a dependency of vitest's vite, so it is installed by specforge's own
 * `npm ci`; test/templates/client/size.test.ts holds the runtime to a byte budget with it) and esbuild (from
 * bench/node_modules, installed by `npm run bench:install`; skipped when absent), plus gzip -9 of each, and the
 * bytes each runtime file contributes (esbuild's metafile). Writes the "Client size" section of
 * bench/RESULTS.runtime.md.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "rolldown";
import { OUT, ROOT } from "./runtime/paths.mjs";
import { environment, fmt, saveSection, table } from "./runtime/report.mjs";

/** The target for the minified client runtime (bytes; docs/performance.md, "Client size"). */
const TARGET = 10_000;
const CORPUS = join(ROOT, "..", "shared", "corpus");
/** Corpus specs measured besides v1, by short name. */
const SPECS = {
  petstore: "oai-petstore-3.0.yaml",
  "swagger-petstore": "swagger-petstore-3.0.yaml",
  discord: "discord-3.1.json",
  openai: "openai-3.1.json",
  stripe: "stripe-spec3-2023-09-3.0.json",
  github: "github-api.github.com-3.0.json",
};

const args = process.argv.slice(2);
const flag = (name) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
};
const specforge = resolve(flag("--specforge") ?? ROOT);
const save = !args.includes("--no-save") && specforge === ROOT;
const wanted = (flag("--specs") ?? Object.keys(SPECS).join(",")).split(",");

const esbuildPath = join(ROOT, "bench", "node_modules", "esbuild");
const benchRequire = createRequire(join(ROOT, "bench", "package.json"));
const esbuildBuild = existsSync(esbuildPath) ? benchRequire("esbuild").build : undefined;
const bytes = (text) => Buffer.byteLength(text);
const gzip = (text) => gzipSync(text, { level: 9 }).length;

/** The bundle of one client module: rolldown's and esbuild's (with the bytes each input file contributes). */
async function measure(entry) {
  const rolldown = (await build({ input: entry, write: false, platform: "neutral", treeshake: true, output: { format: "esm", minify: true }, logLevel: "silent" })).output[0].code;
  const result = { rolldown: bytes(rolldown), rolldownGzip: gzip(rolldown) };
  if (esbuildBuild) {
    const built = await esbuildBuild({ entryPoints: [entry], bundle: true, minify: true, format: "esm", platform: "neutral", write: false, metafile: true, logLevel: "silent" });
    const code = built.outputFiles[0].text;
    const inputs = Object.entries(Object.values(built.metafile.outputs)[0].inputs);
    Object.assign(result, {
      esbuild: bytes(code),
      esbuildGzip: gzip(code),
      // client.ts (client.js in the js form) is the spec's own data (servers, schemes, operations); everything else is runtime.
      specData: inputs.filter(([file]) => /^client\.(ts|js)$/.test(basename(file))).reduce((sum, [, { bytesInOutput }]) => sum + bytesInOutput, 0),
      files: inputs.map(([file, { bytesInOutput }]) => [relative(dirname(entry), resolve(file)), bytesInOutput]).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]),
    });
    result.runtime = result.esbuild - result.specData;
  }
  return result;
}

/** The generated client module of a folder: client.ts, or client.js in the js form (or an older build's). */
const clientModule = (dir) => (existsSync(join(dir, "client.ts")) ? join(dir, "client.ts") : join(dir, "client.js"));

/** Generates the client of a corpus spec with `specforge`'s build; returns its client module. */
function generate(name, file) {
  const out = join(OUT, "client-size", `${basename(specforge)}-${name}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const run = spawnSync(process.execPath, [join(specforge, "bin", "specforge.js"), "generate", "--spec", join(CORPUS, file), "--out", out, "--outputs", "client", "--no-format", "-q"], { encoding: "utf8", cwd: out });
  if (run.status !== 0) throw new Error(`generate ${name} failed: ${run.stderr.slice(-1000)}`);
  return clientModule(out);
}

const results = [["v1", await measure(clientModule(join(specforge, "generated")))]];
for (const name of wanted) {
  if (!SPECS[name]) throw new Error(`unknown spec ${name}; one of ${Object.keys(SPECS).join(", ")}`);
  console.error(`generating ${name}…`);
  results.push([name, await measure(generate(name, SPECS[name]))]);
}

const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
const v1 = results[0][1];
const rolldownVersion = createRequire(import.meta.url)("rolldown/package.json").version;
const esbuildVersion = esbuildBuild && benchRequire("esbuild/package.json").version;
const env = environment();
const specRows = results.map(([name, r]) => [
  name === "v1" ? "v1 (`generated/`)" : `${name} (\`${SPECS[name]}\`)`,
  fmt.int(r.rolldown),
  fmt.int(r.rolldownGzip),
  ...(esbuildBuild ? [fmt.int(r.esbuild), fmt.int(r.esbuildGzip), fmt.int(r.specData), fmt.int(r.runtime)] : []),
  r.rolldown <= TARGET ? "yes" : "**no**",
]);
const markdown = `${table(
  [
    "client",
    `rolldown ${rolldownVersion} minified`,
    "gzip -9",
    ...(esbuildBuild ? [`esbuild ${esbuildVersion} minified`, "gzip -9", "of which spec data (client.ts)", "runtime"] : []),
    `≤ ${kB(TARGET)} minified`,
  ],
  specRows,
)}

${v1.files ? `Bytes each file of the v1 bundle contributes (esbuild): ${v1.files.map(([file, n]) => `\`${file}\` ${fmt.int(n)}`).join(", ")}.\n\n` : ""}What is measured: each client.ts (with its spec's servers, security schemes and operations) bundled with the runtime it imports from \`runtime/client/\`, tree-shaken and minified, i.e. what an application ships: rolldown (\`minify: true\`, treeshake, ESM, platform neutral) and esbuild (\`--bundle --minify --format=esm --platform=neutral\`), gzip -9 of each. The corpus clients are generated with \`--outputs client --no-format\` from \`../shared/corpus/\`. Measured ${env.date}.

Rerun: \`npm run bench:client-size\` (esbuild needs \`npm run bench:install\`). For v1 the same as \`bench/node_modules/.bin/esbuild generated/client.ts --bundle --minify --format=esm --platform=neutral | wc -c\`.
`;
console.log(markdown);
if (save) saveSection("size", { markdown, rolldown: v1.rolldown, esbuild: v1.esbuild });
