import { ADAPTERS, type AdapterName } from "../config/resolve.js";
import type { FileTemplateSource } from "../package/templates.js";
import type { EmittedFile } from "./file.js";
import { FileTemplate, namedExports } from "./template.js";

/** Which modules the output folder has besides schema.ts. */
export interface IndexModules {
  /**
   * With the names client.ts does not re-export for this spec (`omittedClientExports`: features it does not use), and
   * whether the resource-style client (resources.ts) is the entry point's `createClient`.
   */
  client: false | { omitted: ReadonlySet<string>; resources?: boolean };
  server: boolean;
  webhooks: boolean;
  queries: boolean;
  msw: boolean;
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
  for (const module of ["server", "webhooks", "queries", "msw", "schemas"] as const) {
    if (modules[module]) template.keep(`export ./${module}.js`);
    else template.remove(`export ./${module}.js`);
  }
  for (const adapter of ADAPTERS) {
    if (modules.adapters?.includes(adapter)) template.keep(`export ./runtime/adapters/${adapter}.js`);
    else template.remove(`export ./runtime/adapters/${adapter}.js`);
  }
  if (!modules.client) template.remove("export ./client.js");
  else {
    // With resources.ts, `createClient` and `Client` are its own; the flat client stays in client.ts.
    const omitted = modules.client.resources ? new Set([...modules.client.omitted, "createClient", "Client"]) : modules.client.omitted;
    if (omitted.size === 0) template.keep("export ./client.js");
    else {
      const client = template.structure("export ./client.js", "export");
      client.namedExports = namedExports(client).filter((specifier) => !omitted.has(specifier.name));
    }
  }
  if (modules.client && modules.client.resources) {
    const resources = template.structure("export ./resources.js", "export");
    resources.namedExports = [{ name: "createClient" }, ...namedExports(resources), { name: "Client", isTypeOnly: true }];
  } else template.remove("export ./resources.js");
  return template.print("entry point: re-exports everything below");
}
