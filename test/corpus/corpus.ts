import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CORPUS } from "./shared.js";

/** The entry documents of ../shared/corpus, read from its MANIFEST (multi-file entries keep their folders). */
export function corpusDocuments(): { name: string; path: string }[] {
  const manifest = readFileSync(join(CORPUS, "MANIFEST.md"), "utf8");
  const names = new Set<string>();
  for (const match of manifest.matchAll(/^\| `([^`]+\.(?:ya?ml|json))`(?: \(\d+ files\))? \|/gm)) names.add(match[1]!);
  return [...names]
    .map((name) => ({ name, path: join(CORPUS, name) }))
    .filter((doc) => existsSync(doc.path));
}
