import type { EmittedFile } from "./file.js";
import { printSourceFile } from "./project.js";

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
  const content = printSourceFile("index.ts", (file) => {
    file.addExportDeclaration({ isTypeOnly: true, moduleSpecifier: "./schema.js" });
    for (const mod of modules) {
      const names = [...mod.values.map((name) => ({ name })), ...mod.types.map((name) => ({ name, isTypeOnly: true }))];
      if (names.length === 0) continue;
      file.addExportDeclaration({ namedExports: names, moduleSpecifier: `./${mod.module}.js` });
    }
  });
  return { path: "index.ts", content, description: "entry point: re-exports everything below" };
}
