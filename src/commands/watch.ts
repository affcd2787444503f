import { existsSync, statSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { CONFIG_FILES, type ResolvedConfig } from "../config/resolve.js";
import { UserError, toDisplayPath } from "../errors.js";
import type { Output } from "./output.js";
import { runGenerate } from "../pipeline.js";
import { describeGenerateDetails, summarizeGenerate } from "./generate.js";

export interface WatchOptions {
  cwd: string;
  /** Re-reads the config (file and flags); called before every run, so config edits apply too. */
  resolveConfig: () => Promise<ResolvedConfig>;
  /** The --config file, when one was given (watched even while it cannot be read). */
  configFile?: string;
  out: Output;
  /** Aborting stops watching (after the run in progress, if any). */
  signal: AbortSignal;
  /** Quiet time after the last change before regenerating. @default 100 */
  debounceMs?: number;
}

/**
 * `specforge generate --watch`: generates, then regenerates whenever the spec, a file it `$ref`s or the config
 * changes. Folders are watched rather than files, so editors that save by writing a new file and renaming it over
 * the old one are seen too. A failed run prints its error and leaves the output as it was; watching goes on. The
 * set of watched files is re-read after every run, since `$ref`s come and go.
 */
export async function runWatch(options: WatchOptions): Promise<void> {
  const { cwd, out, signal, debounceMs = 100 } = options;
  const watchers = new Map<string, FSWatcher>(); // folder → watcher
  let targets = new Map<string, Set<string>>(); // folder → the names in it that matter
  let changed = new Set<string>();
  let specFiles: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const show = (file: string) => toDisplayPath(file, cwd);

  const runOnce = async (trigger: string | undefined): Promise<void> => {
    const files = new Set<string>(configCandidates(cwd, options.configFile));
    const read = new Set<string>();
    const prefix = `specforge: ${trigger ? `${trigger} changed: ` : ""}`;
    try {
      const config = await options.resolveConfig();
      if (config.configFile) files.add(config.configFile);
      const report = await runGenerate(config, { onSpecFile: (file) => read.add(file) });
      out.info(`${prefix}${summarizeGenerate(report, out.paint)}`);
      for (const line of describeGenerateDetails(report, out.paint)) out.detail(line);
    } catch (error) {
      const message =
        error instanceof UserError
          ? error.format()
          : `internal error (a bug in specforge; please report it): ${(error as Error)?.stack ?? String(error)}`;
      out.error(`${prefix}${out.errorPaint.red("error:")} ${message}`);
      out.error("specforge: the output was left as it was; waiting for the next change");
    }
    specFiles = [...read];
    for (const file of read) files.add(file);
    targets = watchTargets(files);
    updateWatchers();
    out.detail(`  watching: ${[...files].map(show).sort().join(", ")}`);
  };

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (running) return; // the run in progress reschedules when it ends
      const trigger = [...changed].map(show).sort().join(", ");
      changed = new Set();
      running = runOnce(trigger).finally(() => {
        running = undefined;
        if (changed.size > 0 && !stopped) schedule();
      });
    }, debounceMs);
  };

  const updateWatchers = () => {
    if (stopped) return;
    for (const [dir, watcher] of watchers) {
      if (!targets.has(dir)) {
        watcher.close();
        watchers.delete(dir);
      }
    }
    for (const dir of targets.keys()) {
      if (watchers.has(dir)) continue;
      try {
        const watcher = watch(dir, (_event, name) => {
          const names = targets.get(dir);
          if (!names) return;
          // Without a name (some platforms), any change in the folder may be ours.
          const hits = name === null ? [...names] : names.has(name.toString()) ? [name.toString()] : [];
          if (hits.length === 0) return;
          for (const hit of hits) changed.add(join(dir, hit));
          schedule();
        });
        watcher.on("error", () => {
          // The folder went away (it is re-resolved after the next run).
          watcher.close();
          watchers.delete(dir);
        });
        watchers.set(dir, watcher);
      } catch {
        // The folder disappeared between the check and the watch: the next run looks again.
      }
    }
  };

  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  signal.addEventListener("abort", stop, { once: true });

  if (!signal.aborted) {
    running = runOnce(undefined).finally(() => {
      running = undefined;
      if (changed.size > 0 && !stopped) schedule();
    });
    await running;
    if (!stopped) out.info(`specforge: watching ${describeWatched(specFiles.map(show))} and the config for changes (Ctrl-C stops)`);
  }
  await new Promise<void>((done) => (signal.aborted ? done() : signal.addEventListener("abort", () => done(), { once: true })));
  stop();
  await running;
  for (const watcher of watchers.values()) watcher.close();
  watchers.clear();
  out.info("specforge: stopped watching");
}

function describeWatched(files: string[]): string {
  if (files.length === 0) return "the spec";
  const refs = files.length - 1;
  return refs === 0 ? files[0]! : `${files[0]} and the ${refs} file${refs === 1 ? "" : "s"} it references`;
}

/** The config files whose appearance or change matters: the --config file, or every name looked for in cwd. */
function configCandidates(cwd: string, configFile: string | undefined): string[] {
  if (configFile) return [resolve(cwd, configFile)];
  return [...CONFIG_FILES, "package.json"].map((name) => join(cwd, name));
}

/**
 * For every file, the folder to watch and the name in it to react to: its own folder, or — when that folder does
 * not exist (yet) — the nearest existing ancestor and the first missing folder on the way down.
 */
function watchTargets(files: Iterable<string>): Map<string, Set<string>> {
  const targets = new Map<string, Set<string>>();
  for (const file of files) {
    let dir = dirname(file);
    let name = basename(file);
    while (!isDirectory(dir) && dirname(dir) !== dir) {
      name = relative(dirname(dir), dir).split(sep)[0]!;
      dir = dirname(dir);
    }
    if (!isDirectory(dir)) continue;
    let names = targets.get(dir);
    if (!names) targets.set(dir, (names = new Set()));
    names.add(name);
  }
  return targets;
}

function isDirectory(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isDirectory();
  } catch {
    return false;
  }
}
