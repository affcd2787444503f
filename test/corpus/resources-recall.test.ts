import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildModel } from "../../src/ir/build.js";
import { loadSpec } from "../../src/load/index.js";
import { ROOT, runCli } from "../helpers.js";
import { writeReportSection } from "./report.js";
import { sdkMethods, type SdkMethod } from "./sdk-methods.js";
import { CORPUS } from "./shared.js";

/**
 * The resource-style client measured against the SDKs people hold up as the model: for each API method of
 * `@octokit/rest`, `stripe` and `openai` whose endpoint the spec has, the generated client's method of the same
 * dotted name is called through a recording fetch, and counts when it sends the SDK's HTTP method to the SDK's path.
 * Names come from the spec alone; then OpenAI's again with the 15-entry map of openai-resources.json, and with the
 * resource table of openai-stainless.yml.
 */
const OUT = join(ROOT, "test", "corpus", ".out", "resources");
const OPENAI_OVERRIDES = JSON.parse(readFileSync(join(ROOT, "test", "corpus", "openai-resources.json"), "utf8")) as Record<string, string>;
/** OpenAI's resource tree as a stainless.yml-like resource table, imported by path. */
const OPENAI_TABLE = join(ROOT, "test", "corpus", "openai-stainless.yml");

/**
 * A path with every parameter (`{owner}`, `{a0}`, a value the test passed, and the `undefined` stripe writes for an
 * id not passed) as `{}`, without its query.
 */
const normalised = (path: string) =>
  path
    .split("?")[0]!
    .split("/")
    .map((segment) => (/^\{.*\}$/.test(segment) || /^__p\d+__$/.test(segment) || segment === "undefined" ? "{}" : segment))
    .join("/");

interface Recall {
  counted: number;
  matched: number;
  misses: string[];
}

async function recall(sdk: SdkMethod[], spec: string, name: string, resources?: Record<string, string> | string): Promise<Recall> {
  const out = join(OUT, name);
  mkdirSync(out, { recursive: true });
  const config = join(out, "specforge.config.json");
  writeFileSync(config, JSON.stringify({ spec: join(CORPUS, spec), out: join(out, "client"), outputs: ["client"], format: false, client: { style: "resources", resources: resources ?? {} } }));
  const result = await runCli(["generate", "--config", config], out);
  if (result.code !== 0) throw new Error(result.stderr);
  const model = buildModel(loadSpec(join(CORPUS, spec)), spec);
  const endpoints = new Set(model.operations.flatMap((op) => op.paths.map((path) => `${op.wireMethod} ${normalised(path)}`)));
  const basePath = normalised(new URL(String((model.document.servers as { url: string }[] | undefined)?.[0]?.url ?? "http://x/")).pathname.replace(/\/$/, ""));

  const requests: { method: string; path: string }[] = [];
  const fetch = async (request: Request) => {
    requests.push({ method: request.method, path: decodeURIComponent(new URL(request.url).pathname) });
    return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
  };
  const api = (await import(join(out, "client", "index.ts"))) as { createClient(options: object): Record<string, any> };
  const client = api.createClient({ fetch, maxRetries: 0 });

  const counted = sdk.filter((method) => endpoints.has(`${method.method} ${normalised(method.path)}`));
  const misses: string[] = [];
  let matched = 0;
  for (const method of counted) {
    const want = `${method.method} ${normalised(method.path)}`;
    let target: any = client;
    for (const part of method.name.split(".")) target = target?.[part];
    const before = requests.length;
    if (typeof target === "function") {
      // The path's parameters positionally (as many as the SDK's path has), then an empty params object.
      const args = Array.from({ length: normalised(method.path).split("{}").length - 1 }, (_, i) => `__p${i}__`);
      try {
        await target(...args, {});
      } catch {
        // (Sent or not, `requests` says.)
      }
    }
    const sent = requests[before];
    const got = sent && `${sent.method} ${normalised(sent.path).slice(sent.path.startsWith(basePath) ? basePath.length : 0)}`;
    if (got === want) matched++;
    else misses.push(`${method.name}: ${want}${got ? ` (sent ${got})` : typeof target === "function" ? " (sent nothing)" : " (no such method)"}`);
  }
  writeFileSync(join(out, "misses.txt"), misses.join("\n"));
  return { counted: counted.length, matched, misses };
}

describe("resource-style client: recall of the vendors' SDK methods", () => {
  const rows: string[] = [];
  afterAll(() => {
    writeReportSection(
      "resources-recall",
      [
        "## Resource-style client: SDK methods reproduced",
        "",
        "Each SDK API method whose endpoint the spec has, called by the same dotted name on the generated resource-style client: the fraction that sends the SDK's HTTP method and path (misses: test/corpus/.out/resources/*/misses.txt).",
        "",
        "| SDK | spec | names | counted | matched | recall |",
        "|---|---|---|---:|---:|---:|",
        ...rows,
      ].join("\n"),
    );
  });

  let methods: Awaited<ReturnType<typeof sdkMethods>>;
  const measure = async (sdk: keyof typeof methods, spec: string, label: string, resources?: Record<string, string> | string) => {
    methods ??= await sdkMethods();
    const result = await recall(methods[sdk], spec, `${sdk}${resources === undefined ? "" : typeof resources === "string" ? "-table" : "-overrides"}`, resources);
    const ratio = result.matched / result.counted;
    rows.push(`| ${sdk} | ${spec} | ${label} | ${result.counted} | ${result.matched} | ${ratio.toFixed(3)} |`);
    console.log(`${sdk} (${label}): ${result.matched}/${result.counted} = ${ratio.toFixed(3)}`);
    return { ...result, ratio };
  };

  it("@octokit/rest from GitHub's description: ≥ 0.98", async () => {
    const result = await measure("octokit", "github-api.github.com-3.0.json", "from the spec");
    expect(result.counted).toBeGreaterThan(900);
    expect(result.ratio, result.misses.slice(0, 20).join("\n")).toBeGreaterThanOrEqual(0.98);
  });

  it("stripe from Stripe's spec3: ≥ 0.7", async () => {
    const result = await measure("stripe", "stripe-spec3-2023-09-3.0.yaml", "from the spec");
    expect(result.counted).toBeGreaterThan(300);
    expect(result.ratio, result.misses.slice(0, 20).join("\n")).toBeGreaterThanOrEqual(0.7);
  });

  it("openai from OpenAI's spec: ≥ 0.5 from the spec alone, ≥ 0.95 with a map of 15 entries", async () => {
    expect(Object.keys(OPENAI_OVERRIDES).length).toBeLessThanOrEqual(15);
    const alone = await measure("openai", "openai-3.1.yaml", "from the spec");
    expect(alone.counted).toBeGreaterThan(100);
    expect(alone.ratio, alone.misses.slice(0, 20).join("\n")).toBeGreaterThanOrEqual(0.5);
    const mapped = await measure("openai", "openai-3.1.yaml", "with openai-resources.json (15 entries)", OPENAI_OVERRIDES);
    expect(mapped.ratio, mapped.misses.slice(0, 20).join("\n")).toBeGreaterThanOrEqual(0.95);
  });

  it("openai with its resource tree imported from a stainless.yml-like table: ≥ 0.99", async () => {
    const table = await measure("openai", "openai-3.1.yaml", "with openai-stainless.yml (resource table)", OPENAI_TABLE);
    // (Only where the SDK names one endpoint twice can a table of one name per operation miss.)
    expect(table.ratio, table.misses.slice(0, 20).join("\n")).toBeGreaterThanOrEqual(0.99);
  });
});
