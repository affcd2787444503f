import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe } from "vitest";
import { ROOT, cleanupTempDirs, closedPort, tempDir, writeFiles } from "../../helpers.js";
import { describeConformance, type Generated } from "./conformance.js";

/**
 * The conformance suite against a real Next.js server (`next dev --webpack`) serving
 * `app/api/[...path]/route.ts = toNextHandlers(router)`. Opt-in (SPECFORGE_NEXT_SERVER=1): it costs about 20 s of
 * CPU and 30–100 s on this machine (start, then the first compile of the route), too much for every run;
 * test/e2e/adapters/next.test.ts drives the same handlers with Next.js's NextRequest on every run.
 * (Turbopack, `next dev`'s default, refuses a node_modules outside the app's folder, which the test's app uses.)
 */

const enabled = process.env.SPECFORGE_NEXT_SERVER === "1";
afterAll(cleanupTempDirs);

async function startNext(gen: Generated): Promise<{ origin: string; close(): Promise<void> }> {
  void gen; // the app imports its own copy of the output
  const app = tempDir("specforge-next-app-");
  cpSync(join(ROOT, "test", "e2e", "adapters", ".out", "next-server"), join(app, "gen"), { recursive: true });
  mkdirSync(join(app, "lib"));
  copyFileSync(join(ROOT, "test", "e2e", "adapters", "handlers.ts"), join(app, "lib", "handlers.ts"));
  symlinkSync(join(ROOT, "node_modules"), join(app, "node_modules"), "dir");
  writeFiles(app, {
    "package.json": JSON.stringify({ name: "next-app", private: true }),
    "app/layout.tsx": "export default function RootLayout({ children }: { children: React.ReactNode }) {\n  return (\n    <html>\n      <body>{children}</body>\n    </html>\n  );\n}\n",
    "app/api/[...path]/route.ts": [
      'import { createRouter, toNextHandlers } from "../../../gen/index";',
      'import { handlers, routerOptions } from "../../../lib/handlers";',
      "",
      "const observed = { aborted: [] as string[], errors: [] as unknown[] };",
      "(globalThis as Record<string, unknown>).__observed = observed;",
      'const router = createRouter(handlers(observed) as never, routerOptions(observed, "/v1") as never);',
      "",
      "export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = toNextHandlers(router);",
      "",
    ].join("\n"),
    "app/api/app-route/route.ts": 'export const GET = () => Response.json({ from: "app" });\n',
    // What the handlers observed, from the same server process.
    "app/observed/route.ts": 'export const GET = () => Response.json((globalThis as Record<string, unknown>).__observed, { headers: { "cache-control": "no-store" } });\n',
  });
  const port = await closedPort();
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, "node_modules", "next", "dist", "bin", "next"), "dev", "--webpack", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: app,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "ignore",
  });
  const origin = `http://127.0.0.1:${port}`;
  // Ready once the route file is compiled (the first request compiles it).
  const deadline = Date.now() + 150_000;
  for (;;) {
    const ok = await fetch(`${origin}/api/v1/health`).then((response) => response.status === 200, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error("next dev did not serve the route in time");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

describe.skipIf(!enabled)("a real Next.js server (SPECFORGE_NEXT_SERVER=1)", () => {
  describeConformance("next server", {
    mount: "/api",
    start: startNext,
    ownHeaders: ["content-length"],
    observe: async (origin) => {
      const seen = (await (await fetch(`${origin}/observed`)).json()) as { aborted: string[]; errors: unknown[] };
      return { aborted: seen.aborted, errors: seen.errors.map(String) };
    },
    fallthrough: [
      { path: "/api/app-route", status: 200, body: { from: "app" } },
      { path: "/v1/health", status: 404 },
    ],
  });
});
