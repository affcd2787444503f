import type * as TS from "typescript";
import { isSuccessStatus } from "../ir/build.js";
import type { ApiModel, Operation, Parameter, Server } from "../ir/model.js";
import { interfaceDeclaration, jsDoc, jsonConstant, moduleSpecifiers, renderFile, types, type Member } from "./canonical.js";
import type { EmittedFile } from "./file.js";
import type { ModuleExports } from "./index-file.js";
import { commentText, stringLiteral } from "./literal.js";
import { builders } from "prettier/doc";

const { hardline, indent } = builders;

const RUNTIME = "./runtime/client/index.js";

/**
 * `client.ts`: `createClient(options)` returning one typed method per operation. Only the spec-dependent part is
 * emitted here (servers, one `OperationSpec` per operation, the `Client` interface); behaviour lives in the
 * hand-written runtime copied from `templates/client/`. Types are indexed accesses into `schema.ts`.
 */
export function emitClient(model: ApiModel): { files: EmittedFile[]; exports: ModuleExports } {
  const servers = clientServers(model.servers);
  const requiresOptions = servers.some((s) => s.options.some((o) => !o.optional));
  const content = renderFile([
    [
      moduleSpecifiers("import type", ["paths"], "./schema.js"),
      moduleSpecifiers(
        "import",
        ["createRuntime", "type ClientOptions as RuntimeClientOptions", "type Operation", "type OperationSpec", "type PaginatedOperation", "type ServerSpec", "type StreamingOperation"],
        RUNTIME,
      ),
    ],
    [
      moduleSpecifiers(
        "export",
        ["ApiError", "ConnectionError", "TimeoutError", "Stream", "type ApiErrorOf", "type ApiResponse", "type RequestOptions"],
        RUNTIME,
      ),
    ],
    [jsDoc("The spec's servers; each operation names one by index."), jsonConstant("const servers: ServerSpec[]", servers.map((s) => s.spec))],
    [
      jsDoc("Options of `createClient`: the runtime's options plus one per server variable."),
      interfaceDeclaration("export interface ClientOptions extends RuntimeClientOptions", servers.flatMap((s) => s.options)),
    ],
    [
      jsDoc(`One method per operation of ${commentText(model.title)} ${commentText(model.version)}.`),
      interfaceDeclaration("export interface Client", model.operations.map(operationSignature)),
    ],
    [
      jsDoc("How each method sends its request: method, path, parameters, body and declared errors."),
      jsonConstant("const operations: OperationSpec[]", model.operations.map((op) => operationSpec(op, servers))),
    ],
    [
      jsDoc("Creates a client. Every method sends one request (with retries) and resolves to the typed success body."),
      [
        requiresOptions ? "export function createClient(options: ClientOptions): Client {" : "export function createClient(options: ClientOptions = {}): Client {",
        indent([
          hardline,
          "const runtime = createRuntime(servers, options);",
          hardline,
          "return Object.fromEntries(",
          indent([hardline, "operations.map((spec) => [spec.name, runtime.operation(spec)]),"]),
          hardline,
          ") as unknown as Client;",
        ]),
        hardline,
        "}",
      ],
    ],
  ]);
  return {
    files: [{ path: "client.ts", content, canonical: content, description: "typed client: createClient() with one method per operation" }],
    exports: {
      module: "client",
      values: ["createClient", "ApiError", "ConnectionError", "TimeoutError", "Stream"],
      types: ["Client", "ClientOptions", "ApiErrorOf", "ApiResponse", "RequestOptions"],
    },
  };
}

interface ClientServer {
  spec: { url: string; variables: Record<string, { option: string; default: string }> };
  options: Member[];
}

/**
 * Servers as the runtime reads them. A server with a fixed URL gets a `baseUrl`-style option that replaces the whole
 * URL (tests and proxies need one); a spec without servers gets a required `baseUrl`.
 */
function clientServers(servers: Server[]): ClientServer[] {
  if (servers.length === 0) {
    return [
      {
        spec: { url: "{url}", variables: { url: { option: "baseUrl", default: "" } } },
        options: [{ name: "baseUrl", type: types.keyword("string"), doc: "Base URL of the API (the spec declares no server)." }],
      },
    ];
  }
  const seen = new Set<string>();
  return servers.map((server) => {
    if (server.urlOption) {
      return {
        spec: { url: "{url}", variables: { url: { option: server.urlOption, default: server.url } } },
        options: [
          {
            name: server.urlOption,
            optional: true,
            type: types.keyword("string"),
            doc: `Overrides the server URL${server.description ? ` (${commentText(server.description)})` : ""}.\n@default ${commentText(stringLiteral(server.url))}`,
          },
        ],
      };
    }
    const options: Member[] = [];
    for (const variable of server.variables) {
      if (seen.has(variable.option)) continue;
      seen.add(variable.option);
      const values = variable.enum ? `\nOne of ${variable.enum.map((e) => commentText(stringLiteral(e))).join(", ")}.` : "";
      options.push({
        name: variable.option,
        optional: true,
        type: types.keyword("string"),
        doc: `Server variable \`${commentText(variable.name)}\` of \`${commentText(server.url)}\`; may also be a whole URL.${variable.description ? ` ${commentText(variable.description)}` : ""}${values}\n@default ${commentText(stringLiteral(variable.default))}`,
      });
    }
    return {
      spec: {
        url: server.url,
        variables: Object.fromEntries(server.variables.map((v) => [v.name, { option: v.option, default: v.default }])),
      },
      options,
    };
  });
}

function operationType(op: Operation): TS.TypeNode {
  const typeRef = types.indexed("paths", op.path, op.method);
  const media = op.requestBody ? op.requestBody.preferred : "application/json";
  const mediaArg = media === "application/json" ? [] : [types.string(media)];
  if (op.stream?.when) {
    return types.reference("StreamingOperation", [typeRef, types.string(media), types.string(op.stream.mediaType), types.string(op.stream.when.name)]);
  }
  if (op.pagination) return types.reference("PaginatedOperation", [typeRef, types.string(op.pagination.items), ...mediaArg]);
  return types.reference("Operation", [typeRef, ...mediaArg]);
}

function operationSignature(op: Operation): Member {
  const docs: string[] = [];
  if (op.summary) docs.push(commentText(op.summary));
  if (op.description && op.description !== op.summary) docs.push(commentText(op.description));
  docs.push(`\`${op.method.toUpperCase()} ${commentText(op.path)}\`${op.operationId ? ` (operationId \`${commentText(op.operationId)}\`)` : ""}`);
  if (op.deprecated) docs.push("@deprecated");
  return { name: op.name, type: operationType(op), doc: docs.join("\n\n") };
}

function paramSpec(param: Parameter): Record<string, unknown> {
  const defaultStyle = param.in === "query" || param.in === "cookie" ? "form" : "simple";
  const spec: Record<string, unknown> = { name: param.name };
  if (param.style !== defaultStyle) spec.style = param.style;
  if (param.explode !== (param.style === "form")) spec.explode = param.explode;
  if (param.allowReserved) spec.allowReserved = true;
  if (param.contentType) spec.content = param.contentType;
  return spec;
}

function operationSpec(op: Operation, servers: ClientServer[]): Record<string, unknown> {
  const spec: Record<string, unknown> = {
    name: op.name,
    method: op.method.toUpperCase(),
    path: op.path,
  };
  const server = op.server < 0 ? 0 : op.server;
  if (server !== 0 && server < servers.length) spec.server = server;
  if (op.security.bearer) spec.secured = true;
  const params: Record<string, unknown[]> = {};
  for (const location of ["path", "query", "header", "cookie"] as const) {
    const list = op.parameters.filter((p) => p.in === location).map(paramSpec);
    if (list.length > 0) params[location] = list;
  }
  if (Object.keys(params).length > 0) spec.params = params;
  if (op.requestBody) spec.body = { mediaType: op.requestBody.preferred, ...(op.requestBody.required ? { required: true } : {}) };
  // Streams the call can ask for (`stream: true`); an always-streaming operation is typed and parsed as its body.
  if (op.stream?.when) spec.stream = { mediaType: op.stream.mediaType, when: op.stream.when };
  if (op.pagination) spec.pagination = op.pagination;
  const errors = op.responses
    .map((r) => r.status)
    .filter((status) => !isSuccessStatus(status))
    .map((status) => (/^\d+$/.test(status) ? Number(status) : status.toUpperCase() === "DEFAULT" ? "default" : status.toUpperCase()));
  if (errors.length > 0) spec.errors = errors;
  return spec;
}
