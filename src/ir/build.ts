import { UserError, formatPointer } from "../errors.js";
import { parsePointer, resolvePointer } from "../openapi/pointer.js";
import { OAS31_METHODS, PARAMETER_LOCATIONS, defaultExplode, defaultStyle } from "../openapi/vocabulary.js";
import type { LoadedSpec } from "../load/index.js";
import type { RenamedOperation } from "../load/operation-ids.js";
import { operationsOf } from "../load/operations.js";
import { derefIn, itemView, preferredSequence, sequenceFormat } from "../load/sequential.js";
import {
  type ApiModel,
  type Encoding,
  type EncodingHeader,
  type HttpMethod,
  type JsonSchema,
  type MediaType,
  type OAuthFlows,
  type Operation,
  type PaginationInfo,
  type Parameter,
  type ParameterLocation,
  type PayloadVariable,
  type RequestBody,
  type Response,
  type Security,
  type SecurityRequirement,
  type SecurityScheme,
  type Server,
  type StreamInfo,
  type Tag,
  type Webhook,
  type WebhookSchemeName,
  type WebhookSettings,
} from "./model.js";
import { WEBHOOK_SCHEME_NAMES as WEBHOOK_SCHEMES } from "../../templates/webhooks/types.js";
import { inferEventSource, pinnedProperty } from "./webhook-events.js";
import { NameRegistry, operationBaseName, securitySchemeOption, serverUrlOption, serverVariableOption, toIdentifier } from "./naming.js";
import type { SpecWarning } from "../errors.js";

type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj => value !== null && typeof value === "object" && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** Builds the normalised model from a bundled spec. `specPath` is only used in error messages. */
export function buildModel(spec: LoadedSpec, specPath: string): ApiModel {
  const doc = spec.document;
  const ctx = new BuildContext(doc, specPath);
  const info = isObject(doc.info) ? doc.info : {};
  const options = new NameRegistry(CLIENT_RUNTIME_OPTIONS);
  const servers = new ServerTable(options);
  const rootServers = Array.isArray(doc.servers) ? doc.servers : [];
  const rootServer = rootServers.length > 0 ? servers.add(rootServers[0], ctx, ["servers", 0]) : -1;
  const rootSecurity = Array.isArray(doc.security) ? doc.security : undefined;
  const declaredSchemes = isObject(doc.components) && isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  // A spec that declares schemes but never says where they apply (Kubernetes): offer them everywhere, optionally.
  const impliedSchemes = rootSecurity === undefined && Object.keys(declaredSchemes).length > 0 && !anyOperationDeclaresSecurity(ctx, doc)
    ? Object.keys(declaredSchemes)
    : undefined;

  const drafts: Draft[] = [];
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const path of Object.keys(paths)) {
    const item = ctx.deref(paths[path], ["paths", path]);
    if (!isObject(item)) continue;
    const itemServers = Array.isArray(item.servers) && item.servers.length > 0 ? item.servers : undefined;
    const { operations: found, notes } = operationsOf(item);
    for (const note of notes) ctx.warn(note.message, ["paths", path, ...note.at], note.hint);
    for (const { method, wireMethod, at, operation: op } of found) {
      const pointer = ["paths", path, ...at];
      const opServers = Array.isArray(op.servers) && op.servers.length > 0 ? op.servers : itemServers;
      const server = opServers ? servers.add(opServers[0], ctx, [...pointer, "servers", 0]) : rootServer;
      drafts.push({
        method,
        wireMethod,
        path,
        pointer,
        op,
        parameters: mergeParameters(ctx, item.parameters, op.parameters, pointer),
        security: securityOf(ctx, Array.isArray(op.security) ? op.security : rootSecurity, Array.isArray(op.security) ? [...pointer, "security"] : ["security"], impliedSchemes),
        server,
      });
    }
  }

  const operations = mergeTrailingSlashRoutes(drafts).map((group) => toOperation(ctx, group));
  assignOperationNames(operations, drafts, spec.renamedOperations);
  // After the servers: adding a scheme to a spec never renames a server option.
  const securitySchemes = buildSecuritySchemes(ctx, declaredSchemes, options);
  const webhooks = buildWebhooks(ctx, doc);

  return {
    title: str(info.title) ?? "API",
    version: str(info.version) ?? "0.0.0",
    openapi: spec.version,
    servers: servers.list,
    operations,
    securitySchemes,
    webhooks,
    webhookSettings: buildWebhookSettings(ctx, doc, webhooks),
    document: doc,
    foreignSchemaRefs: spec.foreignSchemaRefs,
    warnings: ctx.warnings,
    tags: buildTags(ctx, doc),
  };
}

/**
 * Options of the client runtime (templates/client/types.ts `ClientOptions`): no server variable or security scheme
 * option may take these names.
 */
const CLIENT_RUNTIME_OPTIONS = [
  "headers",
  "fetch",
  "timeoutMs",
  "maxRetries",
  "retryNonIdempotent",
  "idempotencyKeys",
  "maxStreamEventSize",
  "onRequest",
  "onResponse",
];

interface Draft {
  method: HttpMethod;
  wireMethod: string;
  path: string;
  pointer: string[];
  op: Obj;
  parameters: Parameter[];
  security: Security;
  server: number;
}

class BuildContext {
  /** Problems that do not stop generation, in document order. */
  readonly warnings: SpecWarning[] = [];

  constructor(
    readonly doc: Obj,
    readonly specPath: string,
  ) {}

  warn(message: string, pointer: (string | number)[], hint?: string): void {
    this.warnings.push({ message, location: this.where(pointer), ...(hint ? { hint } : {}) });
  }

  /** Follows `$ref`s (bundled, so always internal) until a non-reference object. */
  deref(value: unknown, pointer: (string | number)[]): unknown {
    let current = value;
    for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
      if (hops > 50) throw new UserError("$ref chain too long (a cycle?)", { location: this.where(pointer) });
      const ref = current.$ref;
      if (!ref.startsWith("#")) throw new UserError(`unbundled $ref ${ref}`, { location: this.where(pointer) });
      const target = this.resolve(ref);
      if (target === undefined) {
        throw new UserError(`unresolved $ref ${JSON.stringify(ref)}`, { location: this.where([...pointer, "$ref"]) });
      }
      if (isObject(target) && hasSiblings(current)) {
        const { $ref: _ref, ...siblings } = current;
        current = { ...target, ...siblings };
      } else {
        current = target;
      }
    }
    return current;
  }

  /** What each internal `$ref` points at: operations repeat the same few hundred (the document does not change). */
  private readonly targets = new Map<string, unknown>();
  private resolve(ref: string): unknown {
    if (this.targets.has(ref)) return this.targets.get(ref);
    const target = resolvePointer(this.doc, parsePointer(ref.slice(1)));
    this.targets.set(ref, target);
    return target;
  }

  where(pointer: (string | number)[]): string {
    return formatPointer(this.specPath, pointer);
  }

  private derefs: ((node: unknown) => unknown) | undefined;
  /** Follows internal `$ref`s without failing (for reading schemas, where a broken `$ref` was reported by the loader). */
  get derefSchema(): (node: unknown) => unknown {
    return (this.derefs ??= derefIn(this.doc));
  }
}

/** Whether a Reference Object has keys besides `$ref` (3.1's summary and description override the target's). */
function hasSiblings(reference: Obj): boolean {
  for (const key in reference) if (key !== "$ref") return true;
  return false;
}

class ServerTable {
  readonly list: Server[] = [];
  private readonly byUrl = new Map<string, number>();
  private readonly optionByVariable = new Map<string, string>();

  /** `options` hands out client option names; `apiKey` stays reserved for security schemes. */
  constructor(private readonly options: NameRegistry) {
    options.reserve("apiKey");
  }

  add(raw: unknown, ctx: BuildContext, pointer: (string | number)[]): number {
    if (!isObject(raw) || typeof raw.url !== "string") {
      throw new UserError("a server needs a `url` string", { location: ctx.where(pointer) });
    }
    const key = JSON.stringify([raw.url, raw.variables ?? null]);
    const known = this.byUrl.get(key);
    if (known !== undefined) return known;
    const variables = isObject(raw.variables) ? raw.variables : {};
    const index = this.list.length;
    const name = str(raw.name);
    const server: Server = {
      url: raw.url,
      ...(name !== undefined ? { name } : {}),
      // Tests and proxies need to point a fixed-URL server elsewhere.
      urlOption: Object.keys(variables).length === 0 ? this.options.claim(serverUrlOption(raw.url, str(raw.description), index, this.list.map((s) => s.description), name)) : undefined,
      description: str(raw.description),
      variables: Object.keys(variables).map((name) => {
        const variable = isObject(variables[name]) ? (variables[name] as Obj) : {};
        // The same variable name in two servers is one client option (it means the same thing).
        let option = this.optionByVariable.get(name);
        if (option === undefined) {
          option = this.options.claim(serverVariableOption(name));
          this.optionByVariable.set(name, option);
        }
        return {
          name,
          option,
          default: variable.default === undefined ? "" : String(variable.default),
          enum: Array.isArray(variable.enum) ? variable.enum.map(String) : undefined,
          description: str(variable.description),
        };
      }),
    };
    this.list.push(server);
    this.byUrl.set(key, this.list.length - 1);
    return this.list.length - 1;
  }
}

function mergeParameters(ctx: BuildContext, itemParams: unknown, opParams: unknown, pointer: string[]): Parameter[] {
  const merged = new Map<string, Parameter>();
  const where = new Map<string, (string | number)[]>();
  // The path item's parameters: the operation's pointer without its method (`get`, or `additionalOperations/COPY`).
  const itemPointer = pointer[pointer.length - 2] === "additionalOperations" ? pointer.slice(0, -2) : pointer.slice(0, -1);
  const add = (list: unknown, base: (string | number)[]) => {
    if (!Array.isArray(list)) return;
    let querystrings = 0;
    list.forEach((raw, index) => {
      const param = toParameter(ctx, ctx.deref(raw, [...base, index]), [...base, index]);
      if (!param) return;
      // Operation-level overrides path-level; there is one query string, whatever a querystring parameter is named.
      const key = param.in === "querystring" ? "querystring" : `${param.in}:${param.name}`;
      if (param.in === "querystring" && ++querystrings > 1) {
        throw new UserError("a parameter list has at most one `in: querystring` parameter (it is the whole query string)", { location: ctx.where([...base, index]) });
      }
      merged.set(key, param);
      where.set(key, [...base, index]);
    });
  };
  add(itemParams, itemPointer.concat("parameters"));
  add(opParams, [...pointer, "parameters"]);
  const parameters = [...merged.values()];
  const querystring = where.get("querystring");
  const query = parameters.find((p) => p.in === "query");
  if (querystring && query) {
    throw new UserError(`an \`in: querystring\` parameter is the whole query string, so the operation cannot also have the query parameter ${JSON.stringify(query.name)}`, {
      location: ctx.where(querystring),
      hint: "describe the query parameter inside the querystring parameter's schema, or use `in: query` parameters only",
    });
  }
  return parameters;
}

function toParameter(ctx: BuildContext, raw: unknown, pointer: (string | number)[]): Parameter | undefined {
  if (!isObject(raw)) return undefined;
  const location = str(raw.in) as ParameterLocation | undefined;
  // A querystring parameter's name is not sent (OpenAPI 3.2): it may be left out.
  const name = str(raw.name) ?? (location === "querystring" ? "querystring" : undefined);
  if (name === undefined || !location || !PARAMETER_LOCATIONS.includes(location)) {
    throw new UserError("a parameter needs `name` and `in` (path, query, querystring, header or cookie)", {
      location: ctx.where(pointer),
    });
  }
  const style = str(raw.style) ?? defaultStyle(location);
  const contentType = isObject(raw.content) ? Object.keys(raw.content)[0] : undefined;
  if (location === "querystring" && contentType === undefined) {
    throw new UserError("an `in: querystring` parameter is described by `content` (one media type, e.g. application/x-www-form-urlencoded), not by `schema`", {
      location: ctx.where(pointer),
      hint: "write `content: { application/x-www-form-urlencoded: { schema: … } }`",
    });
  }
  const media = contentType ? ((raw.content as Obj)[contentType] as Obj | undefined) : undefined;
  const schema = contentType ? media?.schema : raw.schema;
  if (location === "querystring") {
    const essence = contentType!.split(";", 1)[0]!.trim().toLowerCase();
    const encoding = essence === "application/x-www-form-urlencoded" && isObject(media?.encoding) ? toEncoding(ctx, media.encoding, [...pointer, "content", contentType!, "encoding"], false) : undefined;
    return {
      name,
      in: location,
      required: raw.required === true,
      style: "form",
      explode: true,
      allowReserved: false,
      contentType,
      ...(encoding && Object.keys(encoding).length > 0 ? { encoding } : {}),
      schema: (schema ?? {}) as JsonSchema,
      description: str(raw.description),
      deprecated: raw.deprecated === true,
    };
  }
  return {
    name,
    in: location,
    required: location === "path" ? true : raw.required === true,
    style,
    explode: typeof raw.explode === "boolean" ? raw.explode : defaultExplode(style),
    allowReserved: raw.allowReserved === true,
    contentType,
    schema: (schema ?? {}) as JsonSchema,
    description: str(raw.description),
    deprecated: raw.deprecated === true,
  };
}

/** True when the root or any operation has a `security` field (even `[]`): the spec then says where schemes apply. */
function anyOperationDeclaresSecurity(ctx: BuildContext, doc: Obj): boolean {
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const path of Object.keys(paths)) {
    const item = ctx.deref(paths[path], ["paths", path]);
    if (!isObject(item)) continue;
    if (operationsOf(item).operations.some(({ operation }) => Array.isArray(operation.security))) return true;
  }
  return false;
}

/**
 * The operation's security from its requirements (or the root's). `implied` lists the declared schemes when the spec
 * never says where they apply: each becomes an optional alternative.
 */
function securityOf(ctx: BuildContext, requirements: unknown[] | undefined, pointer: (string | number)[], implied: string[] | undefined): Security {
  if (requirements === undefined && implied) {
    return {
      requirements: [...implied.map((scheme): SecurityRequirement => [{ scheme, scopes: [] }]), []],
      anonymous: true,
      schemes: implied,
      implied: true,
      bearer: implied.some((key) => isBearerLike(ctx, key)),
    };
  }
  const declared = isObject(ctx.doc.components) && isObject(ctx.doc.components.securitySchemes) ? ctx.doc.components.securitySchemes : {};
  const list: SecurityRequirement[] = [];
  const names: string[] = [];
  (requirements ?? []).forEach((requirement, index) => {
    if (!isObject(requirement)) return;
    const alternative: SecurityRequirement = [];
    for (const [scheme, scopes] of Object.entries(requirement)) {
      if (!Object.hasOwn(declared, scheme)) {
        ctx.warn(
          `security requirement names the scheme ${JSON.stringify(scheme)}, which components.securitySchemes does not declare: no request can satisfy this alternative`,
          [...pointer, index, scheme],
          "declare it under components.securitySchemes, or fix the name",
        );
      }
      alternative.push({ scheme, scopes: Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === "string") : [] });
      if (!names.includes(scheme)) names.push(scheme);
    }
    list.push(alternative);
  });
  return {
    requirements: list,
    anonymous: list.length === 0 || list.some((alternative) => alternative.length === 0),
    schemes: names,
    implied: false,
    bearer: names.some((key) => isBearerLike(ctx, key)),
  };
}

function isBearerLike(ctx: BuildContext, key: string): boolean {
  const declared = isObject(ctx.doc.components) && isObject(ctx.doc.components.securitySchemes) ? ctx.doc.components.securitySchemes : {};
  const scheme = ctx.deref(declared[key], ["components", "securitySchemes", key]);
  if (!isObject(scheme)) return false;
  const type = str(scheme.type);
  return (type === "http" && str(scheme.scheme)?.toLowerCase() === "bearer") || type === "oauth2" || type === "openIdConnect";
}

/** RFC 9110's token (section 5.6.2): a header field name, and a cookie name (RFC 6265). */
const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;

/**
 * `components.securitySchemes` as the client and router apply them, each with its client option (the scheme's key,
 * camelCased). A spec whose only applicable scheme takes one token also accepts that token as `apiKey`, the name
 * most SDKs use.
 */
function buildSecuritySchemes(ctx: BuildContext, declared: Obj, options: NameRegistry): SecurityScheme[] {
  options.release("apiKey");
  const schemes: SecurityScheme[] = [];
  for (const key of Object.keys(declared)) {
    const pointer = ["components", "securitySchemes", key];
    const raw = ctx.deref(declared[key], pointer);
    const scheme = isObject(raw) ? raw : {};
    const base = { key, option: options.claim(securitySchemeOption(key)), description: str(scheme.description), pointer, ...(scheme.deprecated === true ? { deprecated: true } : {}) };
    const type = str(scheme.type) ?? "";
    const httpScheme = str(scheme.scheme)?.trim();
    const location = str(scheme.in);
    const name = str(scheme.name);
    if (type === "http" && httpScheme) {
      schemes.push({ ...base, type: "http", scheme: httpScheme, ...(str(scheme.bearerFormat) ? { bearerFormat: str(scheme.bearerFormat) } : {}) });
    } else if (type === "apiKey" && (location === "header" || location === "query" || location === "cookie") && name) {
      // fetch refuses a header it cannot write (every request of the client would fail) and a router never sees one.
      if (location !== "query" && !HTTP_TOKEN.test(name)) {
        throw new UserError(`the ${location} name ${JSON.stringify(name)} of apiKey security scheme ${JSON.stringify(key)} is not an HTTP token: no request could carry it`, {
          location: ctx.where([...pointer, "name"]),
          hint: `a ${location} name is letters, digits and ${"!#$%&'*+-.^_`|~"} only (no spaces, colons or other punctuation, RFC 9110 section 5.6.2)`,
        });
      }
      schemes.push({ ...base, type: "apiKey", in: location, name });
    } else if (type === "oauth2") {
      const metadataUrl = str(scheme.oauth2MetadataUrl);
      schemes.push({ ...base, type, flows: oauthFlows(scheme.flows), ...(metadataUrl ? { metadataUrl } : {}) });
    } else if (type === "openIdConnect") {
      schemes.push({ ...base, type });
    } else {
      schemes.push({ ...base, type: "unsupported", declaredType: type });
      const why =
        type === "mutualTLS"
          ? "a mutualTLS scheme: the generated client cannot present a TLS client certificate through fetch, and the router cannot check one"
          : type === "http"
            ? "an http scheme without `scheme`"
            : type === "apiKey"
              ? "an apiKey scheme without a valid `in` (header, query or cookie) and `name`"
              : `a security scheme of unknown type ${JSON.stringify(type)}`;
      ctx.warn(
        `${why}; requests that need it are sent without its credentials and the router refuses them`,
        pointer,
        type === "mutualTLS" ? "pass the client a `fetch` that presents the certificate (e.g. an undici Agent with `connect: { cert, key }`)" : undefined,
      );
    }
  }
  const tokenSchemes = schemes.filter((s) => s.type !== "unsupported");
  const only = tokenSchemes.length === 1 ? tokenSchemes[0]! : undefined;
  if (only && only.option !== "apiKey" && !(only.type === "http" && only.scheme.toLowerCase() === "basic") && options.isFree("apiKey")) {
    only.alias = options.claim("apiKey");
  }
  return schemes;
}

/**
 * The document's Tag Objects. OpenAPI 3.2 nests them: a `parent` must name a declared tag and the nesting must not
 * loop; either mistake is a warning and the `parent` is dropped (the tag then stands at the top).
 */
function buildTags(ctx: BuildContext, doc: Obj): Tag[] {
  const raw = Array.isArray(doc.tags) ? doc.tags : [];
  const tags: Tag[] = [];
  const seen = new Set<string>();
  raw.forEach((entry, index) => {
    if (!isObject(entry) || typeof entry.name !== "string") return;
    if (seen.has(entry.name)) {
      ctx.warn(`tag ${JSON.stringify(entry.name)} is declared twice (tag names are unique); the first declaration is used`, ["tags", index, "name"]);
      return;
    }
    seen.add(entry.name);
    const tag: Tag = { name: entry.name };
    for (const field of ["summary", "description", "parent", "kind"] as const) {
      const value = str(entry[field]);
      if (value !== undefined) tag[field] = value;
    }
    if (isObject(entry.externalDocs) && typeof entry.externalDocs.url === "string") {
      tag.externalDocs = { url: entry.externalDocs.url, ...(str(entry.externalDocs.description) ? { description: str(entry.externalDocs.description) } : {}) };
    }
    tags.push(tag);
  });
  const byName = new Map(tags.map((tag) => [tag.name, tag]));
  tags.forEach((tag) => {
    if (tag.parent === undefined) return;
    const index = raw.findIndex((entry) => isObject(entry) && entry.name === tag.name);
    if (!byName.has(tag.parent)) {
      ctx.warn(`tag ${JSON.stringify(tag.name)} names the parent ${JSON.stringify(tag.parent)}, which \`tags\` does not declare: it is read as a top-level tag`, ["tags", index, "parent"], "declare the parent tag in the root `tags` list");
      delete tag.parent;
      return;
    }
    const chain = new Set([tag.name]);
    for (let up = byName.get(tag.parent); up; up = up.parent === undefined ? undefined : byName.get(up.parent)) {
      if (chain.has(up.name)) {
        ctx.warn(`tag ${JSON.stringify(tag.name)} is nested in itself (its parents loop back to it): it is read as a top-level tag`, ["tags", index, "parent"]);
        delete tag.parent;
        return;
      }
      chain.add(up.name);
    }
  });
  return tags;
}

/** The OAuth Flows Object: each flow's endpoints and scope names (OpenAPI 3.2 adds `deviceAuthorization`). */
function oauthFlows(raw: unknown): OAuthFlows {
  const flows: OAuthFlows = {};
  if (!isObject(raw)) return flows;
  const scopes = (flow: Obj) => (isObject(flow.scopes) ? Object.keys(flow.scopes) : []);
  const flow = (name: string) => (isObject(raw[name]) ? (raw[name] as Obj) : undefined);
  const device = flow("deviceAuthorization");
  if (device && str(device.deviceAuthorizationUrl) && str(device.tokenUrl)) {
    flows.deviceAuthorization = { deviceAuthorizationUrl: str(device.deviceAuthorizationUrl)!, tokenUrl: str(device.tokenUrl)!, scopes: scopes(device) };
  }
  const client = flow("clientCredentials");
  if (client && str(client.tokenUrl)) flows.clientCredentials = { tokenUrl: str(client.tokenUrl)!, scopes: scopes(client) };
  const code = flow("authorizationCode");
  if (code && str(code.authorizationUrl) && str(code.tokenUrl)) flows.authorizationCode = { authorizationUrl: str(code.authorizationUrl)!, tokenUrl: str(code.tokenUrl)!, scopes: scopes(code) };
  const implicit = flow("implicit");
  if (implicit && str(implicit.authorizationUrl)) flows.implicit = { authorizationUrl: str(implicit.authorizationUrl)!, scopes: scopes(implicit) };
  const password = flow("password");
  if (password && str(password.tokenUrl)) flows.password = { tokenUrl: str(password.tokenUrl)!, scopes: scopes(password) };
  return flows;
}

/** `/x` and `/x/` with the same method are one operation; the route without the slash is the one the client calls. */
function mergeTrailingSlashRoutes(drafts: Draft[]): Draft[][] {
  const groups = new Map<string, Draft[]>();
  for (const draft of drafts) {
    const key = `${draft.method} ${draft.path.length > 1 ? draft.path.replace(/\/+$/, "") : draft.path}`;
    const group = groups.get(key);
    if (group) group.push(draft);
    else groups.set(key, [draft]);
  }
  return [...groups.values()].map((group) =>
    [...group].sort((a, b) => a.path.length - b.path.length || (a.path < b.path ? -1 : 1)),
  );
}

function toOperation(ctx: BuildContext, group: Draft[]): Operation {
  const main = group[0]!;
  const { op, pointer } = main;
  const requestBody = toRequestBody(ctx, op.requestBody, [...pointer, "requestBody"]);
  const responses = toResponses(ctx, op.responses, [...pointer, "responses"]);
  for (const media of requestBody?.content ?? []) {
    if (media.sequence) {
      ctx.warn(
        `a request body of the sequential media type ${media.type} is sent and read whole (the client takes its bytes or text, the router hands the handler its bytes): streaming request items is not supported yet`,
        [...pointer, "requestBody", "content", media.type],
      );
    }
  }
  const operation: Operation = {
    name: "",
    operationId: str(op.operationId),
    method: main.method,
    wireMethod: main.wireMethod,
    path: main.path,
    paths: group.map((d) => d.path),
    pointer,
    tags: Array.isArray(op.tags) ? op.tags.map(String) : [],
    summary: str(op.summary),
    description: str(op.description),
    deprecated: op.deprecated === true,
    parameters: main.parameters,
    requestBody,
    responses,
    security: main.security,
    server: main.server,
    fastApiValidationError: declaresFastApiValidationError(ctx, responses),
  };
  operation.stream = detectStream(ctx, operation);
  operation.pagination = detectPagination(ctx, operation);
  const idempotencyKey = operation.parameters.find((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key");
  if (idempotencyKey) operation.idempotencyKey = idempotencyKey.name;
  return operation;
}

function toRequestBody(ctx: BuildContext, raw: unknown, pointer: (string | number)[]): RequestBody | undefined {
  const body = ctx.deref(raw, pointer);
  if (!isObject(body)) return undefined;
  const content = toContent(body.content, ctx, [...pointer, "content"], true);
  if (content.length === 0) return undefined;
  return { required: body.required === true, content, preferred: preferredMediaType(content.map((c) => c.type)) };
}

/**
 * A content map. Request bodies (`encodings`) also read the `encoding` of form and multipart media types. Sequential
 * media types get their item (see load/sequential.ts); what OpenAPI 3.2 describes there that specforge does not
 * apply yet is a warning with its pointer.
 */
function toContent(raw: unknown, ctx: BuildContext, pointer: (string | number)[], encodings = false): MediaType[] {
  if (!isObject(raw)) return [];
  return Object.keys(raw).map((type) => {
    const media = isObject(raw[type]) ? (raw[type] as Obj) : {};
    const result: MediaType = { type, schema: media.schema as JsonSchema | undefined };
    const example = firstExample(media);
    if (example.found) result.example = example.value;
    if (media.itemSchema !== undefined) result.itemSchema = media.itemSchema as JsonSchema;
    const essence = type.split(";", 1)[0]!.trim().toLowerCase();
    const format = sequenceFormat(type);
    if (format) result.sequence = itemView(media, format, ctx.derefSchema);
    else if (media.itemSchema !== undefined) {
      ctx.warn(
        `itemSchema of ${type} has no effect yet: specforge streams text/event-stream, JSON Lines and application/json-seq; this body is read whole${essence.startsWith("multipart/") ? " (as a Blob)" : ""}`,
        [...pointer, type, "itemSchema"],
      );
    }
    const positional = media.prefixEncoding !== undefined || media.itemEncoding !== undefined;
    if (positional && (!encodings || !essence.startsWith("multipart/"))) {
      for (const field of ["prefixEncoding", "itemEncoding"]) {
        if (media[field] === undefined) continue;
        ctx.warn(
          essence.startsWith("multipart/")
            ? `${field} has no effect yet in a response: a multipart response is read as a Blob`
            : `${field} has no effect: it applies to multipart media types only`,
          [...pointer, type, field],
        );
      }
    } else if (positional) {
      // OpenAPI 3.2: the parts of a multipart body in order, like prefixItems / items.
      const prefix = Array.isArray(media.prefixEncoding)
        ? media.prefixEncoding.map((entry, i) => toEncodingEntry(ctx, entry, [...pointer, type, "prefixEncoding", i], true) ?? { headers: [] })
        : [];
      const items = media.itemEncoding === undefined ? undefined : toEncodingEntry(ctx, media.itemEncoding, [...pointer, type, "itemEncoding"], true);
      result.positional = { prefix, ...(items ? { items } : {}) };
    }
    if (encodings && isObject(media.encoding) && (essence === "application/x-www-form-urlencoded" || essence.startsWith("multipart/"))) {
      const encoding = toEncoding(ctx, media.encoding, [...pointer, type, "encoding"], essence.startsWith("multipart/"));
      if (Object.keys(encoding).length > 0) result.encoding = encoding;
    }
    return result;
  });
}

/**
 * The example a Media Type Object gives: `example`, else the first Example Object's `dataValue` (OpenAPI 3.2, the
 * value as data) or `value`.
 */
function firstExample(media: Obj): { found: boolean; value?: unknown } {
  if ("example" in media) return { found: true, value: media.example };
  for (const entry of isObject(media.examples) ? Object.values(media.examples) : []) {
    if (!isObject(entry)) continue;
    if ("dataValue" in entry) return { found: true, value: entry.dataValue };
    if ("value" in entry) return { found: true, value: entry.value };
  }
  return { found: false };
}

/** A Media Type Object's `encoding` map; part headers only for multipart (the spec ignores them elsewhere). */
function toEncoding(ctx: BuildContext, raw: Obj, pointer: (string | number)[], multipart: boolean): Record<string, Encoding> {
  const result: Record<string, Encoding> = {};
  for (const property of Object.keys(raw)) {
    const encoding = toEncodingEntry(ctx, raw[property], [...pointer, property], multipart);
    if (!encoding) continue;
    // An own property named __proto__ must stay data when the emitters copy this map.
    Object.defineProperty(result, property, { value: encoding, enumerable: true, writable: true, configurable: true });
  }
  return result;
}

/** One Encoding Object; part headers only for multipart (the spec ignores them elsewhere). */
function toEncodingEntry(ctx: BuildContext, raw: unknown, pointer: (string | number)[], multipart: boolean): Encoding | undefined {
  const entry = ctx.deref(raw, pointer);
  if (!isObject(entry)) return undefined;
  const encoding: Encoding = { headers: [] };
  if (typeof entry.contentType === "string") encoding.contentType = entry.contentType;
  if (typeof entry.style === "string") encoding.style = entry.style;
  if (typeof entry.explode === "boolean") encoding.explode = entry.explode;
  if (typeof entry.allowReserved === "boolean") encoding.allowReserved = entry.allowReserved;
  if (multipart && isObject(entry.headers)) {
    for (const name of Object.keys(entry.headers)) {
      if (name.toLowerCase() === "content-type") continue; // described by contentType
      const header = ctx.deref(entry.headers[name], [...pointer, "headers", name]);
      if (!isObject(header)) continue;
      const value = pinnedValue(ctx, header.schema, [...pointer, "headers", name, "schema"]);
      const described: EncodingHeader = { name, required: header.required === true };
      if (value !== undefined) described.value = value;
      if (isObject(header.schema) || typeof header.schema === "boolean") described.schema = header.schema as JsonSchema;
      encoding.headers.push(described);
    }
  }
  return encoding;
}

/** The one value a header schema allows (`const`, a one-value `enum`) or its `default`, as text. */
function pinnedValue(ctx: BuildContext, raw: unknown, pointer: (string | number)[]): string | undefined {
  const schema = ctx.deref(raw, pointer);
  if (!isObject(schema)) return undefined;
  const scalar = (v: unknown) => (typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? String(v) : undefined);
  if ("const" in schema) return scalar(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length === 1) return scalar(schema.enum[0]);
  return scalar(schema.default);
}

function toResponses(ctx: BuildContext, raw: unknown, pointer: (string | number)[]): Response[] {
  if (!isObject(raw)) return [];
  return Object.keys(raw)
    .filter((status) => !status.startsWith("x-"))
    .map((status) => {
      const response = ctx.deref(raw[status], [...pointer, status]);
      const obj = isObject(response) ? response : {};
      return {
        status,
        description: str(obj.description),
        content: toContent(obj.content, ctx, [...pointer, status, "content"]),
        headers: isObject(obj.headers) ? Object.keys(obj.headers) : [],
      };
    });
}

const JSON_TYPE = /^application\/(.+\+)?json(;.*)?$/i;

/** The media type a client sends when several are declared: JSON, then form, multipart, binary, text. */
export function preferredMediaType(types: string[]): string {
  const rank = (type: string) => {
    const t = type.toLowerCase();
    if (t === "application/json" || t.startsWith("application/json;")) return 0;
    if (JSON_TYPE.test(t)) return 1;
    if (t.startsWith("application/x-www-form-urlencoded")) return 2;
    if (t.startsWith("multipart/form-data")) return 3;
    if (t.startsWith("application/octet-stream")) return 4;
    if (t.startsWith("text/plain")) return 5;
    return 6;
  };
  return [...types].sort((a, b) => rank(a) - rank(b))[0] ?? types[0]!;
}

/** A 422 response whose JSON body has a `detail` array: FastAPI's `HTTPValidationError`. */
function declaresFastApiValidationError(ctx: BuildContext, responses: Response[]): boolean {
  const json = responses.find((r) => r.status === "422")?.content.find((c) => JSON_TYPE.test(c.type));
  const schema = ctx.deref(json?.schema, []);
  if (!isObject(schema) || !isObject(schema.properties)) return false;
  const detail = ctx.deref(schema.properties.detail, []);
  return isObject(detail) && (detail.type === "array" || "items" in detail);
}

export const isSuccessStatus = (status: string) => /^2(\d\d|XX)$/i.test(status);

function detectStream(ctx: BuildContext, operation: Operation): StreamInfo | undefined {
  for (const response of operation.responses) {
    if (!isSuccessStatus(response.status)) continue;
    const mediaType = preferredSequence(response.content.map((c) => c.type));
    const media = response.content.find((c) => c.type === mediaType);
    if (!media?.sequence) continue;
    const bodySchema = operation.requestBody?.content.find((c) => JSON_TYPE.test(c.type))?.schema;
    const streamFlag = declaresProperty(ctx, bodySchema, "stream", operation.pointer);
    const stream: StreamInfo = { status: response.status, mediaType: media.type, format: media.sequence.format };
    if (media.sequence.sse) stream.sse = media.sequence.sse;
    if (streamFlag) stream.when = { in: "body", name: "stream" };
    return stream;
  }
  return undefined;
}

/**
 * True when an object schema declares `name` as a property: directly, or in any part of an `allOf` (through `$ref`s,
 * as OpenAI's `CreateChatCompletionRequest` declares `stream`), or in every branch of a `oneOf`/`anyOf`. Every value
 * the schema accepts may then carry the property, so the client can offer it as the stream flag.
 */
function declaresProperty(ctx: BuildContext, schema: unknown, name: string, pointer: (string | number)[]): boolean {
  /** Schemas already decided (a spec's compositions share parts), and those being decided (a cycle says no). */
  const decided = new Map<object, boolean>();
  const check = (node: unknown, depth: number): boolean => {
    const resolved = ctx.deref(node, pointer);
    // 32 levels of composition are far more than any spec nests; a longer chain is not followed (no stack to exhaust).
    if (!isObject(resolved) || depth > 32) return false;
    const known = decided.get(resolved);
    if (known !== undefined) return known;
    decided.set(resolved, false);
    let found = isObject(resolved.properties) && Object.prototype.hasOwnProperty.call(resolved.properties, name);
    if (!found && Array.isArray(resolved.allOf)) found = resolved.allOf.some((part) => check(part, depth + 1));
    for (const key of ["oneOf", "anyOf"] as const) {
      const branches = resolved[key];
      if (!found && Array.isArray(branches) && branches.length > 0) found = branches.every((branch) => check(branch, depth + 1));
    }
    decided.set(resolved, found);
    return found;
  };
  return check(schema, 0);
}

/** The cursor envelope used by OpenAI-style lists: `{data: [], has_more, last_id}` with an `after` query parameter. */
function detectPagination(ctx: BuildContext, operation: Operation): PaginationInfo | undefined {
  if (operation.method !== "get") return undefined;
  if (!operation.parameters.some((p) => p.in === "query" && p.name === "after")) return undefined;
  const success = operation.responses.find((r) => isSuccessStatus(r.status));
  const json = success?.content.find((c) => JSON_TYPE.test(c.type));
  const schema = json && ctx.deref(json.schema, []);
  if (!isObject(schema) || !isObject(schema.properties)) return undefined;
  const props = schema.properties;
  const dataSchema = ctx.deref(props.data, []);
  const isArray = isObject(dataSchema) && (dataSchema.type === "array" || (Array.isArray(dataSchema.type) && dataSchema.type.includes("array")));
  if (!isArray || !("has_more" in props) || !("last_id" in props)) return undefined;
  return { items: "data", hasMore: "has_more", cursor: "last_id", param: "after" };
}

/**
 * Names are given in document order so that adding an operation later in the spec never renames an earlier one.
 * Trailing-slash twins share one name. A second operation that would get the same name gets `2`, `3`, … appended.
 * Operations whose duplicate operationId the loader renamed (`getPet` → `getPet_2`) are named last, from the new
 * id, so an operation whose own operationId is unique always gets the name it asks for; `operationId` keeps the
 * spec's value for the docs.
 */
function assignOperationNames(operations: Operation[], drafts: Draft[], renamed: readonly RenamedOperation[] = []): void {
  const registry = new NameRegistry();
  const key = (pointer: readonly string[]) => pointer.join("\u0000");
  const order = new Map(drafts.map((d, i) => [key(d.pointer), i]));
  const originals = new Map(renamed.map((r) => [key(r.pointer), r.original]));
  const sorted = [...operations].sort((a, b) => (order.get(key(a.pointer)) ?? 0) - (order.get(key(b.pointer)) ?? 0));
  for (const pass of [false, true]) {
    for (const operation of sorted) {
      if (originals.has(key(operation.pointer)) !== pass) continue;
      operation.name = registry.claim(operationBaseName(operation.operationId, operation.method, operation.path));
      if (pass) operation.operationId = originals.get(key(operation.pointer));
    }
  }
}

/** The methods openapi-typescript types under `webhooks` (the fixed fields of OpenAPI 3.0 and 3.1). */

function buildWebhooks(ctx: BuildContext, doc: Obj): Webhook[] {
  const hooks = isObject(doc.webhooks) ? doc.webhooks : {};
  const registry = new NameRegistry();
  const result: Webhook[] = [];
  for (const key of Object.keys(hooks)) {
    const item = ctx.deref(hooks[key], ["webhooks", key]);
    if (!isObject(item)) continue;
    for (const { method, at, operation: op } of operationsOf(item).operations) {
      const pointer = ["webhooks", key, ...at];
      if (!OAS31_METHODS.has(method)) {
        ctx.warn(`a webhook delivered with ${method.toUpperCase()} has no effect yet: webhook receivers and types cover get, put, post, delete, options, head, patch and trace`, pointer);
        continue;
      }
      const requestBody = toRequestBody(ctx, op.requestBody, [...pointer, "requestBody"]);
      const eventType = str(op["x-event-type"]) ?? key;
      const wireValues = [eventType];
      const sdkEventType = str(op["x-sdk-event-type"]);
      if (sdkEventType !== undefined && sdkEventType !== eventType) wireValues.push(sdkEventType);
      const bodySchema = ctx.deref(requestBody?.content.find((c) => JSON_TYPE.test(c.type))?.schema, [...pointer, "requestBody"]);
      const action = pinnedProperty(ctx, bodySchema, "action", true);
      const github = isObject(op["x-github"]) ? op["x-github"] : undefined;
      result.push({
        key,
        wireValues,
        eventHeader: str(github?.subcategory),
        conditions: action === undefined ? {} : { action },
        name: registry.claim(toIdentifier(key, "webhook")),
        method,
        eventType,
        operationId: str(op.operationId),
        summary: str(op.summary),
        description: str(op.description),
        deprecated: op.deprecated === true,
        parameters: mergeParameters(ctx, item.parameters, op.parameters, pointer),
        requestBody,
        payloadTemplate: str(op["x-payload-template"]),
        example: requestBody?.content.find((c) => c.example !== undefined)?.example,
      });
    }
  }
  return result;
}

/** The signature header each scheme's deliveries carry, lower case. */
const SCHEME_BY_SIGNATURE_HEADER = new Map<string, WebhookSchemeName>([
  ["webhook-signature", "standard-webhooks"],
  ["stripe-signature", "stripe"],
  ["x-hub-signature-256", "github"],
  ["x-wandb-signature", "wandb"],
  ["svix-signature", "svix"],
  ["x-zm-signature", "zoom"],
  ["x-slack-signature", "slack"],
  ["x-shopify-hmac-sha256", "shopify"],
  ["x-twilio-signature", "twilio"],
]);

/** The scheme whose signature header the webhooks declare as a parameter, when they name exactly one. */
function impliedScheme(webhooks: Webhook[]): WebhookSchemeName | undefined {
  const found = new Set<WebhookSchemeName>();
  for (const hook of webhooks) {
    for (const parameter of hook.parameters) {
      const scheme = parameter.in === "header" ? SCHEME_BY_SIGNATURE_HEADER.get(parameter.name.toLowerCase()) : undefined;
      if (scheme) found.add(scheme);
    }
  }
  return found.size === 1 ? [...found][0] : undefined;
}

function buildWebhookSettings(ctx: BuildContext, doc: Obj, webhooks: Webhook[]): WebhookSettings {
  const signature = isObject(doc["x-webhook-signature"]) ? doc["x-webhook-signature"] : undefined;
  const eventType = isObject(doc["x-webhook-event-type"]) ? doc["x-webhook-event-type"] : undefined;
  const auth = isObject(doc["x-webhook-auth"]) ? doc["x-webhook-auth"] : undefined;
  const variables = Array.isArray(doc["x-payload-variables"]) ? doc["x-payload-variables"] : [];
  const settings: WebhookSettings = { payloadVariables: [] };
  if (signature && signature.scheme !== undefined) {
    const scheme = WEBHOOK_SCHEMES.find((name) => name === signature.scheme);
    if (!scheme) {
      throw new UserError(`unknown webhook signature scheme ${JSON.stringify(signature.scheme)}`, {
        location: ctx.where(["x-webhook-signature", "scheme"]),
        hint: `one of ${WEBHOOK_SCHEMES.join(", ")}; or describe an HMAC of the body with \`header\` (and \`encoding\`, \`prefix\`)`,
      });
    }
    settings.scheme = scheme;
  } else if (signature) {
    const header = str(signature.header);
    if (!header) {
      throw new UserError("x-webhook-signature needs a `header` (or a `scheme`)", { location: ctx.where(["x-webhook-signature"]) });
    }
    const encoding = str(signature.encoding) ?? "hex";
    settings.signature = {
      header,
      algorithm: str(signature.algorithm) ?? "hmac-sha256",
      encoding,
      acceptEncodings: Array.isArray(signature.acceptEncodings) ? signature.acceptEncodings.map(String) : [encoding],
      prefix: str(signature.prefix),
    };
  }
  if (!settings.scheme && !settings.signature) settings.scheme = impliedScheme(webhooks);
  const explicit =
    eventType && (eventType.in === "body" || eventType.in === "header") && typeof eventType.name === "string"
      ? { in: eventType.in as "body" | "header", name: eventType.name }
      : undefined;
  const source = inferEventSource(ctx, webhooks, explicit);
  if (source) settings.eventType = { in: source.in, name: source.name };
  if (auth) {
    settings.auth = {
      scheme: str(auth.scheme) ?? "bearer",
      header: str(auth.header) ?? "Authorization",
      optional: auth.optional !== false,
    };
  }
  settings.payloadVariables = variables.filter(isObject).map((v): PayloadVariable => {
    const kind = str(v.kind);
    return {
      name: String(v.name),
      kind: kind === "map" || kind === "secret" || kind === "named-secret" ? kind : "value",
      description: str(v.description),
      example: v.example,
      events: Array.isArray(v.events) ? v.events.map(String) : undefined,
    };
  });
  return settings;
}
