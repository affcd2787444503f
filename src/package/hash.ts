import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** SHA-256 of text or bytes, hex: what the manifest, the fingerprints and the build record. */
export const sha256 = (text: string | Uint8Array) => createHash("sha256").update(text).digest("hex");

/** Hash of every file below `dir` whose name passes `keep`, in sorted path order (a missing folder hashes as empty). */
export function hashTree(dir: string, keep: (name: string) => boolean = () => true): string {
  const parts: string[] = [];
  const walk = (relative: string) => {
    const entries = readdirSync(join(dir, relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else if (keep(entry.name)) parts.push(`${rel}\n${sha256(readFileSync(join(dir, rel)))}`);
    }
  };
  if (existsSync(dir)) walk("");
  return sha256(parts.join("\n"));
}
