import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UserError, check, generate } from "../src/index.js";
import { cleanupTempDirs, projectWithV1Spec, snapshotTree, writeFiles } from "./helpers.js";

afterAll(cleanupTempDirs);

describe("programmatic API", () => {
  it("generate() returns the files without touching the disk unless asked", async () => {
    const project = projectWithV1Spec();
    const { files, report } = await generate({ cwd: project });
    expect(report).toBeUndefined();
    expect([...files.keys()]).toEqual(expect.arrayContaining(["schema.ts", "client.ts", "server.ts", "server-validators.ts", "webhooks.ts", "index.ts", "runtime/client/runtime.ts", ".specforge-manifest.json"]));
    expect([...files.keys()].filter((path) => !path.endsWith(".ts") && !path.endsWith(".json"))).toEqual([]);
    expect(existsSync(join(project, "generated"))).toBe(false);
    const written = await generate({ cwd: project, write: true, outputs: ["types", "client"] });
    expect(written.report?.written).toEqual(expect.arrayContaining(["client.ts"]));
    expect(written.files.has("server.ts")).toBe(false);
  });

  it("generate({ form: \"js\" }) writes the modules as .js + .d.ts", async () => {
    const project = projectWithV1Spec();
    const { files } = await generate({ cwd: project, form: "js" });
    expect([...files.keys()]).toEqual(expect.arrayContaining(["schema.ts", "client.js", "client.d.ts", "server.js", "server.d.ts", "server-validators.js", "webhooks.js", "webhooks.d.ts", "index.ts", "runtime/client/runtime.js", "runtime/client/runtime.d.ts"]));
    expect(files.has("client.ts")).toBe(false);
    await expect(generate({ cwd: project, form: "mjs" as never })).rejects.toThrow('option `form` must be one of: "ts", "js", got "mjs"');
  });

  it("check() reports drift as data", async () => {
    const project = projectWithV1Spec();
    await generate({ cwd: project, write: true });
    expect((await check({ cwd: project })).drift).toEqual({ missing: [], extra: [], stale: [] });
    const drift = (await check({ cwd: project, outputs: ["types"] })).drift;
    expect(drift.extra).toEqual(expect.arrayContaining(["client.ts", "runtime/client/runtime.ts"]));
  });

  it("without write, generate() and check() leave every file of the project as it was (a .ts config included)", async () => {
    const project = projectWithV1Spec();
    writeFiles(project, { "specforge.config.ts": 'export default { outputs: ["client"] } satisfies { outputs: string[] };\n' });
    await generate({ cwd: project, write: true });
    const before = snapshotTree(project);
    const { files } = await generate({ cwd: project, format: false });
    expect(files.has("client.ts")).toBe(true);
    expect(files.has("server.ts")).toBe(false);
    const stale = await check({ cwd: project, format: false });
    expect(stale.upToDate).toBe(false);
    // client.ts is printed in prettier's form either way; the runtime copies are formatted only when asked.
    expect(stale.drift.stale.map((f) => f.path)).toContain("runtime/client/runtime.ts");
    expect((await check({ cwd: project })).upToDate).toBe(true);
    expect(snapshotTree(project)).toEqual(before);
  });

  it("bad input throws a UserError with a location", async () => {
    const error = await generate({ cwd: projectWithV1Spec(), spec: "missing.yaml" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).location).toBe("missing.yaml");
  });
});
