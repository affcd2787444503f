import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config/resolve.js";
import { cleanupTempDirs, projectWithV1Spec, runCli, snapshotTree, tempDir, writeFiles } from "../helpers.js";

afterAll(cleanupTempDirs);

describe("client.style and client.resources", () => {
  it("--client-style resources writes resources.ts, whose createClient the entry point exports; check tells the styles apart", async () => {
    const project = projectWithV1Spec();
    expect((await runCli(["generate", "--outputs", "client"], project)).code).toBe(0);
    expect(existsSync(join(project, "generated", "resources.ts"))).toBe(false);
    // The flat output is not current for the resource style (the fast path of check included).
    const stale = await runCli(["check", "--outputs", "client", "--client-style", "resources"], project);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/missing: generated\/resources\.(d\.ts|js|ts)/);

    const result = await runCli(["generate", "--outputs", "client", "--client-style", "resources"], project);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const index = readFileSync(join(project, "generated", "index.ts"), "utf8");
    expect(index).toMatch(/export \{\s*createClient,\s*ApiPromise,\s*PagePromise,\s*type Client,?\s*\} from "\.\/resources\.js";/);
    // The flat client's createClient and Client stay in client.ts, not re-exported by the entry point.
    expect(index.slice(0, index.indexOf("./client.js"))).not.toMatch(/\bcreateClient\b|type Client\b/);
    expect((await runCli(["check", "--outputs", "client", "--client-style", "resources"], project)).code).toBe(0);
    expect((await runCli(["check", "--outputs", "client"], project)).code).toBe(1);
  }, 120_000);

  it("a config's client.resources renames and mounts; a key that matches nothing is a warning at its JSON pointer; the same bytes twice", async () => {
    const project = projectWithV1Spec();
    writeFiles(project, {
      "specforge.config.json": JSON.stringify({
        outputs: ["client"],
        client: { style: "resources", resources: { "/v1/preview": "beta", "GET /v1/health": "ping", "/nowhere": "x.y" } },
      }),
    });
    const result = await runCli(["generate"], project);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('specforge: warning: specforge.config.json#/client/resources/~1nowhere: `client.resources` key "/nowhere" matches no operation');
    const declarations = readFileSync(join(project, "generated", "resources.ts"), "utf8");
    expect(declarations).toMatch(/\n {2}beta: \{\n {4}models: \{/);
    expect(declarations).toMatch(/\n {2}\/\*\*[^]*?\*\/\n {2}ping: ResourceMethod</);
    const first = snapshotTree(join(project, "generated"));
    expect((await runCli(["generate"], project)).stdout).toMatch(/0 written/);
    expect(snapshotTree(join(project, "generated"))).toEqual(first);
  }, 120_000);

  it("a project's client replaces the top-level one field by field; its pointer names the project", async () => {
    const project = projectWithV1Spec();
    writeFiles(project, {
      "specforge.config.json": JSON.stringify({
        client: { style: "resources", resources: { "/a": "a" } },
        projects: [{ name: "one", spec: "spec/training-api.v1.yaml", out: "one", client: { resources: { "/b": "b" } } }],
      }),
    });
    expect((await resolveConfig({ cwd: project })).client).toEqual({ style: "resources", resources: { "/b": "b" }, resourcesAt: "specforge.config.json#/projects/0/client/resources" });
  });

  it("a resource table's path is relative to the config file (a project's too), a flag's to the working folder", async () => {
    const project = projectWithV1Spec();
    writeFiles(project, {
      "config/specforge.config.json": JSON.stringify({
        client: { style: "resources", resources: "tables/stainless.yml" },
        projects: [
          { name: "one", spec: "../spec/training-api.v1.yaml", out: "../one" },
          { name: "two", spec: "../spec/training-api.v1.yaml", out: "../two", client: { resources: "./two.yml" } },
        ],
      }),
    });
    const configFile = join(project, "config", "specforge.config.json");
    const one = await resolveConfig({ cwd: project, configFile, projects: ["one"] });
    expect(one.client).toEqual({ style: "resources", resources: {}, resourcesAt: "config/specforge.config.json#/client/resources", table: join(project, "config", "tables", "stainless.yml") });
    expect((await resolveConfig({ cwd: project, configFile, projects: ["two"] })).client).toMatchObject({ table: join(project, "config", "two.yml") });
    const flagged = await resolveConfig({ cwd: join(project, "spec"), configFile, projects: ["one"], flags: { client: { resources: "mine.yml" } } });
    expect(flagged.client).toMatchObject({ table: join(project, "spec", "mine.yml") });
  });

  const cases: [string, Record<string, string>, string[], RegExp][] = [
    ["an unknown style", { "specforge.config.json": '{ "client": { "style": "resource" } }' }, [], /specforge\.config\.json#\/client\/style: config field `client\.style` must be one of: flat, resources, got "resource"\n {2}hint: did you mean "resources"\?/],
    ["an unknown field of client", { "specforge.config.json": '{ "client": { "styles": "flat" } }' }, [], /specforge\.config\.json#\/client\/styles: config field `client\.styles` is unknown \(allowed: style, resources\)/],
    ["a name that is not dotted identifiers", { "specforge.config.json": '{ "client": { "resources": { "/files": "files/v2" } } }' }, [], /#\/client\/resources\/~1files: config field `client\.resources`: "\/files" must name a dotted path of identifiers/],
    ["a name that would make a resource awaitable", { "specforge.config.json": '{ "client": { "resources": { "GET /jobs": "jobs.then" } } }' }, [], /#\/client\/resources\/GET ~1jobs: config field `client\.resources`: "GET \/jobs" names a member `then`, which would change what the client's objects are[^]*hint: pick another name, such as `then_`/],
    ["--client-style with an unknown style", {}, ["--client-style", "nested"], /command line: --client-style must be one of: flat, resources, got "nested"/],
    ["an empty resource table path", { "specforge.config.json": '{ "client": { "style": "resources", "resources": " " } }' }, [], /#\/client\/resources: config field `client\.resources` must be the path of a resource table/],
    ["a resource table that is not there", { "specforge.config.json": '{ "client": { "style": "resources", "resources": "./stainless.yml" } }' }, [], /stainless\.yml: resource table not found/],
  ];

  it.each(cases)("%s: exit 2, nothing written", async (_name, files, args, message) => {
    const project = projectWithV1Spec();
    writeFiles(project, files);
    const before = snapshotTree(project);
    const result = await runCli(["generate", ...args], project);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(snapshotTree(project)).toEqual(before);
  });

  it("two operations that would share a name are told apart and reported at the later one", async () => {
    const dir = tempDir();
    const ok = { responses: { "200": { description: "ok" } } };
    writeFileSync(
      join(dir, "api.json"),
      JSON.stringify({ openapi: "3.1.0", info: { title: "t", version: "1" }, servers: [{ url: "https://x.example" }], paths: { "/runs": { post: { operationId: "createRun", ...ok } }, "/runs?beta=true": { post: { operationId: "createBetaRun", ...ok } } } }),
    );
    const result = await runCli(["generate", "--spec", "api.json", "--outputs", "client", "--client-style", "resources"], dir);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning: api\.json#\/paths\/~1runs\?beta=true\/post: resource-style client: 2 operations would be `runs\.create`; createBetaRun is `runs\.createBetaRun`/);
  });

  it("names the spec records as an operation's earlier ones (x-octokit changes) are deprecated aliases of its method", async () => {
    const dir = tempDir();
    const op = (operationId: string, extra: object = {}) => ({ operationId, responses: { "200": { description: "ok" } }, ...extra });
    const renamed = { "x-octokit": { changes: [{ type: "OPERATION", date: "2020-01-01", before: { operationId: "repos/get-contents" }, after: { operationId: "repos/get-content" } }] } };
    writeFileSync(
      join(dir, "api.json"),
      JSON.stringify({
        openapi: "3.0.3",
        info: { title: "t", version: "1" },
        servers: [{ url: "https://x.example" }],
        paths: { "/repos/{owner}/{repo}": { get: op("repos/get", { parameters: [{ name: "owner", in: "path", required: true, schema: { type: "string" } }, { name: "repo", in: "path", required: true, schema: { type: "string" } }] }) }, "/repos/{owner}/{repo}/contents": { get: op("repos/get-content", { parameters: [{ name: "owner", in: "path", required: true, schema: { type: "string" } }, { name: "repo", in: "path", required: true, schema: { type: "string" } }], ...renamed }) } },
      }),
    );
    expect((await runCli(["generate", "--spec", "api.json", "--outputs", "client", "--client-style", "resources"], dir)).code).toBe(0);
    const declarations = readFileSync(join(dir, "generated", "resources.ts"), "utf8");
    expect(declarations).toMatch(/getContent: ResourceMethod<\s*paths\["\/repos\/\{owner\}\/\{repo\}\/contents"\]\["get"\],\s*\[owner: "owner", repo: "repo"\],\s*0\s*>;/);
    expect(declarations).toMatch(/@deprecated The spec records this as the operation's earlier name: use `repos\.getContent`\.\n\s*\*\/\n\s*getContents: ResourceMethod</);
    expect(declarations).toContain('["repos.getContents","reposGetContent",0,["owner","repo"]]');
  });
});
