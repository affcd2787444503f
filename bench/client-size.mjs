/**
 * Client runtime size: what an application ships for the generated v1 client, i.e. generated/client.js bundled
 * with the runtime it imports (generated/runtime/client/), tree-shaken and minified, as ESM for any platform.
 *
 *   npm run bench:client-size
 *
 * Measured with two minifiers: rolldown (a dependency of vitest's vite, so it is installed by specforge's own
 * `npm ci`; test/templates/client/size.test.ts holds the runtime to a byte budget with it) and esbuild (from
 * bench/node_modules, installed by `npm run bench:install`; skipped when absent), plus gzip -9 of each, and the
 * bytes each runtime file contributes (esbuild's metafile). Writes the "Client size" section of
 * bench/RESULTS.runtime.md.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "rolldown";
import { ROOT } from "./runtime/paths.mjs";
import { environment, fmt, saveSection, table } from "./runtime/report.mjs";

const ENTRY = join(ROOT, "generated", "client.js");
/** Issue 19's target for the minified client runtime (bytes). */
const TARGET = 10_000;

const rolldown = await build({ input: ENTRY, write: false, platform: "neutral", treeshake: true, output: { format: "esm", minify: true }, logLevel: "silent" });
const rolldownCode = rolldown.output[0].code;

let esbuild;
const esbuildPath = join(ROOT, "bench", "node_modules", "esbuild");
if (existsSync(esbuildPath)) {
  const { build: esbuildBuild } = createRequire(join(ROOT, "bench", "package.json"))("esbuild");
  const result = await esbuildBuild({ entryPoints: [ENTRY], bundle: true, minify: true, format: "esm", platform: "neutral", write: false, metafile: true, logLevel: "silent" });
  const output = Object.values(result.metafile.outputs)[0];
  esbuild = {
    code: result.outputFiles[0].text,
    version: createRequire(join(ROOT, "bench", "package.json"))("esbuild/package.json").version,
    files: Object.entries(output.inputs).map(([file, { bytesInOutput }]) => [relative(ROOT, join(ROOT, file)), bytesInOutput]).filter(([, bytes]) => bytes > 0).sort((a, b) => b[1] - a[1]),
  };
}

const bytes = (text) => Buffer.byteLength(text);
const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
const rolldownVersion = createRequire(import.meta.url)("rolldown/package.json").version;
const rows = [[`rolldown ${rolldownVersion} (\`minify: true\`, treeshake, ESM, platform neutral)`, fmt.int(bytes(rolldownCode)), fmt.int(gzipSync(rolldownCode, { level: 9 }).length), bytes(rolldownCode) <= TARGET ? "yes" : "**no**"]];
if (esbuild) rows.push([`esbuild ${esbuild.version} (\`--bundle --minify --format=esm --platform=neutral\`)`, fmt.int(bytes(esbuild.code)), fmt.int(gzipSync(esbuild.code, { level: 9 }).length), bytes(esbuild.code) <= TARGET ? "yes" : "**no**"]);
const env = environment();
const markdown = `${table(["minifier", "bytes minified", "bytes gzip -9", `target met (≤ ${kB(TARGET)} minified)`], rows)}

${esbuild ? `Bytes each file contributes (esbuild): ${esbuild.files.map(([file, n]) => `\`${file}\` ${fmt.int(n)}`).join(", ")}.\n\n` : ""}What is measured: \`generated/client.js\` (the v1 client, with its spec's servers, security schemes and operations) bundled with the runtime it imports from \`generated/runtime/client/\`, tree-shaken and minified, i.e. what an application ships. Measured ${env.date}.

Rerun: \`npm run bench:client-size\` (esbuild needs \`npm run bench:install\`). Same as \`bench/node_modules/.bin/esbuild generated/client.js --bundle --minify --format=esm --platform=neutral | wc -c\`.
`;
console.log(markdown);
saveSection("size", { markdown, rolldown: bytes(rolldownCode), esbuild: esbuild && bytes(esbuild.code) });
