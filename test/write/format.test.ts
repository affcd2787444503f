import { join } from "node:path";
import * as prettier from "prettier";
import { afterAll, describe, expect, it } from "vitest";
import { check, generate } from "../../src/index.js";
import { createFormatter, formattingFingerprint } from "../../src/write/format.js";
import { withoutPrettierSettings } from "../../src/write/prettier-config.js";
import { cleanupTempDirs, projectWithV1Spec, tempDir, writeFiles } from "../helpers.js";

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
    for (const path of ["server.ts", "schema.ts", "runtime/client/runtime.ts", "runtime/server/validate.ts"]) {
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

describe("prettier's settings shown without loading prettier (src/write/prettier-config.ts)", () => {
  const files = ["schema.ts", "client.js", "runtime/client/runtime.ts", ".specforge-manifest.json"];
  /** The fingerprint prettier itself gives (the lean path turned off by a config prettier reads as empty). */
  async function prettierFingerprint(out: string): Promise<string> {
    await prettier.clearConfigCache();
    const settings = await Promise.all([...files].sort().map(async (path) => [path, (await prettier.resolveConfig(join(out, path), { editorconfig: true })) ?? {}]));
    return JSON.stringify([prettier.version, settings]);
  }

  it("no config anywhere above the output folder: the same fingerprint as prettier's, and every file at its defaults", async () => {
    const project = tempDir();
    writeFiles(project, { "package.json": JSON.stringify({ name: "x" }) });
    const out = join(project, "gen");
    expect(withoutPrettierSettings(files.map((path) => join(out, path)))).toBe(true);
    expect(await formattingFingerprint(out, files)).toBe(await prettierFingerprint(out));
    const formatter = await createFormatter(out, files);
    for (const path of files) expect(await formatter.usesDefaults(path)).toBe(true);
  });

  it.each([
    [".prettierrc", "{}"],
    ["prettier.config.mjs", "export default {};"],
    [".editorconfig", "root = true\n"],
    ["package.json", JSON.stringify({ prettier: { semi: false } })],
    ["package.yaml", "name: x\n"],
    ["package.json", "{ not json"],
  ])("a %s above the output folder (or in it) sends the question to prettier", async (name, content) => {
    const project = tempDir();
    writeFiles(project, { [`sub/${name}`]: content });
    expect(withoutPrettierSettings(files.map((path) => join(project, "sub", "gen", path)))).toBe(false);
    expect(withoutPrettierSettings(files.map((path) => join(project, "gen", path)))).toBe(true);
    writeFiles(project, { [`gen/runtime/${name}`]: content });
    expect(withoutPrettierSettings(files.map((path) => join(project, "gen", path)))).toBe(false);
  });

  it("a package.json `prettier` key is read as a config: the fingerprint is prettier's", async () => {
    const project = tempDir();
    writeFiles(project, { "package.json": JSON.stringify({ prettier: { printWidth: 100 } }) });
    const out = join(project, "gen");
    const fingerprint = await formattingFingerprint(out, files);
    expect(fingerprint).toBe(await prettierFingerprint(out));
    expect(fingerprint).toContain('"printWidth":100');
  });

  it("the manifest JSON.stringify writes is what prettier makes of it with its defaults", async () => {
    const project = projectWithV1Spec();
    const { files: output } = await generate({ cwd: project, out: "gen" });
    const manifest = output.get(".specforge-manifest.json")!;
    expect(await prettier.format(manifest, { filepath: join(project, "gen", ".specforge-manifest.json") })).toBe(manifest);
  });
});
