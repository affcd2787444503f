import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config/resolve.js";
import { isProvablyCurrent } from "../../src/write/fast-check.js";
import { MANIFEST_FILE } from "../../src/write/manifest.js";
import { V1_SPEC, cleanupTempDirs, projectWithV1Spec, runCli, tempDir } from "../helpers.js";
import { main } from "../../src/cli.js";
import { commitAll, gitRepo } from "./git-repo.js";

afterAll(cleanupTempDirs);

const SPEC = "spec/training-api.v1.yaml";

/** A git repository with the v1 spec and its generated output committed, as a downstream project has it. */
async function committedProject(): Promise<string> {
  const repo = gitRepo();
  writeFiles(repo);
  expect((await runCli(["generate"], repo)).code).toBe(0);
  commitAll(repo, "spec and generated output");
  return repo;
}

function writeFiles(repo: string): void {
  mkdirSync(join(repo, "spec"), { recursive: true });
  writeFileSync(join(repo, SPEC), readFileSync(V1_SPEC, "utf8"));
}

function editSpec(repo: string, edit: (text: string) => string): void {
  const path = join(repo, SPEC);
  const before = readFileSync(path, "utf8");
  const after = edit(before);
  expect(after).not.toBe(before);
  writeFileSync(path, after);
}

const ADD_EVENT_TYPE = (text: string) =>
  text.replace("enum: [training_started, gradient_step, training_ended, training_failed]", "enum: [training_started, gradient_step, training_ended, training_failed, training_paused]");

async function runWithEnv(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { cwd, env, stdout: (t) => (stdout += t + "\n"), stderr: (t) => (stderr += t + "\n") });
  return { code, stdout, stderr };
}

describe("check explains itself: the API changes since the output was generated, then the file drift", () => {
  it("reads the spec the output was generated from back from git and prints what changed in the API first", async () => {
    const repo = await committedProject();
    editSpec(repo, ADD_EVENT_TYPE);
    const result = await runCli(["check"], repo);
    expect(result.code).toBe(1);
    const [api, drift] = result.stderr.split("\n\n", 2) as [string, string];
    expect(api).toBe(
      [
        `specforge: ${SPEC} changed since generated/ was generated: 1 API change: 1 breaking for clients, 0 breaking for servers, 0 compatible`,
        "  Breaking for clients (1)",
        '    - TrainingJobEventType: enum value "training_paused" added (in responses)',
        "        #/components/schemas/TrainingJobEventType",
        "        affects GET /v1/preview/training-jobs/{training_job_id}/events",
      ].join("\n"),
    );
    // Then the drift as before, without the manifest's hash diff.
    expect(drift).toMatch(/^stale: {3}generated\/\.specforge-manifest\.json \(the spec, generator and file hashes it records\)\nstale: {3}generated\/schema\.ts \(\+\d+ -\d+ lines\)\n/);
    expect(result.stderr).not.toContain('"sha256"');
    expect(result.stderr).toMatch(/specforge: generated\/ is out of date with spec\/training-api\.v1\.yaml \(\d+ files\); run `npx specforge generate`\n$/);
  });

  it("also when the new spec is committed too (the generated version is found by its blob id, not at HEAD)", async () => {
    const repo = await committedProject();
    editSpec(repo, ADD_EVENT_TYPE);
    commitAll(repo, "spec edited, output forgotten");
    const result = await runCli(["check"], repo);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('TrainingJobEventType: enum value "training_paused" added');
  });

  it("a documentation-only spec edit: no API changes, only the files whose text changed", async () => {
    const repo = await committedProject();
    editSpec(repo, (text) => text.replace("      summary: Delete model\n", "      summary: Delete a model\n"));
    const result = await runCli(["check"], repo);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^specforge: spec\/training-api\.v1\.yaml changed since generated\/ was generated: no API changes \(only descriptions, examples or other documentation\)\n\n/);
    expect(result.stderr.match(/^stale: /gm)).toHaveLength(4); // manifest, client.ts, schema.ts, server.ts
  });

  it("says why when the generated version cannot be found (never committed)", async () => {
    const repo = gitRepo(); // a repository, but nothing committed
    writeFiles(repo);
    await runCli(["generate"], repo);
    editSpec(repo, ADD_EVENT_TYPE);
    const result = await runCli(["check"], repo);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^specforge: spec\/training-api\.v1\.yaml changed since generated\/ was generated; the API changes cannot be shown: the spec version it was generated from is not in this git repository \(\.\.\/spec\/training-api\.v1\.yaml\): it was never committed, or the checkout is shallow \(use `fetch-depth: 0`\)\n/);
  });

  it("outside a git repository: the drift alone, with the reason", async () => {
    const project = projectWithV1Spec();
    await runCli(["generate"], project);
    editSpec(project, ADD_EVENT_TYPE);
    const result = await runCli(["check"], project);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/the API changes cannot be shown: not in a git repository/);
    expect(result.stderr).toMatch(/^stale: {3}generated\/schema\.ts \(\+\d+ -\d+ lines\)$/m);
  });

  it("nothing about the API when the spec did not change (a hand edit of a generated file)", async () => {
    const repo = await committedProject();
    const schema = join(repo, "generated", "schema.ts");
    writeFileSync(schema, readFileSync(schema, "utf8") + "// edited\n");
    const result = await runCli(["check"], repo);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^stale: {3}generated\/schema\.ts \(\+0 -1 line\)\n/);
  });

  it("a manifest written by an older specforge (no blob ids): the spec at HEAD is used when its SHA-256 matches", async () => {
    const repo = await committedProject();
    const manifestPath = join(repo, "generated", MANIFEST_FILE);
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    for (const [path, input] of Object.entries(manifest.inputs)) manifest.inputs[path] = (input as { sha256: string }).sha256;
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + "\n");
    commitAll(repo, "old manifest");
    editSpec(repo, ADD_EVENT_TYPE);
    const result = await runCli(["check"], repo);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('TrainingJobEventType: enum value "training_paused" added');
  });
});

/** An operation's new optional query parameter: three lines of the spec. */
const ADD_QUERY_PARAMETER = (text: string) =>
  text.replace("      operationId: delete_model_v1_preview_models__model_id__delete\n      parameters:\n", "      operationId: delete_model_v1_preview_models__model_id__delete\n      parameters:\n        - name: probe\n          in: query\n          schema: { type: string, enum: [a, b] }\n");

describe("a compact report", () => {
  it("a three-line spec edit: the API change, one line per stale file with its changed lines, a few lines of diff each; a few KB in all", async () => {
    const repo = await committedProject();
    editSpec(repo, ADD_QUERY_PARAMETER);
    const result = await runCli(["check"], repo);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("DELETE /v1/preview/models/{model_id} query parameter probe: optional query parameter added");
    const files = result.stderr.match(/^stale: .*$/gm)!;
    expect(files).toEqual(expect.arrayContaining([expect.stringMatching(/^stale: {3}generated\/client\.js \(\+1 -1 lines\)$/), expect.stringMatching(/^stale: {3}generated\/server\.js \(\+\d+ -\d+ lines\)$/)]));
    // Each file's diff follows its line: at most 40 lines, none wider than 160 columns (and the indent).
    for (const section of result.stderr.split(/^stale: .*\n/m).slice(1)) {
      const diff = section.split("\n\n")[0]!.split("\n").filter((line) => line.startsWith("    "));
      expect(diff.length).toBeLessThanOrEqual(41);
      expect(diff.every((line) => line.length <= 4 + 160)).toBe(true);
    }
    expect(Buffer.byteLength(result.stderr)).toBeLessThan(6_000);
  });

  it("cuts long diff lines and long diffs, says so, and `--diff` prints every line whole", async () => {
    const repo = await committedProject();
    // Every description in schema.ts and the router's tables changes: a long diff, with long lines.
    editSpec(repo, (text) => text.replace(/description: (?=[A-Z])/g, "description: Changed. "));
    const compact = await runCli(["check"], repo);
    expect(compact.code).toBe(1);
    expect(compact.stderr).toMatch(/^ {4}… \d+ more diff lines$/m);
    expect(compact.stderr).toMatch(/…$/m);
    expect(compact.stderr).toContain("`specforge check --diff` prints them whole");
    const full = await runCli(["check", "--diff"], repo);
    expect(full.code).toBe(1);
    expect(full.stderr).not.toMatch(/more diff lines/);
    expect(full.stderr).not.toContain("--diff");
    expect(full.stderr).toContain("+++ generated/schema.ts (from the spec)");
    expect(full.stderr.length).toBeGreaterThan(compact.stderr.length * 4);
    const added = Number(/^stale: {3}generated\/schema\.ts \(\+(\d+) -\d+ lines\)$/m.exec(full.stderr)![1]);
    const schemaDiff = full.stderr.split(/^stale: {3}generated\/schema\.ts .*\n/m)[1]!.split("\n\n")[0]!;
    expect(schemaDiff.split("\n").filter((line) => /^ {4}\+(?!\+\+ )/.test(line))).toHaveLength(added);
  });

  it("a folder never generated: one message with the command to run, not a line per missing file", async () => {
    const project = projectWithV1Spec();
    const result = await runCli(["check"], project);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^specforge: generated\/ has not been generated from spec\/training-api\.v1\.yaml yet \(\d+ files to write\); run `npx specforge generate`\n$/);
  });
});

describe("the fast path stays correct with the manifest's new shape", () => {
  it("a spec edit is never taken for current, and reverting it is current again without regenerating", async () => {
    const project = projectWithV1Spec();
    await runCli(["generate"], project);
    const config = await resolveConfig({ cwd: project });
    expect(await isProvablyCurrent(config)).toBe(true);
    const original = readFileSync(join(project, SPEC), "utf8");
    editSpec(project, (text) => text.replace("      summary: Delete model\n", "      summary: Delete a model\n"));
    expect(await isProvablyCurrent(config)).toBe(false);
    writeFileSync(join(project, SPEC), original);
    expect(await isProvablyCurrent(config)).toBe(true);
    const verbose = await runCli(["check", "--verbose"], project);
    expect(verbose.stdout).toMatch(/the manifest proves the output current \(no regeneration\)/);
  });
});

describe("check in GitHub Actions", () => {
  it("annotates the stale files and the API changes, and appends Markdown to the step summary", async () => {
    const repo = await committedProject();
    editSpec(repo, ADD_EVENT_TYPE);
    const summary = join(tempDir(), "summary.md");
    writeFileSync(summary, "earlier steps wrote this\n");
    const result = await runWithEnv(["check"], repo, { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: repo });
    expect(result.code).toBe(1);
    const annotations = result.stdout.split("\n").filter((line) => line.startsWith("::"));
    const specLine = readFileSync(join(repo, SPEC), "utf8").split("\n").findIndex((line) => line.includes("TrainingJobEventType:")) + 1;
    expect(annotations).toEqual([
      "::error file=generated/.specforge-manifest.json,line=7,title=specforge check::generated/.specforge-manifest.json is out of date: run `npx specforge generate` and commit the result",
      expect.stringMatching(/^::error file=generated\/schema\.ts,line=\d+,title=specforge check::generated\/schema\.ts is out of date: /),
      expect.stringMatching(/^::error file=generated\/server\.ts,line=\d+,title=specforge check::generated\/server\.ts is out of date: /), // its schemas validate the enum
      `::warning file=${SPEC},line=${specLine},title=Breaking API change for clients::TrainingJobEventType: enum value "training_paused" added (#/components/schemas/TrainingJobEventType)`,
    ]);
    const markdown = readFileSync(summary, "utf8");
    expect(markdown).toMatch(/^earlier steps wrote this\n### specforge check: `generated\/` is out of date with `spec\/training-api\.v1\.yaml`\n\n#### API changes: /);
    expect(markdown).toContain("##### Breaking for clients (1)");
    expect(markdown).toContain("#### Files out of date (3)\n\n- `generated/.specforge-manifest.json` (stale)\n- `generated/schema.ts` (stale: +2 -1 lines)\n- `generated/server.ts` (stale: +1 -1 lines)\n\nRun `npx specforge generate` and commit the result.");
  });

  it("a spec string cannot start a workflow command of its own: control characters and % are escaped", async () => {
    const repo = await committedProject();
    // A response property whose name holds a newline, a workflow command and a %.
    editSpec(repo, (text) => text.replace("        base_model:\n          type: string\n        run_id:", '        base_model:\n          type: string\n        "x\\n::error file=x::pwned 100%":\n          type: string\n        run_id:'));
    const result = await runWithEnv(["check"], repo, { GITHUB_ACTIONS: "true", GITHUB_WORKSPACE: repo });
    const commands = result.stdout.split("\n").filter((line) => line.startsWith("::"));
    expect(commands.filter((line) => line.startsWith("::error file=x"))).toEqual([]);
    expect(commands).toContainEqual(expect.stringMatching(/^::notice file=spec\/training-api\.v1\.yaml,line=\d+,title=Compatible API change::ModelResponse\.x\\u000a::error file=x::pwned 100%25: optional property added/));
  });

  it("an up-to-date folder gets one line in the step summary and no annotations", async () => {
    const repo = await committedProject();
    const summary = join(tempDir(), "summary.md");
    const result = await runWithEnv(["check"], repo, { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("::");
    expect(readFileSync(summary, "utf8")).toBe("### specforge check: `generated/` is up to date with `spec/training-api.v1.yaml`\n\n");
  });
});

describe("check in GitHub Actions, a config with several projects", () => {
  /** Two projects over copies of the v1 spec, generated and committed. */
  async function committedProjects(): Promise<string> {
    const repo = gitRepo();
    mkdirSync(join(repo, "spec"), { recursive: true });
    writeFileSync(join(repo, "spec/billing.yaml"), readFileSync(V1_SPEC, "utf8"));
    writeFileSync(join(repo, "spec/training.yaml"), readFileSync(V1_SPEC, "utf8"));
    const projects = [
      { name: "billing", spec: "spec/billing.yaml", out: "gen/billing", outputs: ["client"] },
      { name: "training", spec: "spec/training.yaml", out: "gen/training", outputs: ["client"] },
    ];
    writeFileSync(join(repo, "specforge.config.json"), JSON.stringify({ projects }, null, 2));
    expect((await runCli(["generate"], repo)).code).toBe(0);
    commitAll(repo, "specs and generated output");
    return repo;
  }

  it("annotates each project's stale files and API changes with the project's name, and writes each project's summary", async () => {
    const repo = await committedProjects();
    const path = join(repo, "spec/training.yaml");
    writeFileSync(path, ADD_EVENT_TYPE(readFileSync(path, "utf8")));
    const summary = join(tempDir(), "summary.md");
    const result = await runWithEnv(["check"], repo, { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: repo });
    expect(result.code).toBe(1);
    const annotations = result.stdout.split("\n").filter((line) => line.startsWith("::"));
    const specLine = readFileSync(path, "utf8").split("\n").findIndex((line) => line.includes("TrainingJobEventType:")) + 1;
    expect(annotations).toEqual([
      expect.stringMatching(/^::error file=gen\/training\/\.specforge-manifest\.json,line=\d+,title=\[training\] specforge check::gen\/training\/\.specforge-manifest\.json is out of date: run `npx specforge generate --project training` and commit the result$/),
      expect.stringMatching(/^::error file=gen\/training\/schema\.ts,line=\d+,title=\[training\] specforge check::/),
      `::warning file=spec/training.yaml,line=${specLine},title=[training] Breaking API change for clients::TrainingJobEventType: enum value "training_paused" added (#/components/schemas/TrainingJobEventType)`,
    ]);
    const markdown = readFileSync(summary, "utf8");
    expect(markdown).toContain("### [billing] specforge check: `gen/billing/` is up to date with `spec/billing.yaml`\n");
    expect(markdown).toContain("### [training] specforge check: `gen/training/` is out of date with `spec/training.yaml`\n");
  });

  it("a project that cannot be checked gets an error annotation naming the project and the problem", async () => {
    const repo = await committedProjects();
    writeFileSync(join(repo, "spec/billing.yaml"), "openapi: 3.1.0\ninfo: [\n");
    const result = await runWithEnv(["check"], repo, { GITHUB_ACTIONS: "true", GITHUB_WORKSPACE: repo });
    expect(result.code).toBe(2);
    const annotations = result.stdout.split("\n").filter((line) => line.startsWith("::"));
    expect(annotations).toEqual([expect.stringMatching(/^::error title=\[billing\] specforge check::spec\/billing\.yaml.*invalid YAML/)]);
  });
});
