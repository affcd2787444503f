import { moduleSpecifiers, renderFile } from "./canonical.js";
import type { EmittedFile } from "./file.js";

/** What an emitted module contributes to `index.ts`. */
export interface ModuleExports {
  /** Module path relative to the output folder, without extension (e.g. `client`). */
  module: string;
  /** Value exports (functions, classes, constants). */
  values: string[];
  /** Type-only exports. */
  types: string[];
}

/** `index.ts`: one entry point that re-exports the types and whatever the other emitters produced. */
export function emitIndex(modules: ModuleExports[]): EmittedFile {
  const content = renderFile([
    [
      'export type * from "./schema.js";',
      ...modules
        .map((mod) => ({ mod, names: [...mod.values, ...mod.types.map((name) => `type ${name}`)] }))
        .filter(({ names }) => names.length > 0)
        .map(({ mod, names }) => moduleSpecifiers("export", names, `./${mod.module}.js`)),
    ],
  ]);
  return { path: "index.ts", content, canonical: content, description: "entry point: re-exports everything below" };
}
