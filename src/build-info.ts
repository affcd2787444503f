/** Run after `tsc` in the build: records the hash of src/ so a built CLI fingerprints itself like the source does. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT, hashTree } from "./fingerprint.js";

const codeHash = hashTree(join(PACKAGE_ROOT, "src"), (name) => name.endsWith(".ts"));
writeFileSync(join(PACKAGE_ROOT, "dist", "build-info.json"), JSON.stringify({ codeHash }) + "\n");
