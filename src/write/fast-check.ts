import { lstatSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { DEFAULT_MAX_SPEC_FILE_BYTES, readRegularFile } from "../load/read.js";
import { generatorFingerprint, runtimeKindsFor, templatesFingerprint } from "../package/fingerprint.js";
import { sha256 } from "../package/hash.js";
import { listTree, type OutputTree } from "./disk.js";
import { formattingFingerprint } from "./format.js";
import { settingsEntriesNotFiles } from "./prettier-config.js";
import { UserError, toDisplayPath } from "../errors.js";
import { isHttpUrl } from "../openapi/url.js";
import type { Drift } from "./drift.js";
import { MANIFEST_FILE, pathFromOutput, readManifest, type Manifest } from "./manifest.js";

/** What of a run's settings decides its output besides the spec's bytes (a resolved config has all of it). */
export interface OutputSettings {
  /** Absolute path of the output folder. */
  out: string;
  /** Absolute path of the spec. */
  spec: string;
  /** Which outputs are generated. */
  outputs: Readonly<Record<string, boolean>>;
  /** The server's framework adapters generated. */
  adapters?: readonly string[];
  /** Whether files are formatted with prettier (the project's settings). */
  format: boolean;
  /** The client's style and the resource-style client's names (absent: flat), with the path of their resource table. */
  client?: { style: string; table?: string } | undefined;
  /** Options of the `schemas` output. */
  schemas: { library: string };
  /** How the modules are written: TypeScript, or JavaScript and declarations. */
  form: string;
  /** The folder paths in messages are relative to. */
  cwd?: string;
  /** The largest spec file read (a spec file larger than this cannot be the one the manifest records). */
  maxSpecFileBytes?: number;
  /** A runtime folder shared with other projects (config `runtime`), which the output's files import by path. */
  sharedRuntime?: { dir: string } | undefined;
}

/**
 * Whether each local spec file the manifest records still has the recorded SHA-256. A spec file may be a link (it is
 * the user's), but only a regular file of at most the spec size limit is read: anything else counts as changed.
 */
function localInputsUnchanged(settings: OutputSettings, manifest: Manifest): boolean {
  const max = settings.maxSpecFileBytes ?? DEFAULT_MAX_SPEC_FILE_BYTES;
  return Object.entries(manifest.inputs).every(([path, input]) => {
    if (isHttpUrl(path)) return true;
    const bytes = readRegularFile(join(settings.out, path), max, { followLinks: true });
    return bytes !== undefined && sha256(bytes) === input.sha256;
  });
}

/**
 * The SHA-256 of a file of the output folder that the manifest lists, when it is a regular file no larger than an
 * output file can be (MAX_OUTPUT_FILE_BYTES): undefined for anything else, which is then not the file `generate` wrote.
 */
function outputFileHash(out: string, tree: OutputTree, path: string): string | undefined {
  const entry = tree.get(path);
  if (entry?.kind !== "file" || entry.bytes > MAX_OUTPUT_FILE_BYTES) return undefined;
  const bytes = readRegularFile(join(out, path), MAX_OUTPUT_FILE_BYTES);
  return bytes && sha256(bytes);
}

/** No file specforge writes is larger (the output as a whole is capped relative to the spec: see emit/budget.ts). */
export const MAX_OUTPUT_FILE_BYTES = 256 * 1024 * 1024;

/** The entries of the output folder, or none when there is no folder there (a link is not one). */
function outputTree(out: string): OutputTree {
  try {
    if (!lstatSync(out).isDirectory()) return new Map();
  } catch {
    return new Map();
  }
  return listTree(out);
}

/**
 * Everything besides the spec that decides the output of a run: the generator and its templates, the options, and
 * the prettier settings of every output file (`files`: paths relative to the output folder, the manifest included).
 */
export async function runFingerprint(settings: OutputSettings, files: readonly string[]): Promise<string> {
  const unreadable = settings.format ? settingsEntriesNotFiles(settings.out, files) : [];
  if (unreadable.length > 0) {
    const shown = `${settings.cwd === undefined ? settings.out : toDisplayPath(settings.out, settings.cwd)}/${unreadable[0]}`;
    throw new UserError("this entry of the output folder, where prettier looks for settings, is not a regular file (a link, a FIFO or a device): specforge does not let prettier read it", {
      location: shown,
      hint: "remove it: the output folder holds generated files only (the project's prettier settings belong above it)",
    });
  }
  return sha256(
    JSON.stringify({
      generator: generatorFingerprint(),
      templates: templatesFingerprint(runtimeKindsFor(settings.outputs, settings.adapters)),
      outputs: settings.outputs,
      ...(settings.adapters?.length ? { adapters: settings.adapters } : {}),
      // (Only when it is not the default, so that a flat client's fingerprint is what it was before styles existed.)
      ...(settings.client && settings.client.style !== "flat" ? { client: clientSettings(settings.client, settings.maxSpecFileBytes ?? DEFAULT_MAX_SPEC_FILE_BYTES) } : {}),
      format: settings.format,
      schemas: settings.outputs.schemas ? settings.schemas : undefined,
      form: settings.form,
      // (Only with a shared runtime folder: where it is, relative to the output, is in every file's imports.)
      ...(settings.sharedRuntime ? { sharedRuntime: relative(settings.out, settings.sharedRuntime.dir).split(sep).join("/") } : {}),
      prettier: settings.format ? await formattingFingerprint(settings.out, files) : null,
    }),
  );
}

/**
 * The client's settings as they decide the output: a resource table by its bytes, not where it is (the output does
 * not change when the checkout moves, and does when the table is edited); null when it cannot be read.
 */
function clientSettings(client: { style: string; table?: string }, maxBytes: number): object {
  const { table, ...rest } = client;
  if (table === undefined) return rest;
  const bytes = readRegularFile(table, maxBytes, { followLinks: true });
  return { ...rest, table: bytes ? sha256(bytes) : null };
}

/**
 * The fast path of `check`: when the manifest in the output folder was written for these exact spec bytes, this
 * generator, these options and these prettier settings, and every file on disk still has the hash it was written
 * with, the output is current without regenerating. Returns false whenever any of that cannot be shown.
 *
 * A document from a URL is taken as the version the manifest locks: `check` verifies the output against the
 * locked document, never the network (`check --remote` asks the server).
 */
export async function isProvablyCurrent(settings: OutputSettings): Promise<boolean> {
  const manifest = readManifest(settings.out);
  if (!manifest) return false;
  if (manifest.spec !== pathFromOutput(settings.out, settings.spec)) return false;
  if (!localInputsUnchanged(settings, manifest)) return false;
  if (manifest.fingerprint !== (await runFingerprint(settings, [...Object.keys(manifest.files), MANIFEST_FILE]))) return false;
  return holdsManifestFiles(settings.out, manifest);
}

/** Whether the folder holds exactly the manifest and the files it lists, each with the recorded hash. */
export function holdsManifestFiles(out: string, manifest: Manifest): boolean {
  const tree = outputTree(out);
  if (tree.size !== Object.keys(manifest.files).length + 1 || tree.get(MANIFEST_FILE)?.kind !== "file") return false;
  return Object.entries(manifest.files).every(([path, hash]) => outputFileHash(out, tree, path) === hash);
}

/**
 * The drift that the manifest alone proves, for when the output cannot be regenerated to compare with (a spec from a
 * URL whose locked version is not in the cache): files missing, added or changed since `generate` wrote them (by
 * the hashes the manifest records), and the manifest itself when the spec, the generator, the options or a local
 * spec file are not the ones it records. There are no diffs to show.
 */
export async function manifestDrift(settings: OutputSettings, note: string): Promise<Drift> {
  const manifest = readManifest(settings.out);
  if (!manifest) return { missing: [MANIFEST_FILE], extra: [], stale: [] };
  const tree = outputTree(settings.out);
  const missing = Object.keys(manifest.files).filter((path) => !tree.has(path));
  const extra = [...tree.keys()].filter((path) => path !== MANIFEST_FILE && !Object.hasOwn(manifest.files, path));
  const stale: Drift["stale"] = [];
  const notFiles: Record<string, string> = {};
  for (const [path, entry] of tree) if (entry.kind === "other") notFiles[path] = entry.what;
  for (const [path, hash] of Object.entries(manifest.files)) {
    if (tree.has(path) && outputFileHash(settings.out, tree, path) !== hash) stale.push({ path, diff: `(${path} is not the file \`generate\` wrote; ${note})` });
  }
  const fingerprint = await runFingerprint(settings, [...Object.keys(manifest.files), MANIFEST_FILE]);
  const recordsOther = manifest.spec !== pathFromOutput(settings.out, settings.spec) || manifest.fingerprint !== fingerprint || !localInputsUnchanged(settings, manifest);
  if (recordsOther || missing.length + extra.length + stale.length === 0) stale.unshift({ path: MANIFEST_FILE, diff: "" });
  return { missing, extra, stale, ...(Object.keys(notFiles).length > 0 ? { notFiles } : {}) };
}
