import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync, cpSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../src/cli.js";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const V1_SPEC = join(ROOT, "spec", "training-api.v1.yaml");
export const FIXTURES = join(ROOT, "test", "fixtures");

const created: string[] = [];

/** A fresh temporary folder, removed by `cleanupTempDirs`. */
export function tempDir(prefix = "specforge-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

export function cleanupTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes files (path → content) below `dir`. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** Copies the v1 spec into a temporary project `{dir}/spec/training-api.v1.yaml`. */
export function projectWithV1Spec(): string {
  const dir = tempDir();
  mkdirSync(join(dir, "spec"));
  cpSync(V1_SPEC, join(dir, "spec", "training-api.v1.yaml"));
  return dir;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process, as `specforge ...args` in `cwd`. */
export async function runCli(args: string[], cwd: string): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    cwd,
    stdout: (text) => (stdout += text + "\n"),
    stderr: (text) => (stderr += text + "\n"),
  });
  return { code, stdout, stderr };
}

/**
 * The environment of a new user's shell: none of the npm_* variables `npm test` sets (npm_config_local_prefix
 * would make an inner npm treat this repository as the project), no colour settings.
 */
export const USER_ENV: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && !["INIT_CWD", "NO_COLOR", "FORCE_COLOR"].includes(key)),
);

/** Runs a command in `cwd` as a user's shell would (USER_ENV, plus `env`); never throws: the exit code is in the result. */
export function runAsUser(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}, timeout = 300_000): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: { ...USER_ENV, ...env }, timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Runs the built bin as a real process. */
export function runBin(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, "bin", "specforge.js"), ...args], { cwd, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** What runMeasured reports: the exit code, the output, the peak resident set and the wall time. */
export interface MeasuredRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr (a `check` that finds drift reports it on stderr). */
  output: string;
  /** The process's peak resident set size, in bytes. */
  maxRss: number;
  milliseconds: number;
}

/** Runs the built bin as a real process, killed after `timeoutMs`, with its peak RSS (reported by a preload at exit). */
export function runMeasured(args: string[], cwd: string, timeoutMs = 30_000): Promise<MeasuredRun> {
  const report = "process.on('exit',()=>process.stderr.write('\\nmaxrss='+process.resourceUsage().maxRSS))";
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", `data:text/javascript,${encodeURIComponent(report)}`, join(ROOT, "bin", "specforge.js"), ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      const rss = /\nmaxrss=(\d+)$/.exec(stderr);
      stderr = stderr.replace(/\nmaxrss=\d+$/, "");
      resolve({ code, stdout, stderr, output: stdout + stderr, maxRss: rss ? Number(rss[1]) * 1024 : Infinity, milliseconds: performance.now() - started });
    });
  });
}

export interface FileState {
  content: string;
  mtimeMs: number;
  ino: number;
}

/** Every file below `dir` with its bytes, mtime and inode: enough to prove nothing was touched. */
export function snapshotTree(dir: string): Map<string, FileState> {
  const result = new Map<string, FileState>();
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else {
        const stat = statSync(join(dir, path));
        result.set(path, { content: readFileSync(join(dir, path), "utf8"), mtimeMs: stat.mtimeMs, ino: stat.ino });
      }
    }
  };
  walk("");
  return result;
}

/** A strict Node project's compiler options; Node's types come from this repository. */
export const STRICT_NODE_COMPILER_OPTIONS = {
  target: "ES2022",
  lib: ["ES2023", "DOM", "DOM.Iterable"],
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  typeRoots: [join(ROOT, "node_modules", "@types")],
  types: ["node"],
};

/** The generated modules shipped as `.js` + `.d.ts` (the `js` form) whose declarations come from the spec (not the runtime's). */
const SPEC_DECLARATIONS = new Set(["client.d.ts", "server.d.ts", "webhooks.d.ts"]);
/** Generated TypeScript that is code without types (checked by the router's own tests, not by tsc). */
const UNTYPED_CODE = new Set(["server-validators.ts"]);

/**
 * Type-checks every .ts file below `dir` with `tsc --strict --noEmit`; returns tsc's output and exit code.
 *
 * The generated files are marked `// @ts-nocheck` (users' compilers need not check them) and `skipLibCheck` skips
 * declaration files: so that their types are checked all the same (an indexed access into schema.ts that does not
 * exist would otherwise be `any`), each of schema.ts, client.ts, server.ts, webhooks.ts and index.ts (or client.d.ts,
 * server.d.ts and webhooks.d.ts) is also checked as a `.ts` copy without the directive, removed afterwards. The
 * runtime is type-checked in specforge's own templates/.
 */
export async function typecheck(dir: string, extraOptions: string[] = []): Promise<{ code: number; output: string }> {
  const copies: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory() && entry.name !== "node_modules" && entry.name !== "runtime") walk(path);
      else if (entry.isFile() && SPEC_DECLARATIONS.has(entry.name) && existsSync(path.replace(/\.d\.ts$/, ".js"))) {
        const copy = path.replace(/\.d\.ts$/, ".declarations-checked.ts");
        writeFileSync(copy, readFileSync(path, "utf8").replace(/^\/\/ @ts-nocheck\n/m, ""));
        copies.push(copy);
      } else if (entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") && !UNTYPED_CODE.has(entry.name) && !entry.name.includes(".checked.")) {
        const text = readFileSync(path, "utf8");
        if (!/^\/\/ @ts-nocheck\n/m.test(text)) continue;
        const copy = path.replace(/\.ts$/, ".checked.ts");
        writeFileSync(copy, text.replace(/^\/\/ @ts-nocheck\n/m, ""));
        copies.push(copy);
      }
    }
  };
  walk(dir);
  try {
    return await runTsc(dir, extraOptions);
  } finally {
    for (const copy of copies) rmSync(copy, { force: true });
  }
}

function runTsc(dir: string, extraOptions: string[]): Promise<{ code: number; output: string }> {
  const tsconfig = { compilerOptions: STRICT_NODE_COMPILER_OPTIONS, include: [join(dir, "**", "*.ts")] };
  const configDir = tempDir("specforge-tsc-");
  writeFileSync(join(configDir, "tsconfig.json"), JSON.stringify(tsconfig));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(configDir, "tsconfig.json"), ...extraOptions],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: stdout + stderr });
      },
    );
  });
}

/** External `$ref`s left in the parts specforge reads (extensions such as x-codeSamples and tag texts are data). */
export function externalRefs(node: unknown, path = "#"): string[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => externalRefs(item, `${path}/${i}`));
  if (!node || typeof node !== "object") return [];
  return Object.entries(node).flatMap(([key, value]) => {
    if (key.startsWith("x-") || (path === "#" && key === "tags")) return [];
    if (key === "$ref" && typeof value === "string" && !value.startsWith("#")) return [`${path}: ${value}`];
    return externalRefs(value, `${path}/${key}`);
  });
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago): a connection to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
