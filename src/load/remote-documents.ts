import { createHash } from "node:crypto";
import { UserError, type SpecWarning } from "../errors.js";
import { loadSpec, type LoadOptions, type LoadedSpec, type RemoteReader } from "./index.js";
import { parseSpecText } from "./parse.js";
import { FetchError, LockedCopyMissing, accessFor, fetchDocument, type FetchPolicy, type Validators } from "./remote.js";

export { LockedCopyMissing } from "./remote.js";
import type { RemoteCache } from "./remote-cache.js";
import { isHttpUrl, originOf } from "../openapi/url.js";

/**
 * The documents of one load that come from URLs: the spec itself when `--spec` is a URL, and the documents `$ref`s
 * name on allowed origins. The loader is synchronous and reads them from here; when it needs one that is not here
 * yet it stops, the document (and, breadth first, every URL its `$ref`s name) is fetched, and it runs again.
 *
 * Where a document comes from is the mode:
 * - `fetch` (generate): the network, conditionally with the cached copy's validators (a 304 reuses the copy); when
 *   the network cannot be reached, the cached copy (the locked version first), with a warning saying so.
 * - `network` (check --remote): the network; every failure is an error.
 * - `offline` (generate --offline): cached copies only, the locked version first.
 * - `locked` (check): exactly the versions the output folder's manifest locked, from the cache; a missing one is
 *   LockedCopyMissing.
 */
export type RemoteMode = "fetch" | "network" | "offline" | "locked";

/** A document version the output was generated from, as the manifest records it. */
export interface LockedDocument extends Validators {
  sha256: string;
}

export interface RemoteDocument extends Validators {
  url: string;
  bytes: Buffer;
  /** Where the bytes came from after redirects: relative `$ref`s in the document resolve against it. */
  base: string;
  sha256: string;
  /** How it was had: a 200, a 304 for the cached copy, or the cache alone. */
  source: "fetched" | "not-modified" | "cache";
}

export interface RemoteOptions {
  mode: RemoteMode;
  policy: FetchPolicy;
  /** Without one, nothing is cached and `offline` / `locked` have nothing to read. */
  cache?: RemoteCache;
  /** url → the version the output folder was generated from (its manifest's `inputs`). */
  lock?: ReadonlyMap<string, LockedDocument>;
  /** Stops fetching (watch mode ending). */
  signal?: AbortSignal;
}


/** The loader needs a document that has not been fetched yet (never escapes loadRemoteSpec). */
class DocumentNeeded extends Error {
  constructor(readonly url: string) {
    super(`specforge: the loader needs ${url}, which was not fetched`);
  }
}

/** More would be a `$ref` chain inventing URLs, not a spec (DigitalOcean's, the largest multi-file spec, has 2,900 files). */
export const MAX_REMOTE_DOCUMENTS = 5_000;
/** Requests in flight at once. */
const CONCURRENCY = 6;

export class RemoteDocuments implements RemoteReader {
  private readonly documents = new Map<string, RemoteDocument>();
  private readonly failures = new Map<string, UserError>();
  /** Origins found unreachable in this run (mode `fetch`): later documents there come from the cache at once. */
  private readonly unreachable = new Map<string, FetchError>();
  /** Documents read from the cache because their origin was unreachable, by origin. */
  private readonly fallbacks = new Map<string, { error: FetchError; urls: string[]; locked: boolean }>();

  constructor(readonly options: RemoteOptions) {}

  mayFetch(url: string): boolean {
    return accessFor(this.options.policy, url) !== undefined;
  }

  /** For the loader: the document, the error that kept it away, or (not fetched yet) a request to fetch it. */
  read(url: string, referencedFrom?: string): RemoteDocument {
    const document = this.documents.get(url);
    if (document) return document;
    const failure = this.failures.get(url);
    if (failure) {
      if (referencedFrom === undefined) throw failure;
      const Kind = failure instanceof LockedCopyMissing ? LockedCopyMissing : UserError;
      throw new Kind(`${failure.message}, referenced by ${referencedFrom}`, { location: failure.location, hint: failure.hint, cause: failure });
    }
    throw new DocumentNeeded(url);
  }

  /** Every document had so far, in the order they were asked for. */
  get all(): RemoteDocument[] {
    return [...this.documents.values()];
  }

  /** Warnings for the run: documents read from the cache because the network could not be reached. */
  get warnings(): SpecWarning[] {
    return [...this.fallbacks.values()].map(({ error, urls, locked }) => ({
      location: error.location ?? urls[0]!,
      message: `${error.message}; ${urls.length === 1 ? "using the copy" : `using the copies of ${urls.length} documents`} in the cache (${locked ? "the locked version: the one the output was generated from" : "the version fetched last"})`,
      hint: "the output is regenerated from the cache; run again online to follow the vendor's current document",
    }));
  }

  private known(url: string): boolean {
    return this.documents.has(url) || this.failures.has(url);
  }

  /** Fetches `urls` and, breadth first, every URL on an allowed origin that their `$ref`s name. */
  async fetchAll(urls: string[]): Promise<void> {
    let wave = [...new Set(urls)].filter((url) => !this.known(url));
    while (wave.length > 0) {
      if (this.documents.size + this.failures.size + wave.length > MAX_REMOTE_DOCUMENTS) {
        throw new UserError(`the spec's $refs name more than ${MAX_REMOTE_DOCUMENTS.toLocaleString("en-US")} documents on other URLs`, {
          location: wave[0],
          hint: "a $ref loop that invents URLs? specforge reads at most that many documents from URLs",
        });
      }
      const next = new Set<string>();
      const current = new Set(wave);
      await eachLimited(wave, CONCURRENCY, async (url) => {
        await this.obtain(url);
        const document = this.documents.get(url);
        if (!document) return;
        for (const ref of referencedUrls(document)) if (!this.known(ref) && !current.has(ref) && this.mayFetch(ref)) next.add(ref);
      });
      wave = [...next];
    }
  }

  /** Gets one document as the mode says; a UserError is kept for the loader to throw where the document is needed. */
  private async obtain(url: string): Promise<void> {
    try {
      this.documents.set(url, await this.get(url));
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      this.failures.set(url, error);
    }
  }

  private async get(url: string): Promise<RemoteDocument> {
    const { mode, cache, lock, policy } = this.options;
    const locked = lock?.get(url);
    if (mode === "locked") {
      if (!locked) throw new LockedCopyMissing("is not among the documents the output was generated from", { location: url });
      const copy = cache?.copy(url, locked.sha256);
      if (!copy) {
        throw new LockedCopyMissing(`the version the output was generated from (sha256 ${locked.sha256.slice(0, 12)}) is not in the cache`, {
          location: url,
          hint: "`specforge generate` keeps each fetched document in node_modules/.cache/specforge; on a new checkout or CI runner it is not there yet",
        });
      }
      return fromCache(url, copy);
    }
    if (mode === "offline") {
      const copy = (locked && cache?.copy(url, locked.sha256)) || cache?.copy(url);
      if (!copy) {
        throw new UserError("no copy in the cache: --offline generates only from documents fetched before on this machine", {
          location: url,
          hint: "run without --offline once (online) to fetch it",
        });
      }
      return fromCache(url, copy);
    }
    const origin = originOf(url);
    const down = this.unreachable.get(origin);
    if (down && mode === "fetch") return this.fallback(url, origin, down);
    const cached = cache?.copy(url);
    let outcome: Awaited<ReturnType<typeof fetchDocument>>;
    try {
      outcome = await fetchDocument(url, policy, { validators: cached?.version, signal: this.options.signal });
    } catch (error) {
      if (mode === "fetch" && error instanceof FetchError && error.unreachable) {
        this.unreachable.set(origin, error);
        return this.fallback(url, origin, error);
      }
      throw error;
    }
    if (outcome.status === 304) {
      // Validators are sent only with a cached copy, so there is one.
      const { version, bytes } = cached!;
      const updated = { ...version, etag: outcome.etag ?? version.etag, lastModified: outcome.lastModified ?? version.lastModified };
      if (updated.etag !== version.etag || updated.lastModified !== version.lastModified) cache?.store(url, updated, bytes);
      return { url, bytes, base: version.finalUrl, sha256: version.sha256, etag: updated.etag, lastModified: updated.lastModified, source: "not-modified" };
    }
    const sha256 = createHash("sha256").update(outcome.bytes).digest("hex");
    const version = { sha256, finalUrl: outcome.finalUrl, ...(outcome.etag !== undefined ? { etag: outcome.etag } : {}), ...(outcome.lastModified !== undefined ? { lastModified: outcome.lastModified } : {}) };
    cache?.store(url, version, outcome.bytes);
    return { url, bytes: outcome.bytes, base: outcome.finalUrl, sha256, etag: version.etag, lastModified: version.lastModified, source: "fetched" };
  }

  /** The cached copy of a document on an unreachable origin (the locked version first), noted for a warning. */
  private fallback(url: string, origin: string, error: FetchError): RemoteDocument {
    const { cache, lock } = this.options;
    const locked = lock?.get(url);
    const lockedCopy = locked ? cache?.copy(url, locked.sha256) : undefined;
    const copy = lockedCopy ?? cache?.copy(url);
    if (!copy) {
      throw new FetchError(error.message, { location: url, unreachable: true, cause: error, hint: `${error.hint ? `${error.hint}; ` : ""}there is no copy in the cache to use instead` });
    }
    const noted = this.fallbacks.get(origin);
    if (noted) {
      noted.urls.push(url);
      noted.locked &&= lockedCopy !== undefined;
    } else {
      this.fallbacks.set(origin, { error, urls: [url], locked: lockedCopy !== undefined });
    }
    return fromCache(url, copy);
  }
}

function fromCache(url: string, copy: NonNullable<ReturnType<RemoteCache["copy"]>>): RemoteDocument {
  const { version, bytes } = copy;
  return { url, bytes, base: version.finalUrl, sha256: version.sha256, etag: version.etag, lastModified: version.lastModified, source: "cache" };
}

/**
 * The absolute http(s) URLs (without fragment) that a document's `$ref`s name, resolved against its URL: what will
 * probably be needed next, fetched ahead so a multi-file spec costs a few rounds, not one per file. Extensions
 * (`x-codeSamples: [{$ref: …}]`) are skipped, as the loader never follows them. It need not be exact (`$id` bases
 * are not followed): the loader asks for anything it missed. A document whose `$ref`s all start with `#` (most
 * single-file specs) is not parsed here at all.
 */
function referencedUrls(document: RemoteDocument): string[] {
  const text = document.bytes.toString("utf8");
  if (!/\$ref["']?\s*:\s*["']?[^#"'\s]/.test(text)) return [];
  let parsed: unknown;
  try {
    parsed = parseSpecText(text, document.url);
  } catch {
    return []; // the loader reports it where it is read
  }
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach(visit);
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith("x-")) continue;
      if (key === "$ref" && typeof value === "string" && !value.startsWith("#")) {
        try {
          const url = new URL(value, document.base);
          url.hash = "";
          if (url.protocol === "http:" || url.protocol === "https:") found.add(url.href);
        } catch {
          // not a URI reference: the loader says so
        }
      } else {
        visit(value);
      }
    }
  };
  visit(parsed);
  return [...found];
}

async function eachLimited<T>(items: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await run(items[next++]!);
    }),
  );
}

/**
 * Loads a spec whose documents may come from URLs: fetches what the loader needs (the spec first when it is a URL)
 * and runs the synchronous loader again until it has everything. Warnings about documents read from the cache come
 * first.
 */
export async function loadRemoteSpec(spec: string, cwd: string, options: LoadOptions & { remote: RemoteDocuments }): Promise<LoadedSpec> {
  const { remote } = options;
  if (isHttpUrl(spec)) await remote.fetchAll([spec]);
  const asked = new Set<string>();
  for (;;) {
    try {
      const loaded = loadSpec(spec, cwd, options);
      return { ...loaded, warnings: [...remote.warnings, ...loaded.warnings] };
    } catch (error) {
      if (!(error instanceof DocumentNeeded)) throw error;
      // Each round fetches at least the one document asked for, so this ends (MAX_REMOTE_DOCUMENTS bounds it).
      if (asked.has(error.url)) throw new Error(`specforge: the loader asked twice for ${error.url}`);
      asked.add(error.url);
      await remote.fetchAll([error.url]);
    }
  }
}

/** What a probe found for one document: unchanged (a 304, or the same bytes), changed (new bytes, now cached), or an error. */
export type ProbeResult = { url: string; changed: false } | { url: string; changed: true; sha256: string } | { url: string; error: UserError };

/**
 * Asks whether each document still is the version given (conditionally, with that version's validators): what
 * `generate --watch` polls and `check --remote` starts with. New bytes are stored in the cache, so the next
 * conditional fetch of them is a 304.
 */
export async function probeDocuments(
  known: ReadonlyMap<string, LockedDocument>,
  policy: FetchPolicy,
  cache: RemoteCache | undefined,
  signal?: AbortSignal,
): Promise<ProbeResult[]> {
  const results: ProbeResult[] = [];
  await eachLimited([...known], CONCURRENCY, async ([url, version]) => {
    try {
      const hasValidators = version.etag !== undefined || version.lastModified !== undefined;
      const outcome = await fetchDocument(url, policy, { validators: hasValidators ? version : undefined, signal });
      if (outcome.status === 304) return void results.push({ url, changed: false });
      const sha256 = createHash("sha256").update(outcome.bytes).digest("hex");
      const stored = { sha256, finalUrl: outcome.finalUrl, ...(outcome.etag !== undefined ? { etag: outcome.etag } : {}), ...(outcome.lastModified !== undefined ? { lastModified: outcome.lastModified } : {}) };
      cache?.store(url, stored, outcome.bytes);
      results.push(sha256 === version.sha256 ? { url, changed: false } : { url, changed: true, sha256 });
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      results.push({ url, error });
    }
  });
  const order = [...known.keys()];
  return results.sort((a, b) => order.indexOf(a.url) - order.indexOf(b.url));
}

/** What loading a configured spec needs to know (the fields of a resolved config). */
export interface SpecSource {
  /** Absolute path, or http(s) URL. */
  spec: string;
  cwd: string;
  refRoots: string[];
  maxSpecFileBytes: number;
  fetch: { origins: FetchPolicy["origins"]; timeoutMs: number; cacheDir: string; proxies?: FetchPolicy["proxies"] };
}

export interface SpecSourceOptions {
  /** @default "fetch" */
  mode?: RemoteMode;
  /** The versions the output was generated from (its manifest's documents from URLs). */
  lock?: ReadonlyMap<string, LockedDocument>;
  onRead?: (file: string) => void;
  signal?: AbortSignal;
}

export function fetchPolicy(source: SpecSource): FetchPolicy {
  return { origins: source.fetch.origins, timeoutMs: source.fetch.timeoutMs, maxBytes: source.maxSpecFileBytes, ...(source.fetch.proxies ? { proxies: source.fetch.proxies } : {}) };
}

/** Loads the spec a config names, a file or a URL, with its documents from URLs fetched under the config's rules. */
export async function loadSpecSource(source: SpecSource, options: SpecSourceOptions = {}): Promise<LoadedSpec> {
  const { RemoteCache } = await import("./remote-cache.js");
  const remote = new RemoteDocuments({
    mode: options.mode ?? "fetch",
    policy: fetchPolicy(source),
    cache: new RemoteCache(source.fetch.cacheDir),
    ...(options.lock ? { lock: options.lock } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return loadRemoteSpec(source.spec, source.cwd, { onRead: options.onRead, refRoots: source.refRoots, maxSpecFileBytes: source.maxSpecFileBytes, remote });
}
