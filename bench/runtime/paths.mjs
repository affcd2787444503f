/** Where the benchmarks live (no imports: the server processes load this, and must not load TypeScript). */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** Scratch output of the runtime benchmarks (git-ignored). */
export const OUT = join(ROOT, "bench", ".out", "runtime");
