import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, projectWithV1Spec, runCli } from "../helpers.js";

afterAll(cleanupTempDirs);

const MODULES = ["client", "server", "webhooks"] as const;

/**
 * Turns a generated folder back into the layout of a version that wrote `client.ts`, `server.ts` and `webhooks.ts`
 * (the `.ts` text is the declarations plus the code, as those versions had both in one file; its exact content does
 * not matter here) and records them in the manifest as that version did, with its generator's fingerprint.
 */
function toPreviousLayout(out: string): void {
  const manifestPath = join(out, ".specforge-manifest.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { fingerprint: string; files: Record<string, unknown> };
  manifest.fingerprint = "the previous version's";
  for (const module of MODULES) {
    const text = readFileSync(join(out, `${module}.d.ts`), "utf8") + readFileSync(join(out, `${module}.js`), "utf8");
    for (const file of [`${module}.js`, `${module}.d.ts`]) {
      rmSync(join(out, file));
      delete manifest.files[file];
    }
    writeFileSync(join(out, `${module}.ts`), text);
    manifest.files[`${module}.ts`] = createHash("sha256").update(text).digest("hex");
  }
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + "\n");
}

describe("upgrading a folder generated as client.ts, server.ts and webhooks.ts", () => {
  it("check reports the old files as extra and the new ones missing; generate replaces them and check passes", async () => {
    const project = projectWithV1Spec();
    expect((await runCli(["generate"], project)).code).toBe(0);
    const out = join(project, "generated");
    toPreviousLayout(out);

    const before = await runCli(["check"], project);
    expect(before.code).toBe(1);
    for (const module of MODULES) {
      expect(before.stderr).toContain(`generated/${module}.js`);
      expect(before.stderr).toContain(`generated/${module}.d.ts`);
      expect(before.stderr).toContain(`generated/${module}.ts`);
    }

    const generated = await runCli(["generate"], project);
    expect(generated.code).toBe(0);
    expect(generated.stdout).toMatch(/ 7 written, \d+ unchanged, 3 removed /); // the six files and the manifest
    for (const module of MODULES) {
      expect(existsSync(join(out, `${module}.ts`)), `${module}.ts`).toBe(false);
      expect(readFileSync(join(out, `${module}.js`), "utf8")).toContain(`// @ts-self-types="./${module}.d.ts"`);
      expect(existsSync(join(out, `${module}.d.ts`)), `${module}.d.ts`).toBe(true);
    }
    expect((await runCli(["check"], project)).code).toBe(0);
  });
});
