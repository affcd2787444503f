import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RUNTIME_KINDS, generatorFingerprint, templatesFingerprint } from "../package/fingerprint.js";
import { sha256 } from "../package/hash.js";
import { readTree } from "./disk.js";
import { formattingFingerprint } from "./format.js";
import { MANIFEST_FILE, parseManifest, pathFromOutput } from "./manifest.js";

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
}

/**
 * Everything besides the spec that decides the output of a run: the generator and its templates, the options, and
 * the prettier settings of every output file (`files`: paths relative to the output folder, the manifest included).
 */
export async function runFingerprint(settings: OutputSettings, files: readonly string[]): Promise<string> {
  return sha256(
    JSON.stringify({
      generator: generatorFingerprint(),
      templates: templatesFingerprint(RUNTIME_KINDS.filter((kind) => settings.outputs[kind])),
      outputs: settings.outputs,
      format: settings.format,
      prettier: settings.format ? await formattingFingerprint(settings.out, files) : null,
    }),
  );
}

/**
 * The fast path of `check`: when the manifest in the output folder was written for these exact spec bytes, this
 * generator, these options and these prettier settings, and every file on disk still has the hash it was written
 * with, the output is current without regenerating. Returns false whenever any of that cannot be shown.
 */
export async function isProvablyCurrent(settings: OutputSettings): Promise<boolean> {
  const manifestPath = join(settings.out, MANIFEST_FILE);
  if (!existsSync(manifestPath)) return false;
  const manifest = parseManifest(readFileSync(manifestPath, "utf8"));
  if (!manifest) return false;
  if (manifest.spec !== pathFromOutput(settings.out, settings.spec)) return false;
  for (const [path, hash] of Object.entries(manifest.inputs)) {
    const absolute = join(settings.out, path);
    if (!existsSync(absolute) || sha256(readFileSync(absolute)) !== hash) return false;
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
