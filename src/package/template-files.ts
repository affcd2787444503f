import { join } from "node:path";
import { treeFiles, treeHash, type TreeFile } from "./hash.js";
import { TEMPLATES_DIR } from "./root.js";

const folders = new Map<string, readonly TreeFile[]>();

/**
 * The files of `templates/<folder>/`, sorted, read and hashed once per process: a generation checks the runtime's
 * build against them, fills the file templates and fingerprints both, which read every file three times before.
 */
export function templateFiles(folder: string): readonly TreeFile[] {
  let files = folders.get(folder);
  if (files === undefined) {
    files = treeFiles(join(TEMPLATES_DIR, folder));
    folders.set(folder, files);
  }
  return files;
}

/** The hash of `templates/<folder>/` (`hashTree`'s). */
export const templateFolderHash = (folder: string) => treeHash(templateFiles(folder));
