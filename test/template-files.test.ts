/**
 * The templates as a generation reads them once (src/package/template-files.ts) and the build's JSON beside them
 * (src/package/templates.ts): the same hashes as before they were shared, and the build's records matching the run's.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RUNTIME_KINDS } from "../src/package/fingerprint.js";
import { hashTree } from "../src/package/hash.js";
import { TEMPLATES_DIR } from "../src/package/root.js";
import { templateFolderHash } from "../src/package/template-files.js";
import { buildJson, readBuildJson, runtimeTemplates } from "../src/package/templates.js";
import { cleanupTempDirs, tempDir } from "./helpers.js";

afterAll(cleanupTempDirs);

describe("template files", () => {
  it("hash each folder as hashTree does (the fingerprints in existing manifests keep their meaning)", () => {
    for (const folder of [...RUNTIME_KINDS, "files"]) expect(templateFolderHash(folder)).toBe(hashTree(join(TEMPLATES_DIR, folder)));
  });

  it("the build's compiled runtime is current for these sources: every module comes with its formatted form (no compile at run time)", () => {
    for (const kind of RUNTIME_KINDS) {
      const templates = runtimeTemplates(kind);
      expect(templates.length).toBeGreaterThan(0);
      for (const template of templates) expect(template.formatted, `${kind}/${template.name}`).toBeDefined();
    }
  });
});

describe("the build's JSON", () => {
  it("is written as ASCII and read back as the same value (non-ASCII, astral, lone surrogate, DEL, line separator)", () => {
    const value = { text: "é — 😀 \ud800 \u007f \u2028 plain", nested: [{ "clé": "✓" }] };
    const text = buildJson(value);
    expect(/^[\x00-\x7e]*$/.test(text)).toBe(true);
    const file = join(tempDir(), "built.json");
    writeFileSync(file, text);
    expect(readBuildJson(file)).toEqual(value);
    // A file that is not ASCII (written by hand, or an older build) is read as UTF-8.
    writeFileSync(file, JSON.stringify(value));
    expect(readBuildJson(file)).toEqual(value);
  });
});
