/**
 * The one path from a spec to files: load (src/load/: read, parse, bundle) → IR (src/ir/: the normalised model) →
 * emit (src/emit/: one emitter per output file, filling the file templates of templates/files/) → write (src/write/:
 * format, stamp, atomic write, drift). The CLI's commands, the programmatic API, `mock` and `webhook test` all come
 * through here.
 *
 * The stages that need TypeScript, openapi-typescript and ts-morph are imported when first used: `check` of an
 * up-to-date folder (the manifest proves it) never loads them.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { assertSpecExists, type ResolvedConfig } from "./config/resolve.js";
import { UserError, formatPointer, toDisplayPath, type SpecWarning } from "./errors.js";
import type { ApiModel } from "./ir/model.js";
import type { LoadedSpec } from "./load/index.js";
import { sha256 } from "./package/hash.js";
import { packageVersion } from "./package/root.js";
import { writeOutputFolder, type WriteHooks, type WriteSummary } from "./write/atomic.js";
import { inspectOutputFolder } from "./write/disk.js";
import { compareTrees, type Drift } from "./write/drift.js";
import { isProvablyCurrent, runFingerprint } from "./write/fast-check.js";
import { MANIFEST_FILE, pathFromOutput, serializeManifest, type Manifest } from "./write/manifest.js";
import { stampTypeScript } from "./write/stamp.js";

/** The phases of a run, in order (`write` is the writer's, after rendering). */
export type Phase = "load" | "model" | "emit" | "format" | "write";

/** Milliseconds spent in each phase, in order. */
export type PhaseTimings = Record<string, number>;

export interface LoadOptions {
  /** Told every spec file the loader reads (absolute path), also when the run then fails. */
  onSpecFile?: (file: string) => void;
  /** Told when each phase starts (the progress line of a long run). */
  onPhase?: (phase: Phase) => void;
}

/** A spec loaded and turned into the IR: what every command that reads a spec starts from. */
export interface LoadedModel {
  spec: LoadedSpec;
  model: ApiModel;
  /** The spec's path as messages show it (relative to cwd when inside it). */
  specShown: string;
  /** Problems in the spec that did not stop loading, the loader's and the model builder's. */
  warnings: SpecWarning[];
}

/** The spec a config names, loaded (confined to its folder tree and `refRoots`) and modelled. */
export async function loadModel(config: ResolvedConfig, options: LoadOptions = {}): Promise<LoadedModel> {
  options.onPhase?.("load");
  options.onSpecFile?.(config.spec); // watched even when missing: `generate --watch` waits for it to appear
  assertSpecExists(config);
  const { loadSpec } = await import("./load/index.js");
  const spec = loadSpec(config.spec, config.cwd, { onRead: options.onSpecFile, refRoots: config.refRoots, maxSpecFileBytes: config.maxSpecFileBytes });
  options.onPhase?.("model");
  const { buildModel } = await import("./ir/build.js");
  const specShown = toDisplayPath(spec.entry, config.cwd);
  const model = buildModel(spec, specShown);
  return { spec, model, specShown, warnings: [...spec.warnings, ...model.warnings] };
}

export interface Rendered {
  /** Every output file by relative path (forward slashes), the manifest included, formatted and stamped. */
  files: Map<string, string>;
  model: ApiModel;
  /** Milliseconds spent in each phase, in order: load (read, parse, bundle), model, emit, format. */
  timings: PhaseTimings;
  /** Problems in the spec that did not stop generation (see LoadedSpec.warnings). */
  warnings: SpecWarning[];
  /** Files the printer could not print, which prettier formatted: path and why (`--verbose` says so). */
  formattedByPrettier: [path: string, reason: string][];
}

export type RenderOptions = LoadOptions;

/** Loads the spec and renders every output file in memory. Touches no file outside the spec's. */
export async function render(config: ResolvedConfig, options: RenderOptions = {}): Promise<Rendered> {
  const timings: PhaseTimings = {};
  let current: Phase | undefined;
  let mark = performance.now();
  const enter = (phase: Phase) => {
    const now = performance.now();
    if (current) timings[current] = now - mark;
    [current, mark] = [phase, now];
    options.onPhase?.(phase);
  };
  const { spec, model, specShown, warnings: loadWarnings } = await loadModel(config, { onSpecFile: options.onSpecFile, onPhase: enter });
  enter("emit");

  const { emitFiles } = await import("./emit/index.js");
  const { fileTemplate, runtimeTemplates } = await import("./package/templates.js");
  const { typesDocument } = await import("./load/index.js");
  const emitted = emitFiles(model, config.outputs, {
    typesDocument: () => typesDocument(spec.document),
    templates: { file: fileTemplate, runtime: runtimeTemplates },
  });
  const warnings = [
    ...loadWarnings,
    ...emitted.warnings.map((warning) => ({ message: warning.message, location: formatPointer(specShown, warning.pointer), hint: warning.hint })),
  ];
  enter("format");

  const inputs = Object.fromEntries(spec.files.map((f) => [pathFromOutput(config.out, f.path), f.sha256]));
  const provenance = {
    generator: `specforge ${packageVersion()}`,
    spec: pathFromOutput(config.out, spec.entry),
    specHash: sha256(JSON.stringify(inputs)).slice(0, 16),
  };
  const fingerprint = await runFingerprint(config, [...emitted.files.map((file) => file.path), MANIFEST_FILE]);
  const files = new Map<string, string>();
  const { createFormatter } = await import("./write/format.js");
  const formatter = config.format ? await createFormatter(config.out) : undefined;
  const formatted = await Promise.all(
    emitted.files.map(async (file) => {
      // The header is a plain block comment that prettier leaves as it is, so canonical text can be stamped as is.
      if (formatter && file.canonical !== undefined && (await formatter.usesDefaults(file.path))) {
        return [file.path, stampTypeScript(file.canonical, provenance, file.description, { noCheck: file.noCheck })] as const;
      }
      const stamped = stampTypeScript(file.content, provenance, file.description, { noCheck: file.noCheck });
      return [file.path, formatter ? await formatter.format(file.path, stamped) : stamped] as const;
    }),
  );
  for (const [path, content] of [...formatted].sort(([a], [b]) => (a < b ? -1 : 1))) files.set(path, content);

  const manifest: Manifest = {
    generator: provenance.generator,
    notice: "This folder is generated by specforge and owned by it: files here are replaced on every `specforge generate`.",
    spec: provenance.spec,
    inputs,
    fingerprint,
    files: Object.fromEntries([...files].map(([path, content]) => [path, sha256(content)])),
  };
  const manifestText = serializeManifest(manifest);
  files.set(MANIFEST_FILE, formatter ? await formatter.format(MANIFEST_FILE, manifestText) : manifestText);
  timings.format = performance.now() - mark;
  const formattedByPrettier = emitted.files.flatMap((file): [string, string][] => (file.notCanonical === undefined ? [] : [[file.path, file.notCanonical]]));
  return { files, model, timings, warnings, formattedByPrettier };
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
}

export type GenerateHooks = WriteHooks & RenderOptions;

/** `specforge generate`: render in memory, then replace the output folder atomically. */
export async function runGenerate(config: ResolvedConfig, hooks: GenerateHooks = {}): Promise<GenerateReport> {
  const started = performance.now();
  const { files, timings, warnings, formattedByPrettier } = await render(config, hooks);
  const out = toDisplayPath(config.out, config.cwd);
  hooks.onPhase?.("write");
  const writeStarted = performance.now();
  const summary = writeOutputFolder(config.out, out, files, hooks);
  const finished = performance.now();
  return { ...summary, out, files, warnings, formattedByPrettier, milliseconds: finished - started, timings: { ...timings, write: finished - writeStarted } };
}

export interface CheckReport {
  out: string;
  spec: string;
  drift: Drift;
  /** True when the manifest proved the output current without regenerating. */
  fast: boolean;
  /** The command that brings the output folder up to date. */
  fix: string;
  milliseconds: number;
}

/** `specforge check`: is the output folder exactly what `generate` would write? Writes nothing. */
export async function runCheck(config: ResolvedConfig, options: { regenerate?: boolean; provenCurrent?: boolean } = {}): Promise<CheckReport> {
  const started = performance.now();
  const out = toDisplayPath(config.out, config.cwd);
  const spec = toDisplayPath(config.spec, config.cwd);
  // The same config, project and flags that this check was given, so the fix regenerates exactly this output.
  const fix = ["npx specforge generate", ...(config.regenerateArgs ?? [])].join(" ");
  // provenCurrent: the caller has just run isProvablyCurrent (a check of several projects), so it is not run twice.
  if (!options.regenerate && (options.provenCurrent || (await isProvablyCurrent(config)))) {
    return { out, spec, fast: true, fix, drift: { missing: [], extra: [], stale: [] }, milliseconds: performance.now() - started };
  }
  const drift = await findDrift(config, out);
  return { out, spec, fast: false, fix, drift, milliseconds: performance.now() - started };
}

/** Compares a fresh in-memory generation with the output folder. */
export async function findDrift(config: ResolvedConfig, outLabel: string): Promise<Drift> {
  const { files } = await render(config);
  const state = existsSync(config.out) ? inspectOutputFolder(config.out, outLabel, { allowForeign: true }) : undefined;
  if (state?.kind === "owned" && !existsSync(join(config.out, MANIFEST_FILE))) {
    // Reporting drift here would end in "run `specforge generate`", which then refuses the folder.
    throw new UserError(`not an output folder of specforge (it has no ${MANIFEST_FILE}): \`specforge generate\` would refuse to write into it`, {
      location: outLabel,
      hint: "point --out (or `out` in the config) at the folder specforge generates, or at a new or empty one",
    });
  }
  const onDisk = state?.kind === "owned" ? state.files : new Map<string, Buffer>();
  return compareTrees(files, onDisk, outLabel);
}
