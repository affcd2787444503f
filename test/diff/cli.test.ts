import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { FIXTURES, V1_SPEC, cleanupTempDirs, runCli, tempDir } from "../helpers.js";
import { VendorServer, document, type Route } from "../e2e/vendor-server.js";
import { commitAll, git, gitRepo } from "./git-repo.js";

afterAll(cleanupTempDirs);

const V1 = readFileSync(V1_SPEC, "utf8");

/** A folder with the v1 spec as old.yaml and an edited copy as new.yaml. */
function pair(edit: (text: string) => string): string {
  const dir = tempDir();
  writeFileSync(join(dir, "old.yaml"), V1);
  const edited = edit(V1);
  expect(edited).not.toBe(V1);
  writeFileSync(join(dir, "new.yaml"), edited);
  return dir;
}

/** One breaking change for clients (an enum value a client may now receive) and one compatible (an optional query parameter). */
const EDIT = (text: string) =>
  text
    .replace("enum: [training_started, gradient_step, training_ended, training_failed]", "enum: [training_started, gradient_step, training_ended, training_failed, training_paused]")
    .replace("        - name: order\n          in: query\n", "        - name: sort_by\n          in: query\n          schema: { type: string }\n        - name: order\n          in: query\n");

describe("specforge diff OLD NEW", () => {
  it("text: a heading counting the changes, then each group with the change, its JSON pointers and what it affects", async () => {
    const dir = pair(EDIT);
    const result = await runCli(["diff", "old.yaml", "new.yaml"], dir);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(
      [
        "API: old.yaml (1.0.0) → new.yaml (1.0.0): 2 API changes: 1 breaking for clients, 0 breaking for servers, 1 compatible",
        "",
        "Breaking for clients (1)",
        '  - TrainingJobEventType: enum value "training_paused" added (in responses)',
        "      #/components/schemas/TrainingJobEventType",
        "      affects GET /v1/preview/training-jobs/{training_job_id}/events",
        "",
        "Compatible (1)",
        "  - GET /v1/preview/models/{model_id}/checkpoints query parameter sort_by: optional query parameter added",
        "      #/paths/~1v1~1preview~1models~1{model_id}~1checkpoints/get → #/paths/~1v1~1preview~1models~1{model_id}~1checkpoints/get/parameters/3",
        "",
      ].join("\n"),
    );
  });

  it("colours the groups only on a terminal", async () => {
    const dir = pair(EDIT);
    const run = async (isTTY: boolean) => {
      let stdout = "";
      await main(["diff", "old.yaml", "new.yaml"], { cwd: dir, env: {}, isTTY: { stdout: isTTY }, stdout: (t) => (stdout += t), stderr: () => {} });
      return stdout;
    };
    expect(await run(true)).toContain("\u001b[31mBreaking for clients (1)\u001b[39m");
    expect(await run(false)).not.toContain("\u001b[");
  });

  it("json: the documented shape", async () => {
    const dir = pair(EDIT);
    const result = await runCli(["diff", "old.yaml", "new.yaml", "--format", "json"], dir);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      version: 1,
      old: { source: "old.yaml", apiVersion: "1.0.0" },
      new: { source: "new.yaml", apiVersion: "1.0.0" },
      summary: { total: 2, breakingForClients: 1, breakingForServers: 0, compatible: 1 },
      changes: [
        {
          rule: "enum-values-added",
          breaking: { client: true, server: false },
          subject: "TrainingJobEventType",
          message: 'enum value "training_paused" added',
          direction: "response",
          old: "/components/schemas/TrainingJobEventType",
          new: "/components/schemas/TrainingJobEventType",
          operations: ["GET /v1/preview/training-jobs/{training_job_id}/events"],
        },
        {
          rule: "parameter-added",
          breaking: { client: false, server: false },
          subject: "GET /v1/preview/models/{model_id}/checkpoints query parameter sort_by",
          message: "optional query parameter added",
          direction: "request",
          old: "/paths/~1v1~1preview~1models~1{model_id}~1checkpoints/get",
          new: "/paths/~1v1~1preview~1models~1{model_id}~1checkpoints/get/parameters/3",
          operations: ["GET /v1/preview/models/{model_id}/checkpoints"],
        },
      ],
    });
  });

  it("markdown: for a PR comment or the step summary; compatible changes folded", async () => {
    const dir = pair(EDIT);
    const result = await runCli(["diff", "old.yaml", "new.yaml", "--format", "markdown"], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("### API changes: `old.yaml` (1.0.0) → `new.yaml` (1.0.0)\n\n**1** breaking for clients · **0** breaking for servers · **1** compatible\n");
    expect(result.stdout).toContain('#### Breaking for clients (1)\n\n- `TrainingJobEventType`: enum value "training\\_paused" added \\(in responses\\)<br><sub>`#/components/schemas/TrainingJobEventType` · affects GET /v1/preview/training-jobs/{training\\_job\\_id}/events</sub>');
    expect(result.stdout).toContain("<details>\n<summary>Compatible (1)</summary>\n");
  });

  it("identical versions: no API changes; documentation edits are not API changes", async () => {
    const dir = pair((text) => text.replace("      summary: Delete model\n", "      summary: Delete a model\n"));
    const result = await runCli(["diff", "old.yaml", "new.yaml", "--fail-on", "any"], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("API: old.yaml (1.0.0) → new.yaml (1.0.0): no API changes\n");
  });

  it.each([
    ["breaking", 1],
    ["client", 1],
    ["server", 0],
    ["any", 1],
  ] as const)("--fail-on %s sets the exit code (%i)", async (failOn, code) => {
    const dir = pair(EDIT);
    expect((await runCli(["diff", "old.yaml", "new.yaml", "--fail-on", failOn, "--quiet"], dir)).code).toBe(code);
  });

  it("without --fail-on, breaking changes still exit 0", async () => {
    const dir = pair(EDIT);
    expect((await runCli(["diff", "old.yaml", "new.yaml"], dir)).code).toBe(0);
  });
});

describe("specforge diff with git:REV:path", () => {
  it("compares a committed version with the working copy; the path is relative to the current folder", async () => {
    const repo = gitRepo();
    mkdirSync(join(repo, "spec"));
    writeFileSync(join(repo, "spec", "openapi.yaml"), V1);
    const first = commitAll(repo, "v1");
    writeFileSync(join(repo, "spec", "openapi.yaml"), EDIT(V1));
    commitAll(repo, "v1.1");

    const fromRoot = await runCli(["diff", "git:HEAD~1:spec/openapi.yaml", "spec/openapi.yaml", "--format", "json"], repo);
    expect(fromRoot.stderr).toBe("");
    const json = JSON.parse(fromRoot.stdout);
    expect(json.old.source).toBe("git:HEAD~1:spec/openapi.yaml");
    expect(json.summary).toEqual({ total: 2, breakingForClients: 1, breakingForServers: 0, compatible: 1 });

    const fromSpecFolder = await runCli(["diff", `git:${first}:openapi.yaml`, "git:main:openapi.yaml", "--format", "json"], join(repo, "spec"));
    expect(JSON.parse(fromSpecFolder.stdout).changes).toEqual(json.changes);
  });

  it("reads the whole tree of that revision for a spec whose $refs point into other files", async () => {
    const repo = gitRepo();
    cpSync(join(FIXTURES, "multi-file"), join(repo, "api"), { recursive: true });
    commitAll(repo, "pets");
    const pet = join(repo, "api", "schemas", "pet.yaml");
    writeFileSync(pet, readFileSync(pet, "utf8").replace("required: [id, name]", "required: [id]"));
    const result = await runCli(["diff", "git:HEAD:api/openapi.yaml", "api/openapi.yaml", "--format", "json"], repo);
    expect(result.stderr).toBe("");
    const changes = JSON.parse(result.stdout).changes;
    expect(changes.map((c: { subject: string; message: string; breaking: object }) => [c.subject, c.message, c.breaking])).toEqual([
      ["Pet.name", "became optional", { client: true, server: false }], // in responses: clients may now get pets without a name
      ["Pet.name", "became optional", { client: false, server: true }], // in createPet's request body: the server may now get one
    ]);
  });
});

describe("specforge diff: bad input is exit 2 with one message naming the input", () => {
  const setup = () => {
    const repo = gitRepo();
    writeFileSync(join(repo, "openapi.yaml"), V1);
    commitAll(repo, "v1");
    writeFileSync(join(repo, "notes.yaml"), "just: some yaml\n");
    writeFileSync(join(repo, "broken.yaml"), "openapi: 3.1.0\npaths: [\n");
    return repo;
  };
  const cases: [string, string[], RegExp][] = [
    ["a missing file", ["diff", "missing.yaml", "openapi.yaml"], /^specforge: error: missing\.yaml: file not found\n/],
    ["not a spec", ["diff", "openapi.yaml", "notes.yaml"], /^specforge: error: notes\.yaml#: not an OpenAPI document: no `openapi` field at the top level\n/],
    ["invalid YAML", ["diff", "broken.yaml", "openapi.yaml"], /^specforge: error: broken\.yaml:\d+:\d+: invalid YAML: /],
    ["an unknown git revision", ["diff", "git:no-such-branch:openapi.yaml", "openapi.yaml"], /^specforge: error: git:no-such-branch:openapi\.yaml: unknown git revision "no-such-branch"\n  hint: /],
    ["a path missing at that revision", ["diff", "git:HEAD:notes.yaml", "openapi.yaml"], /^specforge: error: git:HEAD:notes\.yaml: no file notes\.yaml at revision HEAD \([0-9a-f]{12}\)\n/],
    ["an unreadable new version", ["diff", "git:HEAD:openapi.yaml", "broken.yaml"], /^specforge: error: broken\.yaml:\d+:\d+: invalid YAML/],
    ["an unknown format", ["diff", "openapi.yaml", "openapi.yaml", "--format", "html"], /Invalid values:\s+Argument: format, Given: "html", Choices: "text", "markdown", "json"/],
  ];
  it.each(cases)("%s", async (_name, args, message) => {
    const repo = setup();
    const result = await runCli(args, repo);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
  });

  it("git:REV:path outside a repository", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "openapi.yaml"), V1);
    const result = await runCli(["diff", "git:HEAD:openapi.yaml", "openapi.yaml"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^specforge: error: git:HEAD:openapi\.yaml: not in a git repository/);
  });

  it("an old version broken at that revision names it as git:REV:path", async () => {
    const repo = setup();
    writeFileSync(join(repo, "openapi.yaml"), "openapi: 3.1.0\npaths: [\n");
    commitAll(repo, "broken");
    writeFileSync(join(repo, "openapi.yaml"), V1);
    const result = await runCli(["diff", "git:HEAD:openapi.yaml", "openapi.yaml"], repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^specforge: error: git:HEAD:openapi\.yaml:\d+:\d+: invalid YAML/);
    expect(git(repo, "status", "--porcelain")).toBe(" M openapi.yaml\n"); // nothing else was written
  });
});

describe("specforge diff with a version on an http(s) URL", () => {
  const servers: VendorServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  async function vendor(routes: Record<string, Route>): Promise<VendorServer> {
    const server = await VendorServer.start(routes);
    servers.push(server);
    return server;
  }
  /** The CLI in-process with only the environment given (no token leaks in from the machine). */
  async function run(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
    let stdout = "";
    let stderr = "";
    const code = await main(args, { cwd, env: { PATH: process.env.PATH, NO_COLOR: "1", ...env }, stdout: (t) => (stdout += t + "\n"), stderr: (t) => (stderr += t + "\n") });
    return { code, stdout, stderr };
  }

  it("fetches the published version and reports the same changes as for the same document on disk, labelled with its URL", async () => {
    const dir = pair(EDIT);
    writeFileSync(join(dir, "package.json"), "{}\n");
    const server = await vendor({ "/openapi.yaml": document(() => EDIT(V1)) });
    const url = server.url("/openapi.yaml");
    const fromUrl = await run(["diff", "old.yaml", url, "--format", "json"], dir);
    const fromFile = await run(["diff", "old.yaml", "new.yaml", "--format", "json"], dir);
    expect(fromUrl.stderr).toBe("");
    expect(fromUrl.code).toBe(0);
    const { new: newLabel, ...changes } = JSON.parse(fromUrl.stdout) as Record<string, unknown>;
    const { new: fileLabel, ...fileChanges } = JSON.parse(fromFile.stdout) as Record<string, unknown>;
    expect(changes).toEqual(fileChanges);
    expect(JSON.stringify(newLabel)).toContain(url);
    expect(JSON.stringify(fileLabel)).toContain("new.yaml");
    expect(server.requests.map((r) => r.path)).toEqual(["/openapi.yaml"]);
    // --fail-on sees the breaking change of the fetched version.
    expect((await run(["diff", "old.yaml", url, "--fail-on", "breaking"], dir)).code).toBe(1);
  });

  it("sends the project's credentials for the spec's origin (SPECFORGE_SPEC_TOKEN), as generate does", async () => {
    const dir = pair(EDIT);
    writeFileSync(join(dir, "package.json"), "{}\n");
    const server = await vendor({ "/openapi.yaml": document(() => V1) });
    const result = await run(["diff", server.url("/openapi.yaml"), "new.yaml"], dir, { SPECFORGE_SPEC_TOKEN: "vendor-token" });
    expect(result.code).toBe(0);
    expect(server.requests[0]!.headers.authorization).toBe("Bearer vendor-token");
  });

  it("a URL that cannot be fetched is refused with exit 2, naming the URL, and nothing on stdout", async () => {
    const dir = pair(EDIT);
    writeFileSync(join(dir, "package.json"), "{}\n");
    const server = await vendor({});
    const url = server.url("/missing.yaml");
    const result = await run(["diff", "old.yaml", url], dir);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(url);
    expect(result.stderr).toContain("404");
  });
});
