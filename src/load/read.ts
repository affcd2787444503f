import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";
import { UserError } from "../errors.js";

/** 128 MiB: several times the largest real specs (GitHub's REST description is 13 MB). */
export const DEFAULT_MAX_SPEC_FILE_BYTES = 128 * 1024 * 1024;

/** What the loader may read: which folders, and how much of each file. */
export interface ReadPolicy {
  /** Absolute folders a `$ref` may read files from: the spec's own folder first, then the configured `refRoots`. */
  roots: string[];
  /** Largest file read, in bytes (`maxSpecFileBytes`). */
  maxFileBytes: number;
}

export interface ReadContext {
  /** `file#/pointer/$ref` of the reference that asks for the file; absent for the spec itself. */
  referencedFrom?: string;
  /** The path shown to the user for an absolute path. */
  display: (absolutePath: string) => string;
  /** Told the file once it is known to be one the policy allows (also when it then turns out missing or unreadable). */
  onAllowed?: (absolutePath: string) => void;
}

/**
 * Reads one spec file under the policy. A `$ref`'d file must lie inside one of the roots both as written and once
 * symlinks are resolved; every file (the spec too) must be a regular file no larger than the cap. A device, FIFO
 * or socket is refused before a single byte is read: opening is non-blocking, so a FIFO with no writer cannot hang
 * the run, and the file's type is taken from the open descriptor, not from an earlier stat of the path.
 * Every refusal is a UserError naming the file and the reference that asked for it.
 */
export function readSpecFile(file: string, policy: ReadPolicy, context: ReadContext): Buffer {
  const { referencedFrom, display } = context;
  const fail = (message: string, hint?: string): never => {
    throw new UserError(referencedFrom ? `${message}, referenced by ${referencedFrom}` : message, {
      location: referencedFrom ? undefined : display(file),
      hint,
    });
  };
  const allow = "to read files there, add the folder to `refRoots` in the config (or pass --ref-root DIR)";
  if (referencedFrom !== undefined) {
    if (!policy.roots.some((root) => isInside(root, file))) {
      fail(`$ref leaves the spec's folder: ${display(file)} is outside ${policy.roots.map(display).join(", ")}`, allow);
    }
    let real: string | undefined;
    try {
      real = realpathSync(file);
    } catch {
      real = undefined; // missing: reported below when it is opened
    }
    if (real !== undefined && !realRoots(policy).some((root) => isInside(root, real))) {
      fail(`$ref follows a symlink out of the spec's folder: ${display(file)} is ${real}`, allow);
    }
  }

  context.onAllowed?.(file);
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      return fail(referencedFrom ? `file not found: ${display(file)}` : "file not found", referencedFrom ? undefined : "pass the spec with --spec PATH");
    }
    if (code === "EISDIR") return fail(directoryMessage(referencedFrom, file, display));
    return fail(`cannot read ${referencedFrom ? display(file) : "file"} (${code ?? String(error)})`);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) fail(directoryMessage(referencedFrom, file, display));
    if (!stat.isFile()) {
      fail(`${referencedFrom ? display(file) : "the spec"} is not a regular file (a device, pipe or socket): specforge reads only regular files`);
    }
    if (stat.size > policy.maxFileBytes) {
      fail(
        `${referencedFrom ? display(file) : "the spec"} is ${stat.size} bytes, more than the limit of ${policy.maxFileBytes} bytes`,
        "raise `maxSpecFileBytes` in the config (or pass --max-spec-file-bytes N) if the file is meant to be this large",
      );
    }
    return readUpTo(fd, stat.size, policy.maxFileBytes, () =>
      fail(`${referencedFrom ? display(file) : "the spec"} grew past the limit of ${policy.maxFileBytes} bytes while it was read`),
    );
  } finally {
    closeSync(fd);
  }
}

function directoryMessage(referencedFrom: string | undefined, file: string, display: (p: string) => string): string {
  return referencedFrom ? `referenced file ${display(file)} is a directory, not a file` : "spec is a directory, not a file";
}

/** Reads the whole file, expecting `size` bytes, never more than `max` (past it: what `tooLarge` returns or throws). */
export function readUpTo<T = never>(fd: number, size: number, max: number, tooLarge: () => T): Buffer | T {
  let buffer = Buffer.allocUnsafe(Math.min(Math.max(size, 0) + 1, max + 1));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (buffer.length > max) return tooLarge();
      const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, max + 1));
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
  }
  if (length > max) return tooLarge();
  return buffer.subarray(0, length);
}

/**
 * The bytes of a regular file, when it has at most `maxBytes`: undefined for anything else (missing, a FIFO, a device,
 * larger; a symbolic link too unless `followLinks`). The file is opened without blocking (a FIFO has no writer) and,
 * unless told to follow links, with `O_NOFOLLOW`; its type and size are taken from the open descriptor, so nothing
 * is read from a link or from what is not a regular file.
 */
export function readRegularFile(path: string, maxBytes: number, options: { followLinks?: boolean } = {}): Buffer | undefined {
  let fd: number;
  try {
    // O_NOFOLLOW is not defined on Windows, where the caller's lstat is what keeps links out.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (options.followLinks ? 0 : (constants.O_NOFOLLOW ?? 0)));
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > maxBytes) return undefined;
    return readUpTo(fd, stat.size, maxBytes, () => undefined);
  } finally {
    closeSync(fd);
  }
}

/** True when `path` is `root` or below it (lexically: no `..` step leaves it). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
}

const resolvedRoots = new WeakMap<ReadPolicy, string[]>();
/** The roots with their symlinks resolved (a root that does not exist is compared as written), once per policy. */
function realRoots(policy: ReadPolicy): string[] {
  let real = resolvedRoots.get(policy);
  if (real === undefined) {
    real = policy.roots.map((root) => {
      try {
        return realpathSync(root);
      } catch {
        return root;
      }
    });
    resolvedRoots.set(policy, real);
  }
  return real;
}
