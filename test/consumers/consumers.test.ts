/**
 * The output in the projects users make, the consumer matrix: each project is made with the tools people use
 * (`npm init -y`, `tsc --init`, the tsconfig Next.js writes, a Workers module), installs specforge from its packed
 * tarball (test/consumers/install.ts: offline, from npm's cache), runs `specforge init` and `npm run api:generate`
 * on a spec with a server path, bearer auth, a path parameter, a query parameter and a JSON body
 * (fixture/openapi.yaml), and builds a program that serves the generated router on 127.0.0.1 and calls it through
 * the generated client. No generated file is edited, and no tsconfig option is added beyond the ones the tools'
 * own templates say to set (`rootDir`, `outDir` and Node's types in `tsc --init`'s).
 *
 *   npm run test:consumers     (not part of `npm test`: it installs packages and runs a dozen compilers)
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createHmac } from "node:crypto";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, closedPort, tempDir } from "../helpers.js";
import { installStore, newProject, ok, run, type Store } from "./install.js";

const SPEC = join(import.meta.dirname, "fixture", "openapi.yaml");

afterAll(cleanupTempDirs);

/** The program each Node project runs: the router with two handlers on 127.0.0.1, both called through the client. */
function mainProgram(imports: "esm" | "require"): string {
  const header =
    imports === "esm"
      ? `import { createServer } from "node:http";
import { createClient, createRouter, toNodeListener, type components } from "./generated/index.js";
`
      : // A CommonJS file under tsc --init's verbatimModuleSyntax writes its imports as CommonJS does.
        `import http = require("node:http");
import api = require("./generated/index.js");
import type { components } from "./generated/index.js";
const { createServer } = http;
const { createClient, createRouter, toNodeListener } = api;
`;
  return `${header}
type Note = components["schemas"]["Note"];
const notes = new Map<string, Note>();

const router = createRouter(
  {
    createNote: ({ body }) => {
      const note: Note = { id: \`n\${notes.size + 1}\`, title: body.title, body: body.body };
      notes.set(note.id, note);
      return { status: 201, body: note };
    },
    getNote: ({ path, query }) => {
      const note = notes.get(path.noteId);
      if (!note) return { status: 404, body: { message: \`no note \${path.noteId}\` } };
      return { status: 200, body: query.fields === "title" ? { id: note.id, title: note.title } : note };
    },
  },
  { authenticate: (credentials) => (credentials.bearerAuth.token === "secret-token" ? { user: "me" } : null) },
);

// The URL of the API, with the spec's server path (/v1): what a deployment sets.
const client = createClient({ baseUrl: process.env["NOTES_API_URL"], bearerAuth: process.env["NOTES_TOKEN"] });

/** Never called: each line must fail to compile (an unused \`@ts-expect-error\` is an error), so the types are real. */
function typeErrors(): void {
  // @ts-expect-error: the path parameter is a string
  void client.getNote({ path: { noteId: 1 } });
  // @ts-expect-error: a note needs a body
  void client.createNote({ body: { title: "t" } });
}
void typeErrors;

const server = createServer(toNodeListener(router));
server.listen(Number(process.env["PORT"]), "127.0.0.1", () => {
  void (async () => {
    try {
      const created = await client.createNote({ body: { title: "Hello", body: "first" } });
      const fetched = await client.getNote({ path: { noteId: created.id }, query: { fields: "title" } });
      const missing = await client.getNote({ path: { noteId: "nope" } }).catch((error: unknown) => (client.getNote.isError(error) ? error.body : error));
      const outside = await fetch(\`http://127.0.0.1:\${process.env["PORT"]}/notes/\${created.id}\`);
      console.log(JSON.stringify({ created, fetched, missing, outside: { status: outside.status, body: await outside.text() } }));
    } finally {
      server.close();
    }
  })();
});
`;
}

/** What the program prints when client and router agree (the router answers under the spec's path, /v1). */
const EXPECTED = {
  created: { id: "n1", title: "Hello", body: "first" },
  fetched: { id: "n1", title: "Hello" },
  missing: { message: "no note nope" },
  outside: { status: 404, body: expect.stringContaining("expected paths under /v1") },
};

/** Runs a built program with the port and the API's URL it reads, and returns what it printed. */
async function runProgram(cwd: string, command: string, args: string[]): Promise<unknown> {
  const port = await closedPort();
  const result = await ok(command, args, cwd, { PORT: String(port), NOTES_API_URL: `http://127.0.0.1:${port}/v1`, NOTES_TOKEN: "secret-token" });
  return JSON.parse(result.stdout.trim().split("\n").at(-1)!);
}

const TSC = ["node_modules/typescript/bin/tsc"];
const TSC7 = ["node_modules/typescript7/bin/tsc"];

/** `tsc` of the project (TypeScript 5.9, or 7), with its output on failure. */
async function compile(dir: string, compiler: string[], args: string[] = []): Promise<string> {
  const result = await run(process.execPath, [...compiler, ...args], dir);
  return (result.stdout + result.stderr).trim();
}

/**
 * `tsc --init` as TypeScript 5.9 writes it, with the three lines its own comments say to set for a Node program that
 * keeps its code in src/: `rootDir`, `outDir`, and Node's types.
 */
async function tscInit(dir: string): Promise<void> {
  await ok(process.execPath, [...TSC, "--init"], dir);
  const path = join(dir, "tsconfig.json");
  const text = readFileSync(path, "utf8");
  const edited = text.replace('// "rootDir": "./src",', '"rootDir": "./src",').replace('// "outDir": "./dist",', '"outDir": "./dist",').replace('"types": [],', '"types": ["node"],');
  expect(edited.match(/^ {4}"(rootDir|outDir|types)"/gm), "tsc --init's template changed").toHaveLength(3);
  writeFileSync(path, edited);
}

/** specforge init + generate as the README's quick start has them: the spec in the project, `npm run api:generate`. */
async function generate(dir: string): Promise<string> {
  copyFileSync(SPEC, join(dir, "openapi.yaml"));
  const init = await ok("npx", ["specforge", "init", "--spec", "openapi.yaml"], dir);
  expect(init.stdout).toContain("out: src/generated");
  const generated = await ok("npm", ["run", "api:generate"], dir);
  expect(generated.stderr).toBe("");
  return join(dir, "src", "generated");
}

let store: Store;
const projects: Record<"cjs" | "esm", string> = { cjs: "", esm: "" };

beforeAll(async () => {
  store = await installStore(tempDir("specforge-consumers-"));
  for (const [name, type] of [["cjs", undefined], ["esm", "module"]] as const) {
    const dir = await newProject(store, name, type);
    await tscInit(dir);
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src", "main.ts"), mainProgram(name === "cjs" ? "require" : "esm"));
    await generate(dir);
    projects[name] = dir;
  }
}, 900_000);

describe("consumer projects", () => {
  it("1. a CommonJS package (npm init -y), module nodenext: tsc → outDir → node dist/main.js", async () => {
    const dir = projects.cjs;
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).type).toBe("commonjs");
    expect(await compile(dir, TSC)).toBe("");
    expect(readFileSync(join(dir, "dist", "generated", "client.js"), "utf8")).toMatch(/\brequire\("\.\/runtime\/client\/runtime\.js"\)/);
    expect(await runProgram(dir, process.execPath, ["dist/main.js"])).toEqual(EXPECTED);
    // `import` statements compile to require() as well, where the project turns verbatimModuleSyntax off.
    writeFileSync(join(dir, "src", "imports.ts"), mainProgram("esm"));
    writeFileSync(join(dir, "tsconfig.imports.json"), JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { verbatimModuleSyntax: false, outDir: "./dist-imports" } }));
    expect(await compile(dir, TSC, ["-p", "tsconfig.imports.json"])).toBe("");
    expect(await runProgram(dir, process.execPath, ["dist-imports/imports.js"])).toEqual(EXPECTED);
    rmSync(join(dir, "src", "imports.ts"));
  });

  it("2. an ES module package: tsc → outDir → node dist/main.js", async () => {
    const dir = projects.esm;
    expect(await compile(dir, TSC)).toBe("");
    expect(readFileSync(join(dir, "dist", "generated", "client.js"), "utf8")).toMatch(/\bfrom "\.\/runtime\/client\/runtime\.js"/);
    expect(await runProgram(dir, process.execPath, ["dist/main.js"])).toEqual(EXPECTED);
  });

  it("3. TypeScript 7: tsc --noEmit on both", async () => {
    expect((await ok(process.execPath, [...TSC7, "--version"], projects.esm)).stdout).toMatch(/^Version 7\./);
    for (const dir of [projects.cjs, projects.esm]) expect(await compile(dir, TSC7, ["--noEmit"]), dir).toBe("");
  });

  it("4. the strict flags on: 0 errors (TypeScript 5.9 and 7)", async () => {
    const dir = projects.esm;
    // tsc --init has strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, verbatimModuleSyntax and
    // isolatedModules on already.
    const strict = { noPropertyAccessFromIndexSignature: true, noImplicitOverride: true, erasableSyntaxOnly: true, noImplicitReturns: true, noFallthroughCasesInSwitch: true, noEmit: true };
    writeFileSync(join(dir, "tsconfig.strict.json"), JSON.stringify({ extends: "./tsconfig.json", compilerOptions: strict }));
    const config = JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8").replace(/^\s*\/\/.*$/gm, "").replace(/,(\s*})/g, "$1")) as { compilerOptions: Record<string, unknown> };
    for (const flag of ["strict", "exactOptionalPropertyTypes", "noUncheckedIndexedAccess", "verbatimModuleSyntax", "isolatedModules"]) expect(config.compilerOptions[flag], flag).toBe(true);
    for (const compiler of [TSC, TSC7]) expect(await compile(dir, compiler, ["-p", "tsconfig.strict.json"])).toBe("");
  });

  it("5. tsx src/main.ts; an esbuild bundle run with node; Vite's library build run with node", async () => {
    const dir = projects.esm;
    expect(await runProgram(dir, "npx", ["tsx", "src/main.ts"])).toEqual(EXPECTED);
    expect(await runProgram(projects.cjs, "npx", ["tsx", "src/main.ts"])).toEqual(EXPECTED);
    await ok("npx", ["esbuild", "src/main.ts", "--bundle", "--platform=node", "--format=esm", "--outfile=build/main.mjs"], dir);
    expect(await runProgram(dir, process.execPath, ["build/main.mjs"])).toEqual(EXPECTED);
    writeFileSync(
      join(dir, "vite.config.mjs"),
      `import { defineConfig } from "vite";

export default defineConfig({
  build: {
    lib: { entry: "src/main.ts", formats: ["es"], fileName: "main" },
    outDir: "dist-vite",
    target: "node20",
    rollupOptions: { external: [/^node:/] },
  },
});
`,
    );
    await ok("npx", ["vite", "build"], dir);
    expect(await runProgram(dir, process.execPath, ["dist-vite/main.js"])).toEqual(EXPECTED);
  });

  it("6. Next.js App Router: a route.ts exporting GET and POST from the router type-checks under Next's tsconfig", async () => {
    const dir = await newProject(store, "next-app");
    // What Next.js writes (create-next-app; next's own defaults for the rest): bundler resolution, allowJs, noEmit.
    const tsconfig = {
      compilerOptions: {
        target: "ES2017",
        lib: ["dom", "dom.iterable", "esnext"],
        allowJs: true,
        skipLibCheck: true,
        strict: true,
        noEmit: true,
        esModuleInterop: true,
        module: "esnext",
        moduleResolution: "bundler",
        resolveJsonModule: true,
        isolatedModules: true,
        jsx: "react-jsx",
        incremental: true,
        plugins: [{ name: "next" }],
        paths: { "@/*": ["./src/*"] },
      },
      include: ["**/*.ts", "**/*.tsx", "**/*.mts"],
      exclude: ["node_modules"],
    };
    writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
    const route = join(dir, "src", "app", "v1", "[...path]");
    mkdirSync(route, { recursive: true });
    // The route's folder is the spec's server path, so the router's default base path is the URL's.
    writeFileSync(
      join(route, "route.ts"),
      `import { createRouter } from "@/generated";

const router = createRouter(
  {
    getNote: ({ path }) => ({ status: 200, body: { id: path.noteId, title: "t", body: "b" } }),
    createNote: ({ body }) => ({ status: 201, body: { id: "n1", ...body } }),
  },
  { authenticate: (credentials) => (credentials.bearerAuth.token === "secret-token" ? {} : null) },
);

export async function GET(request: Request): Promise<Response> {
  return router.fetch(request);
}

export async function POST(request: Request): Promise<Response> {
  return router.fetch(request);
}
`,
    );
    await generate(dir);
    for (const compiler of [TSC, TSC7]) expect(await compile(dir, compiler)).toBe("");
  });

  it("7. a Workers-style module (export default { fetch }) with the webhook receiver and the client: lib es2022 + webworker, no @types/node", async () => {
    const dir = await newProject(store, "worker", "module");
    // No Node types in this project at all (the runtime's node:http adapters are types it never resolves).
    rmSync(join(dir, "node_modules", "@types", "node"), { recursive: true });
    rmSync(join(dir, "node_modules", "undici-types"), { recursive: true });
    const tsconfig = {
      compilerOptions: { target: "es2022", lib: ["es2022", "webworker"], module: "es2022", moduleResolution: "bundler", types: [], strict: true, noEmit: true, isolatedModules: true, skipLibCheck: true },
      include: ["src"],
    };
    writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
    mkdirSync(join(dir, "src"));
    writeFileSync(
      join(dir, "src", "index.ts"),
      `import { createClient, createWebhookHandler } from "./generated/index.js";

interface Env {
  NOTES_API_URL: string;
  NOTES_TOKEN: string;
  WEBHOOK_SECRET: string;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/webhooks") {
      const seen: string[] = [];
      const receive = createWebhookHandler({ secret: env.WEBHOOK_SECRET, on: { "note.created": (event) => void seen.push(event.payload.data.title) } });
      const response = await receive(request);
      return new Response(JSON.stringify({ status: response.status, seen }), { headers: { "content-type": "application/json" } });
    }
    const client = createClient({ baseUrl: env.NOTES_API_URL, bearerAuth: env.NOTES_TOKEN });
    const note = await client.getNote({ path: { noteId: url.searchParams.get("id") ?? "n1" }, query: { fields: "all" } });
    return new Response(JSON.stringify(note), { headers: { "content-type": "application/json" } });
  },
};
`,
    );
    await generate(dir);
    for (const compiler of [TSC, TSC7]) expect(await compile(dir, compiler)).toBe("");

    // Bundled as Workers' tooling bundles (browser platform): nothing of Node's is imported at run time.
    await ok("npx", ["esbuild", "src/index.ts", "--bundle", "--platform=browser", "--format=esm", "--outfile=dist/worker.js"], dir);
    const bundle = readFileSync(join(dir, "dist", "worker.js"), "utf8");
    expect(bundle).not.toMatch(/\bfrom\s*["']node:|\brequire\(["']node:/);
    const worker = (await import(pathToFileURL(join(dir, "dist", "worker.js")).href)) as { default: { fetch(request: Request, env: Record<string, string>): Promise<Response> } };
    const api = createServer((req, res) => {
      const authorized = req.headers.authorization === "Bearer secret-token";
      res.writeHead(authorized ? 200 : 401, { "content-type": "application/json" });
      res.end(JSON.stringify(authorized ? { id: "n1", title: `${req.method} ${req.url}`, body: "b" } : { message: "no" }));
    });
    await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
    try {
      const env = { NOTES_API_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}/v1`, NOTES_TOKEN: "secret-token", WEBHOOK_SECRET: `whsec_${Buffer.from("webhook secret").toString("base64")}` };
      expect(await (await worker.default.fetch(new Request("https://worker.example/?id=n1"), env)).json()).toEqual({ id: "n1", title: "GET /v1/notes/n1?fields=all", body: "b" });
      // A delivery signed as Standard Webhooks signs (HMAC-SHA256 of `id.timestamp.body` with the secret's bytes).
      const body = JSON.stringify({ type: "note.created", data: { id: "n2", title: "From a webhook", body: "b" } });
      const [id, timestamp] = ["msg_1", String(Math.floor(Date.now() / 1000))];
      const signature = createHmac("sha256", Buffer.from("webhook secret")).update(`${id}.${timestamp}.${body}`).digest("base64");
      const headers = { "content-type": "application/json", "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": `v1,${signature}` };
      const delivery = await worker.default.fetch(new Request("https://worker.example/webhooks", { method: "POST", headers, body }), env);
      expect(await delivery.json()).toEqual({ status: 200, seen: ["From a webhook"] });
      const forged = await worker.default.fetch(new Request("https://worker.example/webhooks", { method: "POST", headers: { ...headers, "webhook-signature": "v1,AAAA" }, body }), env);
      expect(await forged.json()).toEqual({ status: 401, seen: [] });
    } finally {
      await new Promise((resolve) => api.close(resolve));
    }
  });
});
