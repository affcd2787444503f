import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES } from "../helpers.js";
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

/**
 * The OpenAPI 3.2 documents from the wild that are committed under test/fixtures (small and permissively licensed;
 * test/fixtures/README.md says where each comes from): run like the corpus, named by their path there.
 */
export function wildFixtures(): { name: string; path: string }[] {
  return [
    "scalar-galaxy-3.2/galaxy-3.2.yaml",
    "oai-learn-3.2/3.2-tags-example.yaml",
    "oai-learn-3.2/3.2-query-example.yaml",
    "oas-3.2-spec/examples.yaml",
    "oas-3.2-spec/self/openapi.yaml",
  ].map((name) => ({ name: `test/fixtures/${name}`, path: join(FIXTURES, name) }));
}
