import { execFileSync } from "node:child_process";
import { lstatSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, runMeasured, tempDir, writeFiles } from "../helpers.js";

/**
 * The output folder is committed, so a pull request decides what is in it: a link to a secret, to `/dev/zero`, a
 * FIFO, a linked `runtime/`. `check` and `generate` look at it with `lstat`: such an entry is named, never read or
 * followed, and `generate` replaces it with the generated file.
 */
afterAll(cleanupTempDirs);

const SPEC = `openapi: 3.1.0
info: {title: links, version: '1'}
paths:
  /x:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: string}
`;

/**
 * The built bin as a process of its own, reporting its peak RSS; killed after two minutes (a hang). Each run takes
 * about a second on an idle machine, but tests share this one with other test processes.
 */
const run = (args: string[], cwd: string) => runMeasured(args, cwd, 120_000);

/** "Quickly", on a loaded machine: what hangs or reads /dev/zero runs into the kill instead. */
const QUICKLY_MS = 90_000;

/** Each test runs the bin several times. */
const TEST_TIMEOUT_MS = 600_000;

/** A project with a current output folder `out/`. */
async function generatedProject(): Promise<string> {
  const project = tempDir();
  writeFiles(project, { "api/openapi.yaml": SPEC });
  const result = await run(["generate", "--spec", "api/openapi.yaml", "--out", "out"], project);
  expect(result.code).toBe(0);
  return project;
}

const check = (project: string) => run(["check", "--spec", "api/openapi.yaml", "--out", "out"], project);
const generate = (project: string) => run(["generate", "--spec", "api/openapi.yaml", "--out", "out"], project);

describe("entries of the output folder that are not regular files", () => {
  it("a generated file replaced by a link to a secret: check names the link and never prints what it points at; generate replaces the link", async () => {
    const project = await generatedProject();
    writeFiles(project, { "secret.env": "NPM_TOKEN=npm_s3cr3t-do-not-print\n" });
    rmSync(join(project, "out", "client.d.ts"));
    symlinkSync(join(project, "secret.env"), join(project, "out", "client.d.ts"));
    symlinkSync(join(project, "secret.env"), join(project, "out", "notes.md"));

    const checked = await check(project);
    expect(checked.code).toBe(1);
    expect(checked.output).not.toContain("s3cr3t");
    expect(checked.output).toContain("stale:   out/client.d.ts\n    (a symbolic link where specforge writes a file: not read)");
    expect(checked.output).toContain("extra:   out/notes.md (a symbolic link: not read, not generated from the spec)");

    const generated = await generate(project);
    expect(generated.code).toBe(0);
    expect(lstatSync(join(project, "out", "client.d.ts")).isFile()).toBe(true);
    expect(readFileSync(join(project, "out", "client.d.ts"), "utf8")).toContain("export interface Client");
    expect(readdirSync(join(project, "out"))).not.toContain("notes.md");
    expect(readFileSync(join(project, "secret.env"), "utf8")).toBe("NPM_TOKEN=npm_s3cr3t-do-not-print\n"); // written through? no
    expect((await check(project)).code).toBe(0);
  }, TEST_TIMEOUT_MS);

  it("links to /dev/zero (a generated file, an extra file and the manifest itself): check and generate end quickly in bounded memory", async () => {
    const project = await generatedProject();
    rmSync(join(project, "out", "schema.ts"));
    symlinkSync("/dev/zero", join(project, "out", "schema.ts"));
    symlinkSync("/dev/zero", join(project, "out", "zero.js"));
    const checked = await check(project);
    expect(checked.output).not.toContain("internal error");
    expect(checked.code).toBe(1);
    expect(checked.output).toContain("stale:   out/schema.ts\n    (a symbolic link where specforge writes a file: not read)");
    expect(checked.output).toContain("extra:   out/zero.js (a symbolic link: not read, not generated from the spec)");

    rmSync(join(project, "out", ".specforge-manifest.json"));
    symlinkSync("/dev/zero", join(project, "out", ".specforge-manifest.json"));
    const noManifest = await check(project);
    expect(noManifest.code).toBe(1);
    expect(noManifest.output).toContain("stale:   out/.specforge-manifest.json");

    const generated = await generate(project);
    expect(generated.stderr).toBe("");
    expect(generated.code).toBe(0);
    expect((await check(project)).code).toBe(0);
    for (const result of [checked, noManifest, generated]) {
      expect(result.milliseconds).toBeLessThan(QUICKLY_MS);
      expect(result.maxRss).toBeLessThan(400 * 1024 * 1024);
    }
  }, TEST_TIMEOUT_MS);

  it("a manifest that names /dev/zero as a spec file is not read through: check regenerates and compares", async () => {
    const project = await generatedProject();
    const manifestPath = join(project, "out", ".specforge-manifest.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { inputs: Record<string, unknown> };
    const depth = project.split("/").length + 1;
    manifest.inputs[`${"../".repeat(depth)}dev/zero`] = { sha256: "0".repeat(64), gitBlob: "0".repeat(40) };
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + "\n");
    const checked = await check(project);
    expect(checked.milliseconds).toBeLessThan(QUICKLY_MS);
    expect(checked.maxRss).toBeLessThan(400 * 1024 * 1024);
    expect(checked.output).not.toContain("internal error");
    expect(checked.output).toContain("stale:   out/.specforge-manifest.json");
  }, TEST_TIMEOUT_MS);

  it("a runtime/ folder that is a link: check reports it once (exit 1, not an internal error); generate replaces it with the folder and leaves the target alone", async () => {
    const project = await generatedProject();
    renameSync(join(project, "out", "runtime"), join(project, "elsewhere"));
    symlinkSync(join(project, "elsewhere"), join(project, "out", "runtime"));
    const before = readdirSync(join(project, "elsewhere", "client")).sort();

    const checked = await check(project);
    expect(checked.output).not.toContain("internal error");
    expect(checked.code).toBe(1);
    expect(checked.output).toMatch(/stale: {3}out\/runtime\n {4}\(a symbolic link where specforge writes a folder of \d+ files: not followed\)/);
    expect(checked.output).not.toContain("missing:");

    const generated = await generate(project);
    expect(generated.stderr).toBe("");
    expect(generated.code).toBe(0);
    expect(lstatSync(join(project, "out", "runtime")).isDirectory()).toBe(true);
    expect(readdirSync(join(project, "out", "runtime", "client")).sort()).toEqual(before);
    expect(readdirSync(join(project, "elsewhere", "client")).sort()).toEqual(before);
    expect((await check(project)).code).toBe(0);
  }, TEST_TIMEOUT_MS);

  it("a FIFO with no writer: check names it without opening it (no hang); generate removes it", async () => {
    const project = await generatedProject();
    execFileSync("mkfifo", [join(project, "out", "pipe.ts")]);
    rmSync(join(project, "out", "index.ts"));
    execFileSync("mkfifo", [join(project, "out", "index.ts")]);
    const checked = await check(project);
    expect(checked.milliseconds).toBeLessThan(QUICKLY_MS);
    expect(checked.code).toBe(1);
    expect(checked.output).toContain("extra:   out/pipe.ts (a FIFO: not read, not generated from the spec)");
    expect(checked.output).toContain("stale:   out/index.ts\n    (a FIFO where specforge writes a file: not read)");
    const generated = await generate(project);
    expect(generated.code).toBe(0);
    expect(readdirSync(join(project, "out"))).not.toContain("pipe.ts");
    expect(lstatSync(join(project, "out", "index.ts")).isFile()).toBe(true);
  }, TEST_TIMEOUT_MS);

  it("where prettier looks for settings (package.json, .prettierrc, .editorconfig in the output folder), a link or FIFO is exit 2, not read", async () => {
    for (const name of ["package.json", ".prettierrc", "runtime/client/.editorconfig"]) {
      const project = await generatedProject();
      symlinkSync("/dev/zero", join(project, "out", name));
      for (const result of [await check(project), await generate(project)]) {
        expect(result.milliseconds).toBeLessThan(QUICKLY_MS);
        expect(result.code).toBe(2);
        expect(result.stderr).toContain(`specforge: error: out/${name}: this entry of the output folder, where prettier looks for settings, is not a regular file`);
      }
    }
  }, TEST_TIMEOUT_MS);

  it("an output path that is itself a link is refused with exit 2, nothing written through it", async () => {
    const project = tempDir();
    writeFiles(project, { "api/openapi.yaml": SPEC, "target/keep.txt": "mine\n" });
    symlinkSync(join(project, "target"), join(project, "out"));
    const generated = await generate(project);
    expect(generated.code).toBe(2);
    expect(generated.stderr).toMatch(/out: the output path is a symbolic link, not a folder/);
    expect(readdirSync(join(project, "target"))).toEqual(["keep.txt"]);
  }, TEST_TIMEOUT_MS);
});
