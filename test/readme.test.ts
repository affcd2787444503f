import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, ROOT, tempDir, typecheck } from "./helpers.js";

afterAll(cleanupTempDirs);

/**
 * The README's TypeScript examples, in order, as one module against the committed generated/ (later blocks use
 * names from earlier ones, as a reader would): they must type-check under tsc --strict.
 */
describe("README examples", () => {
  it("type-check against generated/", async () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const blocks = [...readme.matchAll(/^( *)```ts\n([^]*?)^\1```/gm)].map(([, indent, code]) =>
      code!.replace(new RegExp(`^${indent}`, "gm"), ""),
    );
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const imports = blocks.flatMap((b) => b.split("\n").filter((l) => l.startsWith("import ")));
    const names = [...new Set(imports.flatMap((l) => /\{([^}]*)\}/.exec(l)![1]!.split(",").map((n) => n.trim()).filter(Boolean)))];
    const body = blocks.map((b) => b.split("\n").filter((l) => !l.startsWith("import ")).join("\n")).join("\n");
    const dir = join(tempDir("specforge-readme-"), "examples");
    mkdirSync(dir);
    writeFileSync(join(dir, "package.json"), '{"type":"module"}');
    writeFileSync(join(dir, "readme.ts"), `import { ${names.join(", ")} } from ${JSON.stringify(join(ROOT, "generated", "index.js"))};\n${body}\nexport {};\n`);
    const tsc = await typecheck(dir);
    expect(tsc.output).toBe("");
  }, 120_000);
});
