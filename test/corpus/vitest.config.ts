import { defineConfig } from "vitest/config";

/** `npm run test:corpus`: every public spec in ../shared/corpus, generated and type-checked (minutes, not seconds). */
export default defineConfig({
  test: {
    root: new URL("../..", import.meta.url).pathname,
    include: ["test/corpus/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    fileParallelism: false,
  },
});
