import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Validators } from "./remote.js";

/** One version of a URL's document in the cache. */
export interface CachedVersion extends Validators {
  /** SHA-256 of the bytes: the blob's name. */
  sha256: string;
  /** Where the bytes came from after redirects: the base its relative `$ref`s resolve against. */
  finalUrl: string;
}

/** How many versions of one URL are kept: the locked one and a few newer ones are enough. */
const KEEP_VERSIONS = 5;

/**
 * The documents fetched from URLs, kept so that `generate` can send conditional requests and work offline, and
 * `check` can regenerate from the locked version without the network. Bytes are stored once by their SHA-256
 * (`blobs/<sha256>`, checked again on every read); each URL has a small index of its versions, latest first
 * (`urls/<sha256 of the URL>.json`). Everything is written by rename; a cache that cannot be written (a read-only
 * `node_modules`) or read is simply not there. Safe to delete.
 */
export class RemoteCache {
  private readonly dir: string;

  /** `root`: specforge's cache folder (`node_modules/.cache/specforge`); documents live in its `specs/`. */
  constructor(root: string) {
    this.dir = join(root, "specs");
  }

  /** The versions of `url` the cache knows, latest first (their bytes may be gone: see `copy`). */
  versions(url: string): CachedVersion[] {
    try {
      const index = JSON.parse(readFileSync(this.indexFile(url), "utf8")) as { url?: unknown; versions?: unknown };
      if (index.url !== url || !Array.isArray(index.versions)) return [];
      return index.versions.filter(isVersion);
    } catch {
      return [];
    }
  }

  /** The cached copy of `url` with this SHA-256 (any version when undefined: the latest whose bytes are intact). */
  copy(url: string, sha256?: string): { version: CachedVersion; bytes: Buffer } | undefined {
    for (const version of this.versions(url)) {
      if (sha256 !== undefined && version.sha256 !== sha256) continue;
      const bytes = this.blob(version.sha256);
      if (bytes) return { version, bytes };
    }
    return undefined;
  }

  /** Records `bytes` as the latest version of `url`. */
  store(url: string, version: CachedVersion, bytes: Buffer): void {
    try {
      mkdirSync(join(this.dir, "blobs"), { recursive: true });
      mkdirSync(join(this.dir, "urls"), { recursive: true });
      if (this.blob(version.sha256) === undefined) writeAtomically(join(this.dir, "blobs", version.sha256), bytes);
      const before = this.versions(url);
      const after = [version, ...before.filter((v) => v.sha256 !== version.sha256)].slice(0, KEEP_VERSIONS);
      writeAtomically(this.indexFile(url), JSON.stringify({ url, versions: after }, null, 2) + "\n");
      const dropped = before.filter((v) => !after.some((kept) => kept.sha256 === v.sha256));
      if (dropped.length > 0) this.prune(dropped.map((v) => v.sha256));
    } catch {
      // Not writable: no cache, then.
    }
  }

  private blob(sha256: string): Buffer | undefined {
    if (!/^[0-9a-f]{64}$/.test(sha256)) return undefined;
    try {
      const bytes = readFileSync(join(this.dir, "blobs", sha256));
      return createHash("sha256").update(bytes).digest("hex") === sha256 ? bytes : undefined;
    } catch {
      return undefined;
    }
  }

  /** Deletes blobs that no URL's index lists any more. */
  private prune(candidates: string[]): void {
    const referenced = new Set<string>();
    for (const name of readdirSync(join(this.dir, "urls"))) {
      try {
        const index = JSON.parse(readFileSync(join(this.dir, "urls", name), "utf8")) as { versions?: unknown };
        if (Array.isArray(index.versions)) for (const version of index.versions.filter(isVersion)) referenced.add(version.sha256);
      } catch {
        // a broken index keeps nothing alive
      }
    }
    for (const sha256 of candidates) if (!referenced.has(sha256)) rmSync(join(this.dir, "blobs", sha256), { force: true });
  }

  private indexFile(url: string): string {
    return join(this.dir, "urls", `${createHash("sha256").update(url).digest("hex").slice(0, 40)}.json`);
  }
}

function isVersion(value: unknown): value is CachedVersion {
  const v = value as Partial<CachedVersion> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.sha256 === "string" &&
    typeof v.finalUrl === "string" &&
    (v.etag === undefined || typeof v.etag === "string") &&
    (v.lastModified === undefined || typeof v.lastModified === "string")
  );
}

function writeAtomically(file: string, content: string | Buffer): void {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(temporary, content);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
