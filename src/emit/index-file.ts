import type { FileTemplateSource } from "../package/templates.js";
import type { EmittedFile } from "./file.js";
import { FileTemplate } from "./template.js";

/** Which modules the output folder has besides schema.ts. */
export interface IndexModules {
  client: boolean;
  server: boolean;
  webhooks: boolean;
}

/**
 * `index.ts`, the entry point, from templates/files/index.ts: it re-exports the types and each generated module's
 * public names; the exports of a module that is not generated are left out.
 */
export function emitIndex(modules: IndexModules, source: FileTemplateSource): EmittedFile {
  const template = new FileTemplate(source);
  for (const module of ["client", "server", "webhooks"] as const) {
    if (modules[module]) template.keep(`./${module}.js`);
    else template.remove(`./${module}.js`);
  }
  return template.print("entry point: re-exports everything below");
}
