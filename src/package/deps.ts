import Module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { requireWithCodeCache } from "./code-cache.js";

/**
 * The large CommonJS libraries of the hot path, loaded with `require`. Importing a multi-megabyte CommonJS file
 * from ESM makes Node scan its source twice more (module-syntax detection and export-name lexing), which costs
 * about as much as compiling it; `require` does neither.
 */
const require = createRequire(import.meta.url);

/**
 * The file ts-morph loads its TypeScript from (@ts-morph/common's `dist/typescript.js`, beside its entry): its own
 * copy, of the version it is built for. That TypeScript is the one compiler of the process: the printer reads the
 * syntax trees of ts-morph and of openapi-typescript with it, and openapi-typescript is handed it (below) instead of
 * loading the `typescript` package, a second 9 MB compiler (measured: 45 ms more per run and 40 MB more memory).
 *
 * It is required by its path, before ts-morph, so that a thread that only prints types (src/types-thread.ts) loads
 * the compiler alone: ts-morph and @ts-morph/common (4 MB more) are loaded by `src/package/ts-morph.ts`, for the
 * emitters that fill templates, and find this module in require's cache. The module itself is used, not ts-morph's
 * re-export (a namespace object whose every property is a getter), so the printer's millions of `ts.isX` calls are
 * plain reads.
 */
const bundledTypeScript = join(dirname(createRequire(require.resolve("ts-morph")).resolve("@ts-morph/common")), "typescript.js");
export const ts = requireWithCodeCache<typeof import("ts-morph").ts>(require, bundledTypeScript);

/** ts-morph, on the same compiler: see src/package/ts-morph.ts. */
export function loadTsMorph(): typeof import("ts-morph") {
  const tsMorph = requireWithCodeCache<typeof import("ts-morph")>(require, "ts-morph");
  if (tsMorph.ts.version !== ts.version || require.cache[bundledTypeScript]?.exports !== ts) throw new Error(`specforge: ts-morph's TypeScript is not at ${bundledTypeScript}`);
  return tsMorph;
}

/**
 * The same compiler, typed with the `typescript` package's declarations, which openapi-typescript's types use: its
 * syntax trees are this compiler's objects, seen through the other package's (nominally different) types.
 */
export const typescript = ts as unknown as typeof import("typescript");
export const sameNodes = (nodes: readonly import("typescript").Node[]) => nodes as unknown as readonly import("ts-morph").ts.Node[];

/**
 * `require(id)` where openapi-typescript's own `require("typescript")` resolves to ts-morph's TypeScript. Its modules
 * require TypeScript when they load, so redirecting the resolution while they load is enough; TypeScript's API that
 * they use (the node factory) is the same in both versions, and the printer, not TypeScript's, prints their output.
 */
function requireWithBundledTypeScript<T>(id: string): T {
  type Resolve = (request: string, parent: unknown, ...rest: unknown[]) => string;
  const loader = Module as unknown as { _resolveFilename: Resolve };
  const resolve = loader._resolveFilename;
  loader._resolveFilename = function (request, ...rest) {
    return request === "typescript" ? bundledTypeScript : resolve.call(this, request, ...rest);
  };
  try {
    return require(id) as T;
  } finally {
    loader._resolveFilename = resolve;
  }
}

type CreateRef = typeof import("openapi-typescript").createRef;
/** openapi-typescript's helpers module (its `exports` map lets `dist/*` be required): the object its transforms call through. */
const openapiTypescriptUtils = requireWithBundledTypeScript<Pick<typeof import("openapi-typescript"), "resolveRef" | "createRef">>("openapi-typescript/dist/lib/utils.cjs");
const originalCreateRef: CreateRef = openapiTypescriptUtils.createRef;

/**
 * A pointer createRef itself made, which it would give back as it is: "#" then non-empty segments with no `%` (it
 * decodes percent-escapes), no `#` (it splits on "#/") and every `~` escaped. Most parents' paths are such: their
 * contribution needs no parse.
 */
const CANONICAL_POINTER = /^#(?:\/(?:[^/#%~]|~[01])+)+$/;

/**
 * Runs `run` (openapi-typescript's transforms) with a faster `createRef`, the same function of its arguments.
 *
 * Its transforms track where they are with `createRef([options.path, key])` for every property, item and branch,
 * and createRef parses each part again with Redocly's `parseRef` (split, `decodeURIComponent` per segment), so the
 * parent's path is reparsed once per child: 0.2 s of GitHub's run (docs/performance.md,
 * "schema.ts: openapi-typescript's transform and the printer"). The result is "#"
 * followed by each part's contribution, which depends on that part alone, so each string part's contribution is
 * asked of the original createRef once (`createRef([part])` without its "#") and remembered: siblings share their
 * parent's. Anything but strings and numbers goes to the original as it is. The transforms call createRef through
 * this module's exports object (`utils.createRef(…)` in every transform), which is what is swapped, and swapped back
 * afterwards, so nothing else in the process sees it.
 */
export function withFastCreateRef<T>(run: () => T): T {
  const contributions = new Map<string, string>();
  const contribution = (part: string): string => {
    let known = contributions.get(part);
    if (known === undefined) {
      // Bounded: siblings come one after the other, so a small memory keeps nearly every hit.
      if (contributions.size >= 4096) contributions.clear();
      known = CANONICAL_POINTER.test(part) ? part.slice(1) : originalCreateRef([part]).slice(1);
      contributions.set(part, known);
    }
    return known;
  };
  const fastCreateRef: CreateRef = (parts) => {
    let pointer = "#";
    for (const part of parts) {
      if (part === undefined || part === null || part === "") continue;
      if (typeof part === "string") pointer += contribution(part);
      else if (typeof part === "number") pointer += originalCreateRef([part]).slice(1);
      else return originalCreateRef(parts);
    }
    return pointer;
  };
  const exportsObject = openapiTypescriptUtils as { createRef: CreateRef };
  const previous = exportsObject.createRef;
  exportsObject.createRef = fastCreateRef;
  try {
    return run();
  } finally {
    exportsObject.createRef = previous;
  }
}

/**
 * openapi-typescript's schema transform and helpers, without its package entry: that entry also loads Redocly's
 * whole linter (half a second) for the bundling and validation our loader has already done.
 */
export const openapiTypescript = {
  transformSchema: requireWithBundledTypeScript<typeof import("openapi-typescript").transformSchema>("openapi-typescript/dist/transform/index.cjs"),
  /** The transforms of the document's parts that transformSchema calls one after the other (emit/types.ts calls them itself). */
  transformPathsObject: requireWithBundledTypeScript<typeof import("openapi-typescript").transformPathsObject>("openapi-typescript/dist/transform/paths-object.cjs"),
  transformWebhooksObject: requireWithBundledTypeScript<(webhooks: unknown, ctx: import("openapi-typescript").GlobalContext) => import("typescript").TypeNode>("openapi-typescript/dist/transform/webhooks-object.cjs"),
  transformComponentsObject: requireWithBundledTypeScript<{ default: typeof import("openapi-typescript").transformComponentsObject }>("openapi-typescript/dist/transform/components-object.cjs").default,
  transformSchemaObject: requireWithBundledTypeScript<{ default: typeof import("openapi-typescript").transformSchemaObject }>("openapi-typescript/dist/transform/schema-object.cjs").default,
  ...openapiTypescriptUtils,
  ...requireWithBundledTypeScript<Pick<typeof import("openapi-typescript"), "astToString" | "tsModifiers" | "tsRecord" | "STRING" | "NEVER">>("openapi-typescript/dist/lib/ts.cjs"),
};
