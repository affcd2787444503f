import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ResolvedConfig } from "../config/resolve.js";
import { RUNTIME_KINDS, generatorFingerprint, templatesFingerprint } from "../fingerprint.js";
import { readTree } from "./disk.js";
import { formattingFingerprint } from "./format.js";
import { MANIFEST_FILE, parseManifest, pathFromOutput, sha256 } from "./manifest.js";


/** Everything besides the spec that decides the output of a run. */
export async function runFingerprint(config: ResolvedConfig): Promise<string> {
  return sha256(
    JSON.stringify({
      generator: generatorFingerprint(),
      templates: templatesFingerprint(RUNTIME_KINDS.filter((kind) => config.outputs[kind])),
      outputs: config.outputs,
      format: config.format,
      prettier: config.format ? await formattingFingerprint(config.out) : null,
    }),
  );
}

/**
 * The fast path of `check`: when the manifest in the output folder was written for these exact spec bytes, this
 * generator, these options and these prettier settings, and every file on disk still has the hash it was written
 * with, the output is current without regenerating. Returns false whenever any of that cannot be shown.
 */
export async function isProvablyCurrent(config: ResolvedConfig): Promise<boolean> {
  const manifestPath = join(config.out, MANIFEST_FILE);
  if (!existsSync(manifestPath)) return false;
  const manifest = parseManifest(readFileSync(manifestPath, "utf8"));
  if (!manifest) return false;
  if (manifest.spec !== pathFromOutput(config.out, config.spec)) return false;
  for (const [path, input] of Object.entries(manifest.inputs)) {
    const absolute = join(config.out, path);
    if (!existsSync(absolute) || sha256(readFileSync(absolute)) !== input.sha256) return false;
  }
  if (manifest.fingerprint !== (await runFingerprint(config))) return false;
  const onDisk = readTree(config.out);
  if (onDisk.size !== Object.keys(manifest.files).length + 1) return false;
  for (const [path, hash] of Object.entries(manifest.files)) {
    const content = onDisk.get(path);
    if (!content || sha256(content) !== hash) return false;
  }
  return true;
}

