import { defineConfig } from "vitest/config";

/**
 * The consumer matrix (`npm run test:consumers`): real projects installing the packed tarball. Apart from `npm test`
 * (it takes minutes), and run by .ci/run.
 */
export default defineConfig({
  test: {
    include: ["test/consumers/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 600_000,
    hookTimeout: 1_200_000,
    maxWorkers: 1,
  },
});
