import { existsSync } from "node:fs";
import { join } from "node:path";
import { assertSpecExists, type ResolvedConfig } from "./config/resolve.js";
import type { EmittedFile } from "./emit/file.js";
import { UserError, formatPointer, type SpecWarning } from "./errors.js";
import type { EmitterWarning } from "./emit/server-patterns.js";
import { emitIndex, type ModuleExports } from "./emit/index-file.js";
import { emitClient } from "./emit/client.js";
import { emitServer } from "./emit/server.js";
import { emitTypes } from "./emit/types.js";
import { emitWebhooks } from "./emit/webhooks.js";
import { packageVersion } from "./fingerprint.js";
import { buildModel } from "./ir/build.js";
import type { ApiModel } from "./ir/model.js";
import { toDisplayPath, type LoadedSpec } from "./load/index.js";
import { loadSpecSource, type RemoteMode } from "./load/remote-documents.js";
import { inspectOutputFolder } from "./write/disk.js";
import { compareTrees, type Drift } from "./write/drift.js";
import { createFormatter } from "./write/format.js";
import { runtimeFiles } from "./templates.js";
import { runFingerprint } from "./write/fast-check.js";
import { MANIFEST_FILE, lockedDocuments, pathFromOutput, readManifest, serializeManifest, sha256, type Manifest, type ManifestInput } from "./write/manifest.js";
import { stampTypeScript } from "./write/stamp.js";

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
}

export type PhaseTimings = Record<string, number>;

/** The phases of a run, in order (`write` is the writer's, after rendering). */
export type Phase = "load" | "model" | "emit" | "format" | "write";

export interface RenderOptions {
  /** Told every spec file the loader reads (absolute path), also when the run then fails. */
  onSpecFile?: (file: string) => void;
  /** Told when each phase starts (the progress line of a long run). */
  onPhase?: (phase: Phase) => void;
  /**
   * Where documents from URLs come from: `fetch` (the network, else the cache), `offline` (the cache), `locked`
   * (the versions the output folder's manifest locked, from the cache), `network` (the network alone). @default "fetch"
   */
  remote?: RemoteMode;
  /** Stops fetching (watch mode ending). */
  signal?: AbortSignal;
}

/** Emitters, in output order. Each returns the files it adds, what index.ts should re-export, and its warnings. */
type Emitter = (model: ApiModel) => { files: EmittedFile[]; exports?: ModuleExports; warnings?: EmitterWarning[] };

function emittersFor(config: ResolvedConfig): Emitter[] {
  const list: Emitter[] = [(model) => ({ files: [emitTypes(model)] })];
  if (config.outputs.client) {
    list.push(emitClient, () => ({ files: runtimeFiles("client") }));
  }
  if (config.outputs.server) {
    list.push(emitServer, () => ({ files: runtimeFiles("server") }));
  }
  if (config.outputs.webhooks) {
    list.push((model) => (model.webhooks.length > 0 ? emitWebhooks(model) : { files: [] }));
    list.push((model) => ({ files: model.webhooks.length > 0 ? runtimeFiles("webhooks") : [] }));
  }
  return list;
}

/**
 * Loads the spec and renders every output file in memory. Reads the spec's files (or fetches its documents, keeping
 * them in the cache) and the output folder's manifest (what is locked); writes nothing else.
 */
export async function render(config: ResolvedConfig, options: RenderOptions = {}): Promise<Rendered> {
  const timings: PhaseTimings = {};
  let mark = performance.now();
  const phase = (name: string) => {
    const now = performance.now();
    timings[name] = now - mark;
    mark = now;
  };
  options.onSpecFile?.(config.spec); // watched even when missing: `generate --watch` waits for it to appear
  options.onPhase?.("load");
  assertSpecExists(config);
  const previous = readManifest(config.out);
  const spec = await loadSpecSource(config, {
    mode: options.remote ?? "fetch",
    lock: lockedDocuments(previous),
    ...(options.onSpecFile ? { onRead: options.onSpecFile } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  phase("load");
  options.onPhase?.("model");
  const specShown = toDisplayPath(spec.entry, config.cwd);
  const model = buildModel(spec, specShown);
  phase("model");
  options.onPhase?.("emit");

  const emitted: EmittedFile[] = [];
  const exports: ModuleExports[] = [];
  const warnings = [...spec.warnings, ...model.warnings];
  for (const emit of emittersFor(config)) {
    const result = emit(model);
    emitted.push(...result.files);
    if (result.exports) exports.push(result.exports);
    for (const warning of result.warnings ?? []) warnings.push({ message: warning.message, location: formatPointer(specShown, warning.pointer), hint: warning.hint });
  }
  emitted.push(emitIndex(exports));
  phase("emit");
  options.onPhase?.("format");

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
  const fingerprint = await runFingerprint(config);
  const files = new Map<string, string>();
  const formatter = config.format ? await createFormatter(config.out) : undefined;
  const formatted = await Promise.all(
    emitted.map(async (file) => {
      // The header is a plain block comment that prettier leaves as it is, so canonical text can be stamped as is.
      if (formatter?.defaults && file.canonical !== undefined) {
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
    spec: pathFromOutput(config.out, spec.entry),
    inputs,
    fingerprint,
    files: Object.fromEntries([...files].map(([path, content]) => [path, sha256(content)])),
  };
  const manifestText = serializeManifest(manifest);
  files.set(MANIFEST_FILE, formatter ? await formatter.format(MANIFEST_FILE, manifestText) : manifestText);
  phase("format");
  return { files, model, spec, timings, warnings };
}

/** Compares a fresh in-memory generation with the output folder; also returns the spec as it was loaded. */
export async function findDrift(config: ResolvedConfig, outLabel: string, options: RenderOptions = {}): Promise<{ drift: Drift; spec: LoadedSpec }> {
  const { files, spec } = await render(config, options);
  const state = existsSync(config.out) ? inspectOutputFolder(config.out, outLabel, { allowForeign: true }) : undefined;
  if (state?.kind === "owned" && !existsSync(join(config.out, MANIFEST_FILE))) {
    // Reporting drift here would end in "run `specforge generate`", which then refuses the folder.
    throw new UserError(`not an output folder of specforge (it has no ${MANIFEST_FILE}): \`specforge generate\` would refuse to write into it`, {
      location: outLabel,
      hint: "point --out (or `out` in the config) at the folder specforge generates, or at a new or empty one",
    });
  }
  const onDisk = state?.kind === "owned" ? state.files : new Map<string, Buffer>();
  return { drift: compareTrees(files, onDisk, outLabel), spec };
}
