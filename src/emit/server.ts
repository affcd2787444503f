import type { WriterFunction } from "ts-morph";
import { morph } from "../deps.js";
import type { ApiModel, MediaType, Operation, Parameter } from "../ir/model.js";
import { propertyKey } from "../ir/naming.js";
import type { EmittedFile } from "./file.js";
import type { ModuleExports } from "./index-file.js";
import { commentText, dataLiteral, indexedType, stringLiteral } from "./literal.js";
import { printSourceFile } from "./project.js";

const { VariableDeclarationKind } = morph;

const RUNTIME = "./runtime/server/index.js";
/** Above this many routes the table is emitted as a JSON string: much cheaper for tsc than a typed literal. */
const INLINE_ROUTE_LIMIT = 100;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * `server.ts`: `createRouter(handlers, options)` serving every route of the spec with validation, auth, limits and
 * SSE, plus the `Handlers` interface (one optional typed handler per operation, named like the client's methods).
 * The route table is data; behaviour lives in the runtime copied from `templates/server/`.
 */
export function emitServer(model: ApiModel): { files: EmittedFile[]; exports: ModuleExports } {
  const routes = serverRoutes(model);
  const document = serverDocument(model);
  const content = printSourceFile("server.ts", (file) => {
    file.addImportDeclaration({ isTypeOnly: true, namedImports: ["paths"], moduleSpecifier: "./schema.js" });
    file.addImportDeclaration({
      namedImports: ["createRouterRuntime", ...["Handler", "RouteSpec", "Router", "RouterOptions", "SchemaDocument"].map((name) => ({ name, isTypeOnly: true }))],
      moduleSpecifier: RUNTIME,
    });
    file.addExportDeclaration({ namedExports: ["toNodeListener"], moduleSpecifier: "./runtime/server/node.js" });
    file.addExportDeclaration({
      namedExports: ["mockFromSchema", ...["Router", "RouterOptions", "HandlerResult"].map((name) => ({ name, isTypeOnly: true }))],
      moduleSpecifier: RUNTIME,
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      docs: ["The spec's component schemas, which route schemas `$ref` (a JSON string: cheap for the type checker)."],
      declarations: [{ name: "document", type: "SchemaDocument", initializer: `JSON.parse(${stringLiteral(JSON.stringify(document))})` }],
    });
    file.addVariableStatement({
      declarationKind: VariableDeclarationKind.Const,
      docs: ["Every route of the spec. Routes that differ only by a trailing slash share one handler."],
      declarations: [
        {
          name: "routes",
          type: "RouteSpec[]",
          // Route schemas are the spec's own and may not fit the runtime's schema type (3.0 `required: true` on a
          // property, vendor keywords): they are data, so they are not type-checked against it.
          initializer:
            routes.length > INLINE_ROUTE_LIMIT
              ? `JSON.parse(${stringLiteral(JSON.stringify(routes))})`
              : `${dataLiteral(routes)} as unknown as RouteSpec[]`,
        },
      ],
    });
    file.addInterface({
      name: "Handlers",
      isExported: true,
      typeParameters: [{ name: "Auth", default: "unknown" }],
      docs: ["One optional handler per operation. A missing handler answers 501 (or a mock value in mock mode)."],
      properties: model.operations.map((op) => ({ name: propertyKey(op.name), hasQuestionToken: true, type: handlerType(op), docs: [handlerDocs(op)] })),
    });
    file.addFunction({
      name: "createRouter",
      isExported: true,
      typeParameters: [{ name: "Auth", default: "unknown" }],
      docs: [
        "A web-standard router (`fetch(request) => Promise<Response>`) for every route of the spec. Secured operations need `options.authenticate` (or `insecureNoAuth: true`); use `toNodeListener(router)` with `node:http`.",
      ],
      parameters: [
        { name: "handlers", type: "Handlers<Auth>" },
        { name: "options", type: "RouterOptions<Auth>", initializer: "{}" },
      ],
      returnType: "Router",
      statements: [((writer) => writer.write("return createRouterRuntime<Auth>(document, routes, handlers as Record<string, unknown>, options);")) as WriterFunction],
    });
  });
  return {
    files: [{ path: "server.ts", content, description: "route stubs: createRouter() with typed handlers, validation, auth and SSE" }],
    exports: { module: "server", values: ["createRouter", "toNodeListener", "mockFromSchema"], types: ["Handlers", "Router", "RouterOptions", "HandlerResult"] },
  };
}

function handlerType(op: Operation): string {
  const type = indexedType("paths", op.path, op.method);
  const json = op.requestBody?.content.some((c) => c.type === "application/json");
  return `Handler<${type}, Auth${json ? `, "application/json"` : ""}>`;
}

function handlerDocs(op: Operation): string {
  const lines = [op.summary, `\`${op.method.toUpperCase()} ${op.paths.join("` and `")}\``].filter(Boolean).map((t) => commentText(t!));
  if (op.deprecated) lines.push("@deprecated");
  return lines.join("\n\n");
}

/** The schemas route specs point into. */
export function serverDocument(model: ApiModel): { components: { schemas: Obj } } {
  const components = isObject(model.document.components) ? model.document.components : {};
  return { components: { schemas: isObject(components.schemas) ? components.schemas : {} } };
}

/** The route table the server runtime is configured with (`RouteSpec[]` of templates/server), one entry per path. */
export function serverRoutes(model: ApiModel): Obj[] {
  return model.operations.flatMap((op) => {
    const base: Obj = {
      name: op.name,
      method: op.method.toUpperCase(),
      secured: op.security.schemes.length > 0 && !op.security.anonymous,
      params: {
        path: paramsIn(op, "path"),
        query: paramsIn(op, "query"),
        header: paramsIn(op, "header"),
        ...(op.parameters.some((p) => p.in === "cookie") ? { cookie: paramsIn(op, "cookie") } : {}),
      },
      ...(op.requestBody ? { body: { required: op.requestBody.required, content: contentOf(op.requestBody.content) } } : {}),
      responses: Object.fromEntries(op.responses.map((r) => [r.status, r.content.length > 0 ? { content: contentOf(r.content) } : {}])),
      validationErrorStatus: op.fastApiValidationError ? 422 : 400,
    };
    return op.paths.map((path) => ({ ...base, path }));
  });
}

function paramsIn(op: Operation, location: Parameter["in"]): Obj[] {
  return op.parameters
    .filter((p) => p.in === location)
    .map((p) => {
      const spec: Obj = { name: p.name, required: p.required, schema: p.schema };
      const defaultStyle = location === "query" || location === "cookie" ? "form" : "simple";
      if (p.style !== defaultStyle) spec.style = p.style;
      if (p.explode !== (p.style === "form")) spec.explode = p.explode;
      if (p.contentType) spec.contentType = p.contentType;
      return spec;
    });
}

function contentOf(content: MediaType[]): Obj {
  return Object.fromEntries(
    content.map((media) => [media.type, { ...(media.schema !== undefined ? { schema: media.schema } : {}), ...(media.example !== undefined ? { example: media.example } : {}) }]),
  );
}
