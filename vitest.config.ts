import { defineConfig } from "vitest/config";
import { END_TO_END_TESTS } from "./test/tiers.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The end-to-end tier is `npm run test:e2e` (test/tiers.ts); CI runs both.
    exclude: ["test/corpus/**", "test/consumers/**", ...END_TO_END_TESTS, "node_modules/**"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup-warnings.ts"],
    // Snapshots (the goldens of test/features/goldens.test.ts) change only when asked: `vitest -u` or UPDATE_GOLDENS=1.
    update: process.env.UPDATE_GOLDENS === "1" ? "all" : "none",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests start real servers and child processes; two workers fit this 2-core machine.
    maxWorkers: 2,
  },
});
