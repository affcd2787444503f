import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRouterRuntime, type RouteSpec, type SchemaDocument } from "../../templates/server/index.js";
import { toNodeListener } from "../../templates/server/node.js";
import type { ResolvedConfig } from "../config/resolve.js";
import { formatPointer, type SpecWarning } from "../errors.js";
import { serverDocument, serverRoutes } from "../emit/server.js";
import { superLinearPatterns, superLinearWarnings } from "../emit/server-patterns.js";
import { buildModel } from "../ir/build.js";
import type { Server } from "../ir/model.js";
import { toDisplayPath } from "../load/index.js";
import { loadSpecSource } from "../load/remote-documents.js";

export interface MockServer {
  url: string;
  /** The path prefix of the spec's first server (`/api/v3`), under which routes are served. */
  basePath: string;
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
  const spec = await loadSpecSource(config);
  const specShown = toDisplayPath(config.spec, config.cwd);
  const model = buildModel(spec, specShown);
  const table = serverRoutes(model);
  const routes = table as unknown as RouteSpec[];
  const basePath = serverBasePath(model.servers[0]);
  const slow = superLinearPatterns(model.document);
  const router = createRouterRuntime(serverDocument(model, table) as SchemaDocument, routes, {}, { mock: true, basePath }, { superLinearPatterns: slow.map((found) => found.pattern) });
  const server = createServer(toNodeListener(router));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    routes: routes.length,
    basePath,
    warnings: [
      ...spec.warnings,
      ...model.warnings,
      ...superLinearWarnings(slow).map((w) => ({ message: w.message, location: formatPointer(specShown, w.pointer), hint: w.hint })),
    ],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** `/api/v3` for `https://petstore3.swagger.io/api/v3` or `/api/v3`; "" for a bare host. Variables take their defaults. */
function serverBasePath(server: Server | undefined): string {
  if (!server) return "";
  const url = server.variables.reduce((text, v) => text.split(`{${v.name}}`).join(v.default), server.url);
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // a relative server URL is already a path
  }
  return path.startsWith("/") ? path.replace(/\/+$/, "") : "";
}
