import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, ROOT, tempDir, typecheck } from "./helpers.js";

afterAll(cleanupTempDirs);

/**
 * The README's TypeScript examples, in order, as one module against the committed generated/ and specforge's own
 * API (later blocks use names from earlier ones, as a reader would): they must type-check under tsc --strict.
 */
describe("README examples", () => {
  it("type-check against generated/", async () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const blocks = [...readme.matchAll(/^( *)```ts\n([^]*?)^\1```/gm)].map(([, indent, code]) =>
      code!.replace(new RegExp(`^${indent}`, "gm"), ""),
    );
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    // Imports are merged per module: the generated code (`./generated/index.js`) or the package itself (`specforge`).
    const modules: Record<string, string> = {
      "./generated/index.js": join(ROOT, "generated", "index.js"),
      specforge: join(ROOT, "src", "index.js"),
    };
    const imports = new Map<string, Set<string>>();
    for (const line of blocks.flatMap((b) => b.split("\n").filter((l) => l.startsWith("import ")))) {
      const [, names, from] = /^import \{([^}]*)\} from "([^"]+)";$/.exec(line) ?? [];
      expect(modules[from!], line).toBeDefined();
      const set = imports.get(modules[from!]!) ?? new Set<string>();
      for (const name of names!.split(",").map((n) => n.trim()).filter(Boolean)) set.add(name);
      imports.set(modules[from!]!, set);
    }
    expect(imports.size).toBe(2);
    const header = [...imports].map(([path, names]) => `import { ${[...names].join(", ")} } from ${JSON.stringify(path)};`).join("\n");
    const body = blocks.map((b) => b.split("\n").filter((l) => !l.startsWith("import ")).join("\n")).join("\n");
    const dir = join(tempDir("specforge-readme-"), "examples");
    mkdirSync(dir);
    writeFileSync(join(dir, "package.json"), '{"type":"module"}');
    writeFileSync(join(dir, "readme.ts"), `${header}\n${body}\nexport {};\n`);
    const tsc = await typecheck(dir);
    expect(tsc.output).toBe("");
  }, 120_000);
});
