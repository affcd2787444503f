import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/corpus/**", "node_modules/**"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests start real servers and child processes; two workers fit this 2-core machine.
    maxWorkers: 2,
  },
});
