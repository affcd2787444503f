/**
 * The pipeline's types stage (schema.ts: openapi-typescript's transform, then the printer) on the machine's second
 * core. On a large spec it is half of a run's CPU and independent of the other emitters, which need the model, not
 * the types: so the main thread builds the model and emits client.ts, server.ts and webhooks.ts while a worker
 * thread emits schema.ts from the same bundled document.
 *
 * The worker is started before the spec is loaded, so that loading TypeScript and openapi-typescript (its part of the
 * start-up) overlaps the main thread's reading and bundling. It is handed the bundled document by structured clone
 * (measured on GitHub's 13 MB description: 40 ms to serialise on the main thread; the worker's 0.1 s to deserialise
 * is off the main thread's path), makes the document openapi-typescript is given from it (load/ `documentForTypes`,
 * as the sequential path does) and sends back the file. The output is the same function of the same document, so
 * it is byte-identical whatever the scheduling (test/write/types-thread.test.ts compares both paths).
 *
 * Errors cross the thread as they were thrown: a UserError (exit 2) keeps its message, location and hint; anything
 * else is a bug (exit 3) with the worker's stack. A worker that dies without answering is a bug too.
 *
 * Off by default: on GitHub's description the worker raised the peak resident set from 306–370 MiB to 477–515 MiB
 * (both heaps, two copies of the compiler and of the document at once), over issue 15's bar of openapi-typescript's
 * own 449 MiB, and under the load of a shared 2-core machine it gave no shorter wall time (bench/NOTES.md, session 5).
 * `SPECFORGE_THREADS=auto` uses it for specs of at least 1 MiB, `SPECFORGE_THREADS=2` for every spec (the tests).
 * Never used when the machine has one core; when this is already a worker (the jobs of a config with several
 * projects run one per core); or when there is no built worker file (a source checkout before its first build).
 */
import { existsSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import type { EmittedFile } from "./emit/file.js";
import { deserializeError, serializeError, type SerializedError } from "./errors.js";
import { traceMemory } from "./package/memory-trace.js";
import { PACKAGE_ROOT } from "./package/root.js";

type Request = { document: Record<string, unknown> };
/** schema.ts's text is sent once when `canonical` is the same text (it is, unless prettier has to format it). */
type Reply = { ok: true; file: EmittedFile; canonicalIsContent: boolean } | { ok: false; error: SerializedError };
/** The worker's `workerData`: marks this module's worker (the project workers import this module too). */
const ROLE = "specforge:types-thread";

/** A worker emitting schema.ts: started early, handed the document once it is loaded. */
export interface TypesThread {
  /** schema.ts from the bundled document (LoadedSpec.document), as `emitTypes(documentForTypes(document))` makes it. */
  emit(document: Record<string, unknown>): Promise<EmittedFile>;
  /** Stops the worker (the run failed before the document was handed over). */
  stop(): void;
}

/** The compiled worker: beside this file in the build; the build's copy when this module runs from source (tests). */
function workerFile(): string | undefined {
  const here = fileURLToPath(import.meta.url);
  const file = here.endsWith(".ts") ? join(PACKAGE_ROOT, "dist", "src", "types-thread.js") : here;
  return existsSync(file) ? file : undefined;
}

/**
 * Specs smaller than this (the entry file's bytes) have their types emitted in the main thread: their transform takes
 * milliseconds, and a worker costs more than it saves (its own copy of TypeScript to load, measured on the petstore:
 * +0.15 s CPU and +50 MB RSS for no shorter wall time). A spec from a URL is not measured beforehand: main thread.
 */
export const TYPES_THREAD_MIN_SPEC_BYTES = 1024 * 1024;

/** Whether schema.ts may be emitted in a worker thread in this process (see the module's comment). */
export function typesThreadAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.SPECFORGE_THREADS === "2" || env.SPECFORGE_THREADS === "auto") && isMainThread && availableParallelism() > 1 && workerFile() !== undefined;
}

/**
 * Starts the worker for the spec at `specPath` (a file, or a URL); undefined when schema.ts is to be emitted in this
 * thread: always, unless `SPECFORGE_THREADS` is `auto` (specs of at least TYPES_THREAD_MIN_SPEC_BYTES) or `2` (any
 * spec: the tests compare both paths on small specs).
 */
export function startTypesThread(specPath: string, env: NodeJS.ProcessEnv = process.env): TypesThread | undefined {
  if (!typesThreadAvailable(env)) return undefined;
  if (env.SPECFORGE_THREADS === "auto" && (specBytes(specPath) ?? 0) < TYPES_THREAD_MIN_SPEC_BYTES) return undefined;
  const worker = new Worker(workerFile()!, { workerData: ROLE });
  let settled = false;
  const result = new Promise<EmittedFile>((resolve, reject) => {
    const finish = () => {
      settled = true;
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      // The worker ends by itself once it has answered (writing the code cache if it compiled TypeScript); the
      // process does not wait for it.
      worker.unref();
    };
    const onMessage = (reply: Reply) => {
      finish();
      if (!reply.ok) return reject(deserializeError(reply.error));
      resolve(reply.canonicalIsContent ? { ...reply.file, canonical: reply.file.content } : reply.file);
    };
    const onError = (error: unknown) => {
      finish();
      reject(error);
    };
    const onExit = (code: number) => {
      finish();
      reject(new Error(`the worker thread emitting schema.ts exited with code ${code} before answering`));
    };
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
  });
  result.catch(() => {}); // rejected before anyone awaits it: the run failed earlier and stopped the worker
  return {
    emit(document) {
      worker.postMessage({ document } satisfies Request);
      return result;
    },
    stop() {
      if (!settled) void worker.terminate();
    },
  };
}

function specBytes(specPath: string): number | undefined {
  try {
    return /^https?:\/\//i.test(specPath) ? undefined : statSync(specPath).size;
  } catch {
    return undefined; // missing: the loader says so
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The worker

if (!isMainThread && parentPort && workerData === ROLE) {
  const port = parentPort;
  // Loading TypeScript and openapi-typescript starts now, while the main thread reads and bundles the spec.
  const modules = Promise.all([import("./emit/types.js"), import("./load/index.js")]);
  modules.catch(() => {}); // reported when the document comes
  port.once("message", async ({ document }: Request) => {
    let reply: Reply;
    try {
      traceMemory("document received");
      const [{ emitTypes }, { documentForTypes }] = await modules;
      // A bug in the worker, on purpose: how the tests check that one is reported as before (exit 3, with its stack).
      if (process.env.SPECFORGE_TEST_TYPES_THREAD_BUG === "1") throw new TypeError("a bug in the types thread (SPECFORGE_TEST_TYPES_THREAD_BUG)");
      const file = emitTypes(documentForTypes(document));
      const canonicalIsContent = file.canonical !== undefined && file.canonical === file.content;
      const { canonical: _sameText, ...withoutCanonical } = file;
      reply = { ok: true, file: canonicalIsContent ? withoutCanonical : file, canonicalIsContent };
    } catch (error) {
      reply = { ok: false, error: serializeError(error) };
    }
    traceMemory("replying");
    port.postMessage(reply);
    port.close();
  });
}
