import { join } from "node:path";
import * as prettier from "prettier";
import { afterAll, describe, expect, it } from "vitest";
import { check, generate } from "../../src/index.js";
import { cleanupTempDirs, projectWithV1Spec, writeFiles } from "../helpers.js";

afterAll(cleanupTempDirs);

/** What prettier makes of a generated file with the settings the project's config gives its real path. */
async function prettierAt(project: string, path: string, content: string): Promise<string> {
  const filepath = join(project, path);
  return prettier.format(content, { ...((await prettier.resolveConfig(filepath, { editorconfig: true })) ?? {}), filepath });
}

describe("formatting with the project's prettier settings, per output file", () => {
  it("an `overrides` entry for one generated file applies to that file, and only to it", async () => {
    const project = projectWithV1Spec();
    writeFiles(project, { ".prettierrc": JSON.stringify({ overrides: [{ files: "gen/client.ts", options: { printWidth: 140 } }] }) });
    const { files } = await generate({ cwd: project, out: "gen" });
    const client = files.get("client.ts")!;
    expect(await prettierAt(project, "gen/client.ts", client)).toBe(client);
    // The wider lines are used: a method type that breaks at 80 columns stays on one line.
    expect(client).toContain('  createSftTrainingJob: Operation<paths["/v1/preview/sft-training-jobs"]["post"]>;\n');
    for (const path of ["server.ts", "schema.ts", "runtime/client/runtime.js", "runtime/client/runtime.d.ts"]) {
      expect(await prettier.format(files.get(path)!, { filepath: path }), path).toBe(files.get(path));
    }
  });

  it("changing the settings of one generated file makes `check` regenerate (the fast path does not hide it)", async () => {
    const project = projectWithV1Spec();
    await generate({ cwd: project, out: "gen", write: true });
    expect((await check({ cwd: project, out: "gen" })).upToDate).toBe(true);
    writeFiles(project, { ".prettierrc": JSON.stringify({ overrides: [{ files: "gen/server.ts", options: { printWidth: 140 } }] }) });
    const report = await check({ cwd: project, out: "gen" });
    expect(report.fast).toBe(false);
    expect(report.drift.stale.map((file) => file.path)).toEqual(["server.ts", ".specforge-manifest.json"].sort());
  });
});
