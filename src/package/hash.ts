import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** SHA-256 of text or bytes, hex: what the manifest, the fingerprints and the build record. */
export const sha256 = (text: string | Uint8Array) => createHash("sha256").update(text).digest("hex");

/** A file below a folder: its path relative to the folder (forward slashes), its bytes and their SHA-256. */
export interface TreeFile {
  path: string;
  bytes: Buffer;
  sha256: string;
}

/** Every file below `dir` whose name passes `keep`, in sorted path order (a missing folder has none). */
export function treeFiles(dir: string, keep: (name: string) => boolean = () => true): TreeFile[] {
  const files: TreeFile[] = [];
  const walk = (relative: string) => {
    const entries = readdirSync(join(dir, relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else if (keep(entry.name)) {
        const bytes = readFileSync(join(dir, path));
        files.push({ path, bytes, sha256: sha256(bytes) });
      }
    }
  };
  if (existsSync(dir)) walk("");
  return files;
}

/** The hash of a list of files (`treeFiles`): of their paths and hashes, in order. */
export const treeHash = (files: readonly TreeFile[]) => sha256(files.map((file) => `${file.path}\n${file.sha256}`).join("\n"));

/** Hash of every file below `dir` whose name passes `keep`, in sorted path order (a missing folder hashes as empty). */
export const hashTree = (dir: string, keep?: (name: string) => boolean) => treeHash(treeFiles(dir, keep));
