/**
 * `generate` and `check` over several specs at once (a config with `projects`), in parallel on the machine's
 * cores. Each job runs in a worker thread: generating is CPU-bound (TypeScript, prettier) and single-threaded, so
 * threads are what makes ten specs take the time of a few. A `check` first asks the manifest in the main thread —
 * an up-to-date folder is proven current in milliseconds, without loading the generator — and sends only the
 * folders it cannot prove current to workers to be regenerated in memory and compared.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, threadId } from "node:worker_threads";
import type { ResolvedConfig, SharedRuntime } from "../config/resolve.js";
import { UserError, deserializeError, serializeError, type SerializedError } from "../errors.js";
import { PACKAGE_ROOT } from "../package/root.js";
import type { CheckReport, GenerateReport, Phase, RunCheckOptions } from "../pipeline.js";
import { isProvablyCurrent } from "../write/fast-check.js";

export type ProjectCommand = "generate" | "check";

/** A generate report without the files' contents (they stay in the worker). */
export type GenerateSummary = Omit<GenerateReport, "files">;

export { deserializeError, type SerializedError };

export type ProjectOutcome = (
  | { ok: true; command: "generate"; report: GenerateSummary }
  | { ok: true; command: "check"; report: CheckReport }
  | { ok: false; error: SerializedError }
) & {
  /** The thread the job ran in (0: the main thread, where an up-to-date check is proven). */
  threadId: number;
};

/** Messages between the runner and a worker. */
export type WorkerRequest = { id: number; command: ProjectCommand; config: ResolvedConfig; options: JobOptions };

/** How each job runs: `check --remote`, `generate --offline`. */
export interface JobOptions {
  check?: Pick<RunCheckOptions, "remote" | "fullDiff">;
  offline?: boolean;
}
export type WorkerReply = { id: number; phase: Phase } | { id: number; outcome: ProjectOutcome };

export interface RunProjectsOptions {
  /** Told each outcome as soon as it is known (in any order). */
  onOutcome: (index: number, outcome: ProjectOutcome) => void;
  /** Told when a job starts a phase. */
  onPhase?: (index: number, phase: Phase) => void;
  /** Worker threads at most. @default the machine's available parallelism */
  threads?: number;
  /** `check --remote` */
  check?: JobOptions["check"];
  /** `generate --offline` */
  offline?: boolean;
}

/** Runs one job in this thread: what a worker does, and the fallback where no built worker exists. */
export async function runProjectJob(command: ProjectCommand, config: ResolvedConfig, options: JobOptions, onPhase?: (phase: Phase) => void): Promise<ProjectOutcome> {
  try {
    if (command === "generate") {
      const { runGenerate } = await import("../pipeline.js");
      // A shared runtime folder is written once, by the runner, when every project is done (runProjects).
      const { files: _files, ...report } = await runGenerate(config, { onPhase, sharedRuntime: "caller", ...(options.offline ? { remote: "offline" as const } : {}) });
      return { ok: true, command, report, threadId };
    }
    const { runCheck } = await import("../pipeline.js");
    return { ok: true, command, report: await runCheck(config, { regenerate: true, sharedRuntime: "caller", ...options.check }), threadId };
  } catch (error) {
    return { ok: false, error: serializeError(error), threadId };
  }
}

/**
 * The compiled worker. From the built CLI it sits beside this file; when this module runs from source (the tests'
 * in-process CLI), the build's copy is used. Undefined when there is no build: jobs then run in this thread.
 */
function workerFile(): string | undefined {
  const here = fileURLToPath(import.meta.url);
  const file = here.endsWith(".ts") ? join(PACKAGE_ROOT, "dist", "src", "commands", "project-worker.js") : join(dirname(here), "project-worker.js");
  return existsSync(file) ? file : undefined;
}

export async function runProjects(command: ProjectCommand, configs: ResolvedConfig[], options: RunProjectsOptions): Promise<void> {
  const queue: number[] = [];
  const job: JobOptions = { ...(options.check ? { check: options.check } : {}), ...(options.offline ? { offline: true } : {}) };
  for (const [index, config] of configs.entries()) {
    if (command === "check" && (await isProvablyCurrent(config))) {
      const { runCheck } = await import("../pipeline.js");
      let outcome: ProjectOutcome;
      try {
        outcome = { ok: true, command, report: await runCheck(config, { provenCurrent: true, sharedRuntime: "caller", ...job.check }), threadId };
      } catch (error) {
        outcome = { ok: false, error: serializeError(error), threadId };
      }
      options.onOutcome(index, outcome);
    } else {
      queue.push(index);
    }
  }
  if (queue.length === 0) return;

  const file = workerFile();
  const threads = Math.max(1, Math.min(queue.length, options.threads ?? availableParallelism()));
  if (!file || threads === 1) {
    for (const index of queue) options.onOutcome(index, await runProjectJob(command, configs[index]!, job, (phase) => options.onPhase?.(index, phase)));
    return;
  }

  await Promise.all(
    Array.from({ length: threads }, async () => {
      const worker = new Worker(file);
      try {
        for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
          options.onOutcome(index, await inWorker(worker, { id: index, command, config: configs[index]!, options: job }, (phase) => options.onPhase?.(index, phase)));
        }
      } finally {
        await worker.terminate();
      }
    }),
  );
}

/** Sends one job to a worker and waits for its outcome; a worker that dies reports the job as a bug. */
function inWorker(worker: Worker, request: WorkerRequest, onPhase: (phase: Phase) => void): Promise<ProjectOutcome> {
  const id = worker.threadId; // -1 once the worker has exited
  return new Promise((resolve) => {
    const onMessage = (reply: WorkerReply) => {
      if (reply.id !== request.id) return;
      if ("phase" in reply) return onPhase(reply.phase);
      finish(reply.outcome);
    };
    const onError = (error: unknown) => finish({ ok: false, error: serializeError(error), threadId: id });
    const onExit = (code: number) => finish({ ok: false, error: { user: false, stack: `the worker thread exited with code ${code}` }, threadId: id });
    const finish = (outcome: ProjectOutcome) => {
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      resolve(outcome);
    };
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
    worker.postMessage(request);
  });
}

/**
 * The outcome of the runtime folder the projects share (config `runtime`), once every project's is known: `check`
 * compares it with the union of what the projects import; `generate` writes it when every project was generated
 * (their modules came back with their reports), and otherwise leaves it as it is.
 */
export async function runSharedRuntime(command: ProjectCommand, shared: SharedRuntime, configs: readonly ResolvedConfig[], outcomes: readonly ProjectOutcome[], options: JobOptions = {}): Promise<ProjectOutcome> {
  const cwd = configs[0]!.cwd;
  try {
    const { checkSharedRuntime, generateSharedRuntime } = await import("../shared-runtime.js");
    if (command === "check") return { ok: true, command, report: await checkSharedRuntime(shared, cwd, { ...(options.check?.fullDiff ? { fullDiff: true } : {}) }), threadId };
    const failed = outcomes.filter((outcome) => !outcome.ok).length;
    if (failed > 0) {
      throw new UserError(`not written: ${failed === 1 ? "a project" : `${failed} projects`} could not be generated, and the folder holds what every project imports`, {
        location: shared.location,
        hint: "fix the project's error above, then generate again",
      });
    }
    const known = new Map(outcomes.flatMap((outcome, index) => (outcome.ok && outcome.command === "generate" && outcome.report.runtime ? [[configs[index]!.project!, outcome.report.runtime] as const] : [])));
    return { ok: true, command, report: await generateSharedRuntime(shared, cwd, known), threadId };
  } catch (error) {
    return { ok: false, error: serializeError(error), threadId };
  }
}
