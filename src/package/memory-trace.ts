/**
 * `SPECFORGE_TRACE_MEMORY=1`: each thread writes its resident set and heap at the points of a run marked with
 * `traceMemory` to stderr (what makes up the peak; docs/performance.md, "How the figures are measured"). `SPECFORGE_TRACE_TIME=1`: each thread
 * writes when it passes those points and the `traceTime` ones, in milliseconds since the process started, so the two
 * threads' timelines line up (docs/performance.md, "schema.ts on a worker thread"). Off, each costs one property read.
 */
import { writeSync } from "node:fs";
import { isMainThread, threadId } from "node:worker_threads";

const on = process.env.SPECFORGE_TRACE_MEMORY === "1";
const timeOn = process.env.SPECFORGE_TRACE_TIME === "1";
const MiB = 1024 * 1024;
const threadName = () => (isMainThread ? "main" : `worker ${threadId}`);

export function traceMemory(label: string): void {
  traceTime(label);
  if (!on) return;
  const before = process.memoryUsage();
  // With --expose-gc, the heap after a full collection too: what is alive, not what the collector has not freed yet.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const usage = process.memoryUsage();
  // heapUsed and heapTotal are this thread's; rss is the process's.
  writeSync(2, `[memory ${threadName()}] ${label}: rss ${(before.rss / MiB).toFixed(0)} MiB, heap ${(before.heapUsed / MiB).toFixed(0)}/${(before.heapTotal / MiB).toFixed(0)}${gc ? `, alive ${(usage.heapUsed / MiB).toFixed(0)}` : ""} MiB, after gc ${(usage.heapUsed / MiB).toFixed(0)}/${(usage.heapTotal / MiB).toFixed(0)} MiB, external ${(usage.external / MiB).toFixed(0)} MiB, t ${performance.now().toFixed(0)} ms\n`);
}

/** A point of the run's timeline: `[time <thread>] <ms since the process started> <label>` on stderr. */
export function traceTime(label: string): void {
  if (!timeOn) return;
  // A worker's performance.timeOrigin is its own start; uptime is the process's in every thread.
  const sinceStart = process.uptime() * 1000;
  writeSync(2, `[time ${threadName()}] ${sinceStart.toFixed(1)} ms ${label}\n`);
}
