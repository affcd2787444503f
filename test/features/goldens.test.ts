import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import * as prettier from "prettier";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../../src/index.js";
import { FIXTURES, ROOT, cleanupTempDirs, tempDir } from "../helpers.js";

afterAll(cleanupTempDirs);

/**
 * Golden files: the client, server, server-validators, webhooks and index modules each feature fixture generates, in
 * both output forms (`ts`: client.ts, server.ts, …; `js`: client.js + client.d.ts, …; index.ts is the same in both),
 * committed in test/features/goldens/<fixture>/, so a change to an emitter or a file template shows as a reviewable
 * diff. They change only when asked: `npx vitest run test/features/goldens.test.ts -u` (or UPDATE_GOLDENS=1) writes
 * them. The header each file starts with (generator version, spec path and hash) is not part of a golden.
 *
 * The same run checks that every generated file, the copied runtime and schema.ts included, is exactly what
 * prettier (default settings) makes of it: the printer never writes what prettier would change. The OpenAPI 3.2
 * documents of test/fixtures (the v1 spec in 3.2, and those from the wild) are checked against prettier too.
 */
const FEATURES = join(FIXTURES, "features");
const GOLDENS = join(ROOT, "test", "features", "goldens");
const GOLDEN_FILES = {
  ts: ["client.ts", "server.ts", "server-validators.ts", "webhooks.ts", "index.ts"],
  js: [
    "client.js",
    "client.d.ts",
    "server.js",
    "server.d.ts",
    "server-validators.js",
    "webhooks.js",
    "webhooks.d.ts",
    "index.ts",
  ],
} as const;
/** `vitest -u` (or UPDATE_GOLDENS=1, see vitest.config.ts): the goldens are (re)written. Otherwise a missing one fails too. */
const updating = () =>
  expect.getState().snapshotState.snapshotUpdateState === "all";

/** Every feature fixture: the YAML files and the folders with an openapi.yaml. */
const fixtures = readdirSync(FEATURES, { withFileTypes: true })
  .flatMap((entry) => {
    if (entry.isFile() && /\.ya?ml$/.test(entry.name))
      return [
        {
          name: entry.name.replace(/\.ya?ml$/, ""),
          spec: join(FEATURES, entry.name),
        },
      ];
    if (
      entry.isDirectory() &&
      existsSync(join(FEATURES, entry.name, "openapi.yaml"))
    )
      return [
        { name: entry.name, spec: join(FEATURES, entry.name, "openapi.yaml") },
      ];
    return [];
  })
  .sort((a, b) => (a.name < b.name ? -1 : 1));

/** The OpenAPI 3.2 documents beside the feature fixtures: their output is compared with prettier's, not with goldens. */
const FIXTURES_3_2 = [
  "training-api-3.2/training-api.v1.3.2.yaml",
  "scalar-galaxy-3.2/galaxy-3.2.yaml",
  "oai-learn-3.2/3.2-query-example.yaml",
  "oai-learn-3.2/3.2-tags-example.yaml",
  "oas-3.2-spec/examples.yaml",
  "oas-3.2-spec/self/openapi.yaml",
];

/** The file without the header every generated file starts with (the stamp is the writer's, not the emitters'). */
const withoutHeader = (text: string) =>
  text.replace(/^\/\*\*\n(?: \*.*\n)* \*\/\n(?:\/\/ @ts-nocheck\n)?\n/, "");

/** Runtime files are the same for every fixture: each is compared with prettier once. */
const checkedRuntime = new Set<string>();

describe("feature fixtures: golden files and prettier's own output", () => {
  it("finds the fixtures", () => expect(fixtures.length).toBeGreaterThan(15));

  for (const fixture of fixtures) {
    it.each(["ts", "js"] as const)(`${fixture.name} (%s)`, async (form) => {
      const { files } = await generate({
        spec: fixture.spec,
        out: join(tempDir(), "out"),
        cwd: ROOT,
        form,
      });
      for (const name of GOLDEN_FILES[form]) {
        const golden = join(GOLDENS, fixture.name, name);
        const content = files.get(name);
        if (content === undefined) {
          expect(
            existsSync(golden),
            `${fixture.name}/${name} is no longer generated: delete its golden`,
          ).toBe(false);
          continue;
        }
        if (!existsSync(golden) && !updating())
          throw new Error(
            `no golden for ${fixture.name}/${name}: write it with \`npx vitest run test/features/goldens.test.ts -u\``,
          );
        await expect(
          withoutHeader(content),
          `${fixture.name}/${name}`,
        ).toMatchFileSnapshot(golden);
      }
      await expectPrettierForm(fixture.name, files);
    });
  }
});

describe("OpenAPI 3.2 fixtures: prettier's own output", () => {
  it.each(FIXTURES_3_2)("%s", async (fixture) => {
    const { files } = await generate({
      spec: join(FIXTURES, fixture),
      out: join(tempDir(), "out"),
      cwd: ROOT,
    });
    await expectPrettierForm(fixture, files);
  });
});

/** Every generated TypeScript file is what prettier (default settings) makes of it; each runtime file once. */
async function expectPrettierForm(
  fixture: string,
  files: Map<string, string>,
): Promise<void> {
  for (const [path, content] of files) {
    if (
      !path.endsWith(".ts") ||
      (path.startsWith("runtime/") && checkedRuntime.has(path))
    )
      continue;
    checkedRuntime.add(path);
    expect(
      await prettier.format(content, { parser: "typescript", filepath: path }),
      `${fixture}/${path} is not in prettier's form`,
    ).toBe(content);
  }
}
