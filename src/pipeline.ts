/**
 * The one path from a spec to files: load (src/load/: read or fetch, parse, bundle) → IR (src/ir/: the normalised
 * model) → emit (src/emit/: one emitter per output file, filling the file templates of templates/files/) → write
 * (src/write/: format, stamp, atomic write, drift). The CLI's commands, the programmatic API, `mock` and `webhook
 * test` all come through here; `check` also compares the spec with the version the output was generated from
 * (src/diff/).
 *
 * The stages that need TypeScript, openapi-typescript and ts-morph are imported when first used: `check` of an
 * up-to-date folder (the manifest proves it) never loads them.
 */
import { join, relative, resolve, sep } from "node:path";
import { assertSpecExists, type ResolvedConfig } from "./config/resolve.js";
import type { DiffResult } from "./diff/model.js";
import { UserError, formatPointer, toDisplayPath, type SpecWarning } from "./errors.js";
import type { ClientStyle } from "./emit/index.js";
import type { ApiModel } from "./ir/model.js";
import type { LoadedSpec } from "./load/index.js";
import type { LockedDocument, RemoteMode } from "./load/remote-documents.js";
import { readRegularFile } from "./load/read.js";
import { LockedCopyMissing } from "./load/remote.js";
import { isHttpUrl } from "./openapi/url.js";
import { sha256 } from "./package/hash.js";
import { traceMemory, traceTime } from "./package/memory-trace.js";
import { packageVersion } from "./package/root.js";
import { writeOutputFolder, type WriteHooks, type WriteSummary } from "./write/atomic.js";
import { inspectOutputFolder } from "./write/disk.js";
import { compareTrees, hasDrift, type DiffOptions, type Drift } from "./write/drift.js";
import { isProvablyCurrent, manifestDrift, runFingerprint } from "./write/fast-check.js";
import { MANIFEST_FILE, lockedDocuments, manifestInputs, pathFromOutput, readManifest, readManifestText, serializeManifest, type Manifest, type ManifestInput } from "./write/manifest.js";
import { stampTypeScript, type Provenance } from "./write/stamp.js";
import type { EmittedFile } from "./emit/file.js";
import type { EmitInputs, EmitOutputs } from "./emit/index.js";

/** The phases of a run, in order (`write` is the writer's, after rendering). */
export type Phase = "load" | "model" | "emit" | "format" | "write";

/** Milliseconds spent in each phase, in order. */
export type PhaseTimings = Record<string, number>;

export interface LoadOptions {
  /** Told every spec file the loader reads (absolute path), also when the run then fails. */
  onSpecFile?: (file: string) => void;
  /** Told when each phase starts (the progress line of a long run). */
  onPhase?: (phase: Phase) => void;
  /**
   * Where documents from URLs come from: `fetch` (the network, else the cache), `offline` (the cache), `locked`
   * (the versions the output folder's manifest locked, from the cache), `network` (the network alone). @default "fetch"
   */
  remote?: RemoteMode;
  /** The versions of documents from URLs the output was generated from (its manifest's). */
  lock?: ReadonlyMap<string, LockedDocument>;
  /** Stops fetching (watch mode ending). */
  signal?: AbortSignal;
}

/** A spec loaded and turned into the IR: what every command that reads a spec starts from. */
export interface LoadedModel {
  spec: LoadedSpec;
  model: ApiModel;
  /** The spec's path as messages show it (relative to cwd when inside it; a URL as it is). */
  specShown: string;
  /** Problems in the spec that did not stop loading, the loader's and the model builder's. */
  warnings: SpecWarning[];
}

/**
 * The spec a config names, a file (confined to its folder tree and `refRoots`) or a URL (fetched under the config's
 * `fetch` rules, kept in the cache), loaded and modelled.
 */
export async function loadModel(config: ResolvedConfig, options: LoadOptions = {}): Promise<LoadedModel> {
  options.onPhase?.("load");
  options.onSpecFile?.(config.spec); // watched even when missing: `generate --watch` waits for it to appear
  assertSpecExists(config);
  const { loadSpecSource } = await import("./load/remote-documents.js");
  const spec = await loadSpecSource(config, {
    mode: options.remote ?? "fetch",
    ...(options.lock ? { lock: options.lock } : {}),
    ...(options.onSpecFile ? { onRead: options.onSpecFile } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  options.onPhase?.("model");
  const { buildModel } = await import("./ir/build.js");
  const specShown = toDisplayPath(spec.entry, config.cwd);
  const model = buildModel(spec, specShown);
  return { spec, model, specShown, warnings: [...spec.warnings, ...model.warnings] };
}

/**
 * The client's style with the names of its resource table (`client.resources` as a path), read now: a table is
 * read with the spec, so that a run that fails on it writes nothing and `--watch` follows its edits.
 */
async function withResourceTable(config: ResolvedConfig, options: RenderOptions): Promise<ClientStyle> {
  const style = config.client;
  if (style.style !== "resources" || style.table === undefined) return style;
  options.onSpecFile?.(style.table);
  const { MAX_RESOURCE_TABLE_BYTES, readResourceTable } = await import("./load/resource-table.js");
  const table = readResourceTable(style.table, toDisplayPath(style.table, config.cwd), Math.min(MAX_RESOURCE_TABLE_BYTES, config.maxSpecFileBytes));
  return { ...style, resources: table.resources, tableMethods: table.methods, tableWarnings: table.warnings };
}

export interface Rendered {
  /** Every output file by relative path (forward slashes), the manifest included, formatted and stamped. */
  files: Map<string, string>;
  model: ApiModel;
  /** The spec as loaded (bundled document, files read). */
  spec: LoadedSpec;
  /** Milliseconds spent in each phase, in order: load (read, parse, bundle), model, emit, format. */
  timings: PhaseTimings;
  /** Problems in the spec that did not stop generation (see LoadedSpec.warnings). */
  warnings: SpecWarning[];
  /** Files the printer could not print, which prettier formatted: path and why (`--verbose` says so). */
  formattedByPrettier: [path: string, reason: string][];
  /** With a shared runtime folder (config `runtime`): the runtime modules this output imports, not yet formatted. */
  runtime?: EmittedFile[];
}

export type RenderOptions = Omit<LoadOptions, "lock">;

/**
 * Loads the spec and renders every output file in memory. Reads the spec's files (or fetches its documents, keeping
 * them in the cache) and the output folder's manifest (what is locked); writes nothing else.
 */
export async function render(config: ResolvedConfig, options: RenderOptions = {}): Promise<Rendered> {
  const timings: PhaseTimings = {};
  let current: Phase | undefined;
  let mark = performance.now();
  const enter = (phase: Phase) => {
    const now = performance.now();
    if (current) timings[current] = now - mark;
    [current, mark] = [phase, now];
    traceTime(`phase ${phase}`);
    options.onPhase?.(phase);
  };
  const previous = readManifest(config.out);
  // schema.ts is emitted on the second core while this thread emits the rest (src/types-thread.ts).
  const { startTypesThread } = await import("./types-thread.js");
  const typesThread = startTypesThread(config);
  traceTime("types thread started");
  let loaded: LoadedModel;
  try {
    loaded = await loadModel(config, { ...options, onPhase: enter, lock: lockedDocuments(previous) });
  } catch (error) {
    typesThread?.stop();
    throw error;
  }
  const { spec, model, specShown, warnings: loadWarnings } = loaded;
  traceMemory("loaded and modelled");
  let clientStyle: ClientStyle;
  try {
    clientStyle = await withResourceTable(config, options);
  } catch (error) {
    typesThread?.stop();
    throw error;
  }
  enter("emit");
  const { outputsForSpec } = await import("./emit/outputs.js");
  const chosen = outputsForSpec(model, config.outputs, config.outputsFrom);
  if (chosen.outputs.server || chosen.outputs.schemas) {
    // The regexes' analysis for the server on the second core while the types and the client are emitted here.
    const { startPatternThread } = await import("./pattern-thread.js");
    startPatternThread(model.document);
  }

  const types = typesThread?.emit(spec.files);
  const { OutputBudget, specBytes } = await import("./emit/budget.js");
  const budget = new OutputBudget(specBytes(spec.files), specShown);
  const { documentForTypes } = await import("./load/index.js");
  let emitted: EmitResult;
  try {
    emitted = await emitOutputs(config, model, chosen.outputs, { ...(types ? {} : { typesDocument: () => documentForTypes(spec.document) }), budget }, clientStyle);
  } catch (error) {
    typesThread?.stop();
    throw error;
  }
  traceMemory("emitted (main thread)");
  let runtime: EmittedFile[] | undefined;
  if (config.sharedRuntime) {
    // The runtime goes to the folder the config's projects share, written once by the caller (src/shared-runtime.ts).
    const { importSharedRuntime } = await import("./emit/runtime.js");
    ({ files: emitted.files, runtime } = importSharedRuntime(emitted.files, sharedRuntimeSpecifier(config.out, config.sharedRuntime.dir)));
  }
  if (types) {
    // undefined: the worker did not read the same files (see types-thread.ts); emitted here, the same function.
    const fromThread = await types;
    if (!fromThread) traceTime("the types thread read other files: schema.ts emitted here");
    const file = fromThread ?? (await import("./emit/types.js")).emitTypes(documentForTypes(spec.document), budget);
    budget.add(file.path, file.content);
    emitted.files.unshift(file);
  }
  traceMemory("types received");
  const warnings = [
    ...loadWarnings,
    ...(clientStyle.style === "resources" ? (clientStyle.tableWarnings ?? []) : []),
    ...chosen.warnings,
    ...emitted.warnings.map((warning) => ({ message: warning.message, location: warning.location ?? formatPointer(specShown, warning.pointer), hint: warning.hint })),
  ];
  enter("format");

  const inputs = Object.fromEntries(
    spec.files.map((f): [string, ManifestInput] => {
      const key = pathFromOutput(config.out, f.path);
      if (!f.remote) return [key, { sha256: f.sha256, gitBlob: f.gitBlob }];
      // The validators of the version as first locked: a server that sends a new ETag or Last-Modified for the same
      // bytes (a CDN node, a redeploy) does not rewrite the manifest.
      const before = previous?.inputs[key];
      const validators = before?.sha256 === f.sha256 ? before : f.remote;
      return [key, { sha256: f.sha256, ...(validators.etag !== undefined ? { etag: validators.etag } : {}), ...(validators.lastModified !== undefined ? { lastModified: validators.lastModified } : {}) }];
    }),
  );
  // Headers name only the generator: which spec bytes the output came from is the manifest's business, so an edit
  // of the spec rewrites only the files whose content it changes.
  const provenance = { generator: `specforge ${packageVersion()}` };
  const fingerprint = await runFingerprint(config, [...emitted.files.map((file) => file.path), MANIFEST_FILE]);
  const { files, formatManifest } = await formatFiles(emitted.files, config.out, config.format, provenance);

  const manifest: Manifest = {
    generator: provenance.generator,
    notice: "This folder is generated by specforge and owned by it: files here are replaced on every `specforge generate`.",
    spec: pathFromOutput(config.out, spec.entry),
    inputs,
    fingerprint,
    files: Object.fromEntries([...files].map(([path, content]) => [path, sha256(content)])),
  };
  files.set(MANIFEST_FILE, await formatManifest(serializeManifest(manifest)));
  timings.format = performance.now() - mark;
  traceMemory("formatted");
  const formattedByPrettier = emitted.files.flatMap((file): [string, string][] => (file.notCanonical === undefined ? [] : [[file.path, file.notCanonical]]));
  return { files, model, spec, timings, warnings, formattedByPrettier, ...(runtime ? { runtime } : {}) };
}

type EmitResult = ReturnType<typeof import("./emit/index.js").emitFiles>;

/** The emitters run on a model as the config asks (schema.ts only with `typesDocument`). */
async function emitOutputs(
  config: ResolvedConfig,
  model: ApiModel,
  outputs: EmitOutputs,
  inputs: Pick<EmitInputs, "typesDocument" | "budget">,
  clientStyle: ClientStyle = config.client,
): Promise<EmitResult> {
  const { emitFiles } = await import("./emit/index.js");
  const { fileTemplate, runtimeTemplates } = await import("./package/templates.js");
  return emitFiles(model, { ...outputs, adapters: config.adapters, clientStyle }, {
    ...inputs,
    schemasLibrary: config.schemas.library,
    templates: { file: fileTemplate, runtime: runtimeTemplates },
    webhooks: config.webhooks,
    form: config.form,
  });
}

/**
 * The runtime modules a project of a config with a shared runtime folder imports, without rendering its output:
 * its spec loaded (a document from a URL as its output folder locks it, when it has one) and its files emitted, the
 * types and formatting left out.
 */
export async function runtimeNeeds(config: ResolvedConfig): Promise<EmittedFile[]> {
  const lock = lockedDocuments(readManifest(config.out));
  const { model } = await loadModel(config, lock.size > 0 ? { remote: "locked", lock } : {});
  const { outputsForSpec } = await import("./emit/outputs.js");
  const { files } = await emitOutputs(config, model, outputsForSpec(model, config.outputs, config.outputsFrom).outputs, {});
  return files.filter((file) => file.path.startsWith("runtime/"));
}

/** How an output folder's files name a shared runtime folder: relative, forward slashes (`../runtime`). */
export function sharedRuntimeSpecifier(out: string, dir: string): string {
  return relative(out, dir).split(sep).join("/");
}

/**
 * Emitted files stamped with their header and formatted (by prettier with the folder's settings, or as their
 * canonical text where those are prettier's defaults), by path; and how the folder's manifest is formatted.
 */
export async function formatFiles(
  emitted: readonly EmittedFile[],
  out: string,
  format: boolean,
  provenance: Provenance,
): Promise<{ files: Map<string, string>; formatManifest: (text: string) => Promise<string> }> {
  const { createFormatter, layOutRetargetedImports } = await import("./write/format.js");
  const formatter = format ? await createFormatter(out, [...emitted.map((file) => file.path), MANIFEST_FILE]) : undefined;
  const formatted = await Promise.all(
    emitted.map(async (file) => {
      // The header is a plain block comment that prettier leaves as it is, so canonical text can be stamped as is.
      if (formatter && file.canonical !== undefined && (await formatter.usesDefaults(file.path))) {
        const canonical = file.retargeted ? await layOutRetargetedImports(file.canonical, file.retargeted, (statement) => formatter.format(file.path, statement)) : file.canonical;
        return [file.path, stampTypeScript(canonical, provenance, file.description, { noCheck: file.noCheck })] as const;
      }
      const stamped = stampTypeScript(file.content, provenance, file.description, { noCheck: file.noCheck });
      return [file.path, formatter ? await formatter.format(file.path, stamped) : stamped] as const;
    }),
  );
  const files = new Map([...formatted].sort(([a], [b]) => (a < b ? -1 : 1)));
  // JSON.stringify's two-space layout of objects and strings is prettier's with its defaults (test/write/format.test.ts).
  const formatManifest = async (text: string) => (!formatter || (await formatter.usesDefaults(MANIFEST_FILE)) ? text : formatter.format(MANIFEST_FILE, text));
  return { files, formatManifest };
}

export interface GenerateReport extends WriteSummary {
  /** The output folder as messages show it. */
  out: string;
  /** Every file now in the output folder, by relative path. */
  files: Map<string, string>;
  milliseconds: number;
  /** Milliseconds per phase: load, model, emit, format, write. */
  timings: PhaseTimings;
  /** Problems in the spec that did not stop generation; the CLI prints them on stderr. */
  warnings: SpecWarning[];
  /** Files the printer could not print, which prettier formatted: path and why. */
  formattedByPrettier: [path: string, reason: string][];
  /** The documents read from URLs: their version and how each was had (fetched, not modified, from the cache). */
  remoteDocuments: RemoteDocumentVersion[];
  /** With a shared runtime folder written by this run: what was written there. */
  sharedRuntime?: Omit<GenerateReport, "files">;
  /** With a shared runtime folder left to the caller: the runtime modules this output imports. */
  runtime?: EmittedFile[];
}

/** A document from a URL as one run used it. */
export interface RemoteDocumentVersion {
  url: string;
  sha256: string;
  etag?: string;
  lastModified?: string;
  source: "fetched" | "not-modified" | "cache";
}

export type GenerateHooks = WriteHooks &
  RenderOptions & {
    /**
     * With a shared runtime folder (config `runtime`): `write` it after the output folder (the union of what every
     * project of the config imports), or leave it to the caller, which writes it once for several projects generated
     * in parallel (the report then carries this project's modules). @default "write"
     */
    sharedRuntime?: "write" | "caller";
  };

/**
 * `specforge generate`: render in memory, then replace the output folder atomically; with a shared runtime folder,
 * then that folder too (the other projects' modules are emitted before anything is written).
 */
export async function runGenerate(config: ResolvedConfig, hooks: GenerateHooks = {}): Promise<GenerateReport> {
  const started = performance.now();
  traceTime("generate");
  const { files, timings, warnings, formattedByPrettier, spec, runtime } = await render(config, hooks);
  const shared = config.sharedRuntime && hooks.sharedRuntime !== "caller" ? config.sharedRuntime : undefined;
  const sharedModule = shared && (await import("./shared-runtime.js"));
  const renderShared = shared && (await sharedModule!.prepareSharedRuntime(shared, config.cwd, new Map([[config.project!, runtime ?? []]])));
  const remoteDocuments = spec.files.flatMap((f): RemoteDocumentVersion[] =>
    f.remote ? [{ url: f.path, sha256: f.sha256, source: f.remote.source, ...(f.remote.etag !== undefined ? { etag: f.remote.etag } : {}), ...(f.remote.lastModified !== undefined ? { lastModified: f.remote.lastModified } : {}) }] : [],
  );
  const out = toDisplayPath(config.out, config.cwd);
  hooks.onPhase?.("write");
  const writeStarted = performance.now();
  const summary = writeOutputFolder(config.out, out, files, hooks);
  const sharedRuntime = renderShared && (await sharedModule!.writeSharedRuntime(shared, config.cwd, renderShared));
  const finished = performance.now();
  traceTime("written");
  return {
    ...summary,
    out,
    files,
    warnings,
    formattedByPrettier,
    remoteDocuments,
    milliseconds: finished - started,
    timings: { ...timings, write: finished - writeStarted },
    ...(sharedRuntime ? { sharedRuntime } : {}),
    ...(runtime && hooks.sharedRuntime === "caller" ? { runtime } : {}),
  };
}

/**
 * What changed in the API since the output was generated (when the spec changed): the changes, or why they cannot
 * be shown (the old version is not in git).
 */
export type ApiExplanation = { kind: "changes"; result: DiffResult; from: string; to: string } | { kind: "unavailable"; reason: string };

export interface CheckReport {
  out: string;
  spec: string;
  drift: Drift;
  /** True when the manifest proved the output current without regenerating. */
  fast: boolean;
  /** The command that brings the output folder up to date. */
  fix: string;
  milliseconds: number;
  /** Present when the output is stale and the spec is not the one it was generated from. */
  api?: ApiExplanation;
  /**
   * Why the output could not be regenerated to compare with (the locked version of a document from a URL is not in
   * the cache): the drift is what the manifest's hashes prove, without diffs.
   */
  unverified?: string;
  /** `check --remote`: whether the documents from URLs are still the versions the output was generated from. */
  remote?: RemoteReport;
  /** With a shared runtime folder checked by this run: its report. */
  sharedRuntime?: CheckReport;
}

/** What `check --remote` found on the servers. */
export type RemoteReport =
  /** Nothing to ask: the spec reads no documents from URLs, or the output locks none yet. */
  | { kind: "none"; reason: string }
  | { kind: "unchanged"; documents: string[] }
  | { kind: "changed"; documents: DocumentChange[]; api: ApiExplanation };

/** A document from a URL whose version differs from the locked one (`before` absent: new; `after` absent: no longer read). */
export interface DocumentChange {
  url: string;
  before?: string;
  after?: string;
}

export interface RunCheckOptions {
  /** Regenerate and compare even when the manifest proves the output current. */
  regenerate?: boolean;
  /** The caller has just run isProvablyCurrent (a check of several projects), so it is not run twice. */
  provenCurrent?: boolean;
  /** Also ask the servers whether the documents from URLs are still the locked versions (`check --remote`). */
  remote?: boolean;
  /** Each stale file's whole diff (`check --diff`), not its first lines. */
  fullDiff?: boolean;
  /**
   * With a shared runtime folder (config `runtime`): `check` it too (the report's `sharedRuntime`), or leave it to
   * the caller, which checks it once for several projects. @default "check"
   */
  sharedRuntime?: "check" | "caller";
}

/**
 * `specforge check`: is the output folder exactly what `generate` would write? Writes nothing (but the cache). A
 * spec from a URL is the version the manifest locks, read from the cache: no network. With `remote`, the servers
 * are asked too.
 */
export async function runCheck(config: ResolvedConfig, options: RunCheckOptions = {}): Promise<CheckReport> {
  const started = performance.now();
  const out = toDisplayPath(config.out, config.cwd);
  const spec = toDisplayPath(config.spec, config.cwd);
  // The same config, project and flags that this check was given, so the fix regenerates exactly this output.
  const fix = ["npx specforge generate", ...(config.regenerateArgs ?? [])].join(" ");
  let report: CheckReport;
  if (!options.regenerate && (options.provenCurrent || (await isProvablyCurrent(config)))) {
    report = { out, spec, fast: true, fix, drift: { missing: [], extra: [], stale: [] }, milliseconds: 0 };
  } else {
    try {
      const { drift, spec: loaded } = await findDrift(config, out, { remote: "locked" }, { fullDiff: options.fullDiff });
      const api = hasDrift(drift) ? await explainSpecChange(config, loaded, spec) : undefined;
      report = { out, spec, fast: false, fix, drift, milliseconds: 0, ...(api ? { api } : {}) };
    } catch (error) {
      if (!(error instanceof LockedCopyMissing)) throw error;
      const drift = await manifestDrift(config, "the locked spec is not in the cache, so there is no diff");
      report = { out, spec, fast: false, fix, drift, milliseconds: 0, unverified: `${error.location}: ${error.message}` };
    }
  }
  if (options.remote) report.remote = await checkRemote(config, out, spec);
  if (config.sharedRuntime && options.sharedRuntime !== "caller") {
    const { checkSharedRuntime } = await import("./shared-runtime.js");
    report.sharedRuntime = await checkSharedRuntime(config.sharedRuntime, config.cwd, { fullDiff: options.fullDiff, regenerate: options.regenerate });
  }
  report.milliseconds = performance.now() - started;
  return report;
}

/**
 * `check --remote`: asks each server, conditionally with the locked version's validators, whether the document is
 * still that version (a 304, or the same bytes). When one changed, the spec is loaded as it is now and as it was
 * locked (from the cache), and compared: the API change report of `specforge diff`.
 */
async function checkRemote(config: ResolvedConfig, out: string, specShown: string): Promise<RemoteReport> {
  const manifest = readManifest(config.out);
  const lock = lockedDocuments(manifest);
  if (!manifest || lock.size === 0) {
    return { kind: "none", reason: isHttpUrl(config.spec) ? `${out}/ locks no version of ${specShown} yet: run \`specforge generate\`` : `${specShown} reads no documents from URLs` };
  }
  if (manifest.spec !== pathFromOutput(config.out, config.spec)) {
    return { kind: "none", reason: `${out}/ was generated from ${isHttpUrl(manifest.spec) ? manifest.spec : toDisplayPath(resolve(config.out, manifest.spec), config.cwd)}, not ${specShown}: run \`specforge generate\`` };
  }
  const [{ fetchPolicy, loadSpecSource, probeDocuments }, { RemoteCache }, { diffDocuments }] = await Promise.all([
    import("./load/remote-documents.js"),
    import("./load/remote-cache.js"),
    import("./diff/compare.js"),
  ]);
  const cache = new RemoteCache(config.fetch.cacheDir);
  // The ETag the manifest recorded, and the one the cache last saw for the same bytes (a CDN may send another for
  // them): If-None-Match takes a list, so either one answers 304.
  const known = new Map(
    [...lock].map(([url, locked]) => {
      const seen = cache.versions(url).find((version) => version.sha256 === locked.sha256)?.etag;
      const etags = [...new Set([locked.etag, seen].filter((etag): etag is string => etag !== undefined))];
      return [url, { ...locked, ...(etags.length > 0 ? { etag: etags.join(", ") } : {}) }] as const;
    }),
  );
  const results = await probeDocuments(known, fetchPolicy(config), cache);
  for (const result of results) if ("error" in result) throw result.error;
  if (!results.some((result) => "changed" in result && result.changed)) return { kind: "unchanged", documents: [...lock.keys()] };

  const current = await loadSpecSource(config, { mode: "network" });
  const now = new Map(current.files.filter((f) => f.remote).map((f) => [f.path, f.sha256]));
  const documents: DocumentChange[] = [];
  for (const [url, locked] of lock) {
    const after = now.get(url);
    if (after !== locked.sha256) documents.push({ url, before: locked.sha256, ...(after !== undefined ? { after } : {}) });
  }
  for (const [url, after] of now) if (!lock.has(url)) documents.push({ url, after });
  if (documents.length === 0) return { kind: "unchanged", documents: [...lock.keys()] };
  let api: ApiExplanation;
  try {
    const lockedEntry = isHttpUrl(manifest.spec) ? manifest.spec : resolve(config.out, manifest.spec);
    const previous = await loadSpecSource({ ...config, spec: lockedEntry }, { mode: "locked", lock });
    const label = toDisplayPath(lockedEntry, config.cwd);
    api = { kind: "changes", result: diffDocuments(previous.document, current.document), from: `${label} (as generated)`, to: `${specShown} (now)` };
  } catch (error) {
    if (!(error instanceof LockedCopyMissing)) throw error;
    api = { kind: "unavailable", reason: `${error.location}: ${error.message}` };
  }
  return { kind: "changed", documents, api };
}

/**
 * When the spec is not the one the manifest says the output was generated from, the API changes between the two.
 * The old version is read back from git by the blob ids the manifest records (see docs/ci.md, "`check` explains
 * itself"); undefined when the spec did not change (the drift comes from elsewhere: a hand edit, a generator upgrade).
 */
async function explainSpecChange(config: ResolvedConfig, current: LoadedSpec, specShown: string): Promise<ApiExplanation | undefined> {
  const manifestText = readManifestText(config.out);
  if (manifestText === undefined) return undefined;
  const recorded = manifestInputs(manifestText);
  if (!recorded) return undefined;
  if (Object.keys(recorded.inputs).some(isHttpUrl)) {
    // The documents from URLs are the locked versions here; what changed on the servers is `check --remote`'s.
    return { kind: "unavailable", reason: "the spec reads documents from URLs, which are not in git (`specforge check --remote` compares those with the servers)" };
  }
  const now = Object.fromEntries(current.files.map((f) => [pathFromOutput(config.out, f.path), f.sha256]));
  const before = Object.fromEntries(Object.entries(recorded.inputs).map(([path, input]) => [path, input.sha256]));
  if (recorded.spec === pathFromOutput(config.out, current.entry) && sameRecord(now, before)) return undefined;
  const [{ loadPreviousSpec }, { diffDocuments }] = await Promise.all([import("./load/git.js"), import("./diff/compare.js")]);
  const previous = loadPreviousSpec(config.out, recorded.spec, recorded.inputs);
  if ("unavailable" in previous) return { kind: "unavailable", reason: previous.unavailable };
  const from = toDisplayPath(resolve(config.out, recorded.spec), config.cwd);
  return { kind: "changes", result: diffDocuments(previous.spec.document, current.document), from: `${from} (as generated)`, to: specShown };
}

function sameRecord(a: Record<string, string | undefined>, b: Record<string, string | undefined>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** Compares a fresh in-memory generation with the output folder; also returns the spec as it was loaded. */
export async function findDrift(config: ResolvedConfig, outLabel: string, options: RenderOptions = {}, diff: DiffOptions = {}): Promise<{ drift: Drift; spec: LoadedSpec }> {
  const { files, spec } = await render(config, options);
  const state = inspectOutputFolder(config.out, outLabel, { allowForeign: true });
  if (state.kind === "owned" && !state.tree.has(MANIFEST_FILE)) {
    // Reporting drift here would end in "run `specforge generate`", which then refuses the folder.
    throw new UserError(`not an output folder of specforge (it has no ${MANIFEST_FILE}): \`specforge generate\` would refuse to write into it`, {
      location: outLabel,
      hint: "point --out (or `out` in the config) at the folder specforge generates, or at a new or empty one",
    });
  }
  const tree = state.kind === "owned" ? state.tree : new Map();
  const read = (path: string, maxBytes: number) => readRegularFile(join(config.out, path), maxBytes);
  return { drift: compareTrees(files, tree, read, outLabel, diff), spec };
}
