import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import * as prettier from "prettier";
import { afterAll, describe, expect, it } from "vitest";
import { dataTables, longLines } from "../data-tables.js";
import { cleanupTempDirs, ROOT, tempDir, typecheck } from "../helpers.js";
import { corpusDocuments, wildFixtures } from "./corpus.js";
import { writeReportSection } from "./report.js";

/**
 * Every document of ../shared/corpus (and the OpenAPI 3.2 documents from the wild in test/fixtures): generate all
 * outputs into a temporary folder, then `tsc --strict --noEmit` over the result, and check prettier would leave every
 * generated file as it is. Writes a per-document section of test/corpus/.out/report.md.
 */
interface Row {
  name: string;
  operations: number | string;
  files: number;
  bytes: number;
  generateMs: number;
  maxRssMiB: number;
  tsc: string;
}
const rows: Row[] = [];

/**
 * Documents specforge refuses with a clear error for a reason docs/output.md lists ("Unsupported"). Each must still
 * fail exactly this way: a crash or broken output would fail the test. None today.
 */
const EXPECTED_ERRORS: Record<string, RegExp> = {};

/** Documents that generate with a warning on stderr (and must still compile); every other one prints nothing there. */
/** `count` warnings, one per operation that declares no `responses`, and nothing else. */
const noResponses = (count: number) =>
  new RegExp(`^(specforge: warning: \\S+#/paths/\\S+/(get|put|post|delete|options|head|patch|trace|query): the operation declares no responses[^\\n]*\\n  hint: [^\\n]*\\n){${count}}$`);
/** `count` warnings, one per path whose `{api-version}` some operation leaves undeclared, then `then`. */
const undeclaredApiVersion = (count: number, then: RegExp) =>
  new RegExp(`^(specforge: warning: \\S+#/paths/~1api~1v\\{api-version\\}\\S*: the path has \\{api-version\\}, which no path parameter declares[^\\n]*\\n  hint: [^\\n]*\\n){${count}}${then.source.slice(1)}`);
const EXPECTED_WARNINGS: Record<string, RegExp | string> = {
  // Real omissions: these operations declare no responses (their results are typed `never`).
  "oai-tags-example-3.2.yaml": noResponses(4),
  "test/fixtures/oai-learn-3.2/3.2-tags-example.yaml": noResponses(4),
  "test/fixtures/oas-3.2-spec/self/openapi.yaml": noResponses(1),
  // Scalar's Galaxy: a $dynamicRef, ignored by the types and not enforced by the router (one notice each).
  "test/fixtures/scalar-galaxy-3.2/galaxy-3.2.yaml":
    /^(specforge: warning: [^\n]*#\/components\/schemas\/PaginatedResource\/properties\/data\/items\/\$dynamicRef: [^\n]*\n  hint: [^\n]*\n){2}$/,
  // OpenAI's compound filters recurse with `$recursiveRef`, which the router says it does not enforce.
  "openai-3.1.yaml": recursiveRefs(),
  "openai-3.1.json": recursiveRefs(),
  // The specification's SSE example is a request body: sent and read whole.
  "test/fixtures/oas-3.2-spec/examples.yaml": /^specforge: warning: [^\n]*#\/paths\/~1typed-data\/post\/requestBody\/content\/text~1event-stream: a request body of the sequential media type text\/event-stream is sent and read whole[^\n]*\n$/,
  // …and hey-api's fixture writes `/api/v{api-version}/…` on paths whose operations mostly do not declare it.
  "fixture-heyapi-full/full-3.0.yaml": undeclaredApiVersion(24, noResponses(26)),
  "fixture-heyapi-full/full-3.1.yaml": undeclaredApiVersion(24, noResponses(26)),
  // `$ref: #/components/schemas/petdetails` unquoted: YAML reads the rest of the line as a comment, so `$ref: null`.
  "swagger-petstore-3.1.yaml":
    /^specforge: warning: .*swagger-petstore-3\.1\.yaml:377:11: `\$ref: #\/components\/schemas\/petdetails` is read as `\$ref: null` [^\n]*#\/components\/schemas\/Pet\/properties\/petDetails is left unconstrained \(unknown\)\n  hint: quote it: \$ref: '#\/components\/schemas\/petdetails'\n/.source +
    // …and a mutualTLS scheme, which neither the client nor the router can apply.
    /specforge: warning: .*swagger-petstore-3\.1\.yaml#\/components\/securitySchemes\/mutual_tls: a mutualTLS scheme: [^\n]*\n  hint: [^\n]*\n$/.source,
  // Five `pattern`s that backtrack catastrophically, or may (test/corpus/patterns.test.ts lists them), each named once.
  "digitalocean-multifile-3.0/DigitalOcean-public.v2.yaml":
    /^(specforge: warning: [^\n]*DigitalOcean-public\.v2\.yaml#\/components\/schemas\/[^\n]*\/pattern: pattern "[^\n]*"( \(used in \d+ places\))? (can backtrack catastrophically|could not be shown to run in linear time)[^\n]*\n  hint: [^\n]*\n){5}$/,
};

/** The router's notice for OpenAI's two `$recursiveRef`s (CompoundFilter and BetaCompoundFilter). */
function recursiveRefs(): RegExp {
  return /^(specforge: warning: [^\n]*#\/components\/schemas\/(Beta)?CompoundFilter\/properties\/filters\/items\/oneOf\/1\/\$recursiveRef: \$recursiveRef is not enforced by the generated router[^\n]*\n  hint: [^\n]*\n){2}$/;
}

function generate(spec: string, out: string): Promise<{ code: number; stderr: string; ms: number; maxRssMiB: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--max-old-space-size=8192", join(ROOT, "test/corpus/measure.mjs"), "generate", "--spec", spec, "--out", out], {
      stdio: ["ignore", "ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let measured = "";
    child.stdio[2]!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdio[3]!.on("data", (chunk: Buffer) => (measured += chunk.toString()));
    child.on("close", (exitCode) => {
      const report = JSON.parse(measured || "{}") as { code?: number; ms?: number; maxRssMiB?: number };
      resolve({ code: report.code ?? exitCode ?? 1, stderr, ms: report.ms ?? -1, maxRssMiB: report.maxRssMiB ?? -1 });
    });
  });
}

/** The generated files (TypeScript, and the runtime's JavaScript) that prettier (default settings) would change. */
async function notPrettierFormatted(out: string): Promise<string[]> {
  const changed: string[] = [];
  for (const entry of readdirSync(out, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(ts|js)$/.test(entry.name)) continue;
    const file = join(entry.parentPath, entry.name);
    const text = readFileSync(file, "utf8");
    if ((await prettier.format(text, { filepath: file })) !== text) changed.push(relative(out, file));
  }
  return changed.sort();
}

/** Component schemas that server.js's tables `$ref` (anywhere, examples included) but its document lacks. */
function missingServerSchemas(server: string): string[] {
  const tables = dataTables(server);
  const document = tables.get("document")!.value as { components: { schemas: Record<string, unknown> } };
  const routes = tables.get("routes")!.value;
  const names = new Set(Object.keys(document.components.schemas));
  const refs = JSON.stringify([document, routes]).match(/"\$ref":"#\/components\/schemas\/[^"/]+/g) ?? [];
  const token = (raw: string) => decodeURIComponent(raw.replace(/~1/g, "/").replace(/~0/g, "~"));
  return [...new Set(refs.map((ref) => token(ref.slice('"$ref":"#/components/schemas/'.length))))].filter((name) => !names.has(name)).sort();
}

/** The generated TypeScript and JavaScript files, by path. */
function generatedTexts(out: string): Map<string, string> {
  const texts = new Map<string, string>();
  for (const entry of readdirSync(out, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && /\.(ts|js)$/.test(entry.name)) texts.set(relative(out, join(entry.parentPath, entry.name)), readFileSync(join(entry.parentPath, entry.name), "utf8"));
  }
  return texts;
}

function treeSize(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      files++;
      bytes += statSync(join(entry.parentPath, entry.name)).size;
    }
  }
  return { files, bytes };
}

afterAll(() => {
  cleanupTempDirs();
  const lines = [
    "## Generate and type-check",
    "",
    "| document | operations | files | bytes | generate ms | peak RSS MiB | tsc --strict |",
    "|---|---:|---:|---:|---:|---:|---|",
    ...rows.map((r) => `| ${r.name} | ${r.operations} | ${r.files} | ${r.bytes} | ${r.generateMs} | ${r.maxRssMiB} | ${r.tsc} |`),
  ];
  writeReportSection("1-generate", lines.join("\n"));
  console.log(lines.join("\n"));
});

describe("corpus: generate + tsc --strict", () => {
  for (const doc of [...corpusDocuments(), ...wildFixtures()]) {
    it(doc.name, async () => {
      const out = join(tempDir("specforge-corpus-"), "out");
      const result = await generate(doc.path, out);
      const expectedError = EXPECTED_ERRORS[doc.name];
      if (expectedError) {
        rows.push({ name: doc.name, operations: "-", files: 0, bytes: 0, generateMs: result.ms, maxRssMiB: result.maxRssMiB, tsc: "clear error (docs/output.md: Unsupported)" });
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(expectedError);
        return;
      }
      const warnings = EXPECTED_WARNINGS[doc.name];
      if (warnings) expect(result.stderr).toMatch(typeof warnings === "string" ? new RegExp(warnings) : warnings);
      else expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      const { files, bytes } = treeSize(out);
      const manifest = JSON.parse(readFileSync(join(out, ".specforge-manifest.json"), "utf8")) as { files: Record<string, string> };
      // The output's form decides the names (`client.ts`, or `client.js` + `client.d.ts`); a spec without paths has neither.
      const present = (...names: string[]) => names.find((name) => name in manifest.files);
      const clientFile = present("client.d.ts", "client.ts");
      const serverFile = present("server.js", "server.ts");
      const client = clientFile ? readFileSync(join(out, clientFile), "utf8") : "";
      // One `Client` member per operation (the name and `: Operation<` always share a line).
      const operations = (client.match(/^  [\w$]+: (?:Streaming|Paginated)?Operation</gm) ?? []).length;
      const tsc = await typecheck(out);
      rows.push({ name: doc.name, operations, files, bytes, generateMs: result.ms, maxRssMiB: result.maxRssMiB, tsc: tsc.code === 0 ? "ok" : "FAILED" });
      expect(tsc.output.split("\n").slice(0, 20).join("\n")).toBe("");
      expect(tsc.code).toBe(0);
      // Files printed in prettier's form without prettier (schema.ts, the runtime) must be exactly that form.
      expect(await notPrettierFormatted(out)).toEqual([]);
      // The router keeps only the component schemas its routes reach: every one they name must be there.
      if (serverFile) expect(missingServerSchemas(readFileSync(join(out, serverFile), "utf8"))).toEqual([]);
      // No line of code wider than 400 columns (but comments and the spec's long strings): tables one entry per line.
      expect(longLines(generatedTexts(out))).toEqual([]);
    }, 600_000);
  }
});
