import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildInputsHash, buildIsCurrent } from "../../src/package/build-inputs.js";
import { cleanupTempDirs, tempDir, writeFiles } from "../helpers.js";

afterAll(cleanupTempDirs);

/** The tests' setup skips `npm run build` when dist/ records the hash of the inputs as they are now. */
describe("buildIsCurrent", () => {
  const project = () => {
    const root = tempDir();
    writeFiles(root, {
      "package.json": '{"name":"specforge","version":"1.0.0"}',
      "tsconfig.build.json": "{}",
      "src/cli.ts": "export {};\n",
      "templates/client/runtime.ts": "export const a = 1;\n",
      "bin/specforge.js": "#!/usr/bin/env node\n",
    });
    return root;
  };
  const recordBuild = (root: string, info: object) => writeFiles(root, { "dist/build-info.json": JSON.stringify(info) });

  it("is true only for a dist/ built from the inputs as they are", () => {
    const root = project();
    expect(buildIsCurrent(root)).toBe(false); // never built
    recordBuild(root, { codeHash: "x" });
    expect(buildIsCurrent(root)).toBe(false); // a build that stopped before its end records no inputs
    recordBuild(root, { codeHash: "x", inputsHash: buildInputsHash(root) });
    expect(buildIsCurrent(root)).toBe(true);
  });

  it.each([
    ["a source file", "src/cli.ts"],
    ["a template", "templates/client/runtime.ts"],
    ["the bin", "bin/specforge.js"],
    ["package.json", "package.json"],
    ["the lockfile appearing", "package-lock.json"],
    ["a new source file", "src/new.ts"],
  ])("is false once %s changes", (_, file) => {
    const root = project();
    recordBuild(root, { inputsHash: buildInputsHash(root) });
    writeFileSync(join(root, file), "// changed\n");
    expect(buildIsCurrent(root)).toBe(false);
  });

  it("is false for an unreadable record", () => {
    const root = project();
    writeFiles(root, { "dist/build-info.json": "{" });
    expect(buildIsCurrent(root)).toBe(false);
  });
});
