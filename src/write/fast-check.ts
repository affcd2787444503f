import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { generatorFingerprint, runtimeKindsOf, templatesFingerprint } from "../package/fingerprint.js";
import { sha256 } from "../package/hash.js";
import { readTree } from "./disk.js";
import { formattingFingerprint } from "./format.js";
import { isHttpUrl } from "../openapi/url.js";
import type { Drift } from "./drift.js";
import { MANIFEST_FILE, parseManifest, pathFromOutput, readManifest } from "./manifest.js";

/** What of a run's settings decides its output besides the spec's bytes (a resolved config has all of it). */
export interface OutputSettings {
  /** Absolute path of the output folder. */
  out: string;
  /** Absolute path of the spec. */
  spec: string;
  /** Which outputs are generated. */
  outputs: Readonly<Record<string, boolean>>;
  /** Whether files are formatted with prettier (the project's settings). */
  format: boolean;
  /** Options of the `schemas` output. */
  schemas: { library: string };
}

/**
 * Everything besides the spec that decides the output of a run: the generator and its templates, the options, and
 * the prettier settings of every output file (`files`: paths relative to the output folder, the manifest included).
 */
export async function runFingerprint(settings: OutputSettings, files: readonly string[]): Promise<string> {
  return sha256(
    JSON.stringify({
      generator: generatorFingerprint(),
      templates: templatesFingerprint(runtimeKindsOf(settings.outputs)),
      outputs: settings.outputs,
      format: settings.format,
      schemas: settings.outputs.schemas ? settings.schemas : undefined,
      prettier: settings.format ? await formattingFingerprint(settings.out, files) : null,
    }),
  );
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
  const manifestPath = join(settings.out, MANIFEST_FILE);
  if (!existsSync(manifestPath)) return false;
  const manifest = parseManifest(readFileSync(manifestPath, "utf8"));
  if (!manifest) return false;
  if (manifest.spec !== pathFromOutput(settings.out, settings.spec)) return false;
  for (const [path, input] of Object.entries(manifest.inputs)) {
    if (isHttpUrl(path)) continue;
    const absolute = join(settings.out, path);
    if (!existsSync(absolute) || sha256(readFileSync(absolute)) !== input.sha256) return false;
  }
  if (manifest.fingerprint !== (await runFingerprint(settings, [...Object.keys(manifest.files), MANIFEST_FILE]))) return false;
  const onDisk = readTree(settings.out);
  if (onDisk.size !== Object.keys(manifest.files).length + 1) return false;
  for (const [path, hash] of Object.entries(manifest.files)) {
    const content = onDisk.get(path);
    if (!content || sha256(content) !== hash) return false;
  }
  return true;
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
  const onDisk = existsSync(settings.out) ? readTree(settings.out) : new Map<string, Buffer>();
  const missing = Object.keys(manifest.files).filter((path) => !onDisk.has(path));
  const extra = [...onDisk.keys()].filter((path) => path !== MANIFEST_FILE && !Object.hasOwn(manifest.files, path));
  const stale: Drift["stale"] = [];
  for (const [path, hash] of Object.entries(manifest.files)) {
    const content = onDisk.get(path);
    if (content && sha256(content) !== hash) stale.push({ path, diff: `(${path} is not the file \`generate\` wrote; ${note})` });
  }
  const localInputChanged = Object.entries(manifest.inputs).some(([path, input]) => {
    if (isHttpUrl(path)) return false;
    const absolute = join(settings.out, path);
    return !existsSync(absolute) || sha256(readFileSync(absolute)) !== input.sha256;
  });
  const fingerprint = await runFingerprint(settings, [...Object.keys(manifest.files), MANIFEST_FILE]);
  const recordsOther = manifest.spec !== pathFromOutput(settings.out, settings.spec) || manifest.fingerprint !== fingerprint || localInputChanged;
  if (recordsOther || missing.length + extra.length + stale.length === 0) stale.unshift({ path: MANIFEST_FILE, diff: "" });
  return { missing, extra, stale };
}
