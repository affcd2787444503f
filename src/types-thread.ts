/**
 * The pipeline's types stage (schema.ts: openapi-typescript's transform, then the printer) on the machine's second
 * core. On a large spec it is half of a run's CPU and independent of the other emitters, which need the model, not
 * the types: so the main thread builds the model and emits client.ts, server.ts and webhooks.ts while a worker
 * thread emits schema.ts.
 *
 * The worker loads the spec itself, from the same files, as soon as it starts: its reading, parsing and bundling
 * (and loading TypeScript and openapi-typescript) overlap the main thread's, and nothing as large as the document
 * crosses the thread (a structured clone of GitHub's bundled description cost the main thread 40–125 ms to serialise
 * and the worker 0.1–0.4 s to deserialise, on the critical path: docs/performance.md, "schema.ts on a worker thread"). The loader is a
 * function of the files' bytes, so both threads hold the same document; the main thread hands the worker the files
 * it read (paths and SHA-256) and the worker answers with schema.ts only when it read exactly those bytes. Otherwise
 * (a file changed between the two reads, a `$ref` to a URL the worker could not read offline, its load failed) it
 * answers "not mine" and the main thread emits schema.ts itself, as without the worker. The output is the same
 * function of the same document either way (test/write/types-thread.test.ts compares both paths).
 *
 * Errors of the emission cross the thread as they were thrown: a UserError (exit 2) keeps its message, location and
 * hint; anything else is a bug (exit 3) with the worker's stack. A worker that dies without answering is a bug too.
 * The worker's own load errors are not reported: the main thread's load of the same files reports them.
 *
 * Off by default: the worker raises the peak resident set (both heaps, two copies of the compiler and of the document
 * at once), on every large spec above the bar of 0.75× openapi-typescript's own (GitHub ~440 MiB against 310
 * sequential, bar 338; Stripe ~310 vs 237, bar 189; OpenAI ~276 vs 198, bar 169: docs/performance.md, "schema.ts on a worker thread"), so no size-based default would pick it on any of them. `SPECFORGE_THREADS=auto` uses it for specs of at least 1 MiB,
 * `SPECFORGE_THREADS=2` for every spec (the tests). Never used when the machine has one core; when this is already a
 * worker (the jobs of a config with several projects run one per core); or when there is no built worker file (a
 * source checkout before its first build).
 */
import { existsSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, isMainThread, parentPort, resourceLimits, workerData } from "node:worker_threads";
import type { EmittedFile } from "./emit/file.js";
import type { SpecFile } from "./load/index.js";
import type { SpecSource } from "./load/remote-documents.js";
import { deserializeError, serializeError, toDisplayPath, type SerializedError } from "./errors.js";
import { traceMemory, traceTime } from "./package/memory-trace.js";
import { PACKAGE_ROOT } from "./package/root.js";

/** The files the main thread's load read: the worker's schema.ts is used only if it read the same bytes. */
type Request = { files: FileVersion[] };
type FileVersion = Pick<SpecFile, "path" | "sha256">;
/**
 * schema.ts's text is sent once when `canonical` is the same text (it is, unless prettier has to format it).
 * `file` absent: the worker did not load the same files (see the module's comment); the main thread emits it.
 */
type Reply = { ok: true; file?: EmittedFile; canonicalIsContent: boolean } | { ok: false; error: SerializedError };
/** The worker's `workerData`: marks this module's worker (the project workers import this module too). */
const ROLE = "specforge:types-thread";
type WorkerData = { role: typeof ROLE; source: SpecSource };

/** A worker emitting schema.ts: started before the spec is loaded, loading it itself. */
export interface TypesThread {
  /**
   * schema.ts as `emitTypes(documentForTypes(document))` makes it from the document the main thread loaded from
   * `files`; undefined when the worker did not read the same files (the caller emits it).
   */
  emit(files: readonly SpecFile[]): Promise<EmittedFile | undefined>;
  /** Stops the worker (the run failed before schema.ts was asked for). */
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

/**
 * The worker's young generation, in MiB (V8's default: 48, three semi-spaces of 16). The transform and the printer
 * make short-lived nodes and strings by the million, and each of the two threads' young generations filled up to its
 * default is memory the sequential run does not have: GitHub's peak resident set with the worker, 5 runs each,
 * median 479 → 448 MiB, CPU the same (4.11 vs 4.14 s; docs/performance.md, "schema.ts on a worker thread"). Only
 * the young generation is bounded: a bound on the old one changes how often V8 collects it (back-to-back collections
 * at 96–192 MiB, +1.3 s CPU) and would stop a spec larger than GitHub's with ERR_WORKER_OUT_OF_MEMORY.
 */
export const TYPES_THREAD_YOUNG_GENERATION_MB = 8;
const TYPES_THREAD_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: TYPES_THREAD_YOUNG_GENERATION_MB };

/** Whether schema.ts may be emitted in a worker thread in this process (see the module's comment). */
export function typesThreadAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.SPECFORGE_THREADS === "2" || env.SPECFORGE_THREADS === "auto") && isMainThread && availableParallelism() > 1 && workerFile() !== undefined;
}

/**
 * Starts the worker for the spec `source` names (a file, or a URL: the worker reads URLs from the cache only);
 * undefined when schema.ts is to be emitted in this thread: always, unless `SPECFORGE_THREADS` is `auto` (specs of
 * at least TYPES_THREAD_MIN_SPEC_BYTES) or `2` (any spec: the tests compare both paths on small specs).
 */
export function startTypesThread(source: SpecSource, env: NodeJS.ProcessEnv = process.env): TypesThread | undefined {
  if (!typesThreadAvailable(env)) return undefined;
  if (env.SPECFORGE_THREADS === "auto" && (specBytes(source.spec) ?? 0) < TYPES_THREAD_MIN_SPEC_BYTES) return undefined;
  const { spec, cwd, refRoots, maxSpecFileBytes, fetch } = source;
  const data: WorkerData = { role: ROLE, source: { spec, cwd, refRoots, maxSpecFileBytes, fetch: { origins: fetch.origins, timeoutMs: fetch.timeoutMs, cacheDir: fetch.cacheDir } } };
  const worker = new Worker(workerFile()!, { workerData: data, resourceLimits: TYPES_THREAD_RESOURCE_LIMITS });
  let settled = false;
  const result = new Promise<EmittedFile | undefined>((resolve, reject) => {
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
      resolve(reply.file && reply.canonicalIsContent ? { ...reply.file, canonical: reply.file.content } : reply.file);
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
    emit(files) {
      worker.postMessage({ files: files.map(({ path, sha256 }) => ({ path, sha256 })) } satisfies Request);
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

if (!isMainThread && parentPort && (workerData as WorkerData | undefined)?.role === ROLE) {
  const port = parentPort;
  traceTime(`types thread running (young generation ≤ ${resourceLimits.maxYoungGenerationSizeMb} MiB)`);
  const { source } = workerData as WorkerData;
  // Everything up to schema.ts's text happens now, while the main thread loads the same spec and emits the rest.
  const loaded = (async () => {
    const [{ loadSpecSource }, { documentForTypes }] = await Promise.all([import("./load/remote-documents.js"), import("./load/index.js")]);
    const spec = await loadSpecSource(source, { mode: "offline" });
    traceTime("types thread's spec loaded");
    return { files: spec.files, entry: spec.entry, input: documentForTypes(spec.document) };
  })();
  const emitted = (async () => {
    const [{ emitTypes }, { OutputBudget, specBytes }, { files, entry, input }] = await Promise.all([import("./emit/types.js"), import("./emit/budget.js"), loaded]);
    traceTime("types document made");
    // A bug in the worker, on purpose: how the tests check that one is reported as before (exit 3, with its stack).
    if (process.env.SPECFORGE_TEST_TYPES_THREAD_BUG === "1") throw new TypeError("a bug in the types thread (SPECFORGE_TEST_TYPES_THREAD_BUG)");
    // The same cap as the main thread's (which counts the file again when it arrives): a file past it stops here.
    const file = emitTypes(input, new OutputBudget(specBytes(files), toDisplayPath(entry, source.cwd)));
    traceMemory("types emitted");
    return file;
  })();
  emitted.catch(() => {}); // answered when the main thread asks
  port.once("message", async ({ files }: Request) => {
    let reply: Reply;
    const own = await loaded.then(
      (spec) => spec.files,
      () => undefined, // the main thread's load of the same files says what is wrong, or they changed
    );
    if (!own || !sameFiles(own, files)) {
      reply = { ok: true, canonicalIsContent: false };
    } else {
      try {
        const file = await emitted;
        const canonicalIsContent = file.canonical !== undefined && file.canonical === file.content;
        const { canonical: _sameText, ...withoutCanonical } = file;
        reply = { ok: true, file: canonicalIsContent ? withoutCanonical : file, canonicalIsContent };
      } catch (error) {
        reply = { ok: false, error: serializeError(error) };
      }
    }
    traceMemory("replying");
    port.postMessage(reply);
    port.close();
  });
}

function sameFiles(a: readonly FileVersion[], b: readonly FileVersion[]): boolean {
  return a.length === b.length && a.every((file, i) => file.path === b[i]!.path && file.sha256 === b[i]!.sha256);
}
