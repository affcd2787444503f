/** Options that several commands declare, and the values they turn into. */
import { DEFAULT_OUTPUTS, OUTPUT_FORMS, OUTPUT_KINDS, type ClientStyleName, type ConfigSources, type OutputForm, type OutputKind, type UserConfig } from "../config/resolve.js";
import { UserError } from "../errors.js";
import type { HelpDefaults, OptionSpec } from "./command.js";

export const specOption = (defaults: HelpDefaults): OptionSpec => ({
  type: "string",
  requiresArg: true,
  describe: "the OpenAPI 3.0/3.1/3.2 document (YAML or JSON): a path or an http(s) URL",
  defaultDescription: defaults.spec,
});

export const outOption = (defaults: HelpDefaults): OptionSpec => ({
  type: "string",
  requiresArg: true,
  describe: "the output folder (specforge owns it: created, replaced as a whole)",
  defaultDescription: defaults.out,
});

export const outputsOption: OptionSpec = {
  type: "string",
  requiresArg: true,
  describe: `what to generate, comma-separated: ${OUTPUT_KINDS.join(", ")} (types are always generated)`,
  defaultDescription: DEFAULT_OUTPUTS.join(","),
};

export const clientStyleOption: OptionSpec = {
  type: "string",
  requiresArg: true,
  describe: "flat (a method per operation) or resources (client.files.create(…))",
  defaultDescription: "client.style, else flat",
};

export const clientResourcesOption: OptionSpec = {
  type: "string",
  requiresArg: true,
  describe: "a resource table naming the resource-style client's methods (a stainless.yml-like file, YAML or JSON)",
  defaultDescription: "client.resources",
};

export const formatOption: OptionSpec = {
  type: "boolean",
  describe: "format with prettier and your prettier config (--no-format: leave the printer's output)",
  defaultDescription: "true",
};

export const formOption: OptionSpec = {
  type: "string",
  requiresArg: true,
  describe: `how the modules are written: ${OUTPUT_FORMS.join(" or ")} (ts: TypeScript for any project; js: .js + .d.ts for ESM projects with huge specs)`,
  defaultDescription: "ts",
};

export const configOption: OptionSpec = {
  type: "string",
  requiresArg: true,
  describe: "the config file to read (specforge.config.json / .ts / .mjs / .js)",
  defaultDescription: "specforge.config.* here, else package.json#specforge",
};

export const projectOption: OptionSpec = {
  type: "string",
  requiresArg: true,
  describe: "with a config listing several `projects`: only this one (comma-separated or repeated for several)",
  defaultDescription: "all",
};

/** How much of the file system `$ref`s may read (see the loader's confinement); rarely needed. */
export const readingOptions: Record<string, OptionSpec> = {
  "ref-root": { type: "string", array: true, requiresArg: true, describe: "another folder $refs may read files from (repeatable)" },
  "max-spec-file-bytes": { type: "number", requiresArg: true, integer: true, min: 1, describe: "largest spec file read, in bytes", defaultDescription: "134217728 (128 MiB)" },
};

/** `--quiet`, for every command; `--verbose` only where there are files and phases to print (`verbosityOptions`). */
export const quietOption: Record<string, OptionSpec> = {
  quiet: { type: "boolean", alias: "q", describe: "print only errors and warnings" },
};

export const verbosityOptions: Record<string, OptionSpec> = {
  ...quietOption,
  verbose: { type: "boolean", describe: "also print every file and the time of each phase" },
};

export interface ConfigArgs {
  spec?: string;
  out?: string;
  outputs?: string | string[];
  format?: boolean;
  form?: string;
  config?: string;
  project?: string | string[];
  "ref-root"?: string[];
  "max-spec-file-bytes"?: number;
  "client-style"?: string;
  "client-resources"?: string;
}

/** `a,b` or repeated flags → ["a", "b"], trimmed; undefined when the flag was not given. */
function list(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return ([] as string[])
    .concat(value)
    .flatMap((v) => String(v).split(","))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** `--outputs client,server` → ["client", "server"]. An empty list is an error (not "types only"). */
function parseOutputs(value: string | string[] | undefined): OutputKind[] | undefined {
  const names = list(value);
  if (names !== undefined && names.length === 0) {
    throw new UserError(`--outputs needs at least one of: ${OUTPUT_KINDS.join(", ")}`, {
      location: "command line",
      hint: "`--outputs types` generates the types alone; leave the flag out to generate everything",
    });
  }
  return names as OutputKind[] | undefined; // the names are checked with the config's rules
}

/** `--project a,b` (or repeated) → ["a", "b"]. */
function parseProjects(value: string | string[] | undefined): string[] | undefined {
  const names = list(value);
  if (names !== undefined && names.length === 0) throw new UserError("--project needs a project name", { location: "command line" });
  return names;
}

/** The flags that override the config file's fields. */
export function configFlags(args: ConfigArgs): UserConfig {
  return {
    spec: args.spec,
    out: args.out,
    outputs: parseOutputs(args.outputs),
    format: args.format,
    form: args.form as OutputForm | undefined, // checked with the config's rules
    refRoots: args["ref-root"],
    maxSpecFileBytes: args["max-spec-file-bytes"],
    // (Checked with the config's rules.)
    client: clientFlags(args),
  };
}

/** `--client-style` and `--client-resources` as the config's `client` (absent when neither is given). */
function clientFlags(args: ConfigArgs): UserConfig["client"] {
  if (args["client-style"] === undefined && args["client-resources"] === undefined) return undefined;
  return {
    ...(args["client-style"] !== undefined ? { style: args["client-style"] as ClientStyleName } : {}),
    ...(args["client-resources"] !== undefined ? { resources: args["client-resources"] } : {}),
  };
}

/** Where to find the config and what overrides it, from a command's arguments. */
export function configSources(args: ConfigArgs, cwd: string, env: NodeJS.ProcessEnv = process.env): ConfigSources {
  return { cwd, configFile: args.config, flags: configFlags(args), projects: parseProjects(args.project), env };
}
