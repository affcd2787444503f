import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRouterRuntime } from "../../templates/server/index.js";
import { toNodeListener } from "../../templates/server/node.js";
import type { ResolvedConfig } from "../config/resolve.js";
import { formatPointer, type SpecWarning } from "../errors.js";
import { serverRuntimeData } from "../emit/server-data.js";
import { loadModel } from "../pipeline.js";

export interface MockServer {
  url: string;
  /** The paths the routes are served under (the paths of the spec's servers, `/api/v3`; "" for the root). */
  basePaths: string[];
  routes: number;
  /** Problems in the spec that did not stop the server (see LoadedSpec.warnings). */
  warnings: SpecWarning[];
  close(): Promise<void>;
}

/**
 * `specforge mock`: serves any spec on 127.0.0.1 with the generated server's runtime in mock mode: every operation
 * answers with its example or a value generated from its response schema; requests are still validated, and
 * secured operations accept any credentials of their schemes.
 */
export async function startMockServer(config: ResolvedConfig, port: number): Promise<MockServer> {
  // The spec is read and modelled as `generate` does, and the router is given the data server.ts would hold.
  const { model, specShown, warnings } = await loadModel(config);
  const { document, routes, generated, warnings: patternWarnings } = serverRuntimeData(model);
  // Each operation under its server's path, as the generated router serves it by default.
  const router = createRouterRuntime(document, routes, {}, { mock: true }, generated);
  const server = createServer(toNodeListener(router));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    routes: routes.length,
    basePaths: [...new Set((generated.serverPaths ?? [[""]]).flat())].sort(),
    warnings: [...warnings, ...patternWarnings.map((w) => ({ message: w.message, location: formatPointer(specShown, w.pointer), hint: w.hint }))],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
