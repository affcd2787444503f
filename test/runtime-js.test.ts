/**
 * The runtime templates compiled to what the output ships (src/package/runtime-js.ts): JavaScript that reads like its
 * source (comments and blank lines kept, text inside strings untouched) and the declarations of its exports.
 */
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileRuntime } from "../src/package/runtime-js.js";
import { runtimeTemplates } from "../src/package/templates.js";
import { cleanupTempDirs, ROOT, STRICT_NODE_COMPILER_OPTIONS, tempDir } from "./helpers.js";

afterAll(cleanupTempDirs);

const TEMPLATES = join(ROOT, "templates");

const SOURCE = `/**
 * What this module is.
 */
import type { Other } from "./other.js";

/** Says hello. */
export function hello(name: string): string {
  const greeting = \`hello,

\${name}\`; // a blank line inside a template literal stays as it is

  return greeting;
}

interface Erased {
  x: number;
}

export const answer: number = 42;
`;

describe("compileRuntime", () => {
  const compiled = compileRuntime(new Map([["client/hello.ts", SOURCE], ["client/other.ts", "export interface Other { a: string }\n"]]), TEMPLATES);
  const { js, dts } = compiled.get("client/hello.ts")!;

  it("keeps the module comment, JSDoc and blank lines in the JavaScript, and erases the types", () => {
    expect(js).toBe(`/**
 * What this module is.
 */

/** Says hello. */
export function hello(name) {
    const greeting = \`hello,

\${name}\`; // a blank line inside a template literal stays as it is

    return greeting;
}

export const answer = 42;
`);
  });

  it("declares the exports with their JSDoc", () => {
    expect(dts).toContain("/** Says hello. */\nexport declare function hello(name: string): string;");
    expect(dts).toContain("export declare const answer: number;");
    expect(dts).not.toContain("specforge:blank-line");
  });

  it("is deterministic", () => {
    const again = compileRuntime(new Map([["client/hello.ts", SOURCE], ["client/other.ts", "export interface Other { a: string }\n"]]), TEMPLATES);
    expect(again.get("client/hello.ts")).toEqual({ js, dts });
  });

  it("refuses a template that does not compile", () => {
    expect(() => compileRuntime(new Map([["client/bad.ts", "export const x: number = 'no';\n"]]), TEMPLATES)).toThrow(/do not compile[\s\S]*TS2322/);
  });
});

describe("compileRuntime with the file templates: declarations trimmed to the typed surface", () => {
  const sources = new Map([
    ["client/types.ts", `import type { Helper } from "./helper.js";\n\n/** Public. */\nexport interface Public {\n  helper: Helper;\n}\n`],
    [
      "client/helper.ts",
      `/** A public type's part. */\nexport interface Helper {\n  local: Local;\n}\ninterface Local {\n  x: number;\n}\n/** Only run.ts calls it. */\nexport function internalOnly(): Local {\n  return { x: 1 };\n}\nexport type Unused = string;\n`,
    ],
    ["client/run.ts", `import { internalOnly } from "./helper.js";\n\nexport function run(): number {\n  return internalOnly().x;\n}\nexport const internalToo = 1;\n`],
  ]);
  const fileTemplate = `import type { Public } from "../client/types.js";\nimport { run } from "../client/run.js";\nexport const x: Public | number = run();\n`;
  const trimmed = compileRuntime(sources, TEMPLATES, [fileTemplate]);

  it("declares every export of types.ts and what it names from a sibling, local types included", () => {
    expect(trimmed.get("client/types.ts")!.dts).toBe(compileRuntime(sources, TEMPLATES).get("client/types.ts")!.dts);
    const helper = trimmed.get("client/helper.ts")!.dts;
    expect(helper).toContain("/** A public type's part. */\nexport interface Helper {");
    expect(helper).toContain("interface Local {");
  });

  it("declares what a file template imports, and not what only the runtime's own modules use", () => {
    const helper = trimmed.get("client/helper.ts")!.dts;
    expect(helper).not.toContain("function internalOnly");
    expect(helper).not.toContain("type Unused");
    expect(helper).toContain("// Not declared: internalOnly, Unused (used only by the runtime's own modules).");
    const run = trimmed.get("client/run.ts")!.dts;
    expect(run).toContain("export declare function run(): number;");
    expect(run).not.toContain("internalToo: ");
  });

  it("leaves the JavaScript as it was", () => {
    const untrimmed = compileRuntime(sources, TEMPLATES);
    for (const [path, { js }] of trimmed) expect(js, path).toBe(untrimmed.get(path)!.js);
  });

  it("keeps a module without any declaration left a module (no globals)", () => {
    const { dts } = compileRuntime(new Map([["client/types.ts", "export type T = 1;\n"], ["client/inner.ts", "export function f(): void {}\n"]]), TEMPLATES, [])
      .get("client/inner.ts")!;
    expect(dts).toBe("// Not declared: f (used only by the runtime's own modules).\nexport {};\n");
  });
});

describe("the runtime's trimmed declarations", () => {
  it.each(["client", "server", "webhooks", "adapters"] as const)("of %s compile on their own, without skipLibCheck (nothing kept names what was dropped)", async (kind) => {
    const dir = tempDir("specforge-runtime-dts-");
    // The adapters' declarations name the server's, as runtime/adapters/ names runtime/server/.
    for (const folder of kind === "adapters" ? (["server", kind] as const) : [kind]) {
      mkdirSync(join(dir, folder));
      for (const template of runtimeTemplates(folder)) writeFileSync(join(dir, folder, `${template.name}.d.ts`), template.dts.replace(/^\/\/ @ts-nocheck\n/m, ""));
    }
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { ...STRICT_NODE_COMPILER_OPTIONS, skipLibCheck: false }, include: ["*/*.d.ts"] }));
    const output = await new Promise<string>((resolve) =>
      execFile(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir, "--pretty", "false"], (_error, stdout, stderr) => resolve(stdout + stderr)),
    );
    expect(output).toBe("");
  });
});
