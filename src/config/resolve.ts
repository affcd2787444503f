import { existsSync, readFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { UserError, formatPosition } from "../errors.js";
import { invalidJson } from "../load/json-error.js";
import { PACKAGE_ROOT } from "../package/root.js";
import { didYouMean } from "./suggest.js";
import { DEFAULT_MAX_SPEC_FILE_BYTES } from "../load/read.js";
import { DEFAULT_FETCH_TIMEOUT_MS, type HeaderSource, type OriginAccess } from "../load/remote.js";
import type { SpecSource } from "../load/remote-documents.js";
import { escapePointerSegment } from "../openapi/pointer.js";
import { isHttpUrl, originOf } from "../openapi/url.js";
import { proxiesFromEnv, type ProxyEnvironment } from "../load/remote-proxy-env.js";
import type { ClientStyle } from "../emit/index.js";
import { UNSAFE_MEMBERS } from "../ir/resources.js";
import { resolveScheme } from "../../templates/webhooks/schemes.js";
import { WEBHOOK_SCHEME_NAMES, type WebhookEventTypeSpec, type WebhookScheme, type WebhookSchemeName } from "../../templates/webhooks/types.js";
import { ALL_SCHEMES } from "../emit/webhook-schemes.js";

/** The outputs specforge can emit. `types` (schema.ts) and `index.ts` are always emitted. */
export const OUTPUT_KINDS = ["types", "client", "server", "webhooks", "queries", "msw", "schemas"] as const;
export type OutputKind = (typeof OUTPUT_KINDS)[number];
/**
 * The outputs emitted when the config names none. `queries` (TanStack Query options) and `msw` (MSW handlers, which
 * import `msw`) and `schemas` are turned on by name.
 */
export const DEFAULT_OUTPUTS: readonly OutputKind[] = ["types", "client", "server", "webhooks"];
/** Outputs that are built on another: the query options call the client. */
const NEEDS: Partial<Record<OutputKind, OutputKind>> = { queries: "client" };

/**
 * What the `schemas` output is made of: `specforge`, Standard Schema validators that run specforge's own engine (the
 * router's) and need no dependency; `zod`, zod 4 schemas (zod is then a dependency of the project).
 */
export const SCHEMA_LIBRARIES = ["specforge", "zod"] as const;
export type SchemaLibrary = (typeof SCHEMA_LIBRARIES)[number];

/** Options of the `schemas` output. */
export interface SchemasConfig {
  /** Which validators `schemas` holds (see SCHEMA_LIBRARIES). @default "specforge" */
  library?: SchemaLibrary;
}

/** The frameworks the server output has an adapter for (`adapters`). */
export const ADAPTERS = ["express", "fastify", "hono", "next"] as const;
export type AdapterName = (typeof ADAPTERS)[number];

/** Where `specforge stubs` writes handler stubs when neither `--out` nor the config's `stubs` says. */
export const DEFAULT_STUBS = "src/handlers";

/**
 * How the generated modules are written: `ts`, TypeScript sources your own toolchain compiles to whatever module
 * system and target the project uses; `js`, ES modules as JavaScript plus declarations (`.js` + `.d.ts`), which your
 * compiler reads without checking any code (ESM projects only; a `tsc` build that emits into an `outDir` also needs
 * `allowJs`).
 */
export const OUTPUT_FORMS = ["ts", "js"] as const;
export type OutputForm = (typeof OUTPUT_FORMS)[number];

/**
 * What a user may write in a config file (`specforge.config.{json,ts,mjs,js}` or package.json's `specforge` key)
 * or pass as flags. Every field is optional; flags win over the file.
 */
export interface UserConfig {
  /**
   * Path of the OpenAPI document (YAML or JSON), relative to the config file, or its http(s) URL. Flag: `--spec`.
   * @default "spec/training-api.v1.yaml"
   */
  spec?: string;
  /** Output folder, relative to the config file; specforge owns it. Flag: `--out`. @default "generated" */
  out?: string;
  /**
   * Which outputs to emit; `types` (schema.ts) and index.ts are always emitted. `queries` (TanStack Query options,
   * with `client`) and `msw` (MSW request handlers) are emitted only when listed. Flag: `--outputs client,server`.
   * @default what the spec has: the client and server when it has `paths`, the webhooks when it has `webhooks`
   */
  outputs?: OutputKind[];
  /** Format every file with prettier (the project's prettier config applies). Flag: `--format` / `--no-format`. @default true */
  format?: boolean;
  /** Options of the `schemas` output (see SchemasConfig). @default { library: "specforge" } */
  schemas?: SchemasConfig;
  /**
   * The frameworks to generate an adapter of the server for (`toExpress`, `toFastify`, `toHono`, `toNextHandlers`);
   * needs the `server` output. None imports its framework. @default []
   */
  adapters?: AdapterName[];
  /** The folder `specforge stubs` writes handler stubs into, relative to the config file. @default "src/handlers" */
  stubs?: string;
  /**
   * How the modules are written (see OUTPUT_FORMS): `"ts"`, TypeScript for any project (CommonJS or ESM, `tsc`
   * builds, bundlers); `"js"`, `.js` + `.d.ts` for ESM projects whose spec is so large that type-checking its code
   * matters. Flag: `--form ts|js`. @default "ts"
   */
  form?: OutputForm;
  /**
   * Folders besides the spec's own folder (and its subfolders) that `$ref`s may read files from, relative to the
   * config file. Flag: `--ref-root DIR` (repeatable). Applies to every project. @default []
   */
  refRoots?: string[];
  /** Largest spec file specforge reads (the spec and every file it `$ref`s), in bytes. @default 134217728 (128 MiB) */
  maxSpecFileBytes?: number;
  /** How specs and `$ref`s on http(s) URLs are fetched (see FetchConfig). In a project, replaces the top-level one field by field. */
  fetch?: FetchConfig;
  /** How the typed client reads (see ClientConfig). In a project, replaces the top-level one field by field. */
  client?: ClientConfig;
  /** The generated webhook receiver's defaults (see WebhooksConfig). In a project, replaces the top-level one. */
  webhooks?: WebhooksConfig;
  /**
   * Several specs in one repository, each generated into its own folder with its own options; `generate` and
   * `check` handle them all in one run (`--project NAME` picks some). With `projects`, the top-level `outputs` and
   * `format` are the defaults of every project, and `spec` / `out` are not allowed at the top level.
   */
  projects?: ProjectConfig[];
  /**
   * With `projects`: one folder, relative to the config file, that holds the runtime of every project (the modules
   * any of them imports, written once), which each project's files import by a relative path. All projects must then
   * be written in the same `form`. Without it, each project keeps its runtime in its own `out/runtime/`.
   * @default each project's own `runtime/` folder
   */
  runtime?: string;
}

/** The defaults of the generated webhook receiver, for vendors whose spec does not say how they sign or name events. */
export interface WebhooksConfig {
  /**
   * How deliveries are signed: `"stripe"`, `"github"`, `"zoom"`, `"slack"`, `"shopify"`, `"twilio"`, `"svix"`,
   * `"standard-webhooks"`, `"wandb"`, or `{ type: "hmac", header, algorithm, encoding, signedContent, … }`.
   * @default what the spec says, else "standard-webhooks"
   */
  scheme?: WebhookScheme;
  /**
   * More named schemes the generated receiver and `signWebhookDelivery` can be told at run time (`scheme: "zoom"`),
   * besides the default: each is a module of the webhooks runtime, written only when named here or as the default.
   * @default none
   */
  schemes?: WebhookSchemeName[];
  /** Where deliveries name their event: `{ in: "body", name: "event" }` or `{ in: "header", name: "x-vendor-event" }`. @default what the spec says or implies */
  eventType?: WebhookEventTypeSpec;
}

/**
 * Fetching specs from http(s) URLs. Secrets never appear here: a header names the environment variable that holds
 * its value.
 */
export interface FetchConfig {
  /**
   * Headers sent to the spec URL's origin (and nowhere else): header name → the environment variable holding its
   * value, e.g. `{ "Authorization": "VENDOR_SPEC_TOKEN" }`. @default Authorization from SPECFORGE_SPEC_TOKEN
   */
  headers?: Record<string, string>;
  /**
   * Other origins (`https://schemas.vendor.com`) that the spec may redirect to and `$ref` documents from, each with
   * the headers sent there. Any other origin is refused. @default {}
   */
  origins?: Record<string, { headers?: Record<string, string> }>;
  /** Milliseconds for one request, redirects and body included. @default 30000 */
  timeoutMs?: number;
  /** `generate --watch`: seconds between conditional requests for the spec's documents; 0 does not poll. Flag: `--poll`. @default 0 */
  pollSeconds?: number;
}

/** The typed client's form. */
export interface ClientConfig {
  /**
   * `flat`: one method per operation (`client.createChatCompletion({ body })`). `resources`: the operations grouped
   * into nested resources (`client.chat.completions.create({ model, messages })`), in resources.ts, which then is the
   * entry point's `createClient`. Flag: `--client-style resources`. @default "flat"
   */
  style?: ClientStyleName;
  /**
   * Names of the resource-style client, overriding those read from the spec: a path prefix mounts everything at or
   * below it (`"/organization": "admin.organization"`); `"METHOD /path"`, an operationId or a flat method name gives
   * one operation its whole dotted name (`"POST /threads/runs": "beta.threads.createAndRun"`). Or the path of a
   * resource table to import, relative to the config file: a stainless.yml-like file (YAML or JSON) whose
   * `resources:` tree names each endpoint (`"./stainless.yml"`). Flag: `--client-resources PATH`. @default {}
   */
  resources?: Record<string, string> | string;
}

export const CLIENT_STYLES = ["flat", "resources"] as const;
export type ClientStyleName = (typeof CLIENT_STYLES)[number];

/** One spec of a config with several (`projects`). Paths are relative to the config file. */
export interface ProjectConfig {
  /** Names the project in output and picks it with `--project NAME`: letters, digits, `.`, `_` and `-`. */
  name: string;
  /** Path (or http(s) URL) of this project's OpenAPI document. */
  spec: string;
  /** This project's output folder; no two projects may share one or nest one inside the other. */
  out: string;
  /** @default the top-level `outputs`, else what the spec has */
  outputs?: OutputKind[];
  /** @default the top-level `format`, else true */
  format?: boolean;
  /** @default the top-level `schemas` */
  schemas?: SchemasConfig;
  /** @default the top-level `adapters`, else none */
  adapters?: AdapterName[];
  /** This project's handler stubs folder (`specforge stubs`). @default "src/handlers/<name>" */
  stubs?: string;
  /** @default the top-level `form`, else "ts" */
  form?: OutputForm;
  /** @default the top-level `fetch` (this one's fields replace its fields) */
  fetch?: FetchConfig;
  /** @default the top-level `client` (this one's fields replace its fields) */
  client?: ClientConfig;
  /** @default the top-level `webhooks` */
  webhooks?: WebhooksConfig;
}

/**
 * Types a `specforge.config.ts` (or `.mjs` / `.js`) and returns it unchanged:
 *
 * ```ts
 * import { defineConfig } from "specforge";
 * export default defineConfig({ spec: "openapi.yaml", outputs: ["client"] });
 * ```
 */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}

/** How documents on http(s) URLs are fetched, resolved. */
export interface ResolvedFetch {
  /** The origins documents may come from (the spec URL's own first), each with the headers sent there (values are secrets). */
  origins: OriginAccess[];
  timeoutMs: number;
  /** Seconds between polls of `generate --watch` (0: none). */
  pollSeconds: number;
  /** specforge's cache folder, where fetched documents are kept (`node_modules/.cache/specforge`). */
  cacheDir: string;
  /** The proxies of the environment (`https_proxy`, `HTTP_PROXY`, `no_proxy`, …), read with the header values. */
  proxies: ProxyEnvironment;
}

/** The complete configuration of one run: every default filled in, every path absolute. */
export interface ResolvedConfig {
  cwd: string;
  /** Absolute path of the spec, or its http(s) URL. */
  spec: string;
  out: string;
  /** The outputs asked for; without `outputsFrom`, all of them, which the spec narrows to what it has (emit/outputs.ts). */
  outputs: Record<OutputKind, boolean>;
  /** The client's style, and the resource-style client's names with where they were written. */
  client: ClientStyle;
  /** Where an explicit `outputs` list came from (a flag or the config's JSON pointer); absent: the default. */
  outputsFrom?: string;
  format: boolean;
  /** Options of the `schemas` output, defaults filled in. */
  schemas: Required<SchemasConfig>;
  /** The server's framework adapters to generate (empty or absent: none). */
  adapters?: AdapterName[];
  /** Absolute path of the folder `specforge stubs` writes into. */
  stubs?: string;
  form: OutputForm;
  /** Absolute folders `$ref`s may read from besides the spec's own folder tree. */
  refRoots: string[];
  /** Largest spec file read, in bytes. */
  maxSpecFileBytes: number;
  fetch: ResolvedFetch;
  /** The webhook receiver's defaults from the config (a project's, else the top-level ones). */
  webhooks: WebhooksConfig;
  /** The config file that was read (package.json when its `specforge` key was used); absent when there was none. */
  configFile?: string;
  /** The project's name, when the config lists `projects`. */
  project?: string;
  /** Where `spec` came from: a flag (or API option), the config file, or the default (no flag, no config). */
  specSource?: "flag" | "config" | "default";
  /** What follows `specforge generate` to regenerate exactly this output: the --config, --project and flags given. */
  regenerateArgs?: string[];
  /** The config's `runtime`: the one runtime folder its projects share (absent: the runtime is in `out/runtime/`). */
  sharedRuntime?: SharedRuntime;
}

/** A runtime folder shared by the projects of a config (config field `runtime`). */
export interface SharedRuntime {
  /** Absolute path of the folder. */
  dir: string;
  /** Where the config sets it (file and JSON pointer), for messages. */
  location: string;
  /** The form of every project, hence of the folder. */
  form: OutputForm;
  /** Whether the folder is formatted with prettier (the top-level `format`). */
  format: boolean;
  /** What follows `specforge generate` to regenerate it (the --config and flags given, no --project). */
  regenerateArgs: string[];
  /**
   * Every project of the config, selected by `--project` or not (without their own `sharedRuntime`): the folder
   * holds what all of them import, so generating one project never drops a module another needs.
   */
  projects: ResolvedConfig[];
}

export const DEFAULT_SPEC = "spec/training-api.v1.yaml";
export const DEFAULT_OUT = "generated";
export { DEFAULT_MAX_SPEC_FILE_BYTES } from "../load/read.js";
/** The config file names looked for in the current folder. At most one may exist. */
export const CONFIG_FILES = ["specforge.config.json", "specforge.config.ts", "specforge.config.mjs", "specforge.config.js"];

export interface ConfigSources {
  cwd: string;
  /** Explicit --config path. */
  configFile?: string;
  /** Values from CLI flags (or the options of the programmatic API); they win over the config file. */
  flags?: UserConfig;
  /** Where `flags` came from, for error messages. @default "command line" */
  flagsFrom?: "command line" | typeof API_OPTIONS;
  /** Names of the projects to resolve (`--project`); without it, every project of the config. */
  projects?: string[];
  /** Where header values (`fetch.headers`, SPECFORGE_SPEC_TOKEN) and SPECFORGE_CACHE_DIR are read. @default process.env */
  env?: NodeJS.ProcessEnv;
}

/** How errors name the options of `generate()` / `check()`. */
export const API_OPTIONS = "generate()/check() options";

/**
 * Finds and reads the config (explicit file, a specforge.config.* in cwd, or a `specforge` key in package.json) and
 * resolves the one spec it describes. A config with several `projects` needs `projects` (`--project`) to name one.
 */
export async function resolveConfig(sources: ConfigSources): Promise<ResolvedConfig> {
  const configs = await resolveConfigs(sources);
  if (configs.length > 1) {
    const names = configs.map((c) => c.project!);
    const flag = sources.flagsFrom === API_OPTIONS ? "the `project` option" : "--project NAME";
    throw new UserError(`the config lists ${configs.length} projects (${names.join(", ")}); say which one with ${flag}`, {
      location: configs[0]!.configFile,
    });
  }
  return configs[0]!;
}

/** Like `resolveConfig`, for every spec the config describes (the selected projects, in the config's order). */
export async function resolveConfigs({ cwd, configFile, flags = {}, flagsFrom = "command line", projects: selection, env = process.env }: ConfigSources): Promise<ResolvedConfig[]> {
  validateConfig(flags, flagsFrom);
  const { config: fileConfig, base, shown, source } = await readUserConfig(cwd, configFile);
  validateConfig(fileConfig, shown || "config");
  const fromFile = (p: string | undefined) => (p === undefined ? undefined : resolve(base, p));
  const fromFlag = (p: string | undefined) => (p === undefined ? undefined : resolve(cwd, p));
  const specFromFile = (p: string | undefined) => (p === undefined ? undefined : resolveSpecPath(base, p));
  const specFromFlag = (p: string | undefined) => (p === undefined ? undefined : resolveSpecPath(cwd, p));
  const cacheDir = cacheDirFor(env, cwd, base);
  /** `fetch` of the flags or API options, else the file's (a project's fields over the top-level ones). */
  const fetchFor = (spec: string, project?: { config: FetchConfig | undefined; pointer: string }): ResolvedFetch => {
    const fromOptions = flags.fetch !== undefined;
    const merged: FetchConfig = fromOptions ? flags.fetch! : { ...fileConfig.fetch, ...project?.config };
    const pointerOf = (field: string) =>
      fromOptions ? `${flagsFrom}: fetch.${field}` : `${pointerBase(shown)}${project?.config?.[field as keyof FetchConfig] !== undefined ? project.pointer : ""}/fetch/${field}`;
    return resolveFetch(spec, merged, { pointerOf, env, cacheDir, tokenFromEnv: fileConfig.projects === undefined });
  };
  const regenerate = (project?: string) => regenerateArgs(flags, configFile, project);
  /** `client` of the flags or API options over the project's over the file's, field by field. */
  const clientFor = (project?: { config: ClientConfig | undefined; pointer: string }): ClientStyle => {
    const style = flags.client?.style ?? project?.config?.style ?? fileConfig.client?.style ?? "flat";
    if (style === "flat" && typeof flags.client?.resources === "string") {
      const [name, fix] = flagsFrom === "command line" ? ["--client-resources", "--client-style resources"] : ["option `client.resources`", 'client: { style: "resources" }'];
      throw new UserError(`${name} names the methods of the resource-style client, and the client is flat`, { location: flagsFrom, hint: `add ${fix} (or \`client: { style: "resources" }\` in the config)` });
    }
    if (style === "flat") return { style };
    const [resources, resourcesAt, from] =
      flags.client?.resources !== undefined
        ? [flags.client.resources, `${flagsFrom}: client.resources`, cwd]
        : project?.config?.resources !== undefined
          ? [project.config.resources, `${pointerBase(shown)}${project.pointer}/client/resources`, base]
          : [fileConfig.client?.resources ?? {}, `${pointerBase(shown)}/client/resources`, base];
    // A path: the resource table the names come from, read with the spec (pipeline.ts).
    if (typeof resources === "string") return { style, resources: {}, resourcesAt, table: resolve(from, resources) };
    return { style, resources, resourcesAt };
  };
  const loading = {
    refRoots: [...(fileConfig.refRoots ?? []).map((p) => resolve(base, p)), ...(flags.refRoots ?? []).map((p) => resolve(cwd, p))],
    maxSpecFileBytes: flags.maxSpecFileBytes ?? fileConfig.maxSpecFileBytes ?? DEFAULT_MAX_SPEC_FILE_BYTES,
  };
  const resolveOutputs = (list: readonly OutputKind[]) =>
    Object.fromEntries(OUTPUT_KINDS.map((k) => [k, k === "types" || list.includes(k)])) as Record<OutputKind, boolean>;
  /** The adapters in a fixed order; they need the server output. */
  const resolveAdapters = (list: readonly AdapterName[] | undefined, outputs: Record<OutputKind, boolean>, where: string): AdapterName[] => {
    const adapters = ADAPTERS.filter((name) => list?.includes(name));
    if (adapters.length > 0 && !outputs.server) {
      throw new UserError(`the adapters (${adapters.join(", ")}) adapt the server, which \`outputs\` leaves out`, { location: where, hint: "add \"server\" to `outputs`, or remove `adapters`" });
    }
    return adapters;
  };

  if (fileConfig.projects === undefined) {
    if (selection !== undefined && selection.length > 0) {
      throw new UserError(`${flagName("project", flagsFrom)}: ${shown ? "the config lists no `projects`" : "there is no config file, so there are no projects to pick from"}`, {
        location: shown || undefined,
        hint: "a config's `projects` lists several specs; `npx specforge init --project NAME --spec PATH` writes or extends one",
      });
    }
    const spec = specFromFlag(flags.spec) ?? specFromFile(fileConfig.spec) ?? resolve(cwd, DEFAULT_SPEC);
    const outputs = resolveOutputs(flags.outputs ?? fileConfig.outputs ?? DEFAULT_OUTPUTS);
    const outputsFrom = flags.outputs !== undefined ? flagName("outputs", flagsFrom) : fileConfig.outputs !== undefined ? `${pointerBase(shown)}/outputs` : undefined;
    return [
      {
        cwd,
        spec,
        out: fromFlag(flags.out) ?? fromFile(fileConfig.out) ?? resolve(cwd, DEFAULT_OUT),
        outputs,
        client: clientFor(),
        ...(outputsFrom ? { outputsFrom } : {}),
        format: flags.format ?? fileConfig.format ?? true,
        adapters: resolveAdapters(flags.adapters ?? fileConfig.adapters, outputs, flags.adapters !== undefined ? flagsFrom : `${pointerBase(shown)}/adapters`),
        stubs: fromFlag(flags.stubs) ?? fromFile(fileConfig.stubs) ?? resolve(base, DEFAULT_STUBS),
        form: flags.form ?? fileConfig.form ?? "ts",
        schemas: resolveSchemas(flags.schemas ?? fileConfig.schemas),
        ...loading,
        fetch: fetchFor(spec),
        webhooks: flags.webhooks ?? fileConfig.webhooks ?? {},
        ...(source ? { configFile: source } : {}),
        specSource: flags.spec !== undefined ? "flag" : fileConfig.spec !== undefined ? "config" : "default",
        regenerateArgs: regenerate(),
      },
    ];
  }

  const projects = fileConfig.projects;
  const where = (index: number, field?: string) => `${pointerBase(shown)}/projects/${index}${field ? `/${field}` : ""}`;
  const outs = projects.map((p) => resolve(base, p.out));
  projects.forEach((project, i) => {
    projects.forEach((other, j) => {
      if (j >= i) return;
      const [a, b] = [outs[i]!, outs[j]!];
      if (a === b || a.startsWith(b + sep) || b.startsWith(a + sep)) {
        const how = a === b ? "is also" : a.startsWith(b + sep) ? "is inside" : "contains";
        throw new UserError(`project "${project.name}": out folder ${project.out} ${how} project "${other.name}"'s out folder ${other.out}`, {
          location: where(i, "out"),
          hint: "give every project a folder of its own (specforge replaces a whole output folder)",
        });
      }
    });
  });
  const names = projects.map((p) => p.name);
  const wanted = selection === undefined || selection.length === 0 ? names : [...new Set(selection)];
  for (const name of wanted) {
    if (!names.includes(name)) {
      throw new UserError(`${flagName("project", flagsFrom)}: no project "${name}" in the config (its projects: ${names.join(", ")})`, {
        location: shown,
        hint: didYouMean(name, names),
      });
    }
  }
  if (wanted.length > 1) {
    for (const key of ["spec", "out"] as const) {
      if (flags[key] !== undefined) {
        throw new UserError(`${flagName(key, flagsFrom)} applies to one project, and ${wanted.length} are selected (${wanted.join(", ")})`, {
          location: flagsFrom,
          hint: `pick one with ${flagName("project", flagsFrom)}${flagsFrom === API_OPTIONS ? "" : " NAME"}, or change \`${key}\` of the project in ${shown}`,
        });
      }
    }
  }
  /** A project resolved; `selected`: the flags that name one project's spec and out apply to it. */
  const resolveProject = (project: ProjectConfig, index: number, selected: boolean): ResolvedConfig => {
      const spec = (selected ? specFromFlag(flags.spec) : undefined) ?? resolveSpecPath(base, project.spec);
      const outputs = resolveOutputs(flags.outputs ?? project.outputs ?? fileConfig.outputs ?? DEFAULT_OUTPUTS);
      const outputsFrom =
        flags.outputs !== undefined ? flagName("outputs", flagsFrom) : project.outputs !== undefined ? where(index, "outputs") : fileConfig.outputs !== undefined ? `${pointerBase(shown)}/outputs` : undefined;
      const adaptersFrom = flags.adapters !== undefined ? flagsFrom : project.adapters !== undefined ? where(index, "adapters") : `${pointerBase(shown)}/adapters`;
      return {
      cwd,
      spec,
      out: (selected ? fromFlag(flags.out) : undefined) ?? resolve(base, project.out),
      outputs,
      client: clientFor({ config: project.client, pointer: `/projects/${index}` }),
      ...(outputsFrom ? { outputsFrom } : {}),
      format: flags.format ?? project.format ?? fileConfig.format ?? true,
      adapters: resolveAdapters(flags.adapters ?? project.adapters ?? fileConfig.adapters, outputs, adaptersFrom),
      stubs: fromFlag(flags.stubs) ?? fromFile(project.stubs) ?? resolve(base, DEFAULT_STUBS, project.name),
      form: flags.form ?? project.form ?? fileConfig.form ?? "ts",
      schemas: resolveSchemas(flags.schemas ?? project.schemas ?? fileConfig.schemas),
      ...loading,
      fetch: fetchFor(spec, { config: project.fetch, pointer: `/projects/${index}` }),
      webhooks: flags.webhooks ?? project.webhooks ?? fileConfig.webhooks ?? {},
      configFile: source!,
      project: project.name,
      specSource: flags.spec !== undefined ? ("flag" as const) : ("config" as const),
      regenerateArgs: regenerate(project.name),
      };
  };
  const resolved = projects.flatMap((project, index) => (wanted.includes(project.name) ? [resolveProject(project, index, true)] : []));
  if (fileConfig.runtime === undefined) return resolved;
  const all = projects.map((project, index) => resolved.find((config) => config.project === project.name) ?? resolveProject(project, index, false));
  const sharedRuntime = resolveSharedRuntime(fileConfig.runtime, all, {
    base,
    location: `${pointerBase(shown)}/runtime`,
    formAt: (index) => (flags.form !== undefined ? flagName("form", flagsFrom) : projects[index]!.form !== undefined ? where(index, "form") : `${pointerBase(shown)}/form`),
    format: flags.format ?? fileConfig.format ?? true,
    regenerateArgs: regenerate(),
  });
  return resolved.map((config) => ({ ...config, sharedRuntime }));
}

/**
 * The config's `runtime` folder: outside every project's out folder (each is replaced as a whole) and containing
 * none, and one form for all projects (the folder holds one copy of each module).
 */
function resolveSharedRuntime(
  folder: string,
  projects: ResolvedConfig[],
  context: { base: string; location: string; formAt: (index: number) => string; format: boolean; regenerateArgs: string[] },
): SharedRuntime {
  const dir = resolve(context.base, folder);
  for (const project of projects) {
    const out = project.out;
    const how = dir === out ? "is" : dir.startsWith(out + sep) ? "is inside" : out.startsWith(dir + sep) ? "contains" : undefined;
    if (!how) continue;
    throw new UserError(`config field \`runtime\`: the folder ${folder} ${how} project "${project.project}"'s out folder ${relative(context.base, out) || "."}`, {
      location: context.location,
      hint: "give the shared runtime a folder of its own beside the projects' out folders (e.g. \"src/api/runtime\" next to \"src/api/<project>\"): specforge replaces each of these folders as a whole",
    });
  }
  const form = projects[0]!.form;
  const other = projects.findIndex((project) => project.form !== form);
  if (other !== -1) {
    throw new UserError(
      `config field \`runtime\`: the projects share one runtime folder, which is written in one form, and project "${projects[other]!.project}" has form "${projects[other]!.form}" while project "${projects[0]!.project}" has "${form}"`,
      { location: context.formAt(other), hint: "set `form` once at the top level (or the same in every project), or remove `runtime` to give each project its own runtime" },
    );
  }
  return { dir, location: context.location, form, format: context.format, regenerateArgs: context.regenerateArgs, projects: projects.map(({ sharedRuntime: _, ...project }) => project) };
}


/** The `schemas` options with their defaults. */
function resolveSchemas(config: SchemasConfig | undefined): Required<SchemasConfig> {
  return { library: config?.library ?? "specforge" };
}

/** A spec given as a URL stays one (normalised, as `new URL` writes it); anything else is a path below `base`. */
function resolveSpecPath(base: string, spec: string): string {
  return isHttpUrl(spec) ? new URL(spec).href : resolve(base, spec);
}

/**
 * The cache folder for a config in `base`: `node_modules/.cache/specforge` of the project `base` is in (the nearest
 * folder up with a package.json), else of `base` itself.
 */
/** specforge's cache folder: SPECFORGE_CACHE_DIR (relative to the current folder), else the project's default. */
function cacheDirFor(env: NodeJS.ProcessEnv, cwd: string, base: string): string {
  return env.SPECFORGE_CACHE_DIR ? resolve(cwd, env.SPECFORGE_CACHE_DIR) : defaultCacheDir(base);
}

function defaultCacheDir(base: string): string {
  for (let dir = base; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return join(dir, "node_modules", ".cache", "specforge");
    if (dirname(dir) === dir) return join(base, "node_modules", ".cache", "specforge");
  }
}

interface FetchResolution {
  /** Where a field of `fetch` was written, for messages: a JSON pointer into the config, or the API options. */
  pointerOf: (field: string) => string;
  env: NodeJS.ProcessEnv;
  cacheDir: string;
  /** SPECFORGE_SPEC_TOKEN is used only for a config of one spec: with several, it would go to every vendor. */
  tokenFromEnv: boolean;
}

/**
 * The origins a spec's documents may come from, with the headers each gets: the spec URL's own origin (its
 * `fetch.headers`, or `Authorization: Bearer $SPECFORGE_SPEC_TOKEN`), then `fetch.origins`. Header values are read
 * from the environment now and checked when a request needs them (a `check` that fetches nothing needs no token).
 */
function resolveFetch(spec: string, config: FetchConfig, { pointerOf, env, cacheDir, tokenFromEnv }: FetchResolution): ResolvedFetch {
  const headers = (map: Record<string, string> | undefined, pointer: string): HeaderSource[] =>
    Object.entries(map ?? {}).map(([name, variable]) => ({ name, variable, value: env[variable], from: `${pointer}/${escapePointerSegment(name)}` }));
  const origins: OriginAccess[] = [];
  if (isHttpUrl(spec)) {
    const own = headers(config.headers, pointerOf("headers"));
    const token = env.SPECFORGE_SPEC_TOKEN;
    if (tokenFromEnv && token && !own.some((h) => h.name.toLowerCase() === "authorization")) {
      // A value with a space is a whole header value (`token ghp_…`, `Basic …`); a bare token is a bearer token.
      own.push({ name: "Authorization", variable: "SPECFORGE_SPEC_TOKEN", value: /\s/.test(token.trim()) ? token.trim() : `Bearer ${token.trim()}`, from: "SPECFORGE_SPEC_TOKEN" });
    }
    origins.push({ origin: originOf(spec), headers: own });
  }
  for (const [origin, access] of Object.entries(config.origins ?? {})) {
    const listed = headers(access.headers, `${pointerOf("origins")}/${escapePointerSegment(origin)}/headers`);
    const existing = origins.find((o) => o.origin === origin);
    if (existing) existing.headers.push(...listed.filter((h) => !existing.headers.some((e) => e.name.toLowerCase() === h.name.toLowerCase())));
    else origins.push({ origin, headers: listed });
  }
  return { origins, timeoutMs: config.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS, pollSeconds: config.pollSeconds ?? 0, cacheDir, proxies: proxiesFromEnv(env) };
}

/**
 * How a spec URL given outside a project (`specforge diff OLD NEW`) is fetched: the config's top-level `fetch`
 * (headers for the URL's origin, other origins), SPECFORGE_SPEC_TOKEN when the config describes one spec, and the
 * project's cache folder; its `refRoots` and size limit. Nothing here needs the config to name this URL.
 */
export async function resolveUrlSource({ cwd, configFile, env = process.env }: Pick<ConfigSources, "cwd" | "configFile" | "env">, url: string): Promise<SpecSource> {
  const { config: fileConfig, base, shown } = await readUserConfig(cwd, configFile);
  validateConfig(fileConfig, shown || "config");
  const cacheDir = cacheDirFor(env, cwd, base);
  const pointerOf = (field: string) => `${pointerBase(shown)}/fetch/${field}`;
  return {
    spec: new URL(url).href,
    cwd,
    refRoots: (fileConfig.refRoots ?? []).map((p) => resolve(base, p)),
    maxSpecFileBytes: fileConfig.maxSpecFileBytes ?? DEFAULT_MAX_SPEC_FILE_BYTES,
    fetch: resolveFetch(url, fileConfig.fetch ?? {}, { pointerOf, env, cacheDir, tokenFromEnv: fileConfig.projects === undefined }),
  };
}

interface FoundConfig {
  config: UserConfig;
  /** Folder that the config's paths are relative to. */
  base: string;
  /** How errors name it: the file, or `package.json#/specforge`; "" when there is none. */
  shown: string;
  /** The file read, when there was one. */
  source?: string;
}

async function readUserConfig(cwd: string, configFile: string | undefined): Promise<FoundConfig> {
  const found = configFile ? resolve(cwd, configFile) : findConfigFile(cwd);
  if (found) return { config: await readConfigFile(found), base: dirname(found), shown: shownPath(found, cwd), source: found };
  const pkgPath = resolve(cwd, "package.json");
  if (existsSync(pkgPath)) {
    const pkg = readPackageJson(pkgPath);
    if (pkg.specforge !== undefined) return { config: pkg.specforge as UserConfig, base: cwd, shown: `${shownPath(pkgPath, cwd)}#/specforge`, source: pkgPath };
  }
  return { config: {}, base: cwd, shown: "" };
}

/** A path as messages show it: relative to the current folder when inside it, with forward slashes. */
function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return (rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path).split("\\").join("/");
}

/** `file#` or `package.json#/specforge`: what a JSON pointer into the config is appended to. */
function pointerBase(shown: string): string {
  return shown.includes("#") ? shown : `${shown}#`;
}

function flagName(key: string, from: string): string {
  return from === "command line" ? `--${key}` : from === API_OPTIONS ? `option \`${key}\`` : `config field \`${key}\``;
}

/** The flags that regenerate exactly what these sources describe, shell-quoted where needed. */
function regenerateArgs(flags: UserConfig, configFile: string | undefined, project: string | undefined): string[] {
  const args: string[] = [];
  if (configFile !== undefined) args.push("--config", configFile);
  if (project !== undefined) args.push("--project", project);
  if (flags.spec !== undefined) args.push("--spec", flags.spec);
  if (flags.out !== undefined) args.push("--out", flags.out);
  if (flags.outputs !== undefined) args.push("--outputs", flags.outputs.join(","));
  if (flags.format !== undefined) args.push(flags.format ? "--format" : "--no-format");
  if (flags.client?.style !== undefined) args.push("--client-style", flags.client.style);
  if (flags.form !== undefined) args.push("--form", flags.form);
  return args.map(shellQuote);
}

/** An argument as a POSIX shell reads it back: bare when safe, else in single quotes. */
function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * Throws "file not found" naming the spec as the user sees it and why specforge looked there, before the loader
 * runs: only the config layer knows whether the path came from a flag, the config or the default.
 */
export function assertSpecExists(config: ResolvedConfig): void {
  if (isHttpUrl(config.spec) || existsSync(config.spec)) return;
  throw new UserError("file not found", { location: shownPath(config.spec, config.cwd), hint: describeSpecSource(config) });
}

/**
 * Why specforge looked for the spec where it did, for a "file not found": the flag, the config (and project) that
 * names it, or — only when neither did — the default path.
 */
function describeSpecSource(config: ResolvedConfig): string {
  const configShown = config.configFile ? basename(config.configFile) : "the config";
  switch (config.specSource) {
    case "flag":
      return "check the path given with --spec";
    case "config":
      return config.project
        ? `fix \`spec\` of project "${config.project}" in ${configShown}`
        : `fix \`spec\` in ${configShown}, or pass --spec PATH`;
    default:
      return `with no --spec and no \`spec\` in a config, specforge reads ${DEFAULT_SPEC}: pass --spec PATH, or run \`npx specforge init\` to write a config`;
  }
}

/** The one specforge.config.* in `dir`, if any; more than one is an error (which would win is not obvious). */
export function findConfigFile(dir: string): string | undefined {
  const found = CONFIG_FILES.map((f) => resolve(dir, f)).filter((f) => existsSync(f));
  if (found.length > 1) {
    throw new UserError(`more than one config file: ${found.map((f) => basename(f)).join(", ")}`, {
      location: dir,
      hint: "keep one of them (or pass the one to use with --config FILE)",
    });
  }
  return found[0];
}

function readPackageJson(path: string): { specforge?: unknown } {
  const text = readFileSync(path, "utf8");
  try {
    return JSON.parse(text) as { specforge?: unknown };
  } catch (error) {
    throw invalidJson(error, text, path, "invalid JSON in package.json");
  }
}

async function readConfigFile(path: string): Promise<UserConfig> {
  if (!existsSync(path)) throw new UserError("config file not found", { location: path });
  if (path.endsWith(".json")) {
    const text = readFileSync(path, "utf8");
    try {
      return JSON.parse(text) as UserConfig;
    } catch (error) {
      throw invalidJson(error, text, path, "invalid JSON in config file");
    }
  }
  const url = path.endsWith(".ts") ? await transpileConfig(path) : pathToFileURL(path).href;
  try {
    const mod = (await import(url)) as { default?: UserConfig };
    return mod.default ?? {};
  } catch (error) {
    // Node names the importing module; for a .ts config that is a long data: URL, so name the file instead.
    const message = ((error as Error)?.message ?? String(error)).split(url).join(basename(path));
    throw new UserError(`cannot load config file: ${message}`, {
      location: path,
      hint:
        path.endsWith(".ts") && /^ERR_(MODULE_NOT_FOUND|UNKNOWN_FILE_EXTENSION)$/.test((error as NodeJS.ErrnoException)?.code ?? "")
          ? "a .ts config may import packages and .js/.mjs files, not other .ts files"
          : undefined,
    });
  }
}

/**
 * Node 20 cannot import TypeScript, so a `specforge.config.ts` is transpiled (types stripped, nothing checked) to
 * an ES module and imported from a `data:` URL — nothing is written to disk. A `data:` module cannot resolve
 * relative or package specifiers itself, so they are rewritten to absolute URLs first: relative ones against the
 * config's folder, `specforge` to this very package, other packages as Node would find them from the config.
 */
async function transpileConfig(path: string): Promise<string> {
  const { default: ts } = await import("typescript");
  const source = readFileSync(path, "utf8");
  const { outputText, diagnostics = [] } = ts.transpileModule(source, {
    fileName: path,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
  });
  const syntaxError = diagnostics.find((d) => d.category === ts.DiagnosticCategory.Error);
  if (syntaxError) {
    const { line, character } = ts.getLineAndCharacterOfPosition(ts.createSourceFile(path, source, ts.ScriptTarget.ES2022), syntaxError.start ?? 0);
    throw new UserError(`invalid TypeScript in config file: ${ts.flattenDiagnosticMessageText(syntaxError.messageText, " ")}`, {
      location: formatPosition(path, line + 1, character + 1),
    });
  }
  const output = ts.createSourceFile("config.mjs", outputText, ts.ScriptTarget.ES2022, true);
  const edits: { start: number; end: number; text: string }[] = [];
  const visit = (node: import("typescript").Node) => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier
        ? node.moduleSpecifier
        : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
          ? node.arguments[0]
          : undefined;
    if (specifier && ts.isStringLiteral(specifier)) {
      const resolved = resolveConfigImport(specifier.text, path);
      if (resolved !== specifier.text) edits.push({ start: specifier.getStart(output), end: specifier.getEnd(), text: JSON.stringify(resolved) });
    }
    ts.forEachChild(node, visit);
  };
  visit(output);
  let code = outputText;
  for (const edit of edits.sort((a, b) => b.start - a.start)) code = code.slice(0, edit.start) + edit.text + code.slice(edit.end);
  return `data:text/javascript;base64,${Buffer.from(code).toString("base64")}`;
}

function resolveConfigImport(specifier: string, configPath: string): string {
  if (specifier.startsWith("./") || specifier.startsWith("../")) return pathToFileURL(resolve(dirname(configPath), specifier)).href;
  if (specifier === "specforge") return pathToFileURL(join(PACKAGE_ROOT, "dist", "src", "index.js")).href;
  if (isBuiltin(specifier) || /^[a-z][a-z0-9+.-]*:/i.test(specifier)) return specifier;
  try {
    return pathToFileURL(createRequire(configPath).resolve(specifier)).href;
  } catch {
    return specifier; // the import then fails with Node's own message, reported as a config error
  }
}

/** Flags whose name is not the config field's. */
const FLAG_NAMES: Record<string, string> = { refRoots: "ref-root", maxSpecFileBytes: "max-spec-file-bytes", stubs: "out", client: "client-style" };

/** Throws a UserError naming the field (or flag), what it must be and what it was. */
export function validateConfig(config: unknown, where: string): asserts config is UserConfig {
  if (config === null || typeof config !== "object" || Array.isArray(config)) {
    throw new UserError(`the config must be an object, got ${JSON.stringify(config)}`, { location: where });
  }
  const allowed =
    where === "command line"
      ? ["spec", "out", "outputs", "format", "form", "stubs", "refRoots", "maxSpecFileBytes", "client"]
      : where === API_OPTIONS
        ? ["spec", "out", "outputs", "format", "form", "adapters", "stubs", "refRoots", "maxSpecFileBytes", "fetch", "webhooks", "client", "schemas"]
        : ["spec", "out", "outputs", "format", "form", "adapters", "stubs", "refRoots", "maxSpecFileBytes", "fetch", "webhooks", "client", "schemas", "projects", "runtime"];
  const fromFlags = where === "command line";
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined) continue;
    const name = fromFlags ? `--${FLAG_NAMES[key] ?? key}` : where === API_OPTIONS ? `option \`${key}\`` : `config field \`${key}\``;
    const fail = (expected: string, hint?: string): never => {
      throw new UserError(`${name} ${expected}, got ${JSON.stringify(value)}`, { location: where, hint });
    };
    if (!allowed.includes(key)) fail(`is unknown (allowed: ${allowed.join(", ")})`, didYouMean(key, allowed, (k) => `\`${k}\``));
    if ((key === "spec" || key === "out" || key === "stubs" || key === "runtime") && (typeof value !== "string" || value.trim() === "")) fail("must be a path string");
    if (key === "spec") checkSpecUrl(value as string, name, where);
    if (key === "fetch") validateFetch(value, where);
    if (key === "client") validateClient(value, where);
    if (key === "schemas") validateSchemas(value, where);
    if (key === "webhooks") validateWebhooks(value, where);
    if (key === "format" && typeof value !== "boolean") fail("must be true or false");
    if (key === "form" && !OUTPUT_FORMS.includes(value as OutputForm)) fail(`must be one of: ${OUTPUT_FORMS.map((form) => JSON.stringify(form)).join(", ")}`);
    if (key === "refRoots" && (!Array.isArray(value) || value.some((v) => typeof v !== "string" || v === ""))) fail("must be a list of folder paths");
    if (key === "maxSpecFileBytes" && (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0)) fail("must be a positive whole number of bytes");
    if (key === "outputs") {
      if (!Array.isArray(value)) fail(`must be a list of: ${OUTPUT_KINDS.join(", ")}`);
      const wrong = (value as unknown[]).find((v) => !OUTPUT_KINDS.includes(v as OutputKind));
      if (wrong !== undefined) {
        throw new UserError(`${name}: ${JSON.stringify(wrong)} is not an output (allowed: ${OUTPUT_KINDS.join(", ")})`, { location: where });
      }
      for (const [output, needed] of Object.entries(NEEDS)) {
        if ((value as unknown[]).includes(output) && !(value as unknown[]).includes(needed)) {
          throw new UserError(`${name}: the ${output} output is built on the ${needed} output, which is not listed`, { location: where, hint: `add ${JSON.stringify(needed)}` });
        }
      }
    }
    if (key === "adapters") {
      if (!Array.isArray(value)) fail(`must be a list of: ${ADAPTERS.join(", ")}`);
      const wrong = (value as unknown[]).find((v) => !ADAPTERS.includes(v as AdapterName));
      if (wrong !== undefined) {
        throw new UserError(`${name}: ${JSON.stringify(wrong)} is not an adapter (allowed: ${ADAPTERS.join(", ")})`, {
          location: where,
          hint: typeof wrong === "string" ? didYouMean(wrong, ADAPTERS, (a) => `"${a}"`) : undefined,
        });
      }
    }
    if (key === "projects") validateProjects(value, where);
  }
  const { projects, spec, out, runtime } = config as UserConfig;
  if (runtime !== undefined && projects === undefined) {
    throw new UserError("config field `runtime` names the runtime folder that the config's `projects` share, and the config lists no `projects`", {
      location: `${pointerBase(where)}/runtime`,
      hint: "remove `runtime`: a single output keeps its runtime in its own folder (`out/runtime/`)",
    });
  }
  if (projects !== undefined) {
    const single = spec !== undefined ? "spec" : out !== undefined ? "out" : undefined;
    if (single) {
      throw new UserError(`config field \`${single}\` cannot be used with \`projects\`: each project names its own ${single}`, {
        location: where,
        hint: `move it into the project it belongs to`,
      });
    }
  }
}

const PROJECT_FIELDS = ["name", "spec", "out", "outputs", "format", "form", "adapters", "stubs", "fetch", "webhooks", "client", "schemas"];
const PROJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function validateProjects(value: unknown, where: string): void {
  const shape = "{ name, spec, out, outputs?, format?, form? }";
  if (!Array.isArray(value) || value.length === 0) {
    throw new UserError(`config field \`projects\` must be a non-empty list of ${shape}, got ${JSON.stringify(value)}`, { location: where });
  }
  const seen = new Set<string>();
  value.forEach((project: unknown, index) => {
    const at = (field?: string) => `${pointerBase(where)}/projects/${index}${field ? `/${field}` : ""}`;
    if (project === null || typeof project !== "object" || Array.isArray(project)) {
      throw new UserError(`a project must be an object ${shape}, got ${JSON.stringify(project)}`, { location: at() });
    }
    const fields = project as Record<string, unknown>;
    const label = typeof fields.name === "string" ? `project "${fields.name}"` : `project ${index}`;
    for (const [key, field] of Object.entries(fields)) {
      if (!PROJECT_FIELDS.includes(key)) {
        throw new UserError(`${label}: field \`${key}\` is unknown (allowed: ${PROJECT_FIELDS.join(", ")}), got ${JSON.stringify(field)}`, {
          location: at(key),
          hint: didYouMean(key, PROJECT_FIELDS, (k) => `\`${k}\``),
        });
      }
    }
    for (const key of ["name", "spec", "out"]) {
      const field = fields[key];
      if (typeof field !== "string" || field.trim() === "") {
        throw new UserError(`${label}: \`${key}\` is required and must be a ${key === "name" ? "name" : "path"} string, got ${JSON.stringify(field)}`, { location: at(key) });
      }
    }
    const name = fields.name as string;
    checkSpecUrl(fields.spec as string, `${label}: \`spec\``, at("spec"));
    if (!PROJECT_NAME.test(name)) {
      throw new UserError(`${label}: \`name\` may hold letters, digits, ".", "_" and "-" (and starts with a letter or digit)`, { location: at("name") });
    }
    if (seen.has(name)) throw new UserError(`${label}: another project has the same name`, { location: at("name") });
    seen.add(name);
    const { name: _name, spec: _spec, out: _out, ...options } = fields;
    try {
      validateConfig(options, at());
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      const field = Object.keys(options).find((k) => error.message.includes(`\`${k}\``) || error.message.includes(`\`${k}.`));
      throw new UserError(`${label}: ${error.message}`, { location: error.location?.startsWith(`${at()}/`) ? error.location : at(field), hint: error.hint });
    }
  });
}

/**
 * A spec URL is written to the manifest and shown in messages: it must not carry credentials (they go in a header,
 * from an environment variable), and a fragment would mean nothing.
 */
function checkSpecUrl(spec: string, name: string, where: string): void {
  if (!isHttpUrl(spec)) return;
  let url: URL;
  try {
    url = new URL(spec);
  } catch {
    throw new UserError(`${name} is not a valid URL, got ${JSON.stringify(spec)}`, { location: where });
  }
  if (url.username !== "" || url.password !== "") {
    throw new UserError(`${name} must not hold credentials (user:password@): the URL is written to the output's manifest`, {
      location: where,
      hint: "send them as a header whose value is read from an environment variable: `fetch.headers` in the config, or SPECFORGE_SPEC_TOKEN",
    });
  }
  if (url.hash !== "") throw new UserError(`${name} must not have a fragment (#…): it names a whole document, got ${JSON.stringify(spec)}`, { location: where });
}

const CLIENT_FIELDS = ["style", "resources"];
/** A dotted name of the resource-style client: property names that leave the objects what they are. */
const RESOURCE_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;

/** Checks `client` (see ClientConfig). */
function validateClient(value: unknown, where: string): void {
  const outside = where === "command line" || where === API_OPTIONS;
  const at = (...segments: string[]) => (outside ? where : `${pointerBase(where)}/${["client", ...segments].map(escapePointerSegment).join("/")}`);
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
  if (!isObject(value)) throw new UserError(`config field \`client\` must be an object { ${CLIENT_FIELDS.join(", ")} }, got ${JSON.stringify(value)}`, { location: at() });
  for (const key of Object.keys(value)) {
    if (!CLIENT_FIELDS.includes(key)) {
      throw new UserError(`config field \`client.${key}\` is unknown (allowed: ${CLIENT_FIELDS.join(", ")})`, { location: at(key), hint: didYouMean(key, CLIENT_FIELDS, (k) => `\`${k}\``) });
    }
  }
  if (value.style !== undefined && !CLIENT_STYLES.includes(value.style as ClientStyleName)) {
    const name = where === "command line" ? "--client-style" : "config field `client.style`";
    throw new UserError(`${name} must be one of: ${CLIENT_STYLES.join(", ")}, got ${JSON.stringify(value.style)}`, { location: at("style"), hint: didYouMean(String(value.style), [...CLIENT_STYLES], (k) => `"${k}"`) });
  }
  if (value.resources === undefined) return;
  if (typeof value.resources === "string") {
    if (value.resources.trim() === "" || value.resources.includes("\0")) {
      throw new UserError(`${where === "command line" ? "--client-resources" : "config field `client.resources`"} must be the path of a resource table (a stainless.yml-like file), got ${JSON.stringify(value.resources)}`, { location: at("resources") });
    }
    return;
  }
  if (!isObject(value.resources)) {
    throw new UserError('config field `client.resources` must map a path prefix, "METHOD /path", operationId or method name to a dotted name (like "chat.completions.create"), or be the path of a resource table (like "./stainless.yml")', { location: at("resources") });
  }
  for (const [key, name] of Object.entries(value.resources)) {
    if (key.trim() === "") throw new UserError("config field `client.resources`: a key is empty", { location: at("resources", key) });
    if (typeof name !== "string" || !RESOURCE_NAME.test(name)) {
      throw new UserError(`config field \`client.resources\`: ${JSON.stringify(key)} must name a dotted path of identifiers (like "admin.organization" or "beta.threads.createAndRun"), got ${JSON.stringify(name)}`, { location: at("resources", key) });
    }
    const unsafe = name.split(".").find((part) => UNSAFE_MEMBERS.has(part));
    if (unsafe !== undefined) {
      throw new UserError(`config field \`client.resources\`: ${JSON.stringify(key)} names a member \`${unsafe}\`, which would change what the client's objects are (awaitable, or their prototype)`, { location: at("resources", key), hint: `pick another name, such as \`${unsafe}_\`` });
    }
  }
}

const SCHEMAS_FIELDS = ["library"];

/** Checks `schemas` (see SchemasConfig). */
function validateSchemas(value: unknown, where: string): void {
  const at = (...segments: string[]) => (where === API_OPTIONS ? where : `${pointerBase(where)}/${["schemas", ...segments].join("/")}`);
  const name = where === API_OPTIONS ? "option `schemas" : "config field `schemas";
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new UserError(`${name}\` must be an object { library? }, got ${JSON.stringify(value)}`, { location: at() });
  }
  for (const [key, field] of Object.entries(value)) {
    if (!SCHEMAS_FIELDS.includes(key)) {
      throw new UserError(`${name}.${key}\` is unknown (allowed: ${SCHEMAS_FIELDS.join(", ")})`, { location: at(key), hint: didYouMean(key, SCHEMAS_FIELDS, (k) => `\`${k}\``) });
    }
    if (key === "library" && !SCHEMA_LIBRARIES.includes(field as SchemaLibrary)) {
      throw new UserError(`${name}.library\` must be one of: ${SCHEMA_LIBRARIES.map((library) => JSON.stringify(library)).join(", ")}, got ${JSON.stringify(field)}`, {
        location: at(key),
        hint: field === "standard" || field === "standard-schema" ? '"specforge" is the Standard Schema validators specforge generates (zod 4 schemas are Standard Schemas too)' : undefined,
      });
    }
  }
}

const WEBHOOKS_FIELDS = ["scheme", "schemes", "eventType"];

/** Checks `webhooks` (see WebhooksConfig): the scheme as the generated receiver will resolve it at start-up. */
function validateWebhooks(value: unknown, where: string): void {
  const at = (...segments: string[]) => (where === API_OPTIONS ? where : `${pointerBase(where)}/${["webhooks", ...segments].join("/")}`);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new UserError(`config field \`webhooks\` must be an object { ${WEBHOOKS_FIELDS.join(", ")} }, got ${JSON.stringify(value)}`, { location: at() });
  }
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!WEBHOOKS_FIELDS.includes(key)) {
      throw new UserError(`config field \`webhooks.${key}\` is unknown (allowed: ${WEBHOOKS_FIELDS.join(", ")})`, { location: at(key), hint: didYouMean(key, WEBHOOKS_FIELDS, (k) => `\`${k}\``) });
    }
  }
  if (fields.scheme !== undefined) {
    try {
      resolveScheme(fields.scheme as WebhookScheme, ALL_SCHEMES);
    } catch (error) {
      throw new UserError(`config field \`webhooks.scheme\`: ${(error as Error).message}`, { location: at("scheme") });
    }
  }
  const schemes = fields.schemes;
  if (schemes !== undefined) {
    const names = WEBHOOK_SCHEME_NAMES as readonly unknown[];
    const bad = Array.isArray(schemes) ? schemes.findIndex((name) => !names.includes(name)) : -1;
    if (!Array.isArray(schemes) || bad >= 0) {
      throw new UserError(
        `config field \`webhooks.schemes\` must be a list of scheme names (${WEBHOOK_SCHEME_NAMES.join(", ")}), got ${JSON.stringify(Array.isArray(schemes) ? schemes[bad] : schemes)}`,
        { location: Array.isArray(schemes) ? at("schemes", String(bad)) : at("schemes") },
      );
    }
  }
  const eventType = fields.eventType as Partial<WebhookEventTypeSpec> | undefined;
  if (
    eventType !== undefined &&
    (eventType === null || typeof eventType !== "object" || (eventType.in !== "body" && eventType.in !== "header") || typeof eventType.name !== "string" || eventType.name.trim() === "")
  ) {
    throw new UserError(`config field \`webhooks.eventType\` must be { in: "body" | "header", name }, got ${JSON.stringify(eventType)}`, {
      location: at("eventType"),
      hint: 'like { "in": "body", "name": "event" } or { "in": "header", "name": "x-github-event" }',
    });
  }
}

const FETCH_FIELDS = ["headers", "origins", "timeoutMs", "pollSeconds"];
/** RFC 9110 token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers fetch sets itself (or refuses): configuring them would be ignored or fail. */
const MANAGED_HEADERS = new Set(["host", "content-length", "connection", "transfer-encoding", "keep-alive", "upgrade", "if-none-match", "if-modified-since"]);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Checks `fetch` (see FetchConfig). A header's value is never echoed: it should name a variable, but may be a secret. */
function validateFetch(value: unknown, where: string): void {
  const at = (...segments: string[]) => (where === "command line" || where === API_OPTIONS ? where : `${pointerBase(where)}/${["fetch", ...segments].map(escapePointerSegment).join("/")}`);
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
  if (!isObject(value)) throw new UserError(`config field \`fetch\` must be an object { ${FETCH_FIELDS.join(", ")} }`, { location: at() });
  for (const key of Object.keys(value)) {
    if (!FETCH_FIELDS.includes(key)) {
      throw new UserError(`config field \`fetch.${key}\` is unknown (allowed: ${FETCH_FIELDS.join(", ")})`, { location: at(key), hint: didYouMean(key, FETCH_FIELDS, (k) => `\`${k}\``) });
    }
  }
  const checkHeaders = (headers: unknown, field: string, ...path: string[]) => {
    if (headers === undefined) return;
    if (!isObject(headers)) throw new UserError(`config field \`${field}\` must map header names to environment variable names`, { location: at(...path) });
    for (const [name, variable] of Object.entries(headers)) {
      if (!HEADER_NAME.test(name)) throw new UserError(`config field \`${field}\`: ${JSON.stringify(name)} is not a header name`, { location: at(...path, name) });
      if (MANAGED_HEADERS.has(name.toLowerCase())) throw new UserError(`config field \`${field}\`: ${name} is set by specforge itself and cannot be configured`, { location: at(...path, name) });
      if (typeof variable !== "string" || !ENV_NAME.test(variable)) {
        throw new UserError(`config field \`${field}.${name}\` must name the environment variable that holds the value (like "VENDOR_SPEC_TOKEN"), not the value itself`, {
          location: at(...path, name),
          hint: "secrets do not belong in the config file (it is committed): put the value in an environment variable (in CI, from a secret) and name it here",
        });
      }
    }
  };
  checkHeaders(value.headers, "fetch.headers", "headers");
  if (value.origins !== undefined) {
    if (!isObject(value.origins)) throw new UserError("config field `fetch.origins` must map origins (like \"https://schemas.example.com\") to { headers? }", { location: at("origins") });
    for (const [origin, access] of Object.entries(value.origins)) {
      let normal: string | undefined;
      try {
        normal = isHttpUrl(origin) ? new URL(origin).origin : undefined;
      } catch {
        normal = undefined;
      }
      if (normal !== origin) {
        throw new UserError(`config field \`fetch.origins\`: ${JSON.stringify(origin)} is not an origin (scheme://host[:port], nothing after it)`, {
          location: at("origins", origin),
          hint: normal ? `write ${JSON.stringify(normal)}` : 'like "https://schemas.example.com"',
        });
      }
      if (!isObject(access) || Object.keys(access).some((k) => k !== "headers")) {
        throw new UserError(`config field \`fetch.origins\`: ${origin} must be an object { headers? } ({} allows it without headers)`, { location: at("origins", origin) });
      }
      checkHeaders(access.headers, `fetch.origins["${origin}"].headers`, "origins", origin, "headers");
    }
  }
  if (value.timeoutMs !== undefined && (typeof value.timeoutMs !== "number" || !Number.isSafeInteger(value.timeoutMs) || value.timeoutMs <= 0)) {
    throw new UserError(`config field \`fetch.timeoutMs\` must be a positive whole number of milliseconds, got ${JSON.stringify(value.timeoutMs)}`, { location: at("timeoutMs") });
  }
  if (value.pollSeconds !== undefined && (typeof value.pollSeconds !== "number" || !Number.isFinite(value.pollSeconds) || value.pollSeconds < 0)) {
    throw new UserError(`config field \`fetch.pollSeconds\` must be a number of seconds (0: no polling), got ${JSON.stringify(value.pollSeconds)}`, { location: at("pollSeconds") });
  }
}
