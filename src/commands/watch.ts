import { existsSync, statSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { CONFIG_FILES, type ResolvedConfig } from "../config/resolve.js";
import { UserError, formatWarning, toDisplayPath } from "../errors.js";
import type { LockedDocument } from "../load/remote-documents.js";
import { isHttpUrl } from "../openapi/url.js";
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
  /** Seconds between conditional requests for the spec's documents from URLs (`--poll`). @default the config's `fetch.pollSeconds` */
  pollSeconds?: number;
  /** Documents from URLs come from the cache only (`--offline`); nothing is polled. */
  offline?: boolean;
}

/**
 * `specforge generate --watch`: generates, then regenerates whenever the spec, a file it `$ref`s or the config
 * changes. Folders are watched rather than files, so editors that save by writing a new file and renaming it over
 * the old one are seen too. A failed run prints its error and leaves the output as it was; watching goes on. The
 * set of watched files is re-read after every run, since `$ref`s come and go.
 *
 * Documents from URLs are polled, when the user asks for it (`--poll`, `fetch.pollSeconds`), with conditional
 * requests carrying the validators of the version the last run used: a 304 (or the same bytes) is no change.
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
  let config: ResolvedConfig | undefined;
  /** The documents from URLs the last run read, and the version each run used (absent: never had one). */
  let urls: string[] = [];
  const versions = new Map<string, LockedDocument>();
  let pollTimer: NodeJS.Timeout | undefined;
  let polling: Promise<void> | undefined;
  let pollFailing = false;
  const pollAbort = new AbortController();
  const pollSeconds = () => (options.offline ? 0 : (options.pollSeconds ?? config?.fetch.pollSeconds ?? 0));

  const show = (file: string) => toDisplayPath(file, cwd);

  const runOnce = async (trigger: string | undefined): Promise<void> => {
    const files = new Set<string>(configCandidates(cwd, options.configFile));
    const read = new Set<string>();
    const prefix = `specforge: ${trigger ? `${trigger} changed: ` : ""}`;
    try {
      config = await options.resolveConfig();
      if (config.configFile) files.add(config.configFile);
      const report = await runGenerate(config, { onSpecFile: (file) => read.add(file), signal: pollAbort.signal, ...(options.offline ? { remote: "offline" as const } : {}) });
      for (const warning of report.warnings) out.warn(formatWarning(warning));
      out.info(`${prefix}${summarizeGenerate(report, out.paint)}`);
      for (const line of describeGenerateDetails(report, out.paint)) out.detail(line);
      for (const document of report.remoteDocuments) versions.set(document.url, document);
    } catch (error) {
      if (stopped) return;
      const message =
        error instanceof UserError
          ? error.format()
          : `internal error (a bug in specforge; please report it): ${(error as Error)?.stack ?? String(error)}`;
      out.error(`${prefix}${out.errorPaint.red("error:")} ${message}`);
      out.error("specforge: the output was left as it was; waiting for the next change");
    }
    specFiles = [...read].filter((file) => !isHttpUrl(file));
    urls = [...read].filter(isHttpUrl);
    for (const file of specFiles) files.add(file);
    targets = watchTargets(files);
    updateWatchers();
    out.detail(`  watching: ${[...files].map(show).sort().join(", ")}`);
    schedulePoll();
  };

  const schedulePoll = () => {
    clearTimeout(pollTimer);
    const seconds = pollSeconds();
    if (stopped || seconds <= 0 || urls.length === 0) return;
    pollTimer = setTimeout(() => {
      polling = poll().finally(() => (polling = undefined));
    }, seconds * 1000);
  };

  /** One round of conditional requests; a changed document schedules a run like a saved file. */
  const poll = async (): Promise<void> => {
    if (stopped || !config) return;
    if (running) return schedulePoll(); // the run reschedules polling when it ends anyway
    const [{ fetchPolicy, probeDocuments }, { RemoteCache }] = await Promise.all([import("../load/remote-documents.js"), import("../load/remote-cache.js")]);
    // A document no run has had yet (the first run failed) counts as changed on any 200.
    const known = new Map(urls.map((url) => [url, versions.get(url) ?? { sha256: "" }]));
    let results: Awaited<ReturnType<typeof probeDocuments>>;
    try {
      results = await probeDocuments(known, fetchPolicy(config), new RemoteCache(config.fetch.cacheDir), pollAbort.signal);
    } catch {
      return; // stopped while polling
    }
    if (stopped) return;
    const failed = results.find((result) => "error" in result);
    if (failed && "error" in failed) {
      const { location, message, hint } = failed.error;
      if (!pollFailing) out.warn(`polling: ${location ?? failed.url}: ${message}; trying again every ${pollSeconds()} s${hint ? `\n  hint: ${hint}` : ""}`);
      pollFailing = true;
    } else if (pollFailing) {
      pollFailing = false;
      out.info(`specforge: polling: ${urls.length === 1 ? urls[0] : "the spec's documents"} answered again`);
    }
    let anyChanged = false;
    for (const result of results) {
      if ("changed" in result && result.changed) {
        changed.add(result.url);
        anyChanged = true;
      }
    }
    if (anyChanged) schedule();
    else schedulePoll();
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
    clearTimeout(pollTimer);
    pollAbort.abort();
  };
  signal.addEventListener("abort", stop, { once: true });

  if (!signal.aborted) {
    running = runOnce(undefined).finally(() => {
      running = undefined;
      if (changed.size > 0 && !stopped) schedule();
    });
    await running;
    if (!stopped) out.info(`specforge: ${describeWatch(specFiles.map(show), urls, pollSeconds(), options.offline === true)}`);
  }
  await new Promise<void>((done) => (signal.aborted ? done() : signal.addEventListener("abort", () => done(), { once: true })));
  stop();
  await running;
  await polling;
  for (const watcher of watchers.values()) watcher.close();
  watchers.clear();
  out.info("specforge: stopped watching");
}

/** What the watcher follows: local files, the config, and documents from URLs (polled, or said not to be). */
function describeWatch(files: string[], urls: string[], pollSeconds: number, offline: boolean): string {
  const local = files.length === 0 ? (urls.length > 0 ? "" : "the spec and ") : `${files[0]}${files.length > 1 ? ` and the ${files.length - 1} file${files.length === 2 ? "" : "s"} it references` : ""} and `;
  const watching = `watching ${local}the config for changes`;
  if (urls.length === 0) return `${watching} (Ctrl-C stops)`;
  const documents = urls.length === 1 ? urls[0]! : `${urls.length} documents from URLs`;
  if (pollSeconds > 0) return `${watching} and polling ${documents} every ${pollSeconds} s (Ctrl-C stops)`;
  if (offline) return `${watching} (Ctrl-C stops); ${documents} ${urls.length === 1 ? "comes" : "come"} from the cache (--offline)`;
  return `${watching} (Ctrl-C stops); ${documents} ${urls.length === 1 ? "is" : "are"} not polled: pass --poll SECONDS or set fetch.pollSeconds`;
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
