import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../src/cli.js";
import type { CliCommand } from "../src/commands/command.js";
import { ADAPTERS, validateConfig } from "../src/config/resolve.js";
import { generate } from "../src/index.js";
import { cleanupTempDirs, ROOT, tempDir, typecheck, V1_SPEC } from "./helpers.js";

afterAll(cleanupTempDirs);

/** The README's line budget: what a user reads first; everything else belongs in a docs/ page. */
const README_MAX_LINES = 400;

/** Markdown files under a folder, recursively, as paths relative to the repository. */
function markdownUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.isFile() && entry.name.endsWith(".md") ? [path] : [];
  });
}

/** The user documentation: the README and every docs/ page. */
const PAGES = ["README.md", ...markdownUnder("docs").sort()];
const text = new Map(PAGES.map((page) => [page, readFileSync(join(ROOT, page), "utf8")]));

/** The fenced blocks of one language in a page, with the indentation of list items removed. */
function blocks(page: string, language: string): string[] {
  return [...text.get(page)!.matchAll(new RegExp(`^( *)\`\`\`${language}\\n([^]*?)^\\1\`\`\``, "gm"))].map(([, indent, code]) =>
    code!.replace(new RegExp(`^${indent}`, "gm"), ""),
  );
}

/** A page without its fenced blocks and code spans: where links and prose are. */
function prose(markdown: string): string {
  return markdown.replace(/^( *)```[^\n]*\n[^]*?^\1```/gm, "").replace(/(`+)[^`\n]*?\1/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

/** The anchors of a Markdown file's headings, numbered as GitHub numbers repeated ones (`-1`, `-2`, …). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of markdown.replace(/^( *)```[^\n]*\n[^]*?^\1```/gm, "").matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/**
 * Each page's TypeScript examples (```ts blocks), in order, as one module per page against the committed generated/
 * and specforge's own API (later blocks use names from earlier ones of the same page, as a reader would): they must
 * type-check under tsc --strict. ```typescript blocks are examples for other specs (GitHub's, OpenAI's, a fixture's)
 * and are not compiled.
 */
function exampleModule(page: string, generated = join(ROOT, "generated"), resources?: string): string | undefined {
  const ts = blocks(page, "ts");
  if (ts.length === 0) return undefined;
  // Imports are merged per module: the generated code (`./generated/index.js`), the package itself (`specforge`),
  // Node's built-ins or the frameworks the adapters page mounts the router in (default imports of those kept as
  // they are).
  const modules: Record<string, string> = {
    "./generated/index.js": join(generated, "index.js"),
    specforge: join(ROOT, "src", "index.js"),
    // The resource-style client of the same spec (docs/client.md shows both).
    ...(resources ? { "./generated-resources/index.js": join(resources, "index.js") } : {}),
  };
  const imports = new Map<string, Set<string>>();
  const defaultImports = new Set<string>();
  for (const line of ts.flatMap((b) => b.split("\n").filter((l) => l.startsWith("import ")))) {
    const framework = /^import \w+ from "([^"]+)";$/.exec(line)?.[1];
    if (framework !== undefined && FRAMEWORKS.has(framework)) {
      defaultImports.add(line);
      continue;
    }
    const [, names, from] = /^import \{([^}]*)\} from "([^"]+)";$/.exec(line) ?? [];
    const target = from?.startsWith("node:") || FRAMEWORKS.has(from!) ? from : modules[from!];
    expect(target, `${page}: ${line}`).toBeDefined();
    const set = imports.get(target!) ?? new Set<string>();
    for (const name of names!.split(",").map((n) => n.trim()).filter(Boolean)) set.add(name);
    imports.set(target!, set);
  }
  const header = [...defaultImports, ...[...imports].map(([path, names]) => `import { ${[...names].join(", ")} } from ${JSON.stringify(path)};`)].join("\n");
  // Several blocks stand for files of their own (a config, a Worker) with a default export each.
  let defaults = 0;
  const body = ts
    .map((b) => b.split("\n").filter((l) => !l.startsWith("import ")).join("\n"))
    .join("\n")
    .replace(/^export default /gm, () => `export const default${++defaults} = `);
  // The globals of the other runtimes the server page serves the router with, as far as it uses them (their real
  // declarations come with @types/bun, Deno and @cloudflare/workers-types).
  const runtimes = [
    "declare const Bun: { serve(options: { port?: number; fetch(request: Request): Response | Promise<Response> }): unknown };",
    "declare const Deno: { serve(options: { port?: number }, handler: (request: Request) => Response | Promise<Response>): unknown };",
  ].join("\n");
  return `// ${page}\n${header}\n${runtimes}\n${body}\nexport {};\n`;
}

/**
 * The frameworks and libraries the pages import (resolved from this repository's node_modules): docs/adapters.md's
 * frameworks, the TanStack Query and MSW of docs/queries-and-msw.md, and docs/schemas.md's Standard Schema types.
 */
const FRAMEWORKS = new Set(["express", "fastify", "hono", "@hono/node-server", "@tanstack/react-query", "msw/node", "@standard-schema/spec"]);
/** The pages whose examples use the adapters: compiled against the example spec generated with all of them. */
const ADAPTER_PAGES = new Set(["docs/adapters.md"]);
/** The pages whose examples use the query options and MSW handlers: compiled against the example spec generated with them. */
const QUERY_PAGES = new Set(["docs/queries-and-msw.md"]);
/** The pages whose examples use the `schemas` output: compiled against the example spec generated with it. */
const SCHEMAS_PAGES = new Set(["docs/schemas.md"]);

describe("documentation examples", () => {
  let root = "";
  let withAdapters = "";
  let withResources = "";
  let withQueries = "";
  let withSchemas = "";
  beforeAll(async () => {
    root = tempDir("specforge-docs-");
    symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"), "dir");
    // The generated folders are ES modules, as the examples are: msw's classes come from one of its builds, not from
    // its CommonJS types for the output and its ESM types for the examples.
    writeFileSync(join(root, "package.json"), '{"type":"module"}');
    withAdapters = join(root, "generated-adapters");
    await generate({ cwd: ROOT, spec: V1_SPEC, out: withAdapters, adapters: [...ADAPTERS], format: false, write: true });
    withResources = join(root, "generated-resources");
    await generate({ cwd: ROOT, spec: V1_SPEC, out: withResources, outputs: ["client"], client: { style: "resources" }, format: false, write: true });
    withQueries = join(root, "generated-queries");
    await generate({ cwd: ROOT, spec: V1_SPEC, out: withQueries, outputs: ["types", "client", "server", "queries", "msw"], format: false, write: true });
    withSchemas = join(root, "generated-schemas");
    await generate({ cwd: ROOT, spec: V1_SPEC, out: withSchemas, outputs: ["types", "client", "schemas"], format: false, write: true });
  }, 120_000);

  it("every page's TypeScript examples type-check against generated/", async () => {
    const dir = join(root, "examples");
    mkdirSync(dir);
    writeFileSync(join(dir, "package.json"), '{"type":"module"}');
    const compiled: string[] = [];
    for (const page of PAGES) {
      const module = exampleModule(page, ADAPTER_PAGES.has(page) ? withAdapters : QUERY_PAGES.has(page) ? withQueries : SCHEMAS_PAGES.has(page) ? withSchemas : undefined, withResources);
      if (module === undefined) continue;
      writeFileSync(join(dir, `${page.replace(/\.md$/, "").replace(/[/.]/g, "-")}.ts`), module);
      compiled.push(page);
    }
    // The pages whose examples are the product's main uses must have some.
    expect(compiled).toEqual(expect.arrayContaining(["README.md", "docs/adapters.md", "docs/client.md", "docs/server.md", "docs/webhooks.md", "docs/security.md", "docs/cli.md", "docs/configuration.md", "docs/queries-and-msw.md", "docs/schemas.md"]));
    const tsc = await typecheck(dir);
    expect(tsc.output).toBe("");
  }, 120_000);

  it("every command line names a real command and only flags that command has", () => {
    const lines = PAGES.flatMap((page) =>
      [...blocks(page, "sh"), ...blocks(page, "console")]
        .join("\n")
        .replace(/\\\n\s*/g, " ")
        .split("\n")
        .filter((line) => /(^|\s)(npx )?specforge /.test(line) && !line.startsWith("specforge: "))
        .map((line) => ({ page, line })),
    );
    expect(lines.length).toBeGreaterThanOrEqual(6);
    const problems: string[] = [];
    for (const { page, line } of lines) {
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
        problems.push(`${page}: ${line}: no command`);
        continue;
      }
      const options = command.options({ spec: "", out: "" });
      const known = new Set(Object.entries(options).flatMap(([name, spec]) => [name, ...([] as string[]).concat(spec.alias ?? [])]));
      for (const token of tokens.filter((t) => t.startsWith("-"))) {
        const name = token.replace(/^--?(no-)?/, "").replace(/=.*$/, "");
        if (!known.has(name)) problems.push(`${page}: ${line}: ${token} is not an option of ${command.name}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("every JSON example is a valid config", () => {
    const json = PAGES.flatMap((page) => blocks(page, "json").map((block) => ({ page, block })));
    expect(json.length).toBeGreaterThanOrEqual(2);
    for (const { page, block } of json) expect(() => validateConfig(JSON.parse(block), page)).not.toThrow();
  });
});

describe("documentation links", () => {
  it("every relative link lands on a file, and every #anchor on a heading of its page", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      for (const [, target] of prose(text.get(page)!).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto:
        checked++;
        const [path, anchor] = target!.split("#") as [string, string | undefined];
        const file = path === "" ? page : relative(ROOT, join(ROOT, dirname(page), decodeURIComponent(path)));
        if (file.startsWith("..") || !existsSync(join(ROOT, file))) {
          broken.push(`${page}: ${target}: no file ${file}`);
          continue;
        }
        if (anchor === undefined) continue;
        if (!file.endsWith(".md") || statSync(join(ROOT, file)).isDirectory()) {
          broken.push(`${page}: ${target}: an anchor into a file that is not Markdown`);
          continue;
        }
        const markdown = text.get(file) ?? readFileSync(join(ROOT, file), "utf8");
        if (!anchors(markdown).has(anchor)) broken.push(`${page}: ${target}: no heading #${anchor} in ${file}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it("the links this test follows are the ones a reader sees: a heading's anchor, a relative path", () => {
    // The checker itself: a made-up page with one good and two broken links of each kind.
    const page = "# T\n\n## A heading, `with code`\n\n## A heading, with code\n\n[ok](#a-heading-with-code-1) [bad](#nowhere)\n";
    expect([...anchors(page)]).toEqual(["t", "a-heading-with-code", "a-heading-with-code-1"]);
    expect(prose("see `[not](a-link)` and\n```md\n[nor](this)\n```\n[but](this)")).not.toMatch(/not|nor/);
  });
});

describe("documentation budget and wording", () => {
  it(`README.md stays a first read: at most ${README_MAX_LINES} lines`, () => {
    const lines = text.get("README.md")!.split("\n").length - 1;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  /** The project's own bookkeeping, which means nothing to a reader: issue and session numbers. */
  const BOOKKEEPING = [/\bissues?\s+#?\d/i, /\bsessions?\s+\d/i, /(?<![\w/&])#\d+\b/];

  it("the README, docs/ and bench/ speak of the product, not of the project's issues or sessions", () => {
    const files = [...PAGES, ...readdirSync(join(ROOT, "bench")).filter((name) => name.endsWith(".md")).map((name) => `bench/${name}`)];
    const found: string[] = [];
    for (const file of files) {
      const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
      lines.forEach((line, index) => {
        for (const pattern of BOOKKEEPING) {
          const match = pattern.exec(line);
          if (match) found.push(`${file}:${index + 1}: ${match[0]}`);
        }
      });
    }
    expect(found).toEqual([]);
  });

  it("the wording check catches the forms such references take", () => {
    const caught = (line: string) => BOOKKEEPING.some((pattern) => pattern.test(line));
    for (const line of ["fixed in issue 19", "issues 12–14", "see (#19)", "bench/NOTES.md, session 11", "the Session 8 sections", "Issue #7"]) expect(caught(line), line).toBe(true);
    for (const line of ["an issue with the spec", "#/components/schemas/Pet", "&#39;", "`items[0]`", "the session cookie", "gh issue create --label vendor-api"]) expect(caught(line), line).toBe(false);
  });
});
