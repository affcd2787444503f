import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, runCli, tempDir, writeFiles } from "../../helpers.js";
import { SPEC } from "./conformance.js";

afterAll(cleanupTempDirs);

/** Which adapters are written: only the listed ones, none importing its framework, and the list is part of `check`. */
describe("adapters in the output", () => {
  it("only the listed adapters are written and re-exported; changing the list is drift", async () => {
    const project = tempDir("specforge-adapters-");
    const config = (adapters: string[]) => JSON.stringify({ spec: "pets.yaml", out: "gen", outputs: ["server"], adapters });
    writeFiles(project, { "pets.yaml": readFileSync(SPEC, "utf8"), "specforge.config.json": config(["hono"]) });
    expect((await runCli(["generate"], project)).code).toBe(0);
    expect(readdirSync(join(project, "gen", "runtime", "adapters")).sort()).toEqual(["hono.d.ts", "hono.js"]);
    const index = readFileSync(join(project, "gen", "index.ts"), "utf8");
    expect(index).toContain('export { toHono, type HonoMiddleware } from "./runtime/adapters/hono.js";');
    expect(index).not.toMatch(/toExpress|toFastify|toNextHandlers/);
    expect((await runCli(["check"], project)).code).toBe(0);

    writeFileSync(join(project, "specforge.config.json"), config(["express", "hono", "next", "fastify"]));
    const drift = await runCli(["check"], project);
    expect(drift.code).toBe(1);
    expect(drift.stdout + drift.stderr).toMatch(/runtime\/adapters\/express\.js/);
    expect((await runCli(["generate"], project)).code).toBe(0);
    const adapters = join(project, "gen", "runtime", "adapters");
    expect(readdirSync(adapters).sort()).toEqual(["express.d.ts", "express.js", "fastify.d.ts", "fastify.js", "hono.d.ts", "hono.js", "next.d.ts", "next.js"]);
    // Structural types only: no adapter imports its framework (or anything but the server runtime and node: modules).
    for (const file of readdirSync(adapters)) {
      const imports = [...readFileSync(join(adapters, file), "utf8").matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((match) => match[1]);
      expect(imports.filter((specifier) => !/^(\.\.\/server\/[\w-]+\.js|node:http)$/.test(specifier!)), file).toEqual([]);
    }

    writeFileSync(join(project, "specforge.config.json"), config([]));
    expect((await runCli(["generate"], project)).code).toBe(0);
    expect(readdirSync(join(project, "gen", "runtime")).sort()).toEqual(["server"]);
  });
});
