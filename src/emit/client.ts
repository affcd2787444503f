import type { OptionalKind, PropertySignatureStructure } from "ts-morph";
import type { EncodingSpec, ErrorStatusKey, OAuth2Endpoints, OperationRow, OperationSpec, ParamSpec, ParamsRow, ParamStyle, SecuritySchemeSpec, ServerSpec } from "../../templates/client/types.js";
import { isSuccessStatus } from "../ir/build.js";
import type { ApiModel, Encoding, MediaType, Operation, Parameter, SecurityScheme, SequenceFormat, Server, Tag } from "../ir/model.js";
import { propertyKey } from "../ir/naming.js";
import { STYLED_PARAMETER_LOCATIONS, defaultExplode, defaultStyle } from "../openapi/vocabulary.js";
import type { FileTemplateSource } from "../package/templates.js";
import type { EmittedFile } from "./file.js";
import { commentText, stringLiteral } from "./literal.js";
import { LongTexts, abridge } from "./long-text.js";
import { FileTemplate, namedImports, typeText } from "./template.js";

type Member = OptionalKind<PropertySignatureStructure>;

/**
 * `client.ts`: `createClient(options)` returning one typed method per operation, from templates/files/client.ts.
 * The template holds the fixed code; this fills its slots: the servers, security schemes and operations the
 * runtime (templates/client/) is configured with, and the `ClientOptions` and `Client` interfaces, whose types are
 * indexed accesses into `schema.ts`.
 */
export function emitClient(model: ApiModel, source: FileTemplateSource): EmittedFile[] {
  const template = new FileTemplate(source);
  const servers = clientServers(model.servers);
  const schemes = model.securitySchemes.filter((scheme) => scheme.type !== "unsupported");

  // The runtime's feature modules only where the spec's operations use them (see `clientFeatures`), and the
  // credential types only where a scheme's option uses them.
  const operations = model.operations.map((op) => operationSpec(op, servers.length));
  const features = clientFeatures(model, operations);
  const unused = new Set<string>();
  if (!schemes.some(isBasic)) unused.add("BasicCredentials");
  if (schemes.length === 0) unused.add("Credential");
  const types = template.structure("import ./runtime/client/types.js", "import");
  types.namedImports = namedImports(types).filter((specifier) => !unused.has(specifier.name));
  for (const [slot, used] of runtimeModuleSlots(features)) {
    if (used) template.keep(slot);
    else template.remove(slot);
  }
  if (!features.styles && !features.bodies) template.remove("import ./runtime/client/serialize.js");
  else {
    const serialize = template.structure("import ./runtime/client/serialize.js", "import");
    serialize.namedImports = namedImports(serialize).filter((specifier) => (specifier.name === "stylesFeature" ? features.styles : features.bodies));
  }
  if (!features.headerParams && !features.cookies) template.remove("import ./runtime/client/headers.js");
  else {
    const headers = template.structure("import ./runtime/client/headers.js", "import");
    headers.namedImports = namedImports(headers).filter((specifier) => (specifier.name === "headerParamsFeature" ? features.headerParams : features.cookies));
  }
  // The request engine takes one stream reader: a spec with both kinds of stream passes records.ts' reader of both.
  const bothStreams = features.stream && features.records;
  if (bothStreams) template.structure("import ./runtime/client/records.js", "import").namedImports = [{ name: "streamsFeature" }];
  const passed = RUNTIME_FEATURES.filter(([name]) => features[name] && !(bothStreams && name === "stream")).map(([name, value]) => (bothStreams && name === "records" ? "streamsFeature" : value));
  template.structure("features", "variable").declarations[0]!.initializer = `[${passed.join(", ")}]`;

  template.fillData("servers", servers.map((server) => server.spec));
  template.fillData("securitySchemes", Object.fromEntries(schemes.map((scheme): [string, SecuritySchemeSpec] => [scheme.key, schemeSpec(scheme)])));
  const table = operationTable(operations);
  template.fillData("shared", table.shared);
  template.fillData("operations", table.rows);

  const clientOptions = template.structure("ClientOptions", "interface");
  clientOptions.docs = [
    schemes.length > 0
      ? "Options of `createClient`: the runtime's options plus one per server variable and one per security scheme."
      : "Options of `createClient`: the runtime's options plus one per server variable. The spec declares no security scheme: send credentials with `headers`.",
  ];
  clientOptions.properties = [...servers.flatMap((server) => server.options), ...schemes.flatMap(credentialOptions)];

  const client = template.structure("Client", "interface");
  client.docs = [`One method per operation of ${commentText(model.title)} ${commentText(model.version)}.`];
  const texts = new LongTexts();
  client.properties = model.operations.map((op) => operationMember(op, model.tags, texts));

  // A required option (the spec declares no server: `baseUrl`) makes `options` required.
  if (servers.some((server) => server.options.some((option) => !option.hasQuestionToken))) {
    template.structure("createClient", "function").parameters![0]!.initializer = undefined;
  } else {
    template.keep("createClient");
  }

  return template.printModule("typed client: createClient() with one method per operation");
}

/**
 * What `features` passes to the runtime, in order: each optional module's feature export (templates/client/), by the
 * `clientFeatures` key that says whether the spec needs it. With `runtimeModuleSlots`, the one place that decides
 * which runtime a client ships: client.ts imports only the modules of the features it passes, and only those are
 * copied (`emitRuntime` follows client.ts' imports).
 */
const RUNTIME_FEATURES = [
  ["token", "tokenFeature"],
  ["credentials", "authFeature"],
  ["deviceFlows", "deviceFlowFeature"],
  ["pathQueries", "pathQueryFeature"],
  ["styles", "stylesFeature"],
  ["headerParams", "headerParamsFeature"],
  ["cookies", "cookiesFeature"],
  ["plainBodies", "plainBodiesFeature"],
  ["bodies", "bodiesFeature"],
  ["stream", "sseFeature"],
  ["records", "recordsFeature"],
  ["pagination", "paginationFeature"],
] as const;

/** The import and export slots of templates/files/client.ts that hold an optional runtime module, and whether this client keeps each. */
function runtimeModuleSlots(features: ClientFeatures): [slot: string, used: boolean][] {
  return [
    ["import ./runtime/client/token.js", features.token],
    ["import ./runtime/client/auth.js", features.credentials],
    ["import ./runtime/client/plain.js", features.plainBodies],
    ["import ./runtime/client/pagination.js", features.pagination],
    ["import ./runtime/client/pathquery.js", features.pathQueries],
    ["import ./runtime/client/sse.js", features.stream && !features.records],
    // (With both kinds of stream, emitClient imports records.js' reader of both instead: not a slot kept as it is.)
    ...(features.stream && features.records ? [] : [["import ./runtime/client/records.js", features.records] as [string, boolean]]),
    ["import ./runtime/client/oauth.js", features.deviceFlows],
    ["export ./runtime/client/sse.js", features.stream || features.records],
    ["export ./runtime/client/serialize.js", features.formPart],
    ["export ./runtime/client/oauth.js", features.deviceFlows],
  ];
}

/** Which optional runtime modules a spec's client needs (`clientFeatures`), plus whether it re-exports `formPart`. */
export type ClientFeatures = Record<(typeof RUNTIME_FEATURES)[number][0] | "formPart", boolean>;

/**
 * Which optional runtime modules a spec's client needs, decided from the model and the operations as the runtime
 * reads them: the token path when every scheme sends a token (bearer, another HTTP scheme, an API key, OAuth 2
 * without the device flow) and every security requirement asks for one scheme at a time, else the general one
 * (several schemes at once, HTTP basic); the
 * device flow with a scheme that runs it; the style table with a parameter that is not in its location's default
 * style (the operation spec then says so) or an `in: querystring` one; the body encoders with a form, multipart or
 * media-range body, else the plain ones with a body that is not JSON; the event-stream reader with a success
 * response of `text/event-stream` (`stream`) and the record reader with one of JSON Lines or JSON Text Sequences
 * (`records`); pagination where an operation declares it. A response of a sequential media type the spec does not
 * declare is read like any undeclared media type.
 */
export function clientFeatures(model: ApiModel, operations: readonly OperationSpec[]): ClientFeatures {
  const schemes = model.securitySchemes.filter((scheme) => scheme.type !== "unsupported");
  const params = operations.flatMap((op) => Object.values(op.params ?? {}).flat());
  const bodies = operations.flatMap((op) => (op.body ? [op.body.mediaType.split(";")[0]!.trim().toLowerCase()] : []));
  const token =
    schemes.length > 0 &&
    !schemes.some((scheme) => isBasic(scheme) || runsDeviceFlow(scheme)) &&
    operations.every((op) => (op.security ?? []).every((alternative) => alternative.length <= 1));
  const encoded = bodies.some((type) => type === "application/x-www-form-urlencoded" || type.startsWith("multipart/") || type.includes("*"));
  return {
    token,
    credentials: schemes.length > 0 && !token,
    deviceFlows: schemes.some(runsDeviceFlow),
    pathQueries: operations.some((op) => op.path.includes("?")),
    headerParams: operations.some((op) => op.params?.header),
    // (Cookie API keys are sent in the same header as cookie parameters.)
    cookies: operations.some((op) => op.params?.cookie) || schemes.some((scheme) => scheme.type === "apiKey" && scheme.in === "cookie"),
    styles: operations.some((op) => op.params?.querystring) || params.some((param) => "style" in param || "explode" in param || "allowReserved" in param || "content" in param),
    // (JSON as the runtime tells it: `application/json` or a `+json` type; it sends those itself.)
    plainBodies: !encoded && bodies.some((type) => type !== "application/json" && !type.endsWith("+json")),
    bodies: encoded,
    stream: declaresSequence(model, (format) => format === "sse"),
    records: declaresSequence(model, (format) => format !== "sse"),
    pagination: operations.some((op) => op.pagination !== undefined),
    formPart: hasMultipart(model),
  };
}

/** Whether a success response of some operation declares a sequential media type of a format `wanted` accepts. */
const declaresSequence = (model: ApiModel, wanted: (format: SequenceFormat) => boolean) =>
  model.operations.some((op) =>
    op.responses.some((response) => isSuccessStatus(response.status) && response.content.some((media) => media.sequence !== undefined && wanted(media.sequence.format))),
  );
const hasMultipart = (model: ApiModel) => model.operations.some((op) => op.requestBody?.content.some((media) => /^multipart\//i.test(media.type)));

/** The names client.ts (and so index.ts) does not re-export for this spec: those of features it does not use. */
export function omittedClientExports(model: ApiModel): ReadonlySet<string> {
  return new Set([
    ...(model.securitySchemes.some(runsDeviceFlow) ? [] : DEVICE_FLOW_EXPORTS),
    ...(declaresSequence(model, () => true) ? [] : STREAM_EXPORTS),
    ...(hasMultipart(model) ? [] : FORM_PART_EXPORTS),
  ]);
}

interface ClientServer {
  spec: ServerSpec;
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
        options: [{ name: "baseUrl", type: "string", docs: ["Base URL of the API (the spec declares no server)."] }],
      },
    ];
  }
  const seen = new Set<string>();
  return servers.map((server) => {
    if (server.urlOption) {
      // A URL that names no host (DigitalOcean's `https://` for a presigned upload) has no usable default: without
      // the option, the runtime refuses the call and names the option, instead of sending it to `https:/path`.
      const hostless = /^[a-z][a-z\d+.-]*:\/*$/i.test(server.url);
      const docs = hostless
        ? `The URL of the operations on the server \`${commentText(server.url)}\`, which names no host${server.description ? ` (${commentText(server.description)})` : ""}: required before calling them.`
        : `Overrides the server URL${server.description ? ` (${commentText(server.description)})` : ""}.\n@default ${commentText(stringLiteral(server.url))}`;
      return {
        spec: { url: "{url}", variables: { url: { option: server.urlOption, default: hostless ? "" : server.url } } },
        // `| undefined`: `createClient({ baseUrl: process.env.API_URL })` compiles under exactOptionalPropertyTypes, and
        // an undefined option means its default, like every other option.
        options: [{ name: server.urlOption, hasQuestionToken: true, type: "string | undefined", docs: [docs] }],
      };
    }
    const options: Member[] = [];
    for (const variable of server.variables) {
      if (seen.has(variable.option)) continue;
      seen.add(variable.option);
      const values = variable.enum ? `\nOne of ${variable.enum.map((e) => commentText(stringLiteral(e))).join(", ")}.` : "";
      options.push({
        name: variable.option,
        hasQuestionToken: true,
        type: "string | undefined",
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

/** The method type: `Operation<paths[path][method]>`, or its streaming or paginated variant. */
function operationType(op: Operation): string {
  const typeRef = typeText.indexed("paths", op.path, op.method);
  const media = op.requestBody ? op.requestBody.preferred : "application/json";
  const mediaArg = media === "application/json" ? [] : [typeText.string(media)];
  if (op.stream?.when) {
    return typeText.reference("StreamingOperation", [typeRef, typeText.string(media), typeText.string(op.stream.mediaType), typeText.string(op.stream.when.name)]);
  }
  if (op.pagination) return typeText.reference("PaginatedOperation", [typeRef, typeText.string(op.pagination.items), ...mediaArg]);
  return typeText.reference("Operation", [typeRef, ...mediaArg]);
}

function operationMember(op: Operation, tags: readonly Tag[], texts: LongTexts): Member {
  const docs: string[] = [];
  // (An operation of a path item that several paths `$ref` has the same texts in each: see long-text.ts.)
  if (op.summary) docs.push(commentText(texts.use(op.summary, `\`${op.name}\``)));
  if (op.description && op.description !== op.summary) docs.push(commentText(texts.use(op.description, `\`${op.name}\``)));
  docs.push(`\`${op.wireMethod} ${commentText(op.path)}\`${op.operationId ? ` (operationId \`${commentText(op.operationId)}\`)` : ""}`);
  // Tags are listed when the document describes them the OpenAPI 3.2 way (a summary, a parent or a kind).
  if (op.tags.length > 0 && tags.some((tag) => tag.summary !== undefined || tag.parent !== undefined || tag.kind !== undefined)) {
    const byName = new Map(tags.map((tag) => [tag.name, tag]));
    docs.push(`Tags: ${op.tags.map((tag) => commentText(tagTrail(tag, byName))).join("; ")}`);
  }
  if (op.deprecated) docs.push("@deprecated");
  return { name: propertyKey(op.name), type: operationType(op), docs: [docs.join("\n\n")] };
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

/** A parameter as the runtime reads it: only what differs from OpenAPI's defaults. */
function paramSpec(param: Parameter): ParamSpec {
  const spec: ParamSpec = { name: param.name };
  // The spec's own style; the runtime treats a style it does not know as the location's default.
  if (param.style !== defaultStyle(param.in)) spec.style = param.style as ParamStyle;
  if (param.explode !== defaultExplode(param.style)) spec.explode = param.explode;
  if (param.allowReserved) spec.allowReserved = true;
  if (param.contentType) spec.content = param.contentType;
  return spec;
}

/** How the runtime sends one operation (templates/client/types.ts `OperationSpec`). */
function operationSpec(op: Operation, serverCount: number): OperationSpec {
  const spec: OperationSpec = {
    name: op.name,
    method: op.wireMethod,
    path: op.path,
  };
  const server = op.server < 0 ? 0 : op.server;
  if (server !== 0 && server < serverCount) spec.server = server;
  if (op.security.requirements.some((alternative) => alternative.length > 0)) {
    spec.security = op.security.requirements.map((alternative) =>
      alternative.map(({ scheme, scopes }) => (scopes.length > 0 ? { scheme, scopes } : { scheme })),
    );
  }
  if (op.idempotencyKey) spec.idempotencyKey = op.idempotencyKey;
  const params: NonNullable<OperationSpec["params"]> = {};
  for (const location of STYLED_PARAMETER_LOCATIONS) {
    const list = op.parameters.filter((p) => p.in === location).map(paramSpec);
    if (list.length > 0) params[location] = list;
  }
  const querystring = op.parameters.find((p) => p.in === "querystring");
  if (querystring) params.querystring = { content: querystring.contentType!, ...(querystring.encoding ? { encoding: encodingSpecs(querystring.encoding) } : {}) };
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
  const errors = op.responses.filter((r) => !isSuccessStatus(r.status)).flatMap((r) => errorStatusKey(r.status) ?? []);
  if (errors.length > 0) spec.errors = errors;
  return spec;
}

/**
 * The operations as the rows of client.ts' table (templates/client/types.ts `OperationRow`; the runtime's
 * `operationSpecOf` reads them back): `[name, method, path, rest]`, `rest` left out when empty. A parameter with nothing
 * but a name is written as that name. Values whose JSON two or more operations share, and is longer than their key,
 * go into `shared` once, each under a key its JSON hashes to (`sharedKeys`): an edit of one operation changes the
 * keys of no other value, so the other rows keep their text (position indexes would all shift past a value that
 * comes or goes).
 */
export function operationTable(operations: readonly OperationSpec[]): { shared: Record<number, unknown>; rows: OperationRow[] } {
  const sharable = (key: string) => SHARED_FIELDS.has(key);
  const compact = operations.map((op) => Object.entries(op).map(([key, value]): [string, unknown] => [key, key === "params" ? paramsRow(value as NonNullable<OperationSpec["params"]>) : value]));
  const uses = new Map<string, number>();
  for (const fields of compact) {
    for (const [key, value] of fields) {
      if (!sharable(key)) continue;
      const json = JSON.stringify(value);
      uses.set(json, (uses.get(json) ?? 0) + 1);
    }
  }
  const keys = sharedKeys([...uses].filter(([, count]) => count >= 2).map(([json]) => json));
  const shared: Record<number, unknown> = {};
  const rows = operations.map((op, i): OperationRow => {
    const rest: Record<string, unknown> = {};
    for (const [key, value] of compact[i]!) {
      if (key === "name" || key === "method" || key === "path") continue;
      const slot = sharable(key) ? keys.get(JSON.stringify(value)) : undefined;
      if (slot === undefined) {
        rest[key] = value;
        continue;
      }
      shared[slot] = value;
      rest[key] = slot;
    }
    return Object.keys(rest).length > 0 ? [op.name, op.method, op.path, rest] : [op.name, op.method, op.path];
  });
  return { shared, rows };
}

/**
 * A key for each shared value (by its JSON text) that depends on that text alone: its FNV-1a hash modulo a power of
 * ten ten times the number of values or more (two digits up to 10 values, three up to 100…), so few keys collide; a
 * collision takes the next free key, in the order of the texts. Values whose JSON is no longer than their key stay in
 * their rows.
 */
function sharedKeys(texts: readonly string[]): Map<string, number> {
  const digits = Math.max(2, String(texts.length).length + 1);
  const size = 10 ** digits;
  const keys = new Map<string, number>();
  const taken = new Set<number>();
  for (const text of [...texts].sort()) {
    if (text.length <= digits) continue;
    let key = fnv1a(text) % size;
    while (taken.has(key)) key = (key + 1) % size;
    taken.add(key);
    keys.set(text, key);
  }
  return keys;
}

/** The 32-bit FNV-1a hash of a text's UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** `OperationSpec.params` as a row writes it: a parameter with nothing but a name as that name. */
function paramsRow(params: NonNullable<OperationSpec["params"]>): ParamsRow {
  return Object.fromEntries(Object.entries(params).map(([where, specs]) => [where, Array.isArray(specs) ? specs.map((spec: ParamSpec) => (Object.keys(spec).length === 1 ? spec.name : spec)) : specs]));
}

/** The fields of `OperationSpec` that `OperationRow` may write as a key of the shared values. */
const SHARED_FIELDS: ReadonlySet<string> = new Set(["security", "params", "body", "stream", "pagination", "errors"]);

/** An operation whose streaming response declares no JSON body besides the stream: every call streams. */
function alwaysStreams(op: Operation): boolean {
  const response = op.responses.find((r) => r.status === op.stream?.status);
  return response !== undefined && !response.content.some((media) => !media.sequence && /^application\/(.+\+)?json\s*(;.*)?$/i.test(media.type));
}

/** A response status key as the runtime matches it: `404`, `4XX` or `default` (anything else is no status). */
function errorStatusKey(status: string): ErrorStatusKey | undefined {
  if (/^\d+$/.test(status)) return Number(status);
  const upper = status.toUpperCase();
  if (upper === "DEFAULT") return "default";
  return upper === "1XX" || upper === "3XX" || upper === "4XX" || upper === "5XX" ? upper : undefined;
}

/** Positional multipart encodings (3.2 `prefixEncoding`, `itemEncoding`) as the runtime reads them. */
function positionalSpecs(positional: NonNullable<MediaType["positional"]>): NonNullable<NonNullable<OperationSpec["body"]>["positional"]> {
  return {
    ...(positional.prefix.length > 0 ? { prefix: positional.prefix.map(encodingSpec) } : {}),
    ...(positional.items ? { items: encodingSpec(positional.items) } : {}),
  };
}

/** The Encoding Objects as the runtime reads them (`EncodingSpec`), by property. */
function encodingSpecs(encoding: Record<string, Encoding>): Record<string, EncodingSpec> {
  const specs: Record<string, EncodingSpec> = {};
  for (const [property, entry] of Object.entries(encoding)) specs[property] = encodingSpec(entry);
  return specs;
}

/** One Encoding Object as the runtime reads it: what was written, and pinned part headers. */
function encodingSpec(entry: Encoding): EncodingSpec {
  const spec: EncodingSpec = {};
  if (entry.style !== undefined) spec.style = entry.style as ParamStyle;
  if (entry.explode !== undefined) spec.explode = entry.explode;
  if (entry.allowReserved !== undefined) spec.allowReserved = entry.allowReserved;
  if (entry.contentType !== undefined) spec.contentType = entry.contentType;
  const pinned = entry.headers.filter((header) => header.value !== undefined);
  if (pinned.length > 0) spec.headers = Object.fromEntries(pinned.map((header) => [header.name, header.value!]));
  return spec;
}

const isBasic = (scheme: SecurityScheme) => scheme.type === "http" && scheme.scheme.toLowerCase() === "basic";

/** How the runtime applies a scheme (templates/client/types.ts `SecuritySchemeSpec`). */
function schemeSpec(scheme: SecurityScheme): SecuritySchemeSpec {
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
      const oauth2: OAuth2Endpoints = {};
      if (device) Object.assign(oauth2, { deviceAuthorizationUrl: device.deviceAuthorizationUrl, tokenUrl: device.tokenUrl, scopes: device.scopes });
      if (scheme.metadataUrl) oauth2.metadataUrl = scheme.metadataUrl;
      return { type: "bearer", options, oauth2 };
    }
    default:
      return { type: "bearer", options };
  }
}

/** An OAuth 2 scheme whose client option may run the device authorization flow (OpenAPI 3.2). */
export const runsDeviceFlow = (scheme: SecurityScheme) => scheme.type === "oauth2" && (scheme.flows.deviceAuthorization !== undefined || scheme.metadataUrl !== undefined);

/** What client.ts (and index.ts) re-export of the device flow, only where a scheme runs it. */
export const DEVICE_FLOW_EXPORTS: ReadonlySet<string> = new Set(["OAuth2Error", "DeviceCodePrompt"]);

/** What client.ts (and index.ts) re-export of multipart bodies, only where an operation has one. */
export const FORM_PART_EXPORTS: ReadonlySet<string> = new Set(["formPart", "FormPart"]);

/** What client.ts (and index.ts) re-export of streams, only where an operation streams. */
export const STREAM_EXPORTS: ReadonlySet<string> = new Set(["Stream"]);

/** The client option(s) of one scheme: its own, and the `apiKey` alias when it has one. */
function credentialOptions(scheme: SecurityScheme): Member[] {
  const value = isBasic(scheme) ? "BasicCredentials" : "string";
  const type = typeText.union([typeText.reference("Credential", [value]), ...(runsDeviceFlow(scheme) ? ["OAuth2DeviceFlow"] : []), "undefined"]);
  const members: Member[] = [{ name: propertyKey(scheme.option), hasQuestionToken: true, type, docs: [credentialDoc(scheme)] }];
  if (scheme.alias) {
    members.push({
      name: propertyKey(scheme.alias),
      hasQuestionToken: true,
      type,
      docs: [`The same credential as \`${scheme.option}\` (the spec's only scheme), under the name most SDKs use; \`${scheme.option}\` wins when both are set.`],
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
  const lines = [`${how}, on the operations that accept it. A function is called before each attempt, the first and every retry (refresh tokens there).`];
  const description = scheme.description ? firstParagraph(scheme.description) : "";
  if (description) lines.push(description);
  if (scheme.deprecated) lines.push("@deprecated The spec marks this security scheme deprecated.");
  return lines.join("\n\n");
}

/** The first paragraph of a (Markdown) description, at most 300 characters, for a JSDoc line. */
const firstParagraph = (text: string): string => abridge(commentText(text), 300);
