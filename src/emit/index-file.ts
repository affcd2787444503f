import { ADAPTERS, type AdapterName } from "../config/resolve.js";
import type { FileTemplateSource } from "../package/templates.js";
import type { EmittedFile } from "./file.js";
import { FileTemplate, namedExports } from "./template.js";

/** Which modules the output folder has besides schema.ts. */
export interface IndexModules {
  /** With the names client.ts does not re-export for this spec (`omittedClientExports`: features it does not use). */
  client: false | { omitted: ReadonlySet<string> };
  server: boolean;
  webhooks: boolean;
  schemas: boolean;
  /** The server's framework adapters to re-export. */
  adapters?: readonly AdapterName[];
}

/**
 * `index.ts`, the entry point, from templates/files/index.ts: it re-exports the types and each generated module's
 * public names; the exports of a module that is not generated are left out.
 */
export function emitIndex(modules: IndexModules, source: FileTemplateSource): EmittedFile {
  const template = new FileTemplate(source);
  for (const module of ["server", "webhooks", "schemas"] as const) {
    if (modules[module]) template.keep(`export ./${module}.js`);
    else template.remove(`export ./${module}.js`);
  }
  for (const adapter of ADAPTERS) {
    if (modules.adapters?.includes(adapter)) template.keep(`export ./runtime/adapters/${adapter}.js`);
    else template.remove(`export ./runtime/adapters/${adapter}.js`);
  }
  if (!modules.client) template.remove("export ./client.js");
  else if (modules.client.omitted.size === 0) template.keep("export ./client.js");
  else {
    const { omitted } = modules.client;
    const client = template.structure("export ./client.js", "export");
    client.namedExports = namedExports(client).filter((specifier) => !omitted.has(specifier.name));
  }
  return template.print("entry point: re-exports everything below");
}
