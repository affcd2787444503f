import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../errors.js";
import { MANIFEST_FILE } from "./manifest.js";

export type FolderState =
  | { kind: "absent" }
  | { kind: "owned"; files: Map<string, Buffer> } // with allowForeign, also a folder of someone else's files
  | { kind: "empty" };

/**
 * What is at the output path now. Refuses a file, and a non-empty folder without our manifest (someone else's
 * files: we never write into or delete those).
 */
export function inspectOutputFolder(outDir: string, shown: string, options: { allowForeign?: boolean } = {}): FolderState {
  if (!existsSync(outDir)) return { kind: "absent" };
  const stat = lstatSync(outDir);
  if (!stat.isDirectory()) {
    throw new UserError("the output path is a file, not a folder", {
      location: shown,
      hint: "pass a folder with --out (it is created if missing)",
    });
  }
  const entries = readdirSync(outDir);
  if (entries.length === 0) return { kind: "empty" };
  if (!entries.includes(MANIFEST_FILE) && !options.allowForeign) {
    throw new UserError(`refusing to write into a folder specforge did not create (it has no ${MANIFEST_FILE})`, {
      location: shown,
      hint: "choose an empty or new folder with --out, or empty this one if its files are not needed",
    });
  }
  return { kind: "owned", files: readTree(outDir) };
}

/** Every file below `dir`, keyed by forward-slash relative path. */
export function readTree(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else files.set(rel, readFileSync(join(dir, rel)));
    }
  };
  walk("");
  return files;
}
