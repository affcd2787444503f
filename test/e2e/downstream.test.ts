import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, STRICT_NODE_COMPILER_OPTIONS, V1_SPEC, cleanupTempDirs, runAsUser, tempDir, type CliResult } from "../helpers.js";

afterAll(cleanupTempDirs);

const run = (command: string, args: string[], cwd: string): Promise<CliResult> => runAsUser(command, args, cwd);

const tsc = (project: string) => run(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", project], project);

/** A strict tsconfig for the downstream project; Node's types come from this repository. */
function writeTsconfig(dir: string, include: string[]): void {
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: STRICT_NODE_COMPILER_OPTIONS, include }, null, 2));
}

describe("downstream: npm pack, install into a new project, use it like a new user", () => {
  it("init, generate, compile against the client, drift caught by api:check, regenerate", async () => {
    // 1. Pack. The global setup has just built dist/ (what `prepack` does), so scripts are skipped here: a rebuild
    // would rewrite dist/ under the other test files' feet.
    const packDir = tempDir("specforge-pack-");
    const pack = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", packDir], ROOT);
    expect(pack.code, pack.stderr).toBe(0);
    const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
    const paths = info!.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(["package.json", "README.md", "docs/README.md", "docs/security.md", "bin/specforge.js", "dist/src/cli.js", "dist/src/index.d.ts", "dist/build-info.json", "dist/templates.formatted.json", "dist/templates.prepared.json", "templates/client/runtime.ts", "templates/files/client.ts", "spec/training-api.v1.yaml"]));
    // Only what the CLI and the library need: no tests, fixtures, sources, generated/ or configs of this repo.
    expect(paths.filter((p) => !/^(package\.json|README\.md|docs\/[^/]+\.md|bin\/specforge\.js|dist\/(build-info\.json|templates\.(formatted|prepared)\.json|(src|templates)\/.+\.(js|d\.ts))|templates\/(client|server|webhooks|adapters|queries|msw|schemas|files)\/[^/]+\.(ts|md)|spec\/training-api\.v1\.yaml)$/.test(p))).toEqual([]);
    expect(paths.filter((p) => /(^|\/)(test|tests|__tests__|fixtures)\/|\.test(-d)?\.|vitest/.test(p))).toEqual([]);
    const tarball = join(packDir, info!.filename);

    // 2. A new project (4-space package.json), install the tarball. --ignore-scripts: specforge needs none.
    const project = tempDir("specforge-downstream-");
    writeFileSync(join(project, "package.json"), '{\n    "name": "downstream-app",\n    "version": "1.0.0",\n    "private": true,\n    "type": "module"\n}\n');
    const install = await run("npm", ["install", tarball, "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts"], project);
    expect(install.code, install.stderr).toBe(0);
    // Nothing to run at install time (the tarball ships dist/, built by prepack) and no engine complaints.
    expect(install.stderr).not.toMatch(/install-scripts|EBADENGINE|prepare/);
    const installed = JSON.parse(readFileSync(join(project, "node_modules", "specforge", "package.json"), "utf8")) as { scripts?: Record<string, string> };
    expect(Object.keys(installed.scripts ?? {}).filter((name) => /^(pre|post)?(install|prepare)$/.test(name))).toEqual([]);
    const version = await run("npx", ["specforge", "--version"], project);
    expect(version.stdout.trim()).toBe((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version);

    // 3. init: scripts in the file's own style, a config pointing at the spec found in the project.
    mkdirSync(join(project, "spec"));
    cpSync(V1_SPEC, join(project, "spec", "training-api.v1.yaml"));
    const init = await run("npx", ["specforge", "init"], project);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/added scripts api:generate, api:check/);
    const pkg = readFileSync(join(project, "package.json"), "utf8");
    expect(pkg).toMatch(/\n    "scripts": \{\n        "api:generate": "specforge generate",\n        "api:check": "specforge check"\n    \}\n\}\n$/);
    expect(JSON.parse(pkg).dependencies.specforge).toMatch(/specforge-.*\.tgz$/);
    expect(JSON.parse(readFileSync(join(project, "specforge.config.json"), "utf8"))).toMatchObject({ spec: "spec/training-api.v1.yaml", out: "generated" });

    // 4. Generate, then compile a program that uses the generated client with tsc --strict.
    const generate = await run("npm", ["run", "api:generate"], project);
    expect(generate.code, generate.stderr).toBe(0);
    expect(generate.stdout).toMatch(/^specforge: generated\/ \d+ written, 0 unchanged, 0 removed \(\d+\.\d\ds\)$/m);
    writeFileSync(
      join(project, "app.ts"),
      [
        'import { createClient, ApiError } from "./generated/index.js";',
        'const client = createClient({ apiKey: "k", baseUrl: "http://127.0.0.1:1" });',
        'export async function newModel(): Promise<string> {',
        "  try {",
        '    const model = await client.createModel({ body: { project: "p", name: "agent", base_model: "OpenPipe/Qwen3-14B-Instruct" } });',
        "    return model.id;",
        "  } catch (e) {",
        "    if (client.createModel.isError(e) && e.status === 422) return JSON.stringify(e.body.detail);",
        "    if (e instanceof ApiError) return String(e.status);",
        "    throw e;",
        "  }",
        "}",
        "",
      ].join("\n"),
    );
    writeTsconfig(project, ["app.ts", "generated/**/*.ts"]);
    const compiled = await tsc(project);
    expect(compiled.stdout + compiled.stderr).toBe("");
    expect(compiled.code).toBe(0);
    // The check is real: a wrong body does not compile.
    writeFileSync(join(project, "wrong.ts"), 'import { createClient } from "./generated/index.js";\nawait createClient().createModel({ body: { project: 1 } });\n');
    writeTsconfig(project, ["wrong.ts", "generated/**/*.ts"]);
    expect((await tsc(project)).stdout).toMatch(/wrong\.ts\(2,/);
    rmSync(join(project, "wrong.ts"));

    // 5. The spec changes: api:check fails naming the stale file; api:generate fixes it.
    expect((await run("npm", ["run", "api:check"], project)).code).toBe(0);
    const specPath = join(project, "spec", "training-api.v1.yaml");
    const spec = readFileSync(specPath, "utf8");
    const changed = spec.replace(/(description: .*?)\bmodel\b/, "$1checkpoint");
    expect(changed).not.toBe(spec);
    writeFileSync(specPath, changed);
    const stale = await run("npm", ["run", "api:check"], project);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/^stale:\s+generated\/schema\.ts \(\+\d+ -\d+ lines?\)$/m);
    expect(stale.stderr).toMatch(/generated\/ is out of date with spec\/training-api\.v1\.yaml .*; run `npx specforge generate`/);
    expect((await run("npm", ["run", "api:generate"], project)).code).toBe(0);
    const fresh = await run("npm", ["run", "api:check"], project);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).toMatch(/specforge: generated\/ is up to date with spec\/training-api\.v1\.yaml/);

    // 6. A typed specforge.config.ts instead of the JSON one: type-checked against the installed package, and used.
    rmSync(join(project, "specforge.config.json"));
    writeFileSync(
      join(project, "specforge.config.ts"),
      'import { defineConfig } from "specforge";\n\nexport default defineConfig({ spec: "spec/training-api.v1.yaml", outputs: ["client"] });\n',
    );
    writeTsconfig(project, ["specforge.config.ts"]);
    expect((await tsc(project)).stdout).toBe("");
    const narrowed = await run("npm", ["run", "api:check"], project);
    expect(narrowed.code).toBe(1);
    expect(narrowed.stderr).toMatch(/^extra:\s+generated\/server\.ts/m);
    // server.ts, server-validators.ts, webhooks.ts and their runtimes go.
    const removed = 3 + ["server", "webhooks"].flatMap((kind) => readdirSync(join(project, "generated", "runtime", kind))).length;
    expect((await run("npm", ["run", "api:generate"], project)).stdout).toMatch(new RegExp(`generated/ \\d+ written, \\d+ unchanged, ${removed} removed`));
    expect((await run("npm", ["run", "api:check"], project)).code).toBe(0);
    // A typo in the typed config is a compile error, and a clear runtime error.
    writeFileSync(join(project, "specforge.config.ts"), 'import { defineConfig } from "specforge";\n\nexport default defineConfig({ outputs: ["clients"] });\n');
    expect((await tsc(project)).stdout).toMatch(/specforge\.config\.ts\(3,41\): error TS\d+: Type '"clients"' is not assignable to type '"types" \| "client" \| "server" \| "webhooks" \| "queries" \| "msw" \| "schemas"'/);
    const typo = await run("npx", ["specforge", "check"], project);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/specforge\.config\.ts: config field `outputs`: "clients" is not an output \(allowed: types, client, server, webhooks, queries, msw, schemas\)/);
  }, 900_000);
});
