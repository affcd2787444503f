import { lstatSync, readdirSync, type Stats } from "node:fs";
import { join } from "node:path";
import { UserError } from "../errors.js";
import { MANIFEST_FILE } from "./manifest.js";

/**
 * One entry of an output folder as `lstat` sees it. A pull request can commit anything in the output folder: a
 * symbolic link to `/proc/self/environ` or `~/.npmrc`, a link to `/dev/zero`, a FIFO. Only regular files are ever
 * read (never through a link, and never more bytes than the caller can use); anything else is named, not opened.
 */
export type OutputEntry = { kind: "file"; bytes: number } | { kind: "other"; what: string };

/** Every entry below an output folder, keyed by forward-slash relative path; folders are walked, links are not. */
export type OutputTree = Map<string, OutputEntry>;

export type FolderState =
  | { kind: "absent" }
  | { kind: "owned"; tree: OutputTree } // with allowForeign, also a folder of someone else's files
  | { kind: "empty" };

/**
 * What is at the output path now. Refuses a file or a link, and a non-empty folder without our manifest (someone
 * else's files: we never write into or delete those). Reads no file: only `lstat`s.
 */
export function inspectOutputFolder(outDir: string, shown: string, options: { allowForeign?: boolean } = {}): FolderState {
  try {
    return inspect(outDir, shown, options);
  } catch (error) {
    throw fileSystemUserError(error, shown, "read") ?? error;
  }
}

function inspect(outDir: string, shown: string, options: { allowForeign?: boolean }): FolderState {
  const stat = lstatOrUndefined(outDir);
  if (stat === undefined) return { kind: "absent" };
  if (!stat.isDirectory()) {
    throw new UserError(`the output path is ${stat.isFile() ? "a file" : describeEntry(stat)}, not a folder`, {
      location: shown,
      hint: stat.isSymbolicLink() ? "specforge writes only into a real folder: pass that folder with --out" : "pass a folder with --out (it is created if missing)",
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
  return { kind: "owned", tree: listTree(outDir) };
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Every entry below `dir` (see OutputTree): sizes and kinds from `lstat`, nothing read, no link followed. */
export function listTree(dir: string): OutputTree {
  const tree: OutputTree = new Map();
  const walk = (relative: string) => {
    for (const name of readdirSync(join(dir, relative)).sort()) {
      const rel = relative ? `${relative}/${name}` : name;
      const stat = lstatSync(join(dir, rel));
      if (stat.isDirectory()) walk(rel);
      else tree.set(rel, stat.isFile() ? { kind: "file", bytes: stat.size } : { kind: "other", what: describeEntry(stat) });
    }
  };
  walk("");
  return tree;
}

/** What an entry that is not a regular file is, for a message. */
export function describeEntry(stat: Stats): string {
  if (stat.isSymbolicLink()) return "a symbolic link";
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
  if (stat.isDirectory()) return "a folder";
  return "not a regular file";
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
