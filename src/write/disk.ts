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
  try {
    return inspect(outDir, shown, options);
  } catch (error) {
    throw fileSystemUserError(error, shown, "read") ?? error;
  }
}

function inspect(outDir: string, shown: string, options: { allowForeign?: boolean }): FolderState {
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

/** What the file system said, for the user: the environment, not specforge, is in the way. */
const REASONS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
  ENOTDIR: "a part of the path is a file, not a folder",
  EEXIST: "a file is in the way",
  EBUSY: "the folder is in use",
  EMFILE: "too many open files",
  ENAMETOOLONG: "the path is too long",
  ELOOP: "too many symbolic links in the path",
  EIO: "input/output error",
};

/** A UserError for a file-system refusal of the output folder, or undefined for anything else (a bug). */
export function fileSystemUserError(error: unknown, shown: string, action: "read" | "write"): UserError | undefined {
  if (error instanceof UserError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = code ? REASONS[code] : undefined;
  if (!reason) return undefined;
  // specforge's own temporary folders mean nothing to the user: name the folder they were to be made in.
  const path = (error as NodeJS.ErrnoException).path?.replace(/[\\/]\.[^\\/]*\.specforge-(?:new|old)-[^\\/]*.*$/, "");
  return new UserError(`cannot ${action} the output folder: ${reason} (${code})${path ? ` in ${path}` : ""}`, {
    location: shown,
    hint:
      action === "write"
        ? "make the folder (and the folder that holds it) writable, or choose another with --out"
        : "make the folder readable, or choose another with --out",
    cause: error,
  });
}
