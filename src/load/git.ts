import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { UserError } from "../errors.js";
import { loadSpec, type LoadedSpec } from "./index.js";
import { createHash } from "node:crypto";

/**
 * Specs read from git: `git:REV:path` on the command line (a committed version, resolved with git in the current
 * repository), and the exact spec files an output folder was generated from (by the git blob ids its manifest
 * records). The files are written to a temporary folder, read by the ordinary loader and deleted.
 */

/** `git:HEAD~1:spec/openapi.yaml` → `{ rev: "HEAD~1", path: "spec/openapi.yaml" }`; undefined for anything else. */
export function parseGitSpec(arg: string): { rev: string; path: string } | undefined {
  const match = /^git:([^:]+):(.+)$/.exec(arg);
  return match ? { rev: match[1]!, path: match[2]! } : undefined;
}

const SPEC_FILE = /\.(ya?ml|json)$/i;
/** Every file of a spec is read into memory: far above any real spec, low enough not to take the machine down. */
const MAX_BUFFER = 1 << 30;

function git(args: string[], cwd: string, input?: Buffer | string): Buffer {
  return execFileSync("git", args, { cwd, input, maxBuffer: MAX_BUFFER, stdio: ["pipe", "pipe", "pipe"] });
}

function gitFailure(error: unknown): string {
  const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
  return stderr || ((error as Error).message ?? String(error));
}

/** The repository `cwd` is in: its root and where `cwd` is inside it (`spec/`, or "" at the root). */
function repository(cwd: string, what: string): { root: string; prefix: string } {
  try {
    const [root, prefix] = git(["rev-parse", "--show-toplevel", "--show-prefix"], cwd).toString().split("\n");
    return { root: root!, prefix: prefix ?? "" };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new UserError(`${what} needs git, which is not installed (or not on PATH)`, { location: what });
    }
    throw new UserError(`not in a git repository (${gitFailure(error)})`, {
      location: what,
      hint: "run specforge inside the repository, or compare two files instead",
    });
  }
}

/**
 * Loads the version of a spec committed at `rev` (`git:REV:path`, the path relative to the current folder). A spec
 * whose `$ref`s all stay in its own file is read alone; otherwise every YAML and JSON file of the tree at that
 * revision is, so that `$ref`s to other files resolve as they did then.
 */
export function loadGitSpec(arg: string, cwd: string): LoadedSpec {
  const parsed = parseGitSpec(arg);
  if (!parsed) throw new UserError("not a git:REV:path spec", { location: arg });
  const { root, prefix } = repository(cwd, arg);
  let commit: string;
  try {
    commit = git(["rev-parse", "--verify", "--quiet", "--end-of-options", `${parsed.rev}^{commit}`], root).toString().trim();
  } catch {
    throw new UserError(`unknown git revision ${JSON.stringify(parsed.rev)}`, {
      location: arg,
      hint: "use a commit, branch or tag this repository has (`git log --oneline` lists them; a shallow CI checkout needs `fetch-depth: 0`)",
    });
  }
  const inRepo = relative(root, resolve(cwd, parsed.path)).split(sep).join("/");
  if (inRepo.startsWith("../") || isAbsolute(inRepo)) {
    throw new UserError(`${parsed.path} is outside the repository at ${root}`, { location: arg });
  }
  let entry: Buffer;
  try {
    entry = git(["cat-file", "blob", `${commit}:${inRepo}`], root);
  } catch {
    throw new UserError(`no file ${inRepo} at revision ${parsed.rev} (${commit.slice(0, 12)})`, {
      location: arg,
      hint: `\`git ls-tree -r --name-only ${parsed.rev}\` lists the files of that revision; the path is relative to the current folder${prefix ? ` (${prefix})` : ""}`,
    });
  }
  const files = new Map<string, Buffer>([[inRepo, entry]]);
  if (hasExternalRefs(entry.toString("utf8"))) {
    const listing = git(["ls-tree", "-r", "-z", "--full-tree", commit], root).toString("utf8").split("\0");
    const blobs: { path: string; id: string }[] = [];
    for (const line of listing) {
      const match = /^(\d+) blob ([0-9a-f]+)\t(.+)$/.exec(line);
      if (match && match[1] !== "120000" && SPEC_FILE.test(match[3]!) && match[3] !== inRepo) blobs.push({ id: match[2]!, path: match[3]! });
    }
    const contents = readBlobs(blobs.map((b) => b.id), root);
    for (const blob of blobs) {
      const content = contents.get(blob.id);
      if (content) files.set(blob.path, content);
    }
  }
  return loadFromFiles(files, inRepo, arg, (path) => `git:${parsed.rev}:${relative(prefix || ".", path).split(sep).join("/") || path}`);
}

/** Whether a spec's text has a `$ref` that does not start with `#` (another file, or an `$id`). */
function hasExternalRefs(text: string): boolean {
  for (const match of text.matchAll(/["']?\$ref["']?\s*:\s*["']?([^"'\s,}]*)/g)) {
    if (!match[1]!.startsWith("#")) return true;
  }
  return false;
}

/** Reads blobs by id with one `git cat-file --batch`; ids the repository does not have are left out. */
function readBlobs(ids: string[], cwd: string): Map<string, Buffer> {
  const result = new Map<string, Buffer>();
  if (ids.length === 0) return result;
  const output = git(["cat-file", "--batch"], cwd, ids.join("\n") + "\n");
  let offset = 0;
  while (offset < output.length) {
    const newline = output.indexOf(10, offset);
    if (newline === -1) break;
    const header = output.subarray(offset, newline).toString("utf8");
    offset = newline + 1;
    const match = /^([0-9a-f]+) (\w+) (\d+)$/.exec(header);
    if (!match) continue; // `<id> missing`
    const size = Number(match[3]);
    if (match[2] === "blob") result.set(match[1]!, output.subarray(offset, offset + size));
    offset += size + 1;
  }
  return result;
}

/**
 * Writes `files` (repository-relative paths) to a temporary folder and loads `entry` from it. Errors name the files
 * as `show` says (not the temporary folder).
 */
function loadFromFiles(files: Map<string, Buffer>, entry: string, what: string, show: (path: string) => string): LoadedSpec {
  const dir = mkdtempSync(join(tmpdir(), "specforge-git-"));
  try {
    for (const [path, content] of files) {
      const target = join(dir, ...path.split("/"));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
    try {
      return loadSpec(join(dir, ...entry.split("/")), dir);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      // The loader names files relative to its cwd, the temporary folder: repository paths here.
      const location = error.location?.replace(/^[^:#]+/, (path) => (files.has(path) ? show(path) : path)) ?? what;
      throw new UserError(error.message, { location, hint: error.hint, cause: error });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Where the spec an output folder was generated from comes from, or why it cannot be had. */
export type PreviousSpec = { spec: LoadedSpec; source: string } | { unavailable: string };

/**
 * The spec an output folder was generated from, read back from git by the blob ids (and SHA-256) its manifest
 * records for every spec file. A file git does not have (never committed or staged, or a shallow clone) is also
 * looked for at HEAD, by its SHA-256; when any file cannot be found, the reason is returned instead.
 */
export function loadPreviousSpec(outDir: string, manifestSpec: string, inputs: Record<string, { sha256?: string; gitBlob?: string }>): PreviousSpec {
  let repo: { root: string };
  try {
    repo = repository(outDir, outDir);
  } catch (error) {
    return { unavailable: error instanceof UserError ? error.message : String(error) };
  }
  const wanted = Object.entries(inputs).map(([path, input]) => ({ path, input, absolute: resolve(outDir, path) }));
  const byBlob = readBlobs(wanted.map((w) => w.input.gitBlob).filter((id): id is string => typeof id === "string" && /^[0-9a-f]{40}$/.test(id)), repo.root);
  const files = new Map<string, Buffer>();
  const missing: string[] = [];
  for (const { path, input, absolute } of wanted) {
    const inRepo = relative(repo.root, absolute).split(sep).join("/");
    let content = input.gitBlob ? byBlob.get(input.gitBlob) : undefined;
    if (!content && input.sha256 && !inRepo.startsWith("../")) {
      try {
        const atHead = git(["cat-file", "blob", `HEAD:${inRepo}`], repo.root);
        if (createHash("sha256").update(atHead).digest("hex") === input.sha256) content = atHead;
      } catch {
        // not committed at HEAD either
      }
    }
    if (content && !inRepo.startsWith("../")) files.set(inRepo, content);
    else missing.push(path);
  }
  if (missing.length > 0) {
    return {
      unavailable: `the spec version it was generated from is not in this git repository (${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", …" : ""}): it was never committed, or the checkout is shallow (use \`fetch-depth: 0\`)`,
    };
  }
  const entry = relative(repo.root, resolve(outDir, manifestSpec)).split(sep).join("/");
  try {
    return { spec: loadFromFiles(files, entry, entry, (path) => path), source: `${entry} as generated` };
  } catch (error) {
    return { unavailable: `the spec it was generated from cannot be read: ${error instanceof UserError ? error.format() : String(error)}` };
  }
}
