import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../src/cli.js";
import type { CliCommand } from "../src/commands/command.js";
import { validateConfig } from "../src/config/resolve.js";
import { cleanupTempDirs, ROOT, tempDir, typecheck } from "./helpers.js";

afterAll(cleanupTempDirs);

const readme = readFileSync(join(ROOT, "README.md"), "utf8");

/** The fenced blocks of one language, with the indentation of list items removed. */
function blocks(language: string): string[] {
  return [...readme.matchAll(new RegExp(`^( *)\`\`\`${language}\\n([^]*?)^\\1\`\`\``, "gm"))].map(([, indent, code]) =>
    code!.replace(new RegExp(`^${indent}`, "gm"), ""),
  );
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

/**
 * The README's TypeScript examples, in order, as one module against the committed generated/ and specforge's own
 * API (later blocks use names from earlier ones, as a reader would): they must type-check under tsc --strict.
 */
describe("README examples", () => {
  it("type-check against generated/", async () => {
    const ts = blocks("ts");
    expect(ts.length).toBeGreaterThanOrEqual(8);
    // Imports are merged per module: the generated code (`./generated/index.js`), the package itself (`specforge`)
    // or Node's built-ins.
    const modules: Record<string, string> = {
      "./generated/index.js": join(ROOT, "generated", "index.js"),
      specforge: join(ROOT, "src", "index.js"),
    };
    const imports = new Map<string, Set<string>>();
    for (const line of ts.flatMap((b) => b.split("\n").filter((l) => l.startsWith("import ")))) {
      const [, names, from] = /^import \{([^}]*)\} from "([^"]+)";$/.exec(line) ?? [];
      const target = from?.startsWith("node:") ? from : modules[from!];
      expect(target, line).toBeDefined();
      const set = imports.get(target!) ?? new Set<string>();
      for (const name of names!.split(",").map((n) => n.trim()).filter(Boolean)) set.add(name);
      imports.set(target!, set);
    }
    expect([...imports.keys()]).toEqual(expect.arrayContaining(Object.values(modules)));
    const header = [...imports].map(([path, names]) => `import { ${[...names].join(", ")} } from ${JSON.stringify(path)};`).join("\n");
    // Several blocks stand for files of their own (a config, a Worker) with a default export each.
    let defaults = 0;
    const body = ts
      .map((b) => b.split("\n").filter((l) => !l.startsWith("import ")).join("\n"))
      .join("\n")
      .replace(/^export default /gm, () => `export const default${++defaults} = `);
    // The globals of the other runtimes the server section serves the router with, as far as it uses them (their
    // real declarations come with @types/bun, Deno and @cloudflare/workers-types).
    const runtimes = [
      "declare const Bun: { serve(options: { port?: number; fetch(request: Request): Response | Promise<Response> }): unknown };",
      "declare const Deno: { serve(options: { port?: number }, handler: (request: Request) => Response | Promise<Response>): unknown };",
    ].join("\n");
    const dir = join(tempDir("specforge-readme-"), "examples");
    mkdirSync(dir);
    writeFileSync(join(dir, "package.json"), '{"type":"module"}');
    writeFileSync(join(dir, "readme.ts"), `${header}\n${runtimes}\n${body}\nexport {};\n`);
    const tsc = await typecheck(dir);
    expect(tsc.output).toBe("");
  }, 120_000);

  it("every command line names a real command and only flags that command has", () => {
    const lines = [...blocks("sh"), ...blocks("console")]
      .join("\n")
      .replace(/\\\n\s*/g, " ")
      .split("\n")
      .filter((line) => /(^|\s)(npx )?specforge /.test(line) && !line.startsWith("specforge: "));
    expect(lines.length).toBeGreaterThanOrEqual(6);
    const problems: string[] = [];
    for (const line of lines) {
      const tokens = line.replace(/#.*$/, "").split(/(?:^|\s)(?:npx )?specforge\s+/)[1]!.trim().split(/\s+/);
      let list: CliCommand<unknown>[] = COMMANDS;
      let command: CliCommand<unknown> | undefined;
      while (tokens.length > 0 && !tokens[0]!.startsWith("-")) {
        const next = list.find((c) => c.name === tokens[0]);
        if (!next) break;
        command = next;
        list = next.subcommands ?? [];
        tokens.shift();
      }
      if (!command || command.subcommands) {
        problems.push(`${line}: no command`);
        continue;
      }
      const options = command.options({ spec: "", out: "" });
      const known = new Set(Object.entries(options).flatMap(([name, spec]) => [name, ...([] as string[]).concat(spec.alias ?? [])]));
      for (const token of tokens.filter((t) => t.startsWith("-"))) {
        const name = token.replace(/^--?(no-)?/, "").replace(/=.*$/, "");
        if (!known.has(name)) problems.push(`${line}: ${token} is not an option of ${command.name}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("every JSON example is a valid config", () => {
    const json = blocks("json");
    expect(json.length).toBeGreaterThanOrEqual(2);
    for (const block of json) expect(() => validateConfig(JSON.parse(block), "README")).not.toThrow();
  });

  it("the contents list every section, and every link to a section lands on a heading", () => {
    const headings = [...readme.matchAll(/^(#{2,4}) (.+)$/gm)].map(([, level, text]) => ({ level: level!.length, anchor: slug(text!) }));
    const contents = readme.slice(readme.indexOf("## Contents"), readme.indexOf("\n## ", readme.indexOf("## Contents") + 1));
    const listed = [...contents.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    expect(listed).toEqual(headings.filter((h) => h.level === 2 && h.anchor !== "contents").map((h) => h.anchor));
    const anchors = new Set(headings.map((h) => h.anchor));
    const broken = [...readme.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!).filter((anchor) => !anchors.has(anchor));
    expect(broken).toEqual([]);
  });
});
