import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("../..", import.meta.url));
const shared = resolve(root, "..", "shared");
/** What these tests read from ../shared (never copied into this repository). */
const needed = [join(shared, "corpus", "MANIFEST.md"), join(shared, "facts", "vendor-training-openapi.json")];
const missing = needed.filter((file) => !existsSync(file));
if (missing.length > 0) {
  // Said plainly, before vitest starts: a stack trace from a test file would hide what is wrong.
  console.error(
    [
      "test:corpus needs the public spec corpus and the vendor's document beside this repository, in ../shared:",
      ...missing.map((file) => `  missing: ${file}`),
      "Put them there (CI has them), or run `npm test`, which needs nothing outside this repository.",
    ].join("\n"),
  );
  process.exit(1);
}

/** `npm run test:corpus`: every public spec in ../shared/corpus, generated and type-checked (minutes, not seconds). */
export default defineConfig({
  test: {
    root,
    include: ["test/corpus/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts", "test/corpus/setup.ts"],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    fileParallelism: false,
  },
});
