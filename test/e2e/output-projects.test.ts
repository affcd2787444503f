/**
 * The runtime ships as JavaScript plus declarations (`runtime/<kind>/<module>.js` and `.d.ts`, compiled from
 * templates/ by the build). Downstream projects compile and run it under their own settings: the committed v1 output
 * (generated/, every output kind) is copied into a new project with a program that uses the client, the router and
 * the webhook tools, and compiled under each common tsconfig; the runtime's JavaScript runs in plain Node.
 */
import { execFile } from "node:child_process";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, cleanupTempDirs, tempDir } from "../helpers.js";

afterAll(cleanupTempDirs);

const GENERATED = join(ROOT, "generated");

/** Uses the typed surface; each `@ts-expect-error` fails the compile if the types it needs were lost (`any`). */
const APP = `import { createClient, createRouter, ApiError, type Client, type WebhookEvent } from "./generated/index.js";

const client: Client = createClient({ apiKey: "k", baseUrl: "http://127.0.0.1:1" });
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
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noPropertyAccessFromIndexSignature: true,
    noImplicitOverride: true,
    skipLibCheck: false,
  },
  "allowJs + checkJs over the whole folder": { ...BASE, module: "NodeNext", moduleResolution: "NodeNext", allowJs: true, checkJs: true, skipLibCheck: true },
};

function tsc(project: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", project, "--pretty", "false"], { cwd: project, maxBuffer: 16 << 20 }, (_error, stdout, stderr) =>
      resolve(stdout + stderr),
    );
  });
}

function runtimeFiles(): string[] {
  return ["client", "server", "webhooks"].flatMap((kind) => readdirSync(join(GENERATED, "runtime", kind)).map((name) => `runtime/${kind}/${name}`));
}

describe("the runtime as .js + .d.ts in downstream projects", () => {
  it("is JavaScript and declarations only: each module a .js with a .d.ts beside it, named for Deno", () => {
    const files = runtimeFiles();
    expect(files.filter((file) => !/\.(js|d\.ts)$/.test(file))).toEqual([]);
    for (const file of files.filter((f) => f.endsWith(".js"))) {
      const declarations = file.replace(/\.js$/, ".d.ts");
      expect(files, file).toContain(declarations);
      const text = readFileSync(join(GENERATED, file), "utf8");
      // `// @ts-nocheck` for allowJs/checkJs projects, `@ts-self-types` for Deno, both in the leading comments.
      expect(text.slice(0, text.search(/^(import|export)\b/m)), file).toMatch(/^\/\/ @ts-nocheck\n[\s\S]*^\/\/ @ts-self-types="\.\/[a-z-]+\.d\.ts"$/m);
      expect(text.match(/@ts-self-types="\.\/([a-z-]+\.d\.ts)"/)![1]).toBe(declarations.split("/").pop());
    }
  });

  it("client, server and webhooks are JavaScript named for Deno, with their declarations beside, and load in plain Node", async () => {
    for (const kind of ["client", "server", "webhooks"]) {
      const text = readFileSync(join(GENERATED, `${kind}.js`), "utf8");
      expect(text.slice(0, text.search(/^(import|export)\b/m)), kind).toMatch(new RegExp(`^// @ts-nocheck\\n[\\s\\S]*^// @ts-self-types="\\./${kind}\\.d\\.ts"$`, "m"));
      expect(readFileSync(join(GENERATED, `${kind}.d.ts`), "utf8"), kind).toMatch(/^\/\/ @ts-nocheck$/m);
    }
    const client = (await import(pathToFileURL(join(GENERATED, "client.js")).href)) as Record<string, unknown>;
    expect(client["createClient"]).toBeTypeOf("function");
    const server = (await import(pathToFileURL(join(GENERATED, "server.js")).href)) as Record<string, unknown>;
    expect(server["createRouter"]).toBeTypeOf("function");
    const webhooks = (await import(pathToFileURL(join(GENERATED, "webhooks.js")).href)) as Record<string, unknown>;
    expect(webhooks["parseWebhook"]).toBeTypeOf("function");
  });

  it("keeps the templates' comments in the JavaScript", () => {
    const retry = readFileSync(join(GENERATED, "runtime", "client", "retry.js"), "utf8");
    expect(retry).toContain("/** Statuses worth retrying: timeout, conflict (lock contention), rate limit and server errors. */\nexport function isRetryableStatus(status) {");
    expect(retry).not.toMatch(/:\s*(number|string|boolean)\b[),]/); // types erased
  });

  it.each(Object.keys(CONFIGS))("compiles with a program using it under %s", async (name) => {
    const project = tempDir("specforge-output-project-");
    cpSync(GENERATED, join(project, "generated"), { recursive: true });
    writeFileSync(join(project, "app.ts"), APP);
    const allowJs = CONFIGS[name]!["allowJs"] === true;
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: CONFIGS[name], include: allowJs ? ["**/*"] : ["app.ts", "generated/**/*.ts"] }));
    expect(await tsc(project)).toBe("");
    // The check is real: without the expectations the wrong calls are errors.
    writeFileSync(join(project, "app.ts"), APP.replaceAll("// @ts-expect-error", "//"));
    expect(await tsc(project)).toMatch(/app\.ts\(15,.*error TS2322[\s\S]*app\.ts\(18,.*error TS2339[\s\S]*app\.ts\(20,.*error TS\d+[\s\S]*app\.ts\(22,.*error TS2322/);
  }, 120_000);

  it("runs in plain Node, without TypeScript: every runtime module loads", async () => {
    for (const file of runtimeFiles().filter((f) => f.endsWith(".js"))) {
      const module = (await import(pathToFileURL(join(GENERATED, file)).href)) as Record<string, unknown>;
      expect(module, file).toBeTypeOf("object");
    }
    const client = (await import(pathToFileURL(join(GENERATED, "runtime", "client", "runtime.js")).href)) as Record<string, unknown>;
    expect(client["createRuntime"]).toBeTypeOf("function");
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
