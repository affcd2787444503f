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
 * ts-morph, which the emitters fill the file templates with, and the TypeScript it bundles (its own copy, of the
 * version it is built for). That TypeScript is the one compiler of the process: the printer reads the syntax trees
 * of ts-morph and of openapi-typescript with it, and openapi-typescript is handed it (below) instead of loading the
 * `typescript` package, a second 9 MB compiler (measured: 45 ms more per run and 40 MB more memory).
 */
export const tsMorph = requireWithCodeCache<typeof import("ts-morph")>(require, "ts-morph");

/**
 * The file ts-morph loaded its TypeScript from (@ts-morph/common's `dist/typescript.js`, beside its entry). ts-morph
 * re-exports it as a namespace object whose every property is a getter; the module itself is used here, so the
 * printer's millions of `ts.isX` calls are plain property reads.
 */
const bundledTypeScript = join(dirname(createRequire(require.resolve("ts-morph")).resolve("@ts-morph/common")), "typescript.js");
const bundled = require.cache[bundledTypeScript]?.exports as typeof tsMorph.ts | undefined;
if (bundled?.version !== tsMorph.ts.version) throw new Error(`specforge: ts-morph's TypeScript is not at ${bundledTypeScript}`);
export const ts: typeof tsMorph.ts = bundled;

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

/**
 * openapi-typescript's schema transform and helpers, without its package entry: that entry also loads Redocly's
 * whole linter (half a second) for the bundling and validation our loader has already done.
 */
export const openapiTypescript = {
  transformSchema: requireWithBundledTypeScript<typeof import("openapi-typescript").transformSchema>("openapi-typescript/dist/transform/index.cjs"),
  transformSchemaObject: requireWithBundledTypeScript<{ default: typeof import("openapi-typescript").transformSchemaObject }>("openapi-typescript/dist/transform/schema-object.cjs").default,
  ...requireWithBundledTypeScript<Pick<typeof import("openapi-typescript"), "resolveRef">>("openapi-typescript/dist/lib/utils.cjs"),
  ...requireWithBundledTypeScript<Pick<typeof import("openapi-typescript"), "astToString">>("openapi-typescript/dist/lib/ts.cjs"),
};
