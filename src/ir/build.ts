import { UserError, formatPointer } from "../errors.js";
import { parsePointer, resolvePointer } from "../load/bundle.js";
import type { LoadedSpec } from "../load/index.js";
import type { RenamedOperation } from "../load/operation-ids.js";
import {
  HTTP_METHODS,
  type ApiModel,
  type HttpMethod,
  type JsonSchema,
  type MediaType,
  type Operation,
  type PaginationInfo,
  type Parameter,
  type ParameterLocation,
  type PayloadVariable,
  type RequestBody,
  type Response,
  type Security,
  type Server,
  type StreamInfo,
  type Webhook,
  type WebhookSettings,
} from "./model.js";
import { NameRegistry, operationBaseName, serverVariableOption, toIdentifier } from "./naming.js";

type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj => value !== null && typeof value === "object" && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** Builds the normalised model from a bundled spec. `specPath` is only used in error messages. */
export function buildModel(spec: LoadedSpec, specPath: string): ApiModel {
  const doc = spec.document;
  const ctx = new BuildContext(doc, specPath);
  const info = isObject(doc.info) ? doc.info : {};
  const servers = new ServerTable();
  const rootServers = Array.isArray(doc.servers) ? doc.servers : [];
  const rootServer = rootServers.length > 0 ? servers.add(rootServers[0], ctx, ["servers", 0]) : -1;
  const rootSecurity = Array.isArray(doc.security) ? doc.security : undefined;

  const drafts: Draft[] = [];
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const path of Object.keys(paths)) {
    const item = ctx.deref(paths[path], ["paths", path]);
    if (!isObject(item)) continue;
    const itemServers = Array.isArray(item.servers) && item.servers.length > 0 ? item.servers : undefined;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const pointer = ["paths", path, method];
      const opServers = Array.isArray(op.servers) && op.servers.length > 0 ? op.servers : itemServers;
      const server = opServers ? servers.add(opServers[0], ctx, [...pointer, "servers", 0]) : rootServer;
      drafts.push({
        method,
        path,
        pointer,
        op,
        parameters: mergeParameters(ctx, item.parameters, op.parameters, pointer),
        security: securityOf(ctx, Array.isArray(op.security) ? op.security : rootSecurity),
        server,
      });
    }
  }

  const operations = mergeTrailingSlashRoutes(drafts).map((group) => toOperation(ctx, group));
  assignOperationNames(operations, drafts, spec.renamedOperations);

  return {
    title: str(info.title) ?? "API",
    version: str(info.version) ?? "0.0.0",
    openapi: spec.version,
    servers: servers.list,
    operations,
    webhooks: buildWebhooks(ctx, doc),
    webhookSettings: buildWebhookSettings(ctx, doc),
    document: doc,
    foreignSchemaRefs: spec.foreignSchemaRefs,
  };
}

interface Draft {
  method: HttpMethod;
  path: string;
  pointer: string[];
  op: Obj;
  parameters: Parameter[];
  security: Security;
  server: number;
}

class BuildContext {
  constructor(
    readonly doc: Obj,
    readonly specPath: string,
  ) {}

  /** Follows `$ref`s (bundled, so always internal) until a non-reference object. */
  deref(value: unknown, pointer: (string | number)[]): unknown {
    let current = value;
    for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
      if (hops > 50) throw new UserError("$ref chain too long (a cycle?)", { location: this.where(pointer) });
      const ref = current.$ref;
      if (!ref.startsWith("#")) throw new UserError(`unbundled $ref ${ref}`, { location: this.where(pointer) });
      const target = resolvePointer(this.doc, parsePointer(ref.slice(1)));
      if (target === undefined) {
        throw new UserError(`unresolved $ref ${JSON.stringify(ref)}`, { location: this.where([...pointer, "$ref"]) });
      }
      const { $ref: _ref, ...siblings } = current;
      current = isObject(target) && Object.keys(siblings).length > 0 ? { ...target, ...siblings } : target;
    }
    return current;
  }

  where(pointer: (string | number)[]): string {
    return formatPointer(this.specPath, pointer);
  }
}

class ServerTable {
  readonly list: Server[] = [];
  private readonly byUrl = new Map<string, number>();
  private readonly options = new NameRegistry(["apiKey", "headers", "fetch", "timeoutMs", "maxRetries", "retryNonIdempotent", "onRequest", "onResponse"]);
  private readonly optionByVariable = new Map<string, string>();

  add(raw: unknown, ctx: BuildContext, pointer: (string | number)[]): number {
    if (!isObject(raw) || typeof raw.url !== "string") {
      throw new UserError("a server needs a `url` string", { location: ctx.where(pointer) });
    }
    const key = JSON.stringify([raw.url, raw.variables ?? null]);
    const known = this.byUrl.get(key);
    if (known !== undefined) return known;
    const variables = isObject(raw.variables) ? raw.variables : {};
    const index = this.list.length;
    const server: Server = {
      url: raw.url,
      // Tests and proxies need to point a fixed-URL server elsewhere.
      urlOption: Object.keys(variables).length === 0 ? this.options.claim(index === 0 ? "baseUrl" : `server${index + 1}Url`) : undefined,
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
  const add = (list: unknown, base: (string | number)[]) => {
    if (!Array.isArray(list)) return;
    list.forEach((raw, index) => {
      const param = toParameter(ctx, ctx.deref(raw, [...base, index]), [...base, index]);
      if (param) merged.set(`${param.in}:${param.name}`, param); // operation-level overrides path-level
    });
  };
  add(itemParams, pointer.slice(0, -1).concat("parameters"));
  add(opParams, [...pointer, "parameters"]);
  return [...merged.values()];
}

function toParameter(ctx: BuildContext, raw: unknown, pointer: (string | number)[]): Parameter | undefined {
  if (!isObject(raw)) return undefined;
  const name = str(raw.name);
  const location = str(raw.in) as ParameterLocation | undefined;
  if (name === undefined || !location || !["path", "query", "header", "cookie"].includes(location)) {
    throw new UserError("a parameter needs `name` and `in` (path, query, header or cookie)", {
      location: ctx.where(pointer),
    });
  }
  const style = str(raw.style) ?? (location === "query" || location === "cookie" ? "form" : "simple");
  const contentType = isObject(raw.content) ? Object.keys(raw.content)[0] : undefined;
  const schema = contentType
    ? ((raw.content as Obj)[contentType] as Obj | undefined)?.schema
    : raw.schema;
  return {
    name,
    in: location,
    required: location === "path" ? true : raw.required === true,
    style,
    explode: typeof raw.explode === "boolean" ? raw.explode : style === "form",
    allowReserved: raw.allowReserved === true,
    contentType,
    schema: (schema ?? {}) as JsonSchema,
    description: str(raw.description),
    deprecated: raw.deprecated === true,
  };
}

function securityOf(ctx: BuildContext, requirements: unknown[] | undefined): Security {
  const schemes = isObject(ctx.doc.components) && isObject(ctx.doc.components.securitySchemes)
    ? (ctx.doc.components.securitySchemes as Obj)
    : {};
  if (!requirements || requirements.length === 0) return { bearer: false, anonymous: true, schemes: [] };
  const names: string[] = [];
  let anonymous = false;
  let bearer = false;
  for (const requirement of requirements) {
    if (!isObject(requirement)) continue;
    const keys = Object.keys(requirement);
    if (keys.length === 0) anonymous = true;
    for (const key of keys) {
      if (!names.includes(key)) names.push(key);
      const scheme = ctx.deref(schemes[key], ["components", "securitySchemes", key]);
      if (!isObject(scheme)) continue;
      const type = str(scheme.type);
      const httpScheme = str(scheme.scheme)?.toLowerCase();
      if ((type === "http" && httpScheme === "bearer") || type === "oauth2" || type === "openIdConnect") bearer = true;
    }
  }
  return { bearer, anonymous, schemes: names };
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
  const operation: Operation = {
    name: "",
    operationId: str(op.operationId),
    method: main.method,
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
  return operation;
}

function toRequestBody(ctx: BuildContext, raw: unknown, pointer: (string | number)[]): RequestBody | undefined {
  const body = ctx.deref(raw, pointer);
  if (!isObject(body)) return undefined;
  const content = toContent(body.content);
  if (content.length === 0) return undefined;
  return { required: body.required === true, content, preferred: preferredMediaType(content.map((c) => c.type)) };
}

function toContent(raw: unknown): MediaType[] {
  if (!isObject(raw)) return [];
  return Object.keys(raw).map((type) => {
    const media = isObject(raw[type]) ? (raw[type] as Obj) : {};
    const examples = isObject(media.examples) ? Object.values(media.examples) : [];
    const firstExample = examples.find((e) => isObject(e) && "value" in e) as Obj | undefined;
    return {
      type,
      schema: media.schema as JsonSchema | undefined,
      example: "example" in media ? media.example : firstExample?.value,
    };
  });
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
        content: toContent(obj.content),
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
    const sse = response.content.find((c) => c.type.toLowerCase().startsWith("text/event-stream"));
    if (!sse) continue;
    const bodySchema = operation.requestBody?.content.find((c) => JSON_TYPE.test(c.type))?.schema;
    const streamFlag = declaresProperty(ctx, bodySchema, "stream", operation.pointer);
    return { status: response.status, mediaType: sse.type, when: streamFlag ? { in: "body", name: "stream" } : undefined };
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

function buildWebhooks(ctx: BuildContext, doc: Obj): Webhook[] {
  const hooks = isObject(doc.webhooks) ? doc.webhooks : {};
  const registry = new NameRegistry();
  const result: Webhook[] = [];
  for (const key of Object.keys(hooks)) {
    const item = ctx.deref(hooks[key], ["webhooks", key]);
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const pointer = ["webhooks", key, method];
      const requestBody = toRequestBody(ctx, op.requestBody, [...pointer, "requestBody"]);
      const eventType = str(op["x-event-type"]) ?? key;
      const wireValues = [eventType];
      for (const extra of [str(op["x-sdk-event-type"]), pinnedBodyType(ctx, requestBody)]) {
        if (extra !== undefined && !wireValues.includes(extra)) wireValues.push(extra);
      }
      result.push({
        key,
        wireValues,
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

/** The one value a webhook body's `type` property can have (`const`, or a one-value `enum`), if any. */
function pinnedBodyType(ctx: BuildContext, body: RequestBody | undefined): string | undefined {
  const schema = ctx.deref(body?.content.find((c) => JSON_TYPE.test(c.type))?.schema, []);
  if (!isObject(schema) || !isObject(schema.properties)) return undefined;
  const type = ctx.deref(schema.properties.type, []);
  if (!isObject(type)) return undefined;
  if (typeof type.const === "string") return type.const;
  if (Array.isArray(type.enum) && type.enum.length === 1 && typeof type.enum[0] === "string") return type.enum[0];
  return undefined;
}

function buildWebhookSettings(ctx: BuildContext, doc: Obj): WebhookSettings {
  const signature = isObject(doc["x-webhook-signature"]) ? doc["x-webhook-signature"] : undefined;
  const eventType = isObject(doc["x-webhook-event-type"]) ? doc["x-webhook-event-type"] : undefined;
  const auth = isObject(doc["x-webhook-auth"]) ? doc["x-webhook-auth"] : undefined;
  const variables = Array.isArray(doc["x-payload-variables"]) ? doc["x-payload-variables"] : [];
  const settings: WebhookSettings = { payloadVariables: [] };
  if (signature) {
    const header = str(signature.header);
    if (!header) {
      throw new UserError("x-webhook-signature needs a `header`", { location: ctx.where(["x-webhook-signature"]) });
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
  if (eventType && (eventType.in === "body" || eventType.in === "header") && typeof eventType.name === "string") {
    settings.eventType = { in: eventType.in, name: eventType.name };
  }
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
