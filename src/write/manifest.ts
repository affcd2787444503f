import { join, relative } from "node:path";
import { readRegularFile } from "../load/read.js";
import { isHttpUrl } from "../openapi/url.js";

/** The file that marks a folder as specforge's and records what was generated into it, from what. */
export const MANIFEST_FILE = ".specforge-manifest.json";

/**
 * One spec file the output was generated from. A document fetched from a URL (keyed by its URL) is *locked* by its
 * SHA-256: `check` verifies the output against that version (from the cache, without the network) and `check
 * --remote` asks the server, with its HTTP validators, whether it is still current.
 */
export interface ManifestInput {
  /** SHA-256 of the file's bytes: what the fast drift check compares. */
  sha256: string;
  /**
   * The file's git blob id (`git hash-object`), computed from its bytes (git is not needed to write it): with it
   * `check` can read this exact version back from the repository and say what changed in the API since. Absent
   * for a document from a URL.
   */
  gitBlob?: string;
  /** A document from a URL: its ETag when this version was first fetched (kept while the bytes stay the same). */
  etag?: string;
  /** A document from a URL: its Last-Modified when this version was first fetched. */
  lastModified?: string;
}

export interface Manifest {
  generator: string;
  notice: string;
  /** Spec entry path relative to the output folder. */
  spec: string;
  /** Every spec file read (relative to the output folder), entry first. */
  inputs: Record<string, ManifestInput>;
  /** SHA-256 of everything else that decides the output: generator code and templates, options, prettier settings. */
  fingerprint: string;
  /** Every other generated file and its SHA-256. */
  files: Record<string, string>;
}

export function serializeManifest(manifest: Manifest): string {
  return JSON.stringify(manifest, null, 2) + "\n";
}

export function parseManifest(text: string): Manifest | undefined {
  try {
    const value = JSON.parse(text) as Partial<Manifest>;
    if (typeof value !== "object" || !value || typeof value.fingerprint !== "string") return undefined;
    if (!value.files || !value.inputs || typeof value.spec !== "string") return undefined;
    for (const [path, input] of Object.entries(value.inputs)) {
      if (typeof input?.sha256 !== "string" || (typeof input.gitBlob !== "string" && !isHttpUrl(path))) return undefined;
    }
    return value as Manifest;
  } catch {
    return undefined;
  }
}

/**
 * The spec files a manifest records, also from a manifest of an older specforge (whose `inputs` held only the
 * SHA-256): enough to find that version of the spec again. Undefined when the text is not a manifest.
 */
export function manifestInputs(text: string): { spec: string; inputs: Record<string, Partial<ManifestInput>> } | undefined {
  try {
    const value = JSON.parse(text) as { spec?: unknown; inputs?: Record<string, unknown> };
    if (!value || typeof value !== "object" || typeof value.spec !== "string" || !value.inputs || typeof value.inputs !== "object") return undefined;
    const inputs: Record<string, Partial<ManifestInput>> = {};
    for (const [path, input] of Object.entries(value.inputs)) {
      if (typeof input === "string") inputs[path] = { sha256: input };
      else if (input && typeof input === "object") inputs[path] = input as Partial<ManifestInput>;
    }
    return { spec: value.spec, inputs };
  } catch {
    return undefined;
  }
}

/**
 * How the manifest and file headers name a path: relative to the output folder, forward slashes (any OS, any cwd).
 * A URL is named as it is.
 */
export function pathFromOutput(outDir: string, path: string): string {
  if (isHttpUrl(path)) return path;
  return relative(outDir, path).split("\\").join("/");
}

/** A manifest lists files and hashes: 16 MiB is thousands of times any real one. */
const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

/**
 * The text of an output folder's manifest, when it is a regular file of at most MAX_MANIFEST_BYTES: a manifest that
 * is a link (to a secret, to `/dev/zero`), a FIFO or huge is not read, and counts as no manifest.
 */
export function readManifestText(outDir: string): string | undefined {
  return readRegularFile(join(outDir, MANIFEST_FILE), MAX_MANIFEST_BYTES)?.toString("utf8");
}

/** The manifest of an output folder, when it has a readable one. */
export function readManifest(outDir: string): Manifest | undefined {
  const text = readManifestText(outDir);
  return text === undefined ? undefined : parseManifest(text);
}

/** The documents from URLs that a manifest locks: URL → SHA-256 and validators. */
export function lockedDocuments(manifest: Manifest | undefined): Map<string, { sha256: string; etag?: string; lastModified?: string }> {
  const locked = new Map<string, { sha256: string; etag?: string; lastModified?: string }>();
  for (const [key, input] of Object.entries(manifest?.inputs ?? {})) {
    if (isHttpUrl(key)) locked.set(key, { sha256: input.sha256, ...(input.etag !== undefined ? { etag: input.etag } : {}), ...(input.lastModified !== undefined ? { lastModified: input.lastModified } : {}) });
  }
  return locked;
}
