import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, projectWithV1Spec, runBin, runCli, snapshotTree, tempDir, writeFiles } from "../helpers.js";

afterAll(cleanupTempDirs);

const read = (dir: string, file: string) => readFileSync(join(dir, file), "utf8");

/** [name, package.json as written by someone, the same file after init] */
const formats: [string, string, string][] = [
  [
    "2 spaces, other scripts",
    '{\n  "name": "app",\n  "private": true,\n  "scripts": {\n    "build": "tsc",\n    "test": "vitest"\n  },\n  "devDependencies": { "typescript": "5.9.3" }\n}\n',
    '{\n  "name": "app",\n  "private": true,\n  "scripts": {\n    "build": "tsc",\n    "test": "vitest",\n    "api:generate": "specforge generate",\n    "api:check": "specforge check"\n  },\n  "devDependencies": { "typescript": "5.9.3" }\n}\n',
  ],
  [
    "4 spaces, no scripts",
    '{\n    "name": "app",\n    "version": "0.0.0",\n    "files": ["dist"]\n}\n',
    '{\n    "name": "app",\n    "version": "0.0.0",\n    "files": ["dist"],\n    "scripts": {\n        "api:generate": "specforge generate",\n        "api:check": "specforge check"\n    }\n}\n',
  ],
  [
    "tabs, no trailing newline",
    '{\n\t"name": "app",\n\t"scripts": {\n\t\t"start": "node ."\n\t}\n}',
    '{\n\t"name": "app",\n\t"scripts": {\n\t\t"start": "node .",\n\t\t"api:generate": "specforge generate",\n\t\t"api:check": "specforge check"\n\t}\n}',
  ],
];

describe("specforge init", () => {
  it.each(formats)("%s: adds the scripts in the file's own style, writes the config, and is idempotent", async (_name, given, want) => {
    const project = projectWithV1Spec();
    writeFileSync(join(project, "package.json"), given);
    const first = await runCli(["init"], project);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe("");
    expect(first.stdout).toMatch(/^specforge: package\.json: added scripts api:generate, api:check$/m);
    expect(first.stdout).toMatch(/^specforge: wrote specforge\.config\.json \(spec: spec\/training-api\.v1\.yaml, out: generated, outputs: types, client, server, webhooks, format: true\)$/m);
    expect(read(project, "package.json")).toBe(want);
    const indent = /\n([ \t]+)"/.exec(given)![1];
    expect(read(project, "specforge.config.json")).toBe(
      `{\n${indent}"spec": "spec/training-api.v1.yaml",\n${indent}"out": "generated",\n${indent}"outputs": ["types", "client", "server", "webhooks"],\n${indent}"format": true\n}\n`,
    );

    // Second run: same bytes, same files (not rewritten: same inode and mtime), and it says so.
    const before = snapshotTree(project);
    const second = await runCli(["init"], project);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/scripts api:generate, api:check already present/);
    expect(second.stdout).toMatch(/specforge\.config\.json already configures specforge; left it unchanged/);
    expect(snapshotTree(project)).toEqual(before);

    // And the config it wrote works.
    expect((await runCli(["check"], project)).stderr).toMatch(/^specforge: generated\/ has not been generated from spec\/training-api\.v1\.yaml yet/);
  });

  it("a project with a src/ folder gets its output there (beside the code tsc compiles); --form goes into the config", async () => {
    const project = projectWithV1Spec();
    writeFiles(project, { "package.json": '{\n  "name": "app"\n}\n', "src/main.ts": "export {};\n" });
    const result = await runCli(["init", "--form", "js"], project);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^specforge: wrote specforge\.config\.json \(spec: spec\/training-api\.v1\.yaml, out: src\/generated, outputs: types, client, server, webhooks, format: true, form: js\)$/m);
    expect(JSON.parse(read(project, "specforge.config.json"))).toEqual({ spec: "spec/training-api.v1.yaml", out: "src/generated", outputs: ["types", "client", "server", "webhooks"], format: true, form: "js" });
    // A file called src is not a folder for code.
    const other = projectWithV1Spec();
    writeFiles(other, { "package.json": "{}\n", src: "" });
    expect((await runCli(["init"], other)).code).toBe(0);
    expect(JSON.parse(read(other, "specforge.config.json"))).toMatchObject({ out: "generated" });
    expect(JSON.parse(read(other, "specforge.config.json"))).not.toHaveProperty("form");
  });

  it("a script of the same name that runs something else is kept with a warning; --force replaces it", async () => {
    const project = tempDir();
    const given = '{\n  "scripts": {\n    "api:generate": "openapi-ts -i api.yaml"\n  }\n}\n';
    writeFiles(project, { "package.json": given, "openapi.yaml": "openapi: 3.1.0\ninfo: {title: x, version: '1'}\npaths: {}\n" });
    const kept = await runCli(["init"], project);
    expect(kept.code).toBe(0);
    expect(kept.stderr).toMatch(
      /^specforge: warning: package\.json already has a script "api:generate" that runs `openapi-ts -i api\.yaml`; left it unchanged \(`specforge init --force` replaces it with `specforge generate`\)$/m,
    );
    expect(kept.stdout).toMatch(/added scripts api:check$/m);
    expect(JSON.parse(read(project, "package.json")).scripts).toEqual({ "api:generate": "openapi-ts -i api.yaml", "api:check": "specforge check" });
    // The spec was found by its usual name.
    expect(JSON.parse(read(project, "specforge.config.json")).spec).toBe("openapi.yaml");

    const forced = await runCli(["init", "--force"], project);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toBe("");
    expect(forced.stdout).toMatch(/replaced script api:generate \(was: openapi-ts -i api\.yaml\)/);
    expect(read(project, "package.json")).toBe('{\n  "scripts": {\n    "api:generate": "specforge generate",\n    "api:check": "specforge check"\n  }\n}\n');
  });

  it("--spec, --out, --outputs and --no-format go into the new config; a missing spec is a warning", async () => {
    const project = tempDir();
    writeFiles(project, { "package.json": '{ "name": "app" }\n' });
    const result = await runCli(["init", "--spec", "api/openapi.json", "--out", "src/api", "--outputs", "client,webhooks", "--no-format"], project);
    expect(result.code).toBe(0);
    expect(JSON.parse(read(project, "specforge.config.json"))).toEqual({ spec: "api/openapi.json", out: "src/api", outputs: ["client", "webhooks"], format: false });
    expect(result.stderr).toMatch(/warning: the spec api\/openapi\.json does not exist yet: put your OpenAPI document there or change `spec` in specforge\.config\.json/);
    expect(read(project, "package.json")).toBe('{ "name": "app", "scripts": {"api:generate": "specforge generate", "api:check": "specforge check"} }\n');
  });

  it("an existing config (any kind) is left alone, and flags that would have gone into it are named", async () => {
    const projects: Record<string, string>[] = [
      { "specforge.config.ts": "export default { out: 'x' };\n", "package.json": "{}\n" },
      { "package.json": '{\n  "specforge": { "out": "x" }\n}\n' },
    ];
    for (const files of projects) {
      const project = tempDir();
      writeFiles(project, files);
      const result = await runCli(["init", "--out", "y"], project);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/(specforge\.config\.ts|package\.json#\/specforge) already configures specforge; left it unchanged/);
      expect(result.stderr).toMatch(/warning: --out not written: .* exists \(edit it instead\)/);
      expect(snapshotTree(project).has("specforge.config.json")).toBe(false);
      expect(JSON.parse(read(project, "package.json")).scripts).toEqual({ "api:generate": "specforge generate", "api:check": "specforge check" });
    }
  });

  const errors: [string, Record<string, string>, string[], RegExp][] = [
    ["no package.json", {}, [], /^specforge: error: .*: no package\.json in this folder\n  hint: run `npx specforge init` in the project's root folder \(create one with `npm init -y`\)/],
    ["invalid package.json", { "package.json": '{ "name": "app", }\n' }, [], /package\.json:1:18: invalid JSON in package\.json: .*\n  hint: fix the file/],
    ["scripts that are not an object", { "package.json": '{ "scripts": "build" }\n' }, [], /package\.json: cannot add scripts: `scripts` must be an object/],
    ["a bad flag", { "package.json": "{}\n" }, ["--outputs", "sdk"], /command line: --outputs: "sdk" is not an output/],
    ["--config", { "package.json": "{}\n" }, ["--config", "x.json"], /unknown option --config for `specforge init`\n  hint: --config is an option of `specforge generate`, `specforge check`, `specforge mock`, `specforge webhook test`/],
    ["two config files", { "package.json": "{}\n", "specforge.config.json": "{}", "specforge.config.mjs": "export default {};\n" }, [], /more than one config file/],
  ];

  it.each(errors)("%s: exit 2, one message, nothing written", async (_name, files, args, message) => {
    const project = tempDir();
    writeFiles(project, files);
    const before = snapshotTree(project);
    const result = await runCli(["init", ...args], project);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe("");
    expect(snapshotTree(project)).toEqual(before);
  });

  it("the real bin, --quiet: nothing on stdout, the files written", async () => {
    const project = tempDir();
    writeFiles(project, { "package.json": "{}\n", "openapi.yml": "openapi: 3.0.3\n" });
    const result = await runBin(["init", "--quiet"], project);
    expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(JSON.parse(read(project, "specforge.config.json")).spec).toBe("openapi.yml");
  });
});
