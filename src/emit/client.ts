import type * as TS from "typescript";
import { isSuccessStatus } from "../ir/build.js";
import type { ApiModel, Encoding, MediaType, Operation, Parameter, SecurityScheme, Server, Tag } from "../ir/model.js";
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
  const schemes = model.securitySchemes.filter((scheme) => scheme.type !== "unsupported");
  const content = renderFile([
    [
      moduleSpecifiers("import type", ["paths"], "./schema.js"),
      moduleSpecifiers(
        "import",
        [
          "createRuntime",
          ...(schemes.some(isBasic) ? ["type BasicCredentials"] : []),
          "type ClientOptions as RuntimeClientOptions",
          ...(schemes.length > 0 ? ["type Credential"] : []),
          ...(schemes.some(runsDeviceFlow) ? ["type OAuth2DeviceFlow"] : []),
          "type Operation",
          "type OperationSpec",
          "type PaginatedOperation",
          ...(schemes.length > 0 ? ["type SecuritySchemeSpec"] : []),
          "type ServerSpec",
          "type StreamingOperation",
        ],
        RUNTIME,
      ),
    ],
    [
      moduleSpecifiers(
        "export",
        [
          "ApiError",
          "ConnectionError",
          "TimeoutError",
          "Stream",
          "formPart",
          "type ApiErrorOf",
          "type ApiResponse",
          ...(schemes.length > 0 ? ["type CredentialContext"] : []),
          ...(schemes.some(runsDeviceFlow) ? ["OAuth2Error", "type DeviceCodePrompt"] : []),
          "type FormPart",
          "type RequestOptions",
        ],
        RUNTIME,
      ),
    ],
    [jsDoc("The spec's servers; each operation names one by index."), jsonConstant("const servers: ServerSpec[]", servers.map((s) => s.spec))],
    ...(schemes.length > 0
      ? [
          [
            jsDoc("The spec's security schemes, by key: where each credential goes and which client options hold it."),
            jsonConstant("const securitySchemes: Record<string, SecuritySchemeSpec>", Object.fromEntries(schemes.map((scheme) => [scheme.key, schemeSpec(scheme)]))),
          ],
        ]
      : []),
    [
      jsDoc(
        schemes.length > 0
          ? "Options of `createClient`: the runtime's options plus one per server variable and one per security scheme."
          : "Options of `createClient`: the runtime's options plus one per server variable. The spec declares no security scheme: send credentials with `headers`.",
      ),
      interfaceDeclaration("export interface ClientOptions extends RuntimeClientOptions", [...servers.flatMap((s) => s.options), ...schemes.flatMap(credentialOptions)]),
    ],
    [
      jsDoc(`One method per operation of ${commentText(model.title)} ${commentText(model.version)}.`),
      interfaceDeclaration("export interface Client", model.operations.map((op) => operationSignature(op, model.tags))),
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
          schemes.length > 0 ? "const runtime = createRuntime(servers, options, securitySchemes);" : "const runtime = createRuntime(servers, options);",
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
      values: ["createClient", "ApiError", "ConnectionError", "TimeoutError", "Stream", "formPart", ...(schemes.some(runsDeviceFlow) ? ["OAuth2Error"] : [])],
      types: ["Client", "ClientOptions", "ApiErrorOf", "ApiResponse", ...(schemes.length > 0 ? ["CredentialContext"] : []), ...(schemes.some(runsDeviceFlow) ? ["DeviceCodePrompt"] : []), "FormPart", "RequestOptions"],
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

function operationSignature(op: Operation, tags: readonly Tag[]): Member {
  const docs: string[] = [];
  if (op.summary) docs.push(commentText(op.summary));
  if (op.description && op.description !== op.summary) docs.push(commentText(op.description));
  docs.push(`\`${op.wireMethod} ${commentText(op.path)}\`${op.operationId ? ` (operationId \`${commentText(op.operationId)}\`)` : ""}`);
  // Tags are listed when the document describes them the OpenAPI 3.2 way (a summary, a parent or a kind).
  if (op.tags.length > 0 && tags.some((tag) => tag.summary !== undefined || tag.parent !== undefined || tag.kind !== undefined)) {
    const byName = new Map(tags.map((tag) => [tag.name, tag]));
    docs.push(`Tags: ${op.tags.map((tag) => commentText(tagTrail(tag, byName))).join("; ")}`);
  }
  if (op.deprecated) docs.push("@deprecated");
  return { name: op.name, type: operationType(op), doc: docs.join("\n\n") };
}

/**
 * A tag as the docs show it: its `summary` (else its name) after those of its parents (OpenAPI 3.2 nested tags),
 * `Flights › International`, and its `kind` when it is not navigation (`Beta (badge)`).
 */
function tagTrail(name: string, byName: ReadonlyMap<string, Tag>): string {
  const trail: string[] = [];
  const seen = new Set<string>();
  let current: string | undefined = name;
  while (current !== undefined && !seen.has(current)) {
    seen.add(current);
    const tag = byName.get(current);
    trail.unshift(tag?.summary ?? current);
    current = tag?.parent;
  }
  const kind = byName.get(name)?.kind;
  return `${trail.join(" › ")}${kind && kind !== "nav" ? ` (${kind})` : ""}`;
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
    method: op.wireMethod,
    path: op.path,
  };
  const server = op.server < 0 ? 0 : op.server;
  if (server !== 0 && server < servers.length) spec.server = server;
  if (op.security.requirements.some((alternative) => alternative.length > 0)) {
    spec.security = op.security.requirements.map((alternative) =>
      alternative.map(({ scheme, scopes }) => (scopes.length > 0 ? { scheme, scopes } : { scheme })),
    );
  }
  if (op.idempotencyKey) spec.idempotencyKey = op.idempotencyKey;
  const params: Record<string, unknown> = {};
  for (const location of ["path", "query", "header", "cookie"] as const) {
    const list = op.parameters.filter((p) => p.in === location).map(paramSpec);
    if (list.length > 0) params[location] = list;
  }
  const querystring = op.parameters.find((p) => p.in === "querystring");
  if (querystring) params.querystring = { content: querystring.contentType, ...(querystring.encoding ? { encoding: encodingSpecs(querystring.encoding) } : {}) };
  if (Object.keys(params).length > 0) spec.params = params;
  if (op.requestBody) {
    const preferred = op.requestBody.content.find((media) => media.type === op.requestBody!.preferred);
    spec.body = {
      mediaType: op.requestBody.preferred,
      ...(op.requestBody.required ? { required: true } : {}),
      ...(preferred?.encoding ? { encoding: encodingSpecs(preferred.encoding) } : {}),
      ...(preferred?.positional ? { positional: positionalSpecs(preferred.positional) } : {}),
    };
  }
  // Streams the call can ask for (`stream: true`), and operations that always stream (their success answer declares
  // no JSON besides the stream): the client asks for the stream's media type, and reads its items as `sse` says.
  if (op.stream && (op.stream.when || alwaysStreams(op))) {
    const sse = op.stream.sse && (op.stream.sse.events || op.stream.sse.json !== true) ? { ...(op.stream.sse.events ? { events: true } : {}), json: op.stream.sse.json } : undefined;
    spec.stream = { mediaType: op.stream.mediaType, ...(op.stream.when ? { when: op.stream.when } : {}), ...(sse ? { sse } : {}) };
  }
  if (op.pagination) spec.pagination = op.pagination;
  const errors = op.responses
    .map((r) => r.status)
    .filter((status) => !isSuccessStatus(status))
    .map((status) => (/^\d+$/.test(status) ? Number(status) : status.toUpperCase() === "DEFAULT" ? "default" : status.toUpperCase()));
  if (errors.length > 0) spec.errors = errors;
  return spec;
}

/** An operation whose streaming response declares no JSON body besides the stream: every call streams. */
function alwaysStreams(op: Operation): boolean {
  const response = op.responses.find((r) => r.status === op.stream?.status);
  return response !== undefined && !response.content.some((media) => !media.sequence && /^application\/(.+\+)?json\s*(;.*)?$/i.test(media.type));
}

/** Positional multipart encodings (3.2 `prefixEncoding`, `itemEncoding`) as the runtime reads them. */
function positionalSpecs(positional: NonNullable<MediaType["positional"]>): Record<string, unknown> {
  return {
    ...(positional.prefix.length > 0 ? { prefix: positional.prefix.map(encodingSpec) } : {}),
    ...(positional.items ? { items: encodingSpec(positional.items) } : {}),
  };
}

/** The Encoding Objects as the runtime reads them (templates/client/types.ts `EncodingSpec`): what was written, and pinned part headers. */
function encodingSpecs(encoding: Record<string, Encoding>): Record<string, unknown> {
  const specs: Record<string, unknown> = {};
  for (const [property, entry] of Object.entries(encoding)) specs[property] = encodingSpec(entry);
  return specs;
}

function encodingSpec(entry: Encoding): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  if (entry.style !== undefined) spec.style = entry.style;
  if (entry.explode !== undefined) spec.explode = entry.explode;
  if (entry.allowReserved !== undefined) spec.allowReserved = entry.allowReserved;
  if (entry.contentType !== undefined) spec.contentType = entry.contentType;
  const pinned = entry.headers.filter((header) => header.value !== undefined);
  if (pinned.length > 0) spec.headers = Object.fromEntries(pinned.map((header) => [header.name, header.value]));
  return spec;
}

const isBasic = (scheme: SecurityScheme) => scheme.type === "http" && scheme.scheme.toLowerCase() === "basic";

/** How the runtime applies a scheme (templates/client/types.ts `SecuritySchemeSpec`). */
function schemeSpec(scheme: SecurityScheme): Record<string, unknown> {
  const options = scheme.alias ? [scheme.option, scheme.alias] : [scheme.option];
  switch (scheme.type) {
    case "http": {
      const lower = scheme.scheme.toLowerCase();
      if (lower === "bearer" || lower === "basic") return { type: lower, options };
      return { type: "http", scheme: scheme.scheme, options };
    }
    case "apiKey":
      return { type: "apiKey", in: scheme.in, name: scheme.name, options };
    case "oauth2": {
      const device = scheme.flows.deviceAuthorization;
      if (!device && !scheme.metadataUrl) return { type: "bearer", options };
      const oauth2: Record<string, unknown> = {};
      if (device) Object.assign(oauth2, { deviceAuthorizationUrl: device.deviceAuthorizationUrl, tokenUrl: device.tokenUrl, scopes: device.scopes });
      if (scheme.metadataUrl) oauth2.metadataUrl = scheme.metadataUrl;
      return { type: "bearer", options, oauth2 };
    }
    default:
      return { type: "bearer", options };
  }
}

/** An OAuth 2 scheme whose client option may run the device authorization flow (OpenAPI 3.2). */
const runsDeviceFlow = (scheme: SecurityScheme) => scheme.type === "oauth2" && (scheme.flows.deviceAuthorization !== undefined || scheme.metadataUrl !== undefined);

/** The client option(s) of one scheme: its own, and the `apiKey` alias when it has one. */
function credentialOptions(scheme: SecurityScheme): Member[] {
  const value = isBasic(scheme) ? types.reference("BasicCredentials") : types.keyword("string");
  const type = types.union([types.reference("Credential", [value]), ...(runsDeviceFlow(scheme) ? [types.reference("OAuth2DeviceFlow")] : []), types.keyword("undefined")]);
  const members: Member[] = [{ name: scheme.option, optional: true, type, doc: credentialDoc(scheme) }];
  if (scheme.alias) {
    members.push({
      name: scheme.alias,
      optional: true,
      type,
      doc: `The same credential as \`${scheme.option}\` (the spec's only scheme), under the name most SDKs use; \`${scheme.option}\` wins when both are set.`,
    });
  }
  return members;
}

function credentialDoc(scheme: SecurityScheme): string {
  const key = `\`${commentText(scheme.key)}\``;
  let how: string;
  switch (scheme.type) {
    case "http": {
      const lower = scheme.scheme.toLowerCase();
      if (lower === "bearer") how = `The token of security scheme ${key} (HTTP bearer${scheme.bearerFormat ? `, ${commentText(scheme.bearerFormat)}` : ""}), sent as \`Authorization: Bearer <token>\``;
      else if (lower === "basic") how = `The \`{ username, password }\` of security scheme ${key} (HTTP basic), sent as \`Authorization: Basic <base64>\``;
      else how = `The credentials of security scheme ${key} (HTTP \`${commentText(scheme.scheme)}\`), sent as \`Authorization: ${commentText(scheme.scheme)} <credentials>\``;
      break;
    }
    case "apiKey": {
      const where = scheme.in === "header" ? "header" : scheme.in === "query" ? "query parameter" : "cookie";
      how = `The API key of security scheme ${key}, sent as it is in the ${where} \`${commentText(scheme.name)}\``;
      if (scheme.in === "header" && scheme.name.toLowerCase() === "authorization") {
        how += ": include the prefix the API expects, e.g. `Bot <token>` or `Bearer <token>`";
      }
      break;
    }
    default:
      how = `An access token of security scheme ${key} (${scheme.type === "oauth2" ? "OAuth 2" : "OpenID Connect"}), sent as \`Authorization: Bearer <token>\`; a function is told the scopes the operation asks for`;
      if (runsDeviceFlow(scheme)) how += ". Or `{ deviceFlow: { clientId, onUserCode } }`: the client runs the OAuth 2 device authorization flow (RFC 8628) against the spec's endpoints, shows you the user code, and renews the token";
  }
  const lines = [`${how}, on the operations that accept it. A function is called once per call (refresh tokens there).`];
  const description = scheme.description ? firstParagraph(scheme.description) : "";
  if (description) lines.push(description);
  if (scheme.deprecated) lines.push("@deprecated The spec marks this security scheme deprecated.");
  return lines.join("\n\n");
}

/** The first paragraph of a (Markdown) description, at most 300 characters, for a JSDoc line. */
function firstParagraph(text: string): string {
  const paragraph = commentText(text).split(/\n\s*\n/)[0]!.replace(/\s+/g, " ").trim();
  return paragraph.length > 300 ? `${paragraph.slice(0, 299).trimEnd()}…` : paragraph;
}
