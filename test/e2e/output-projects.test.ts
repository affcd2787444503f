/**
 * The output in downstream projects, in both forms: the v1 output (every output kind) is copied into a new project
 * with a program that uses the client, the router and the webhook tools, and compiled under each common tsconfig.
 *
 * - `ts` (the committed generated/): every file TypeScript, marked `// @ts-nocheck`, every export typed; compiled
 *   by the project's `tsc` into an `outDir` as CommonJS and as ESM, and run by Node from there.
 * - `js` (generated here with `--form js`): the modules as JavaScript plus declarations, the runtime compiled from
 *   templates/ by the build; the JavaScript runs in plain Node.
 *
 * The real consumer projects (installed from the packed tarball, TypeScript 7, bundlers) are test/consumers/.
 */
import { execFile } from "node:child_process";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, cleanupTempDirs, runCli, tempDir } from "../helpers.js";

afterAll(cleanupTempDirs);

const GENERATED = join(ROOT, "generated");
let generatedJs: string;
beforeAll(async () => {
  generatedJs = join(tempDir("specforge-output-js-"), "generated");
  const result = await runCli(["generate", "--form", "js", "--out", generatedJs], ROOT);
  if (result.code !== 0) throw new Error(result.stderr);
}, 120_000);

/** Uses the typed surface; each `@ts-expect-error` fails the compile if the types it needs were lost (`any`). */
const APP = `import { createClient, createRouter, ApiError, type Client, type WebhookEvent } from "./generated/index.js";

const client: Client = createClient({ apiKey: "k", baseUrl: process.env["API_URL"] });
export async function modelId(): Promise<string> {
  try {
    const model = await client.createModel({ body: { project: "p", name: "agent", base_model: "OpenPipe/Qwen3-14B-Instruct" } });
    return model.id;
  } catch (e) {
    if (client.createModel.isError(e) && e.status === 422) return JSON.stringify(e.body.detail);
    if (e instanceof ApiError) return String(e.status);
    throw e;
  }
}
// @ts-expect-error: project is a string
export const wrong = () => client.createModel({ body: { project: 1, name: "agent", base_model: "m" } });
export const router = createRouter({});
// @ts-expect-error: a router has no such method
router.noSuchMethod();
// @ts-expect-error: a handler is a function
export const badRouter = createRouter({ createModel: 1 });
// @ts-expect-error: not an event type of the spec
export const event: WebhookEvent["type"] = "no.such.event";
`;

const BASE = { target: "ES2022", lib: ["ES2023", "DOM", "DOM.Iterable"], strict: true, noEmit: true, typeRoots: [join(ROOT, "node_modules", "@types")], types: ["node"] };

const CONFIGS: Record<string, Record<string, unknown>> = {
  "NodeNext, skipLibCheck": { ...BASE, module: "NodeNext", moduleResolution: "NodeNext", skipLibCheck: true },
  "Bundler, the strictest options, declarations checked too": {
    ...BASE,
    module: "ESNext",
    moduleResolution: "Bundler",
    isolatedModules: true,
    verbatimModuleSyntax: true,
    erasableSyntaxOnly: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noPropertyAccessFromIndexSignature: true,
    noImplicitOverride: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    noImplicitReturns: true,
    skipLibCheck: false,
  },
  "allowJs + checkJs over the whole folder": { ...BASE, module: "NodeNext", moduleResolution: "NodeNext", allowJs: true, checkJs: true, skipLibCheck: true },
};

function tsc(project: string, ...args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", project, "--pretty", "false", ...args], { cwd: project, maxBuffer: 16 << 20 }, (_error, stdout, stderr) =>
      resolve(stdout + stderr),
    );
  });
}

function node(cwd: string, file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file], { cwd, timeout: 30_000 }, (error, stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolve(stdout)));
  });
}

/** Every file below `dir`, by path relative to it. */
function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== ".specforge-manifest.json")
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

/** A project with the output under `generated/` and APP beside it, compiled with `compilerOptions`: tsc's output. */
async function compileApp(output: string, compilerOptions: Record<string, unknown>, app = APP): Promise<string> {
  const project = tempDir("specforge-output-project-");
  cpSync(output, join(project, "generated"), { recursive: true });
  writeFileSync(join(project, "app.ts"), app);
  const include = compilerOptions["allowJs"] === true ? ["**/*"] : ["app.ts", "generated/**/*.ts"];
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, include }));
  return tsc(project);
}

describe.each(["ts", "js"] as const)("the output in the %s form, compiled by a project", (form) => {
  const output = () => (form === "ts" ? GENERATED : generatedJs);

  it.each(Object.keys(CONFIGS))("compiles with a program using it under %s", async (name) => {
    expect(await compileApp(output(), CONFIGS[name]!)).toBe("");
    // The check is real: without the expectations the wrong calls are errors.
    expect(await compileApp(output(), CONFIGS[name]!, APP.replaceAll("// @ts-expect-error", "//"))).toMatch(
      /app\.ts\(15,.*error TS2322[\s\S]*app\.ts\(18,.*error TS2339[\s\S]*app\.ts\(20,.*error TS\d+[\s\S]*app\.ts\(22,.*error TS2322/,
    );
  }, 120_000);
});

describe("the ts form", () => {
  it("is TypeScript only, every file marked `// @ts-nocheck` under its header, relative imports with .js", () => {
    const files = filesOf(GENERATED);
    expect(files.filter((file) => !file.endsWith(".ts") || file.endsWith(".d.ts"))).toEqual([]);
    for (const file of files) {
      const text = readFileSync(join(GENERATED, file), "utf8");
      expect(text, file).toMatch(/^\/\*\*\n \* Generated by specforge [^\n]*\n \* Do not edit by hand[^\n]*\n \*\/\n\/\/ @ts-nocheck\n/);
      for (const [, specifier] of text.matchAll(/\bfrom\s+"(\.[^"]*)"/g)) expect(specifier, file).toMatch(/\.js$/);
    }
  });

  it("every export has a written type: a project's compiler infers none from a body or a data table (isolatedDeclarations)", async () => {
    const project = tempDir("specforge-output-declarations-");
    cpSync(GENERATED, join(project, "generated"), { recursive: true });
    // Without the directive, so the checks run (the untyped code of server-validators.ts fails other checks: only
    // isolatedDeclarations' own errors, TS9xxx, are looked at).
    for (const file of filesOf(join(project, "generated"))) {
      const path = join(project, "generated", file);
      writeFileSync(path, readFileSync(path, "utf8").replace(/^\/\/ @ts-nocheck\n/m, ""));
    }
    const compilerOptions = { ...BASE, noEmit: false, strict: false, module: "NodeNext", moduleResolution: "NodeNext", skipLibCheck: true, declaration: true, emitDeclarationOnly: true, isolatedDeclarations: true, outDir: "types" };
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["generated/**/*.ts"] }));
    const output = await tsc(project);
    expect(output.split("\n").filter((line) => /error TS9\d{3}:/.test(line))).toEqual([]);
    expect(output.split("\n").filter((line) => /error TS/.test(line) && !line.startsWith("generated/server-validators.ts("))).toEqual([]);
    // The check is real: an export typed by its initialiser fails it.
    writeFileSync(join(project, "generated", "client.ts"), readFileSync(join(project, "generated", "client.ts"), "utf8") + "\nexport const inferred = [1];\n");
    expect(await tsc(project)).toMatch(/generated\/client\.ts\(\d+,\d+\): error TS9\d{3}:/);
  }, 120_000);

  it.each([
    ["a CommonJS package", "commonjs", "require"],
    ["an ES module package", "module", "import"],
  ] as const)("is compiled by tsc into an outDir in %s, and runs there: the client calls the router over HTTP", async (_name, type, how) => {
    const project = tempDir("specforge-output-build-");
    cpSync(GENERATED, join(project, "src", "generated"), { recursive: true });
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "app", private: true, type }));
    const compilerOptions = { ...BASE, noEmit: false, module: "NodeNext", moduleResolution: "NodeNext", rootDir: "src", outDir: "dist", declaration: true, exactOptionalPropertyTypes: true };
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["src"] }));
    writeFileSync(
      join(project, "src", "main.ts"),
      `import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient, createRouter, toNodeListener } from "./generated/index.js";

const router = createRouter({ healthCheck: () => ({ status: 200, body: { status: "ok" } }) }, { insecureNoAuth: true });
const server = createServer(toNodeListener(router));
server.listen(0, "127.0.0.1", async () => {
  const { port } = server.address() as AddressInfo;
  const client = createClient({ baseUrl: \`http://127.0.0.1:\${port}\`, apiKey: process.env["API_KEY"] });
  console.log(JSON.stringify(await client.healthCheck()));
  server.close();
});
`,
    );
    expect(await tsc(project)).toBe("");
    expect(filesOf(join(project, "dist", "generated")).filter((file) => file.endsWith(".js"))).toHaveLength(filesOf(GENERATED).length);
    const emitted = readFileSync(join(project, "dist", "generated", "runtime", "client", "runtime.js"), "utf8");
    expect(emitted).toMatch(how === "require" ? /\brequire\("\.\/retry\.js"\)/ : /\bfrom "\.\/retry\.js"/);
    expect(JSON.parse(await node(project, join("dist", "main.js")))).toEqual({ status: "ok" });
  }, 120_000);
});

describe("the js form", () => {
  it("is JavaScript and declarations (but schema.ts and index.ts): each module a .js with a .d.ts beside it, named for Deno", () => {
    const files = filesOf(generatedJs);
    expect(files.filter((file) => !/\.(js|d\.ts)$/.test(file))).toEqual(["index.ts", "schema.ts"]);
    for (const file of files.filter((f) => f.endsWith(".js"))) {
      const declarations = file.replace(/\.js$/, ".d.ts");
      expect(files, file).toContain(declarations);
      const text = readFileSync(join(generatedJs, file), "utf8");
      // `// @ts-nocheck` for allowJs/checkJs projects, `@ts-self-types` for Deno, both in the leading comments.
      expect(text.slice(0, text.search(/^(import|export|const)\b/m)), file).toMatch(/^\/\/ @ts-nocheck\n[\s\S]*^\/\/ @ts-self-types="\.\/[a-z-]+\.d\.ts"$/m);
      expect(text.match(/@ts-self-types="\.\/([a-z-]+\.d\.ts)"/)![1]).toBe(declarations.split("/").pop());
    }
  });

  it("keeps the templates' comments in the JavaScript", () => {
    const retry = readFileSync(join(generatedJs, "runtime", "client", "retry.js"), "utf8");
    expect(retry).toContain("/** Statuses worth retrying: timeout, conflict (lock contention), rate limit and server errors. */\nexport function isRetryableStatus(status) {");
    expect(retry).not.toMatch(/:\s*(number|string|boolean)\b[),]/); // types erased
  });

  it("runs in plain Node, without TypeScript: every module loads", async () => {
    for (const file of filesOf(generatedJs).filter((f) => f.endsWith(".js"))) {
      const module = (await import(pathToFileURL(join(generatedJs, file)).href)) as Record<string, unknown>;
      expect(module, file).toBeTypeOf("object");
    }
    const client = (await import(pathToFileURL(join(generatedJs, "client.js")).href)) as Record<string, unknown>;
    expect(client["createClient"]).toBeTypeOf("function");
    const server = (await import(pathToFileURL(join(generatedJs, "server.js")).href)) as Record<string, unknown>;
    expect(server["createRouter"]).toBeTypeOf("function");
    const webhooks = (await import(pathToFileURL(join(generatedJs, "webhooks.js")).href)) as Record<string, unknown>;
    expect(webhooks["parseWebhook"]).toBeTypeOf("function");
  });
});

describe("schema.ts in downstream projects", () => {
  /** A project with the output and APP, compiled like `tsc -p` with skipLibCheck: its errors and tsc's type count. */
  function compile(schema: string): { errors: string[]; types: number } {
    const project = tempDir("specforge-schema-project-");
    cpSync(GENERATED, join(project, "generated"), { recursive: true });
    writeFileSync(join(project, "generated", "schema.ts"), schema);
    writeFileSync(join(project, "app.ts"), APP);
    const { options } = ts.convertCompilerOptionsFromJson(CONFIGS["NodeNext, skipLibCheck"], project);
    const program = ts.createProgram([join(project, "app.ts"), join(project, "generated", "index.ts")], options);
    const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    return { errors, types: program.getTypeCount() };
  }

  it("is type-checked only where the project's code uses its types, which are as precise as when all is checked", () => {
    const schema = readFileSync(join(GENERATED, "schema.ts"), "utf8");
    expect(schema.slice(0, schema.search(/^export\b/m))).toMatch(/^ \*\/\n\/\/ @ts-nocheck\n/m);
    const marked = compile(schema);
    const everyDeclarationChecked = compile(schema.replace(/^\/\/ @ts-nocheck\n/m, ""));
    // No errors either way, so APP's @ts-expect-error lines still fail to compile: its types did not become `any`.
    expect(marked.errors).toEqual([]);
    expect(everyDeclarationChecked.errors).toEqual([]);
    // Checked, every declaration of schema.ts makes its types, used or not (on GitHub's description that was a
    // quarter of tsc's time over the whole output); marked, only the ones APP reaches.
    expect(marked.types).toBeLessThan(everyDeclarationChecked.types / 2);
  }, 60_000);
});
