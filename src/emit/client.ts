import type { OptionalKind, PropertySignatureStructure, WriterFunction } from "ts-morph";
import { morph } from "../deps.js";
import { isSuccessStatus } from "../ir/build.js";
import type { ApiModel, Operation, Parameter, Server } from "../ir/model.js";
import { propertyKey } from "../ir/naming.js";
import type { EmittedFile } from "./file.js";
import type { ModuleExports } from "./index-file.js";
import { commentText, dataLiteral, indexedType, stringLiteral } from "./literal.js";
import { printSourceFile } from "./project.js";

const { StructureKind, VariableDeclarationKind } = morph;

const RUNTIME = "./runtime/client/index.js";

/**
 * `client.ts`: `createClient(options)` returning one typed method per operation. Only the spec-dependent part is
 * emitted here (servers, one `OperationSpec` per operation, the `Client` interface); behaviour lives in the
 * hand-written runtime copied from `templates/client/`. Types are indexed accesses into `schema.ts`.
 */
export function emitClient(model: ApiModel): { files: EmittedFile[]; exports: ModuleExports } {
  const servers = clientServers(model.servers);
  const content = printSourceFile("client.ts", (file) => {
    file.addImportDeclaration({ isTypeOnly: true, namedImports: ["paths"], moduleSpecifier: "./schema.js" });
    file.addImportDeclaration({
      namedImports: [
        "createRuntime",
        { name: "ClientOptions", alias: "RuntimeClientOptions", isTypeOnly: true },
        { name: "Operation", isTypeOnly: true },
        { name: "PaginatedOperation", isTypeOnly: true },
        { name: "ServerSpec", isTypeOnly: true },
        { name: "StreamingOperation", isTypeOnly: true },
      ],
      moduleSpecifier: RUNTIME,
    });
    file.addExportDeclaration({
      namedExports: ["ApiError", "ConnectionError", "TimeoutError", "Stream", ...["ApiErrorOf", "ApiResponse", "RequestOptions"].map((name) => ({ name, isTypeOnly: true }))],
      moduleSpecifier: RUNTIME,
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      docs: ["The spec's servers; each operation names one by index."],
      declarations: [{ name: "servers", type: "ServerSpec[]", initializer: dataLiteral(servers.map((s) => s.spec)) }],
    });
    file.addInterface({
      name: "ClientOptions",
      isExported: true,
      extends: ["RuntimeClientOptions"],
      docs: ["Options of `createClient`: the runtime's options plus one per server variable."],
      properties: servers.flatMap((s) => s.options),
    });
    file.addInterface({
      name: "Client",
      isExported: true,
      docs: [`One method per operation of ${commentText(model.title)} ${commentText(model.version)}.`],
      properties: model.operations.map(operationSignature),
    });
    const requiresOptions = servers.some((s) => s.options.some((o) => !o.hasQuestionToken));
    file.addFunction({
      name: "createClient",
      isExported: true,
      docs: ["Creates a client. Every method sends one request (with retries) and resolves to the typed success body."],
      parameters: [{ name: "options", type: "ClientOptions", initializer: requiresOptions ? undefined : "{}" }],
      returnType: "Client",
      statements: [
        "const runtime = createRuntime(servers, options);",
        (writer) => {
          writer.write("return ").inlineBlock(() => {
            for (const op of model.operations) {
              writer.writeLine(`${propertyKey(op.name)}: runtime.operation(${operationSpec(op, servers)}),`);
            }
          });
          writer.write(" as unknown as Client;");
        },
      ] as (string | WriterFunction)[],
    });
  });
  return {
    files: [{ path: "client.ts", content, description: "typed client: createClient() with one method per operation" }],
    exports: {
      module: "client",
      values: ["createClient", "ApiError", "ConnectionError", "TimeoutError", "Stream"],
      types: ["Client", "ClientOptions", "ApiErrorOf", "ApiResponse", "RequestOptions"],
    },
  };
}

interface ClientServer {
  spec: { url: string; variables: Record<string, { option: string; default: string }> };
  options: OptionalKind<PropertySignatureStructure>[];
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
        options: [{ name: "baseUrl", type: "string", docs: ["Base URL of the API (the spec declares no server)."] }],
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
            hasQuestionToken: true,
            type: "string",
            docs: [`Overrides the server URL${server.description ? ` (${commentText(server.description)})` : ""}.\n@default ${commentText(stringLiteral(server.url))}`],
          },
        ],
      };
    }
    const options: OptionalKind<PropertySignatureStructure>[] = [];
    for (const variable of server.variables) {
      if (seen.has(variable.option)) continue;
      seen.add(variable.option);
      const values = variable.enum ? `\nOne of ${variable.enum.map((e) => commentText(stringLiteral(e))).join(", ")}.` : "";
      options.push({
        name: variable.option,
        hasQuestionToken: true,
        type: "string",
        docs: [
          `Server variable \`${commentText(variable.name)}\` of \`${commentText(server.url)}\`; may also be a whole URL.${variable.description ? ` ${commentText(variable.description)}` : ""}${values}\n@default ${commentText(stringLiteral(variable.default))}`,
        ],
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

function operationType(op: Operation): string {
  const typeRef = indexedType("paths", op.path, op.method);
  const media = op.requestBody ? op.requestBody.preferred : "application/json";
  const mediaArg = media === "application/json" ? "" : `, ${stringLiteral(media)}`;
  if (op.stream?.when) {
    const args = [typeRef, stringLiteral(media), stringLiteral(op.stream.mediaType), stringLiteral(op.stream.when.name)];
    return `StreamingOperation<${args.join(", ")}>`;
  }
  if (op.pagination) {
    const items = stringLiteral(op.pagination.items);
    return `PaginatedOperation<${typeRef}, ${items}${mediaArg}>`;
  }
  return `Operation<${typeRef}${mediaArg}>`;
}

function operationSignature(op: Operation): OptionalKind<PropertySignatureStructure> {
  const docs: string[] = [];
  if (op.summary) docs.push(commentText(op.summary));
  if (op.description && op.description !== op.summary) docs.push(commentText(op.description));
  docs.push(`\`${op.method.toUpperCase()} ${commentText(op.path)}\`${op.operationId ? ` (operationId \`${commentText(op.operationId)}\`)` : ""}`);
  if (op.deprecated) docs.push("@deprecated");
  return { kind: StructureKind.PropertySignature, name: propertyKey(op.name), type: operationType(op), docs: [docs.join("\n\n")] };
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

function operationSpec(op: Operation, servers: ClientServer[]): string {
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
  return dataLiteral(spec);
}
