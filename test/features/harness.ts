import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { FIXTURES, ROOT, runCli, typecheck } from "../helpers.js";

/**
 * Per-feature fixtures (test/fixtures/features): each spec is generated with every output into
 * test/features/.out/<group>/<name>/ (inside the project so vitest can import the generated TypeScript), next to
 * its type assertions (`<name>.types.ts`, which import `./<name>/index.js`), and the group is type-checked with
 * `tsc --strict` in one run. The assertion files are excluded from the repository's own tsc run (tsconfig.json):
 * they need the generated code.
 */
export const FEATURES = join(FIXTURES, "features");
const OUT = join(ROOT, "test", "features", ".out");

export interface Feature {
  /** Folder name of the output, and of the assertion file `<name>.types.ts` when there is one. */
  name: string;
  /** The spec, relative to test/fixtures/features (or absolute). */
  spec: string;
  /** The config's `webhooks` field for this output (a config file beside it), when the defaults do not fit. */
  webhooks?: object;
}

export interface BuiltGroup {
  dir: string;
  /** The output folder of one feature. */
  out(name: string): string;
  /** stderr of each feature's `specforge generate` (warnings). */
  stderr: Record<string, string>;
  tsc: { code: number; output: string };
}

export async function buildGroup(group: string, features: Feature[]): Promise<BuiltGroup> {
  const dir = join(OUT, group);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const stderr: Record<string, string> = {};
  for (const feature of features) {
    const config = join(dir, `${feature.name}.config.json`);
    if (feature.webhooks) writeFileSync(config, JSON.stringify({ webhooks: feature.webhooks }));
    const result = await runCli(["generate", "--spec", resolve(FEATURES, feature.spec), "--out", join(dir, feature.name), ...(feature.webhooks ? ["--config", config] : [])], ROOT);
    if (result.code !== 0) throw new Error(`generate ${feature.spec} failed (${result.code}):\n${result.stderr}`);
    stderr[feature.name] = result.stderr;
    const assertions = join(FEATURES, `${feature.name}.types.ts`);
    if (existsSync(assertions)) copyFileSync(assertions, join(dir, `${feature.name}.types.ts`));
  }
  const tsc = await typecheck(dir);
  return { dir, out: (name) => join(dir, name), stderr, tsc };
}

/** Imports a generated module (`index.ts` of one feature's output), untyped: the types are checked by tsc above. */
export async function importGenerated<T = Record<string, any>>(group: BuiltGroup, name: string): Promise<T> {
  return (await import(join(group.out(name), "index.ts"))) as T;
}

/** `router.fetch` with a JSON body. */
export function jsonRequest(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Request {
  return new Request(url, {
    method,
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
