import { createRequire } from "node:module";
import { requireWithCodeCache } from "./code-cache.js";

/**
 * The large CommonJS libraries of the hot path, loaded with `require`. Importing a multi-megabyte CommonJS file
 * from ESM makes Node scan its source twice more (module-syntax detection and export-name lexing), which costs
 * about as much as compiling it; `require` does neither.
 */
const require = createRequire(import.meta.url);

/** First, so that openapi-typescript's own `require("typescript")` gets this instance. */
export const ts = requireWithCodeCache<typeof import("typescript")>(require, "typescript");

/**
 * openapi-typescript's schema transform and helpers, without its package entry: that entry also loads Redocly's
 * whole linter (half a second) for the bundling and validation our loader has already done.
 */
export const openapiTypescript = {
  transformSchema: require("openapi-typescript/dist/transform/index.cjs") as typeof import("openapi-typescript").transformSchema,
  transformSchemaObject: (require("openapi-typescript/dist/transform/schema-object.cjs") as { default: typeof import("openapi-typescript").transformSchemaObject }).default,
  ...(require("openapi-typescript/dist/lib/utils.cjs") as Pick<typeof import("openapi-typescript"), "resolveRef">),
  ...(require("openapi-typescript/dist/lib/ts.cjs") as Pick<typeof import("openapi-typescript"), "astToString">),
};

