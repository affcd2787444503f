/**
 * `SPECFORGE_TRACE_MEMORY=1`: each thread writes its resident set and heap at the points of a run marked with
 * `traceMemory` to stderr (bench/NOTES.md, session 5: what makes up the peak). Off, it costs one property read.
 */
import { writeSync } from "node:fs";
import { isMainThread, threadId } from "node:worker_threads";

const on = process.env.SPECFORGE_TRACE_MEMORY === "1";
const MiB = 1024 * 1024;

export function traceMemory(label: string): void {
  if (!on) return;
  const before = process.memoryUsage();
  // With --expose-gc, the heap after a full collection too: what is alive, not what the collector has not freed yet.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const usage = process.memoryUsage();
  // heapUsed and heapTotal are this thread's; rss is the process's.
  const thread = isMainThread ? "main" : `worker ${threadId}`;
  writeSync(2, `[memory ${thread}] ${label}: rss ${(before.rss / MiB).toFixed(0)} MiB, heap ${(before.heapUsed / MiB).toFixed(0)}/${(before.heapTotal / MiB).toFixed(0)}${gc ? `, alive ${(usage.heapUsed / MiB).toFixed(0)}` : ""} MiB, after gc ${(usage.heapUsed / MiB).toFixed(0)}/${(usage.heapTotal / MiB).toFixed(0)} MiB, external ${(usage.external / MiB).toFixed(0)} MiB, t ${performance.now().toFixed(0)} ms\n`);
}
