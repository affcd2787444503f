import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { UserError } from "../errors.js";

/** The outputs specforge can emit. `types` (schema.ts) and `index.ts` are always emitted. */
export const OUTPUT_KINDS = ["types", "client", "server", "webhooks"] as const;
export type OutputKind = (typeof OUTPUT_KINDS)[number];

/** What a user may write in a config file or pass as flags. Every field is optional. */
export interface UserConfig {
  /** Path of the OpenAPI document, relative to the config file. @default "spec/training-api.v1.yaml" */
  spec?: string;
  /** Output folder, relative to the config file. @default "generated" */
  out?: string;
  /** Which outputs to emit. @default ["types", "client", "server", "webhooks"] */
  outputs?: OutputKind[];
  /** Format every file with prettier (the project's prettier config applies). @default true */
  format?: boolean;
}

/** The complete configuration of one run: every default filled in, every path absolute. */
export interface ResolvedConfig {
  cwd: string;
  spec: string;
  out: string;
  outputs: Record<OutputKind, boolean>;
  format: boolean;
}

export const DEFAULT_SPEC = "spec/training-api.v1.yaml";
export const DEFAULT_OUT = "generated";
const CONFIG_FILES = ["specforge.config.json", "specforge.config.mjs", "specforge.config.js"];

export interface ConfigSources {
  cwd: string;
  /** Explicit --config path. */
  configFile?: string;
  /** Values from CLI flags; they win over the config file. */
  flags?: UserConfig;
}

/** Finds and reads the config (explicit file, a specforge.config.* in cwd, or a `specforge` key in package.json). */
export async function resolveConfig({ cwd, configFile, flags = {} }: ConfigSources): Promise<ResolvedConfig> {
  const found = configFile ? resolve(cwd, configFile) : CONFIG_FILES.map((f) => resolve(cwd, f)).find(existsSync);
  let fileConfig: UserConfig = {};
  let base = cwd;
  let shown = "";
  if (found) {
    fileConfig = await readConfigFile(found);
    base = dirname(found);
    shown = found;
  } else {
    const pkgPath = resolve(cwd, "package.json");
    if (existsSync(pkgPath)) {
      const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as { specforge?: unknown };
      if (pkg.specforge !== undefined) {
        fileConfig = pkg.specforge as UserConfig;
        shown = `${pkgPath}#/specforge`;
      }
    }
  }
  validateConfig(fileConfig, shown || "config");
  validateConfig(flags, "command line");
  const fromFile = (p: string | undefined) => (p === undefined ? undefined : resolve(base, p));
  const fromFlag = (p: string | undefined) => (p === undefined ? undefined : resolve(cwd, p));
  const outputs = flags.outputs ?? fileConfig.outputs ?? [...OUTPUT_KINDS];
  return {
    cwd,
    spec: fromFlag(flags.spec) ?? fromFile(fileConfig.spec) ?? resolve(cwd, DEFAULT_SPEC),
    out: fromFlag(flags.out) ?? fromFile(fileConfig.out) ?? resolve(cwd, DEFAULT_OUT),
    outputs: Object.fromEntries(OUTPUT_KINDS.map((k) => [k, k === "types" || outputs.includes(k)])) as Record<OutputKind, boolean>,
    format: flags.format ?? fileConfig.format ?? true,
  };
}

async function readConfigFile(path: string): Promise<UserConfig> {
  if (!existsSync(path)) throw new UserError("config file not found", { location: path });
  if (path.endsWith(".json")) {
    try {
      return JSON.parse(readFileSync(path, "utf8")) as UserConfig;
    } catch (error) {
      throw new UserError(`invalid JSON in config file: ${(error as Error).message}`, { location: path });
    }
  }
  try {
    const mod = (await import(pathToFileURL(path).href)) as { default?: UserConfig };
    return mod.default ?? {};
  } catch (error) {
    throw new UserError(`cannot load config file: ${(error as Error).message}`, { location: path });
  }
}

function validateConfig(config: unknown, where: string): asserts config is UserConfig {
  if (config === null || typeof config !== "object" || Array.isArray(config)) {
    throw new UserError("the config must be an object", { location: where });
  }
  const allowed = ["spec", "out", "outputs", "format"];
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined) continue;
    const fail = (expected: string) => {
      throw new UserError(`config field \`${key}\` ${expected}, got ${JSON.stringify(value)}`, { location: where });
    };
    if (!allowed.includes(key)) fail(`is unknown (allowed: ${allowed.join(", ")})`);
    if ((key === "spec" || key === "out") && typeof value !== "string") fail("must be a path string");
    if (key === "format" && typeof value !== "boolean") fail("must be true or false");
    if (key === "outputs") {
      if (!Array.isArray(value) || value.some((v) => !OUTPUT_KINDS.includes(v as OutputKind))) {
        fail(`must be a list of: ${OUTPUT_KINDS.join(", ")}`);
      }
    }
  }
}
