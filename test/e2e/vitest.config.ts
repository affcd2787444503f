import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { END_TO_END_TESTS } from "../tiers.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * `npm run test:e2e`: the end-to-end tier (test/tiers.ts) — the built bin run as a process, generated projects compiled
 * with tsc and run over real HTTP on 127.0.0.1, the framework adapters, hostile inputs bounded in memory and time.
 * Minutes, not seconds: `npm test` leaves it out, `bash .ci/run` runs both.
 */
export default defineConfig({
  test: {
    root,
    include: END_TO_END_TESTS,
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup-warnings.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    maxWorkers: 2,
  },
});
