import { execFile } from "node:child_process";
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, STRICT_NODE_COMPILER_OPTIONS, tempDir, writeFiles } from "../../helpers.js";
import { generateAdapters } from "./conformance.js";

/**
 * The adapters against the frameworks' own types: a project that mounts each (Express 5, Fastify 5, Hono) compiles
 * under strict flags with TypeScript 5.9 and 7, and a Next.js App Router route file compiles under the tsconfig
 * create-next-app writes, with the route types `next typegen` generates (which check a route file's exports).
 */

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, ".out");

function run(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: stdout + stderr });
    });
  });
}

const TSC = { "TypeScript 5.9": join(ROOT, "node_modules", "typescript", "bin", "tsc"), "TypeScript 7": join(ROOT, "node_modules", "typescript7", "bin", "tsc") };

/** What a user's code does with each adapter. */
const APP = `import { createServer } from "node:http";
import express from "express";
import Fastify from "fastify";
import { Hono } from "hono";
import { createRouter, toExpress, toFastify, toHono, toNextHandlers, type ExpressMiddleware, type FastifyPlugin, type HonoMiddleware, type NextHandlers } from "./gen/index.js";

const router = createRouter({ health: () => ({ status: 200, body: { status: "ok" } }) }, { basePath: "/v1" });

const app = express();
app.use(express.json());
app.use(toExpress(router));
app.use("/api", toExpress(router));
app.get("/", (_req, res) => void res.send("home"));
createServer(app);

const fastify = Fastify();
await fastify.register(toFastify(router));
await fastify.register(toFastify(router), { prefix: "/api" });

const hono = new Hono();
hono.use(toHono(router));
hono.use("/api/*", toHono(router, { prefix: "/api" }));
hono.all("/x/*", toHono(router, { prefix: "/x" }));

export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = toNextHandlers(router);

// Mistakes the types catch (else these checks would check nothing):
// @ts-expect-error a Hono middleware is no Express middleware
app.use(toHono(router));
// @ts-expect-error an Express middleware is no Fastify plugin
await fastify.register(toExpress(router));
// @ts-expect-error a prefix is a path
hono.use(toHono(router, { prefix: 5 }));
// @ts-expect-error an adapter takes the router createRouter returns
toExpress({ fetch: async () => new Response() });

export const adapters: [ExpressMiddleware, FastifyPlugin, HonoMiddleware, NextHandlers] = [toExpress(router), toFastify(router), toHono(router), toNextHandlers(router, { prefix: "/api" })];
`;

const STRICTEST = ["--exactOptionalPropertyTypes", "--noUncheckedIndexedAccess", "--noUnusedLocals", "--noUnusedParameters", "--noImplicitReturns", "--noImplicitOverride", "--noPropertyAccessFromIndexSignature"];

describe("adapter types", () => {
  let project = "";

  beforeAll(async () => {
    await generateAdapters("types");
    project = join(OUT, "types-project");
    rmSync(project, { recursive: true, force: true });
    mkdirSync(project, { recursive: true });
    cpSync(join(OUT, "types"), join(project, "gen"), { recursive: true });
    writeFiles(project, {
      "app.ts": APP,
      "tsconfig.json": JSON.stringify({ compilerOptions: STRICT_NODE_COMPILER_OPTIONS, include: ["*.ts", "gen/**/*.ts"] }),
    });
  }, 120_000);

  for (const [name, tsc] of Object.entries(TSC)) {
    it(`a project mounting each adapter compiles with ${name} under strict flags (NodeNext, ESM)`, async () => {
      const result = await run([tsc, "-p", project, ...STRICTEST], project);
      expect(result.output).toBe("");
      expect(result.code).toBe(0);
    });
  }

  it("a Next.js route file compiles under create-next-app's tsconfig, checked by the route types next typegen writes", async () => {
    const app = tempDir("specforge-next-types-");
    cpSync(join(OUT, "types"), join(app, "gen"), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(app, "node_modules"), "dir");
    writeFiles(app, {
      "package.json": JSON.stringify({ name: "next-app", private: true }),
      // What create-next-app 16 writes.
      "tsconfig.json": JSON.stringify({
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
          paths: { "@/*": ["./*"] },
        },
        include: ["next-env.d.ts", "**/*.ts", "**/*.tsx", ".next/types/**/*.ts", ".next/dev/types/**/*.ts"],
        exclude: ["node_modules"],
      }),
      "app/layout.tsx": "export default function RootLayout({ children }: { children: React.ReactNode }) {\n  return (\n    <html>\n      <body>{children}</body>\n    </html>\n  );\n}\n",
      "app/api/[...path]/route.ts": `import { createRouter, toNextHandlers } from "@/gen";\n\nconst router = createRouter({ health: () => ({ status: 200, body: { status: "ok" } }) }, { basePath: "/v1" });\n\nexport const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = toNextHandlers(router);\n`,
      "app/rest/[[...slug]]/route.ts": `import { createRouter, toNextHandlers } from "@/gen";\n\nexport const { GET, POST } = toNextHandlers(createRouter({}), { prefix: "/rest" });\n`,
      // A route file whose export is wrong: the route types must report it (else they checked nothing).
      "app/broken/[...path]/route.ts": `export const GET = (request: Request, context: { params: Promise<{ other: number }> }) => new Response(String(request.url) + context);\n`,
    });
    const typegen = await run([join(ROOT, "node_modules", "next", "dist", "bin", "next"), "typegen"], app);
    expect(typegen.code, typegen.output).toBe(0);
    const result = await run([TSC["TypeScript 5.9"], "-p", app], app);
    const errors = result.output.split("\n").filter((line) => /error TS/.test(line));
    expect(errors.length, result.output).toBeGreaterThan(0);
    expect(errors.every((line) => line.includes("app/broken/")), result.output).toBe(true);
  });
});
