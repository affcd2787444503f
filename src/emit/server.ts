import type { Doc } from "prettier";
import { builders } from "prettier/doc";
import type * as TS from "typescript";
import type { ApiModel, MediaType, Operation, Parameter, SecurityScheme } from "../ir/model.js";
import { ts } from "../deps.js";
import { parsePointer, resolvePointer } from "../load/bundle.js";
import { interfaceDeclaration, jsDoc, jsonConstant, moduleSpecifiers, renderFile, types, type Member } from "./canonical.js";
import type { EmittedFile } from "./file.js";
import type { ModuleExports } from "./index-file.js";
import { commentText } from "./literal.js";
import { superLinearPatterns, superLinearWarnings, type EmitterWarning } from "./server-patterns.js";

const { hardline, indent } = builders;

const RUNTIME = "./runtime/server/index.js";

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * `server.ts`: `createRouter(handlers, options)` serving every route of the spec with validation, auth, limits and
 * SSE, plus the `Handlers` interface (one optional typed handler per operation, named like the client's methods).
 * The route table is data; behaviour lives in the runtime copied from `templates/server/`.
 */
export function emitServer(model: ApiModel): { files: EmittedFile[]; exports: ModuleExports; warnings: EmitterWarning[] } {
  const routes = serverRoutes(model);
  const alternatives = credentialAlternatives(model);
  const credentialTypes = [...new Set(alternatives.flatMap((alternative) => alternative.map(credentialsType)))].sort();
  const slow = superLinearPatterns(model.document);
  const content = renderFile([
    [
      moduleSpecifiers("import type", ["paths"], "./schema.js"),
      moduleSpecifiers(
        "import",
        [
          "createRouterRuntime",
          ...credentialTypes.map((name) => `type ${name}`),
          "type GeneratedInfo",
          "type Handler",
          "type RouteSpec",
          "type Router",
          "type RouterOptions",
          "type SchemaDocument",
        ],
        RUNTIME,
      ),
    ],
    [
      moduleSpecifiers("export", ["toNodeListener"], "./runtime/server/node.js"),
      moduleSpecifiers("export", ["HttpError", "mockFromSchema", "type Router", "type RouterError", "type RouterOptions", "type HandlerResult"], RUNTIME),
    ],
    [
      jsDoc("The spec's component schemas that route schemas `$ref`."),
      jsonConstant("const document: SchemaDocument", serverDocument(model, routes)),
    ],
    [
      // Route schemas are the spec's own and may not fit the runtime's schema type (3.0 `required: true` on a
      // property, vendor keywords): as JSON they are data, not type-checked against it (and cheap for tsc).
      jsDoc("Every route of the spec. Routes that differ only by a trailing slash share one handler."),
      jsonConstant("const routes: RouteSpec[]", routes),
    ],
    [
      jsDoc(
        "What `authenticate` can be handed: one member per security alternative of the spec (the schemes a request presented, by key). Narrow with `\"key\" in credentials`.",
      ),
      interfaceDeclaration(
        "export interface SecurityAlternatives",
        alternatives.map(
          (alternative): Member => ({
            name: alternative.map((scheme) => scheme.key).join(" & "),
            type: ts.factory.createTypeLiteralNode(
              alternative.map((scheme) => ts.factory.createPropertySignature(undefined, propertyNameNode(scheme.key), undefined, types.reference(credentialsType(scheme)))),
            ),
          }),
        ),
      ),
      "export type Credentials = SecurityAlternatives[keyof SecurityAlternatives];",
    ],
    [
      jsDoc("The spec's patterns that backtrack catastrophically: the router runs them on its linear-time matcher."),
      jsonConstant("const generated: GeneratedInfo", { superLinearPatterns: slow.map((found) => found.pattern).sort() }),
    ],
    [
      jsDoc("One optional handler per operation. A missing handler answers 501 (or a mock value in mock mode)."),
      interfaceDeclaration(
        "export interface Handlers<Auth = unknown>",
        model.operations.map((op) => ({ name: op.name, optional: true, type: handlerType(op), doc: handlerDocs(op) })),
      ),
    ],
    [
      jsDoc(
        "A web-standard router (`fetch(request) => Promise<Response>`) for every route of the spec. Secured operations need `options.authenticate` (or `insecureNoAuth: true`); use `toNodeListener(router)` with `node:http`.",
      ),
      CREATE_ROUTER,
    ],
  ]);
  return {
    files: [{ path: "server.ts", content, canonical: content, description: "route stubs: createRouter() with typed handlers, validation, auth and SSE" }],
    exports: {
      module: "server",
      values: ["createRouter", "toNodeListener", "HttpError", "mockFromSchema"],
      types: ["Credentials", "Handlers", "Router", "RouterError", "RouterOptions", "HandlerResult", "SecurityAlternatives"],
    },
    warnings: superLinearWarnings(slow),
  };
}

/** The one function of server.ts: the same for every spec, written as prettier prints it. */
const CREATE_ROUTER: Doc = [
  "export function createRouter<Auth = unknown>(",
  indent([hardline, "handlers: Handlers<Auth>,", hardline, "options: RouterOptions<Auth, Credentials> = {},"]),
  hardline,
  "): Router {",
  indent([
    hardline,
    "return createRouterRuntime<Auth, Credentials>(",
    indent([hardline, "document,", hardline, "routes,", hardline, "handlers as Record<string, unknown>,", hardline, "options,", hardline, "generated,"]),
    hardline,
    ");",
  ]),
  hardline,
  "}",
];

function handlerType(op: Operation): TS.TypeNode {
  const json = op.requestBody?.content.some((c) => c.type === "application/json");
  return types.reference("Handler", [types.indexed("paths", op.path, op.method), types.reference("Auth"), ...(json ? [types.string("application/json")] : [])]);
}

function handlerDocs(op: Operation): string {
  const lines = [op.summary, `\`${op.wireMethod} ${op.paths.join("` and `")}\``].filter(Boolean).map((t) => commentText(t!));
  if (op.deprecated) lines.push("@deprecated");
  return lines.join("\n\n");
}

/**
 * The schemas route specs point into: the component schemas the routes reach, and whatever else a schema `$ref`s
 * (a parameter's schema, say).
 */
export function serverDocument(model: ApiModel, routes: Obj[] = serverRoutes(model)): { components: { schemas: Obj } & Obj } {
  const components = isObject(model.document.components) ? model.document.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const used = schemasUsedBy(model.document, routes);
  // Only what the routes reach: a spec's schemas for webhooks, or for other APIs, are dead weight in the router (and
  // megabytes for tsc to scan, and for the server to parse at start-up: GitHub's 2.7 MB became 0.7 MB).
  const kept = used ? Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name))) : schemas;
  const document: { components: { schemas: Obj } & Obj } = { components: { schemas: kept } };
  const schemes = securitySchemesOf(model, routes);
  if (Object.keys(schemes).length > 0) document.components.securitySchemes = schemes;
  for (const pointer of model.foreignSchemaRefs) {
    let target: Obj = document;
    pointer.forEach((segment, i) => {
      if (i === pointer.length - 1) target[segment] = resolvePointer(model.document, pointer);
      else target = (target[segment] = isObject(target[segment]) ? { ...(target[segment] as Obj) } : {}) as Obj;
    });
  }
  return document;
}

/** Keywords whose value is data (an instance), where a `$ref` key is not a reference. */
const DATA_KEYWORDS = new Set(["example", "examples", "default", "enum", "const"]);
/** Keywords whose value maps arbitrary names (maybe "example", maybe "$ref") to schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/**
 * The names of the component schemas reachable from the routes through `$ref`s and discriminator mappings,
 * transitively (through `$ref`s to elsewhere in the document too, which `foreignSchemaRefs` ships); `undefined`
 * (keep them all) when a `$ref` does not resolve here: nothing may be dropped then.
 */
function schemasUsedBy(document: Obj, routes: Obj[]): Set<string> | undefined {
  const used = new Set<string>();
  const visited = new Set<string>();
  const pending: unknown[] = schemasOfRoutes(routes);
  const follow = (ref: string): boolean => {
    if (!ref.startsWith("#")) return false;
    if (visited.has(ref)) return true;
    visited.add(ref);
    const pointer = parsePointer(ref.slice(1));
    // A pointer into a component schema keeps that whole schema.
    const isComponentSchema = pointer[0] === "components" && pointer[1] === "schemas" && pointer.length > 2;
    const target = resolvePointer(document, isComponentSchema ? pointer.slice(0, 3) : pointer);
    if (target === undefined) return false;
    if (isComponentSchema) used.add(pointer[2]!);
    pending.push(target);
    return true;
  };
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) for (const item of node) pending.push(item);
    else if (isObject(node)) {
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string") {
          if (!follow(value)) return undefined;
        } else if (SCHEMA_MAPS.has(key) && isObject(value)) {
          for (const schema of Object.values(value)) pending.push(schema);
        } else if (key === "discriminator" && isObject(value) && (isObject(value.mapping) || typeof value.defaultMapping === "string")) {
          // As the runtime reads a mapping (and 3.2's defaultMapping): a bare name is a component schema's.
          for (const target of [...Object.values(isObject(value.mapping) ? value.mapping : {}), value.defaultMapping]) {
            if (typeof target === "string" && !follow(target.startsWith("#") ? target : `#/components/schemas/${target}`)) return undefined;
          }
        } else if (!DATA_KEYWORDS.has(key)) {
          pending.push(value);
        }
      }
    }
  }
  return used;
}

/** The schemas a route table holds (parameters', bodies', responses'): what the walk above starts from. */
function schemasOfRoutes(routes: Obj[]): unknown[] {
  const schemas: unknown[] = [];
  const pending: unknown[] = [routes];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) for (const item of node) pending.push(item);
    else if (isObject(node)) {
      for (const [key, value] of Object.entries(node)) {
        // (Keys here are the route table's own, status codes included: "default" is a response, not a keyword.)
        if (key === "schema") schemas.push(value);
        else if (key !== "example" && key !== "examples") pending.push(value);
      }
    }
  }
  return schemas;
}

/** The route table the server runtime is configured with (`RouteSpec[]` of templates/server), one entry per path. */
export function serverRoutes(model: ApiModel): Obj[] {
  return model.operations.flatMap((op) => {
    const base: Obj = {
      name: op.name,
      method: op.wireMethod,
      secured: op.security.schemes.length > 0 && !op.security.anonymous,
      ...(op.security.requirements.some((alternative) => alternative.length > 0)
        ? {
            security: op.security.requirements.map((alternative) =>
              alternative.map(({ scheme, scopes }) => (scopes.length > 0 ? { scheme, scopes } : { scheme })),
            ),
          }
        : {}),
      params: {
        path: paramsIn(op, "path"),
        query: paramsIn(op, "query"),
        ...querystringOf(op),
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

/** An `in: querystring` parameter as the router reads it (templates/server/types.ts `QuerystringParamSpec`). */
function querystringOf(op: Operation): Obj {
  const param = op.parameters.find((p) => p.in === "querystring");
  if (!param) return {};
  return {
    querystring: {
      required: param.required,
      contentType: param.contentType,
      schema: param.schema,
      ...(param.encoding ? { encoding: encodingOf(param.encoding) } : {}),
    },
  };
}

/** A content map as the router reads it; a streamed media type's schema is one item's (load/sequential.ts). */
function contentOf(content: MediaType[]): Obj {
  return Object.fromEntries(
    content.map((media) => {
      const schema = media.sequence ? media.sequence.schema : media.schema;
      return [
        media.type,
        {
          ...(schema !== undefined ? { schema } : {}),
          ...(media.sequence ? sequenceOf(media.sequence) : {}),
          ...(media.example !== undefined ? { example: media.example } : {}),
          ...(media.encoding ? { encoding: encodingOf(media.encoding) } : {}),
        },
      ];
    }),
  );
}

/**
 * How the router frames a streamed media type (`SequenceSpec`). An event stream whose items are each event's JSON
 * data is the router's default and is left out, so route tables of 3.1 specs stay as they were.
 */
function sequenceOf(sequence: NonNullable<MediaType["sequence"]>): Obj {
  const sse = sequence.sse;
  if (sequence.format === "sse" && (!sse || (!sse.events && sse.json === true))) return {};
  return { sequence: { format: sequence.format, ...(sse ? { sse: { ...(sse.events ? { events: true } : {}), json: sse.json } } : {}) } };
}

/** What the router reads of a media type's Encoding Objects (part headers are the client's business). */
function encodingOf(encoding: NonNullable<MediaType["encoding"]>): Obj {
  const out: Obj = {};
  for (const [property, entry] of Object.entries(encoding)) {
    const spec: Obj = {};
    if (entry.style !== undefined) spec.style = entry.style;
    if (entry.explode !== undefined) spec.explode = entry.explode;
    if (entry.allowReserved !== undefined) spec.allowReserved = entry.allowReserved;
    if (entry.contentType !== undefined) spec.contentType = entry.contentType;
    out[property] = spec;
  }
  return out;
}

/** The schemes the routes name, in the spec's own shape (only what the router reads: type, scheme, in, name). */
function securitySchemesOf(model: ApiModel, routes: Obj[]): Obj {
  const used = new Set<string>();
  for (const route of routes) {
    for (const alternative of (route.security as { scheme: string }[][] | undefined) ?? []) for (const { scheme } of alternative) used.add(scheme);
  }
  const out: Obj = {};
  for (const scheme of model.securitySchemes) {
    if (!used.has(scheme.key)) continue;
    if (scheme.type === "http") out[scheme.key] = { type: "http", scheme: scheme.scheme };
    else if (scheme.type === "apiKey") out[scheme.key] = { type: "apiKey", in: scheme.in, name: scheme.name };
    else if (scheme.type === "oauth2" || scheme.type === "openIdConnect") out[scheme.key] = { type: scheme.type };
    else out[scheme.key] = { type: scheme.declaredType };
  }
  return out;
}

/**
 * The distinct security alternatives of the spec's operations whose schemes the router can read, each as its
 * schemes in spec order: the members of `Credentials`.
 */
function credentialAlternatives(model: ApiModel): SecurityScheme[][] {
  const byKey = new Map(model.securitySchemes.map((scheme) => [scheme.key, scheme]));
  const seen = new Set<string>();
  const out: SecurityScheme[][] = [];
  for (const op of model.operations) {
    for (const alternative of op.security.requirements) {
      if (alternative.length === 0) continue;
      const schemes = alternative.map(({ scheme }) => byKey.get(scheme));
      if (schemes.some((scheme) => scheme === undefined || scheme.type === "unsupported")) continue;
      const id = JSON.stringify(alternative.map(({ scheme }) => scheme));
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(schemes as SecurityScheme[]);
    }
  }
  return out;
}

/** The runtime type of one scheme's credentials (templates/server/types.ts). */
function credentialsType(scheme: SecurityScheme): string {
  switch (scheme.type) {
    case "http": {
      const lower = scheme.scheme.toLowerCase();
      return lower === "bearer" ? "BearerCredentials" : lower === "basic" ? "BasicCredentials" : "HttpCredentials";
    }
    case "apiKey":
      return "ApiKeyCredentials";
    default:
      return "OAuth2Credentials";
  }
}

function propertyNameNode(name: string): TS.PropertyName {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? ts.factory.createIdentifier(name) : ts.factory.createStringLiteral(name);
}
