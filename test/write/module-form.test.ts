import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, projectWithV1Spec, runCli } from "../helpers.js";

afterAll(cleanupTempDirs);

const MODULES = ["client", "server", "server-validators", "webhooks"] as const;

/** Every file below `dir`, by path relative to it. */
function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

describe("a folder generated in the other form", () => {
  it("is reported by check (the old files extra, the new ones missing) until generate rewrites it, both ways", async () => {
    const project = projectWithV1Spec();
    const out = join(project, "generated");
    expect((await runCli(["generate", "--form", "js"], project)).code).toBe(0);
    const js = filesOf(out);
    expect(js.filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))).toEqual(["index.ts", "schema.ts"]);

    // The project moves to the default form: the old layout is stale until generate writes the new one.
    const before = await runCli(["check"], project);
    expect(before.code).toBe(1);
    for (const module of MODULES) {
      expect(before.stderr).toMatch(new RegExp(`^missing: +generated/${module}\\.ts\\b`, "m"));
      expect(before.stderr).toMatch(new RegExp(`^extra: +generated/${module}\\.js\\b`, "m"));
    }
    expect(before.stderr).toMatch(/^extra: +generated\/runtime\/client\/runtime\.d\.ts\b/m);
    const generated = await runCli(["generate"], project);
    expect(generated.code).toBe(0);
    const ts = filesOf(out);
    // Every .js and .d.ts removed (the manifest lists what the previous run wrote), nothing else left behind.
    expect(ts.filter((file) => !file.endsWith(".ts") || file.endsWith(".d.ts"))).toEqual([".specforge-manifest.json"]);
    const removed = js.filter((file) => !ts.includes(file)).length;
    expect(generated.stdout).toMatch(new RegExp(` \\d+ written, 1 unchanged, ${removed} removed `)); // schema.ts is the same in both forms
    for (const module of MODULES) expect(readFileSync(join(out, `${module}.ts`), "utf8")).toMatch(/^\/\/ @ts-nocheck$/m);
    expect((await runCli(["check"], project)).code).toBe(0);

    // And back, by the config's `form`.
    writeFileSync(join(project, "specforge.config.json"), JSON.stringify({ form: "js" }));
    const stale = await runCli(["check"], project);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/^extra: +generated\/client\.ts\b/m);
    expect(stale.stderr).toMatch(/^missing: +generated\/client\.js\b/m);
    expect((await runCli(["generate"], project)).code).toBe(0);
    expect(filesOf(out)).toEqual(js);
    for (const module of MODULES) expect(existsSync(join(out, `${module}.ts`)), `${module}.ts`).toBe(false);
    expect((await runCli(["check"], project)).code).toBe(0);
  }, 240_000);

  it("a form other than ts or js is a user error naming the flag or field, and nothing is written", async () => {
    const project = projectWithV1Spec();
    const flag = await runCli(["generate", "--form", "mjs"], project);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--form must be one of: "ts", "js", got "mjs"');
    writeFileSync(join(project, "specforge.config.json"), JSON.stringify({ form: "esm" }));
    const field = await runCli(["generate"], project);
    expect(field.code).toBe(2);
    expect(field.stderr).toContain('specforge.config.json: config field `form` must be one of: "ts", "js", got "esm"');
    expect(existsSync(join(project, "generated"))).toBe(false);
  });
});
