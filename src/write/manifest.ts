import { relative } from "node:path";

/** The file that marks a folder as specforge's and records what was generated into it, from what. */
export const MANIFEST_FILE = ".specforge-manifest.json";

export interface Manifest {
  generator: string;
  notice: string;
  /** Spec entry path relative to the output folder. */
  spec: string;
  /** Every spec file read (relative to the output folder) and its SHA-256. */
  inputs: Record<string, string>;
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
    return value as Manifest;
  } catch {
    return undefined;
  }
}

/** How the manifest and file headers name a path: relative to the output folder, forward slashes (any OS, any cwd). */
export function pathFromOutput(outDir: string, path: string): string {
  return relative(outDir, path).split("\\").join("/");
}
