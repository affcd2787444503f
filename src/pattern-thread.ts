/**
 * The analysis of the spec's regexes for catastrophic backtracking (src/emit/server-patterns.ts, redos-detector) on
 * the machine's second core, while this thread emits schema.ts and client.ts. On GitHub's description it is ~0.1 s
 * of the main thread (7 quantified patterns), and its input and output are small: pattern strings in, one number per
 * pattern out. So, unlike the types worker (src/types-thread.ts), this one is handed no document and loads no
 * compiler: it costs an isolate with redos-detector (~10 MB, for the time of the analysis).
 *
 * The outcomes come back through a SharedArrayBuffer (`[done, outcome…]`): server.ts is emitted synchronously, and
 * when it first asks for a verdict the main thread waits for the worker there (`Atomics.wait`) and reads them. The
 * outcome of each pattern is the same call with the same step limit as in this thread (`analyse`), never timed, so
 * server.ts is the same whichever thread analysed. A worker that fails or takes longer than the wait's bound leaves
 * its patterns to this thread.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker, isMainThread, workerData } from "node:worker_threads";
import { join } from "node:path";
import { analyse, analysedElsewhere, findPatterns, patternsToAnalyse, type Outcome, type PatternToAnalyse } from "./emit/server-patterns.js";
import { PACKAGE_ROOT } from "./package/root.js";

const ROLE = "specforge:pattern-thread";
interface Job {
  role: typeof ROLE;
  patterns: PatternToAnalyse[];
  /** `[done, outcome of patterns[0], …]`; done is 1 once every outcome is written. */
  results: SharedArrayBuffer;
}

/**
 * Fewer quantified patterns than this are analysed in the main thread: a worker's start (~30 ms of the other core)
 * is more than a few patterns cost (Stripe's 2: 7 ms; OpenAI's 3: 4 ms).
 */
export const PATTERN_THREAD_MIN_PATTERNS = 5;

/**
 * How long the main thread waits for the outcomes before analysing the patterns itself (a worker stuck, or dead while
 * this thread was blocked). The analysis is bounded by its step limit (GitHub's 7 patterns: ~0.1 s); the bound only
 * costs time, the outcomes are the same from either thread.
 */
const WAIT_MS = 10_000;

/** The compiled module (the worker's entry): this file in the build; the build's copy when running from source (tests). */
function workerFile(): string | undefined {
  const here = fileURLToPath(import.meta.url);
  const file = here.endsWith(".ts") ? join(PACKAGE_ROOT, "dist", "src", "pattern-thread.js") : here;
  return existsSync(file) ? file : undefined;
}

/**
 * Starts the analysis of the document's quantified patterns on another thread, if there are enough of them and a
 * second core (`SPECFORGE_THREADS=1` keeps everything on this thread); the server emitter takes the outcomes
 * (server-patterns.ts `analysedElsewhere`). Returns whether a worker was started.
 */
export function startPatternThread(document: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env, file: string | undefined = workerFile()): boolean {
  if (env.SPECFORGE_THREADS === "1" || !isMainThread || availableParallelism() < 2) return false;
  const patterns = patternsToAnalyse(findPatterns(document).map((found) => found.pattern));
  const minimum = env.SPECFORGE_PATTERN_THREAD_MIN !== undefined ? Number(env.SPECFORGE_PATTERN_THREAD_MIN) : PATTERN_THREAD_MIN_PATTERNS;
  if (patterns.length === 0 || patterns.length < minimum || file === undefined) return false;
  const results = new SharedArrayBuffer(4 * (patterns.length + 1));
  const job: Job = { role: ROLE, patterns, results };
  let worker: Worker;
  try {
    worker = new Worker(file, { workerData: job });
  } catch {
    return false;
  }
  worker.unref(); // a run that fails before emitting server.ts does not wait for it
  // A worker that failed (it could not load, or died) never sets the done flag: its patterns are then analysed here,
  // without waiting for it when this thread has already heard that it is gone.
  let gone = false;
  worker.on("error", () => (gone = true));
  worker.on("exit", () => (gone = true));
  analysedElsewhere(() => {
    const cells = new Int32Array(results);
    if (!gone) Atomics.wait(cells, 0, 0, WAIT_MS);
    const outcomes = new Map<string, Outcome>();
    if (Atomics.load(cells, 0) === 1) patterns.forEach(({ pattern }, i) => outcomes.set(pattern, cells[i + 1] as Outcome));
    void worker.terminate();
    return outcomes;
  });
  return true;
}

if (!isMainThread && (workerData as Partial<Job> | null)?.role === ROLE) {
  const { patterns, results } = workerData as Job;
  const cells = new Int32Array(results);
  try {
    patterns.forEach((pattern, i) => (cells[i + 1] = analyse(pattern)));
    Atomics.store(cells, 0, 1);
  } finally {
    Atomics.notify(cells, 0);
  }
}
