import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { cleanupTempDirs, tempDir, writeFiles } from "../helpers.js";
import { VendorServer, document, folder } from "../e2e/vendor-server.js";
import { CORPUS } from "./shared.js";

afterAll(cleanupTempDirs);

async function run(args: string[], cwd: string) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { cwd, env: { PATH: process.env.PATH, NO_COLOR: "1" }, stdout: (t) => (stdout += t + "\n"), stderr: (t) => (stderr += t + "\n") });
  return { code, stdout, stderr };
}

function project(config: Record<string, unknown>): string {
  const dir = tempDir();
  writeFiles(dir, { "package.json": "{}\n", "specforge.config.json": JSON.stringify({ outputs: ["types"], ...config }) });
  return dir;
}

describe("real specs published at a URL", () => {
  it("DigitalOcean's 2,900-file spec served as a folder over HTTP gives the types it gives on disk", async () => {
    const root = join(CORPUS, "digitalocean-multifile-3.0");
    const server = await VendorServer.start({ "/spec/": folder("/spec/", root) });
    try {
      const fromUrl = project({ spec: server.url("/spec/DigitalOcean-public.v2.yaml") });
      const fromFile = project({ spec: join(root, "DigitalOcean-public.v2.yaml") });
      const started = performance.now();
      const fetched = await run(["generate"], fromUrl);
      const seconds = (performance.now() - started) / 1000;
      expect(fetched.stderr).toBe("");
      const diskStarted = performance.now();
      expect((await run(["generate"], fromFile)).code).toBe(0);
      const diskSeconds = (performance.now() - diskStarted) / 1000;
      expect(readFileSync(join(fromUrl, "generated", "schema.ts"), "utf8")).toBe(readFileSync(join(fromFile, "generated", "schema.ts"), "utf8"));
      const inputs = Object.keys(JSON.parse(readFileSync(join(fromUrl, "generated", ".specforge-manifest.json"), "utf8")).inputs as object);
      const documents = server.requests.filter((r) => r.path.startsWith("/spec/")).length;
      console.log(`DigitalOcean over HTTP: ${inputs.length} documents locked, ${documents} requests, ${seconds.toFixed(1)} s (from disk: ${diskSeconds.toFixed(1)} s)`);
      // Every document the spec reads is fetched once; the prefetch may ask for a few that turn out unneeded.
      expect(documents).toBeGreaterThanOrEqual(inputs.length);
      expect(documents).toBeLessThan(inputs.length * 1.1);

      // Again: one conditional request per document, all 304.
      const before = server.requests.length;
      expect((await run(["generate"], fromUrl)).stdout).toMatch(/ 0 written/);
      expect(server.requests.slice(before).every((r) => r.headers["if-none-match"] !== undefined)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("check --remote on GitHub's 13 MB description: a 304 when unchanged; the API changes when an operation is removed", async () => {
    const original = readFileSync(join(CORPUS, "github-api.github.com-3.0.json"), "utf8");
    let text = original;
    const server = await VendorServer.start({ "/api.github.com.json": document(() => text, { contentType: "application/json" }) });
    try {
      const dir = project({ spec: server.url("/api.github.com.json") });
      expect((await run(["generate"], dir)).code).toBe(0);
      let started = performance.now();
      expect((await run(["check", "--remote"], dir)).code).toBe(0);
      const unchanged = performance.now() - started;

      const json = JSON.parse(original) as { paths: Record<string, Record<string, unknown>> };
      delete json.paths["/meta"]!.get;
      text = JSON.stringify(json);
      started = performance.now();
      const result = await run(["check", "--remote"], dir);
      const changed = performance.now() - started;
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/changed on the server .*: 1 API change: 1 breaking for clients/);
      expect(result.stderr).toContain("GET /meta: operation removed");
      console.log(`check --remote on GitHub's description: unchanged ${Math.round(unchanged)} ms, changed ${Math.round(changed)} ms`);
    } finally {
      await server.close();
    }
  });
});
