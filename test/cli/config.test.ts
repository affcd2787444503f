import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config/resolve.js";
import { check, generate } from "../../src/index.js";
import { cleanupTempDirs, projectWithV1Spec, runBin, runCli, snapshotTree, writeFiles } from "../helpers.js";

afterAll(cleanupTempDirs);

describe("config files", () => {
  it("specforge.config.ts: typed with defineConfig from the package, imports allowed, flags win", async () => {
    const project = projectWithV1Spec();
    writeFiles(project, {
      "shared.mjs": 'export const out = "api-client";\n',
      "specforge.config.ts": [
        'import { defineConfig, type UserConfig } from "specforge";',
        'import { join } from "node:path";',
        'import { out } from "./shared.mjs";',
        'const outputs: UserConfig["outputs"] = ["client"];',
        'export default defineConfig({ spec: join("spec", "training-api.v1.yaml"), out, outputs, format: false satisfies boolean });',
        "",
      ].join("\n"),
    });
    const config = await resolveConfig({ cwd: project });
    expect(config).toMatchObject({
      spec: join(project, "spec", "training-api.v1.yaml"),
      out: join(project, "api-client"),
      outputs: { types: true, client: true, server: false, webhooks: false },
      format: false,
      configFile: join(project, "specforge.config.ts"),
    });
    // Nothing is written to load it (no transpiled file next to the config, none left behind).
    expect([...snapshotTree(project).keys()].sort()).toEqual(["shared.mjs", "spec/training-api.v1.yaml", "specforge.config.ts"]);

    // The real bin: flags override the file.
    const result = await runBin(["generate", "--out", "elsewhere", "--outputs", "client,server", "--format"], project);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(existsSync(join(project, "api-client"))).toBe(false);
    const files = [...snapshotTree(join(project, "elsewhere")).keys()];
    expect(files).toEqual(expect.arrayContaining(["client.ts", "server.ts"]));
    expect(files).not.toContain("webhooks.ts");
    expect((await runBin(["check", "--out", "elsewhere", "--outputs", "client,server", "--format"], project)).code).toBe(0);
    // Without the flags, the file's values apply: a different folder, not generated yet.
    expect((await runBin(["check"], project)).stderr).toMatch(/^specforge: api-client\/ has not been generated from spec\/training-api\.v1\.yaml yet/);
   }, 240_000); // three processes that each load the generator

  it("--no-format and --outputs change the output like the config fields do", async () => {
    const project = projectWithV1Spec();
    const { files: formatted } = await generate({ cwd: project, outputs: ["client"] });
    expect((await runCli(["generate", "--no-format", "--outputs", "client"], project)).code).toBe(0);
    // client.ts is printed in prettier's form either way; the runtime copies are formatted only when asked.
    const runtime = readFileSync(join(project, "generated", "runtime", "client", "runtime.ts"), "utf8");
    expect(runtime).not.toBe(formatted.get("runtime/client/runtime.ts"));
    expect(existsSync(join(project, "generated", "server.ts"))).toBe(false);
    writeFileSync(join(project, "specforge.config.json"), JSON.stringify({ format: false, outputs: ["client"] }));
    expect((await runCli(["check"], project)).code).toBe(0);
    expect((await runCli(["check", "--format"], project)).code).toBe(1);
  });

  it("package.json's specforge key is read when there is no config file", async () => {
    const project = projectWithV1Spec();
    writeFiles(project, { "package.json": JSON.stringify({ name: "x", specforge: { out: "from-pkg" } }) });
    expect((await resolveConfig({ cwd: project })).out).toBe(join(project, "from-pkg"));
  });
});

describe("config errors: exit 2, the field or flag and what is allowed, nothing written", () => {
  const cases: [string, Record<string, string>, string[], RegExp][] = [
    ["unknown field", { "specforge.config.json": '{ "output": "x" }' }, [], /specforge\.config\.json: config field `output` is unknown \(allowed: spec, out, outputs, format, form, adapters, stubs, refRoots, maxSpecFileBytes, fetch, webhooks, client, schemas, projects, runtime\), got "x"\n  hint: did you mean `outputs`\?/],
    ["unknown output", { "specforge.config.json": '{ "outputs": ["client", "sdk"] }' }, [], /config field `outputs`: "sdk" is not an output \(allowed: types, client, server, webhooks, queries, msw, schemas\)/],
    ["outputs not a list", { "specforge.config.json": '{ "outputs": "client" }' }, [], /config field `outputs` must be a list of: types, client, server, webhooks, queries, msw, schemas, got "client"/],
    ["unknown adapter", { "specforge.config.json": '{ "adapters": ["express", "fastfy"] }' }, [], /config field `adapters`: "fastfy" is not an adapter \(allowed: express, fastify, hono, next\)\n  hint: did you mean "fastify"\?/],
    ["adapters not a list", { "specforge.config.json": '{ "adapters": "hono" }' }, [], /config field `adapters` must be a list of: express, fastify, hono, next, got "hono"/],
    ["adapters without the server", { "specforge.config.json": '{ "outputs": ["client"], "adapters": ["next", "hono"] }' }, [], /specforge\.config\.json#\/adapters: the adapters \(hono, next\) adapt the server, which `outputs` leaves out\n  hint: add "server" to `outputs`, or remove `adapters`/],
    ["a project's adapters without the server", { "specforge.config.json": '{ "projects": [{ "name": "a", "spec": "spec/training-api.v1.yaml", "out": "a", "outputs": ["types"], "adapters": ["express"] }] }' }, [], /specforge\.config\.json#\/projects\/0\/adapters: the adapters \(express\) adapt the server/],
    ["stubs not a path", { "specforge.config.json": '{ "stubs": 3 }' }, [], /config field `stubs` must be a path string, got 3/],
    ["format not a boolean", { "specforge.config.json": '{ "format": "yes" }' }, [], /config field `format` must be true or false, got "yes"/],
    ["spec not a string", { "specforge.config.json": '{ "spec": 1 }' }, [], /config field `spec` must be a path string, got 1/],
    ["refRoots not a list of paths", { "specforge.config.json": '{ "refRoots": "../schemas" }' }, [], /config field `refRoots` must be a list of folder paths, got "\.\.\/schemas"/],
    ["maxSpecFileBytes not a positive number", { "specforge.config.json": '{ "maxSpecFileBytes": -1 }' }, [], /config field `maxSpecFileBytes` must be a positive whole number of bytes, got -1/],
    ["not an object", { "specforge.config.json": "[]" }, [], /specforge\.config\.json: the config must be an object, got \[\]/],
    ["invalid JSON", { "specforge.config.json": '{ "spec": }' }, [], /specforge\.config\.json:1:11: invalid JSON in config file: Unexpected token '}', "{ "spec": }" is not valid JSON\n$/],
    ["invalid JSON on a later line", { "specforge.config.json": '{\n  "spec": "api.yaml",\n  "out" "src/api"\n}\n' }, [], /specforge\.config\.json:3:9: invalid JSON in config file: Unexpected string\n$/],
    ["invalid JSON in package.json", { "package.json": '{ "name": "app",\n  "specforge": { "out": "x", }\n}\n' }, [], /package\.json:2:30: invalid JSON in package\.json: Expected double-quoted property name\n$/],
    ["a .ts config with a syntax error", { "specforge.config.ts": "export default {\n  spec: 'x',,\n};\n" }, [], /specforge\.config\.ts:2:13: invalid TypeScript in config file: /],
    ["a .ts config with a wrong field", { "specforge.config.ts": 'export default { outputs: ["types", "mobile"] };\n' }, [], /specforge\.config\.ts: config field `outputs`: "mobile" is not an output/],
    ["a .ts config that throws", { "specforge.config.ts": 'throw new Error("no config today");\nexport default {};\n' }, [], /specforge\.config\.ts: cannot load config file: no config today\n$/],
    ["a .ts config importing a missing file", { "specforge.config.ts": 'import { spec } from "./nope.js";\nexport default { spec };\n' }, [], /specforge\.config\.ts: cannot load config file: Cannot find module '.*nope\.js' imported from specforge\.config\.ts\n  hint: a \.ts config may import packages and \.js\/\.mjs files, not other \.ts files/],
    ["a .ts config importing another .ts file", { "specforge.config.ts": 'import { spec } from "./paths.ts";\nexport default { spec };\n', "paths.ts": 'export const spec: string = "x";\n' }, [], /specforge\.config\.ts: cannot load config file: Unknown file extension "\.ts" for .*paths\.ts\n  hint: a \.ts config may import packages/],
    ["two config files", { "specforge.config.json": "{}", "specforge.config.ts": "export default {};\n" }, [], /more than one config file: specforge\.config\.json, specforge\.config\.ts[^]*hint: keep one of them/],
    ["package.json key", { "package.json": '{ "specforge": { "format": 1 } }' }, [], /package\.json#\/specforge: config field `format` must be true or false, got 1/],
    ["missing --config file", {}, ["--config", "nope.json"], /nope\.json: config file not found/],
    ["--outputs with an unknown name", {}, ["--outputs", "client,mobile"], /command line: --outputs: "mobile" is not an output \(allowed: types, client, server, webhooks, queries, msw, schemas\)/],
  ];

  it.each(cases)("%s", async (_name, files, args, message) => {
    const project = projectWithV1Spec();
    writeFiles(project, files);
    const before = snapshotTree(project);
    for (const command of ["generate", "check"]) {
      const result = await runCli([command, ...args], project);
      expect(result.code, command).toBe(2);
      expect(result.stderr, command).toMatch(message);
      expect(result.stdout, command).toBe("");
    }
    expect(snapshotTree(project)).toEqual(before);
  });

  it("the programmatic API names its options", async () => {
    const error = await check({ cwd: projectWithV1Spec(), outputs: ["client", "cli" as "client"] }).catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(/^option `outputs`: "cli" is not an output/);
  });
});
