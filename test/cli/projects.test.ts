import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { check, generate } from "../../src/api.js";
import { resolveConfigs } from "../../src/config/resolve.js";
import { runProjects, type ProjectOutcome } from "../../src/commands/projects.js";
import { shortProjectName } from "../../src/commands/init.js";
import { FIXTURES, V1_SPEC, cleanupTempDirs, runBin, runCli, snapshotTree, tempDir, writeFiles } from "../helpers.js";

afterAll(cleanupTempDirs);

const read = (dir: string, file: string) => readFileSync(join(dir, file), "utf8");

/** Three specs with their own folders and options: the v1 spec, a feature fixture, and the multi-file fixture. */
function threeProjects(): string {
  const project = tempDir("specforge-projects-");
  cpSync(V1_SPEC, join(project, "specs", "training.yaml"));
  cpSync(join(FIXTURES, "features", "parameters.yaml"), join(project, "specs", "parameters.yaml"));
  cpSync(join(FIXTURES, "multi-file"), join(project, "specs", "pets"), { recursive: true });
  writeFiles(project, {
    "specforge.config.json": JSON.stringify(
      {
        outputs: ["types", "client"],
        projects: [
          { name: "training", spec: "specs/training.yaml", out: "src/training", outputs: ["client", "server", "webhooks"] },
          { name: "params", spec: "specs/parameters.yaml", out: "src/params" },
          { name: "pets", spec: "specs/pets/openapi.yaml", out: "src/pets", format: false },
        ],
      },
      null,
      2,
    ),
  });
  return project;
}

describe("several specs in one config (`projects`)", () => {
  let project: string;
  beforeAll(() => {
    project = threeProjects();
  });

  it("generate writes every project's folder with its own options, one line each in the config's order (worker threads, real bin)", async () => {
    const result = await runBin(["generate"], project);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines.map((l) => l.replace(/\d+ written, 0 unchanged, 0 removed \(\d+\.\d\ds\)$/, "…"))).toEqual([
      "specforge: [training] src/training/ …",
      "specforge: [params] src/params/ …",
      "specforge: [pets] src/pets/ …",
    ]);
    // Each folder is byte for byte what a one-spec run with the same options writes.
    const alone = tempDir();
    for (const [name, args] of [
      ["training", ["--spec", join(project, "specs/training.yaml"), "--outputs", "client,server,webhooks"]],
      ["params", ["--spec", join(project, "specs/parameters.yaml"), "--outputs", "types,client"]],
      ["pets", ["--spec", join(project, "specs/pets/openapi.yaml"), "--outputs", "types,client", "--no-format"]],
    ] as const) {
      expect((await runCli(["generate", ...args, "--out", join(project, `src/${name}`, "..", `${name}-alone`)], alone)).code).toBe(0);
      const together = snapshotTree(join(project, "src", name));
      const single = snapshotTree(join(project, "src", `${name}-alone`));
      expect([...together.keys()].sort(), name).toEqual([...single.keys()].sort());
      for (const [file, state] of together) expect(state.content, `${name}/${file}`).toBe(single.get(file)!.content);
    }
    expect(snapshotTree(join(project, "src", "params")).has("server.ts")).toBe(false);
    expect(snapshotTree(join(project, "src", "training")).has("server.ts")).toBe(true);
  });

  it("check: one line per project; the exit code is the worst one; each fix names its project", async () => {
    const clean = await runCli(["check"], project);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toBe(
      "specforge: [training] src/training/ is up to date with specs/training.yaml\n" +
        "specforge: [params] src/params/ is up to date with specs/parameters.yaml\n" +
        "specforge: [pets] src/pets/ is up to date with specs/pets/openapi.yaml\n",
    );

    writeFileSync(join(project, "src/params/client.ts"), read(project, "src/params/client.ts") + "// edited\n");
    const drift = await runCli(["check"], project);
    expect(drift.code).toBe(1);
    expect(drift.stderr).toMatch(/^stale:   src\/params\/client\.ts \(\+\d+ -\d+ lines?\)\n[^]*specforge: \[params\] src\/params\/ is out of date with specs\/parameters\.yaml \(1 file\); run `npx specforge generate --project params`\n$/);
    expect(drift.stdout).toMatch(/\[training\] src\/training\/ is up to date[^]*\[pets\] src\/pets\/ is up to date/);

    const spec = read(project, "specs/pets/openapi.yaml");
    writeFileSync(join(project, "specs/pets/openapi.yaml"), spec + "\n  broken: [\n");
    const worst = await runCli(["check"], project);
    expect(worst.code).toBe(2); // a user error (2) is worse than drift (1)
    expect(worst.stderr).toMatch(/^specforge: \[pets\] error: specs\/pets\/openapi\.yaml:\d+:\d+: invalid YAML/m);
    expect(worst.stderr).toMatch(/\[params\] src\/params\/ is out of date/);
    writeFileSync(join(project, "specs/pets/openapi.yaml"), spec);

    const picked = await runCli(["generate", "--project", "params"], project);
    expect(picked.stdout).toMatch(/^specforge: src\/params\/ 1 written, \d+ unchanged, 0 removed/);
    expect((await runCli(["check"], project)).code).toBe(0);
  });

  it("--project picks some projects; a name that is not there is an error with the closest one", async () => {
    const two = await runCli(["check", "--project", "pets,training"], project);
    expect(two.stdout.trimEnd().split("\n").map((l) => l.split(" ")[1])).toEqual(["[training]", "[pets]"]);
    const typo = await runCli(["check", "--project", "param"], project);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe('specforge: error: specforge.config.json: --project: no project "param" in the config (its projects: training, params, pets)\n  hint: did you mean params?\n');
  });

  it("--spec and --out name one project's files: with several selected they are an error", async () => {
    const result = await runCli(["generate", "--out", "elsewhere"], project);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^specforge: error: command line: --out applies to one project, and 3 are selected \(training, params, pets\)\n  hint: pick one with --project NAME/);
    expect(snapshotTree(project).has("elsewhere/index.ts")).toBe(false);
  });

  it("the programmatic API takes `project` and asks for one when the config has several", async () => {
    const { files } = await generate({ cwd: project, project: "params" });
    expect(files.has("client.ts")).toBe(true);
    expect(files.has("server.ts")).toBe(false);
    expect((await check({ cwd: project, project: "pets" })).upToDate).toBe(true);
    const error = await generate({ cwd: project }).catch((e: unknown) => e as Error);
    expect((error as Error).message).toBe("the config lists 3 projects (training, params, pets); say which one with the `project` option");
  });

  it("jobs the manifest cannot prove current run in worker threads, in parallel", async () => {
    // Other outputs than any project's: no manifest proves a folder current, every check regenerates.
    const configs = await resolveConfigs({ cwd: project, flags: { outputs: ["types", "client", "server"] } });
    const outcomes: ProjectOutcome[] = [];
    await runProjects("check", configs, { threads: 2, onOutcome: (index, outcome) => (outcomes[index] = outcome) });
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true]);
    const threads = new Set(outcomes.map((o) => o.threadId));
    expect(threads.has(0)).toBe(false);
    expect(threads.size).toBe(2);
  });
});

describe("ten up-to-date projects", () => {
  it("check proves all ten current from their manifests, without regenerating any (the timing is bench/projects.mjs)", async () => {
    const project = tempDir();
    cpSync(join(FIXTURES, "features", "parameters.yaml"), join(project, "api.yaml"));
    const projects = Array.from({ length: 10 }, (_, i) => ({ name: `api-${i + 1}`, spec: "api.yaml", out: `gen/api-${i + 1}` }));
    writeFiles(project, { "specforge.config.json": JSON.stringify({ outputs: ["types"], projects }) });
    expect((await runCli(["generate"], project)).code).toBe(0);
    const result = await runCli(["check", "--verbose"], project);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines.filter((l) => l.startsWith("specforge: "))).toEqual(projects.map((p) => `specforge: [${p.name}] gen/${p.name}/ is up to date with api.yaml`));
    expect(lines.filter((l) => /^  the manifest proves the output current \(no regeneration\)/.test(l))).toHaveLength(10);
  });
});

describe("`projects` in the config: mistakes are user errors with a JSON pointer", () => {
  const cases: [string, unknown, RegExp][] = [
    ["a duplicate name", { projects: [{ name: "a", spec: "a.yaml", out: "x" }, { name: "a", spec: "b.yaml", out: "y" }] }, /^specforge\.config\.json#\/projects\/1\/name: project "a": another project has the same name$/m],
    ["a nested out folder", { projects: [{ name: "a", spec: "a.yaml", out: "gen" }, { name: "b", spec: "b.yaml", out: "gen/b" }] }, /^specforge\.config\.json#\/projects\/1\/out: project "b": out folder gen\/b is inside project "a"'s out folder gen\n  hint: give every project a folder of its own/m],
    ["a shared out folder", { projects: [{ name: "a", spec: "a.yaml", out: "gen" }, { name: "b", spec: "b.yaml", out: "./gen" }] }, /#\/projects\/1\/out: project "b": out folder \.\/gen is also project "a"'s out folder gen/],
    ["no spec", { projects: [{ name: "a", out: "gen" }] }, /#\/projects\/0\/spec: project "a": `spec` is required and must be a path string, got undefined/],
    ["a misspelt field", { projects: [{ name: "a", spec: "a.yaml", out: "gen", output: ["client"] }] }, /#\/projects\/0\/output: project "a": field `output` is unknown \(allowed: name, spec, out, outputs, format, form, adapters, stubs, fetch, webhooks, client, schemas\), got \["client"\]\n  hint: did you mean `outputs`\?/],
    ["a bad output", { projects: [{ name: "a", spec: "a.yaml", out: "gen", outputs: ["sdk"] }] }, /#\/projects\/0\/outputs: project "a": config field `outputs`: "sdk" is not an output/],
    ["a name with a space", { projects: [{ name: "my api", spec: "a.yaml", out: "gen" }] }, /#\/projects\/0\/name: project "my api": `name` may hold letters, digits/],
    ["an empty list", { projects: [] }, /specforge\.config\.json: config field `projects` must be a non-empty list of \{ name, spec, out, outputs\?, format\?, form\? \}, got \[\]/],
    ["spec beside projects", { spec: "a.yaml", projects: [{ name: "a", spec: "a.yaml", out: "gen" }] }, /specforge\.config\.json: config field `spec` cannot be used with `projects`: each project names its own spec/],
  ];
  it.each(cases)("%s", async (_name, config, message) => {
    const project = tempDir();
    writeFiles(project, { "specforge.config.json": JSON.stringify(config) });
    const before = snapshotTree(project);
    for (const command of ["generate", "check"]) {
      const result = await runCli([command], project);
      expect(result.code, command).toBe(2);
      expect(result.stderr.replace(/^specforge: error: /, "")).toMatch(message);
    }
    expect(snapshotTree(project)).toEqual(before);
  });

  it("--project without projects in the config is an error", async () => {
    const result = await runCli(["generate", "--project", "a"], tempDir());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--project: there is no config file, so there are no projects to pick from/);
  });

  it("generate --watch follows one project: with several it asks for --project", async () => {
    const project = tempDir();
    writeFiles(project, { "specforge.config.json": JSON.stringify({ projects: [{ name: "a", spec: "a.yaml", out: "x" }, { name: "b", spec: "b.yaml", out: "y" }] }) });
    const result = await runCli(["generate", "--watch"], project);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--watch follows one project, and the config lists 2 \(a, b\)\n  hint: pick one with --project NAME/);
  });
});

describe("specforge init --project: a second spec", () => {
  it("turns a one-spec config into projects, keeps its options as the defaults, and is idempotent", async () => {
    const project = tempDir();
    cpSync(V1_SPEC, join(project, "spec", "training-api.v1.yaml"));
    cpSync(join(FIXTURES, "features", "parameters.yaml"), join(project, "billing.yaml"));
    writeFiles(project, { "package.json": '{\n  "name": "app"\n}\n' });
    expect((await runCli(["init", "--outputs", "client", "--no-format"], project)).code).toBe(0);

    const added = await runCli(["init", "--project", "billing", "--spec", "billing.yaml"], project);
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^specforge: specforge\.config\.json: its spec is now the project training$/m);
    expect(added.stdout).toMatch(/^specforge: specforge\.config\.json: added project billing \(spec: billing\.yaml, out: generated-billing\)$/m);
    expect(read(project, "specforge.config.json")).toBe(
      [
        "{",
        '  "projects": [',
        "    {",
        '      "name": "training",',
        '      "spec": "spec/training-api.v1.yaml",',
        '      "out": "generated"',
        "    },",
        "    {",
        '      "name": "billing",',
        '      "spec": "billing.yaml",',
        '      "out": "generated-billing"',
        "    }",
        "  ],",
        '  "outputs": ["client"],',
        '  "format": false',
        "}",
        "",
      ].join("\n"),
    );
    const before = snapshotTree(project);
    const again = await runCli(["init", "--project", "billing", "--spec", "billing.yaml"], project);
    expect(again.stdout).toMatch(/specforge\.config\.json already has this project; left it unchanged/);
    expect(snapshotTree(project)).toEqual(before);

    const generated = await runCli(["generate"], project);
    expect(generated.code).toBe(0);
    expect(generated.stdout).toMatch(/^specforge: \[training\] generated\/ \d+ written[^]*^specforge: \[billing\] generated-billing\/ \d+ written/m);
    expect(snapshotTree(join(project, "generated-billing")).has("client.ts")).toBe(true);
    expect((await runCli(["check"], project)).code).toBe(0);

    const clash = await runCli(["init", "--project", "billing", "--spec", "other.yaml"], project);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toMatch(/the config already has a project "billing" \(spec: billing\.yaml, out: generated-billing\)/);
  });

  it("names the first project with a short word of its spec's file name", () => {
    expect(shortProjectName("spec/spotify-web-api-3.0.json")).toBe("spotify");
    expect(shortProjectName("specs/training-api.v1.yaml")).toBe("training");
    expect(shortProjectName("api.github.com.yaml")).toBe("github");
    expect(shortProjectName("Stripe-spec3.yaml")).toBe("stripe");
    expect(shortProjectName("openapi.yaml")).toBe("openapi");
    expect(shortProjectName("v2.json")).toBe("v2");
    expect(shortProjectName("--.yaml")).toBe("api");
  });

  it("without a config, writes one whose projects list holds this one", async () => {
    const project = tempDir();
    writeFiles(project, { "package.json": "{}\n", "api/pay.yaml": "openapi: 3.1.0\ninfo: {title: x, version: '1'}\npaths: {}\n" });
    const result = await runCli(["init", "--project", "pay", "--spec", "api/pay.yaml"], project);
    expect(result.code).toBe(0);
    expect(JSON.parse(read(project, "specforge.config.json"))).toEqual({
      projects: [{ name: "pay", spec: "api/pay.yaml", out: "generated/pay" }],
      format: true,
    });
  });

  it.each([
    ["a .ts config", { "specforge.config.ts": "export default {};\n" }, ["--project", "b", "--spec", "b.yaml"], /cannot add a project to specforge\.config\.ts: init edits only specforge\.config\.json/],
    ["no --spec", { "specforge.config.json": "{}" }, ["--project", "b"], /--project b adds a project to the config: say where its spec is with --spec PATH/],
    ["an out folder another project has", { "specforge.config.json": '{ "projects": [{ "name": "a", "spec": "a.yaml", "out": "gen" }] }' }, ["--project", "b", "--spec", "b.yaml", "--out", "gen/b"], /--out gen\/b is, contains or is inside another project's out folder/],
  ])("%s: exit 2, nothing written", async (_name, files, args, message) => {
    const project = tempDir();
    writeFiles(project, { "package.json": "{}\n", ...files });
    const before = snapshotTree(project);
    const result = await runCli(["init", ...args], project);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(snapshotTree(project)).toEqual(before);
  });
});
