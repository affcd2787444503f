import type { EncodingSpec, GeneratedInfo, MediaSpec, ParamSpec, PartHeaderSpec, QuerystringParamSpec, RouteSpec, Schema, SchemaDocument } from "../../templates/server/index.js";
import type { ApiModel, EncodingHeader, MediaType, Operation, Parameter, Server } from "../ir/model.js";
import { parsePointer, resolvePointer } from "../openapi/pointer.js";
import { DATA_KEYWORDS, SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_SINGLES, defaultExplode, defaultStyle } from "../openapi/vocabulary.js";
import { superLinearPatterns, superLinearWarnings, validationWarnings, type EmitterWarning } from "./server-patterns.js";

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** What the server runtime (templates/server/) is configured with: written into server.ts, served as is by `mock`. */
export interface ServerRuntimeData {
  /** The spec's schemas the routes `$ref`, and the security schemes they name. */
  document: SchemaDocument;
  /** One route per path of each operation. */
  routes: RouteSpec[];
  /** Facts found at generation time: the patterns the router matches with its linear-time matcher. */
  generated: GeneratedInfo;
  /** Where the spec's patterns backtrack catastrophically or do not compile, and keywords the router does not enforce. */
  warnings: EmitterWarning[];
}

export function serverRuntimeData(model: ApiModel): ServerRuntimeData {
  const routes = serverRoutes(model);
  const slow = superLinearPatterns(model.document);
  const paths = routedServerPaths(model);
  return {
    document: serverDocument(model, routes),
    routes,
    generated: { superLinearPatterns: slow.map((found) => found.pattern).sort(), ...(paths ? { serverPaths: paths } : {}) },
    warnings: [...superLinearWarnings(slow), ...validationWarnings(model.document)],
  };
}

/** The most paths one server is served under (its enumerated path variables' combinations); more: its defaults alone. */
const MAX_SERVER_PATHS = 16;

/**
 * Where the router serves each server's operations by default (`GeneratedInfo.serverPaths`), the servers in the
 * model's order; undefined when every server is at the root (the router then needs nothing).
 */
function routedServerPaths(model: ApiModel): string[][] | undefined {
  const paths = model.servers.map(serverPaths);
  return paths.some((list) => list.some((path) => path !== "")) ? paths : undefined;
}

/**
 * The paths a server's operations are served under by default: the path of its URL without a trailing slash, with
 * its variables' defaults (what the generated client sends to unless told otherwise). A variable of the path with
 * an `enum` gives one path per value (the client may be told to send to any of them), the default first.
 */
export function serverPaths(server: Pick<Server, "url" | "variables">): string[] {
  const defaults = Object.fromEntries(server.variables.map((variable) => [variable.name, variable.default]));
  const pathWith = (values: Record<string, string>) => urlPath(server.url.replace(/\{([^{}]+)\}/g, (_, name: string) => values[name] ?? ""));
  const base = pathWith(defaults);
  let combinations = [defaults];
  for (const variable of server.variables) {
    // Only a variable that moves the path multiplies the paths (a region in the host does not).
    const others = (variable.enum ?? []).filter((value) => value !== variable.default && pathWith({ ...defaults, [variable.name]: value }) !== base);
    if (others.length === 0) continue;
    combinations = combinations.flatMap((values) => [values, ...others.map((value) => ({ ...values, [variable.name]: value }))]);
    if (combinations.length > MAX_SERVER_PATHS) return [base];
  }
  return [...new Set(combinations.map(pathWith))];
}

/**
 * The path of a URL (RFC 3986: after the scheme and authority, before a query or fragment) without a trailing slash:
 * `/v1` for `https://api.example.com/v1/` and for the relative `/v1` or `v1` (read against the root, as a document
 * served at `/` has it); "" for `https://api.example.com` and for a URL with an empty host (`https://`, which the
 * WHATWG parser refuses).
 */
function urlPath(url: string): string {
  const rest = url.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/, "");
  // A scheme without an authority (`urn:…`) names no place to serve from.
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(rest)) return "";
  const path = rest.replace(/[?#].*$/s, "");
  try {
    return new URL(path === "" ? "/" : path, "http://relative.invalid/").pathname.replace(/\/+$/, "");
  } catch {
    return "";
  }
}

/**
 * The schemas route specs point into: the component schemas the routes reach, and whatever else a schema `$ref`s
 * (a parameter's schema, say).
 */
export function serverDocument(model: ApiModel, routes: readonly RouteSpec[] = serverRoutes(model)): SchemaDocument & { components: { schemas: Record<string, Schema> } } {
  const document = schemaDocument(model, routes);
  const schemes = securitySchemesOf(model, routes);
  if (Object.keys(schemes).length > 0) document.components.securitySchemes = schemes;
  return document;
}

/**
 * The schemas a table of schemas (a route table, MSW's responses: any structure whose `schema` keys hold schemas)
 * points into: the component schemas it reaches, and whatever else a schema `$ref`s.
 */
export function schemaDocument(model: ApiModel, table: unknown): SchemaDocument & { components: { schemas: Record<string, Schema> } & Obj } {
  const components = isObject(model.document.components) ? model.document.components : {};
  const schemas = (isObject(components.schemas) ? components.schemas : {}) as Record<string, Schema>;
  const used = schemasUsedBy(model.document, table);
  // Only what the routes reach: a spec's schemas for webhooks, or for other APIs, are dead weight in the router (and
  // megabytes for tsc to scan, and for the server to parse at start-up: GitHub's 2.7 MB became 0.7 MB).
  const kept = mapValues(used ? Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name))) : schemas, validationSchema) as Record<string, Schema>;
  const document: SchemaDocument & { components: { schemas: Record<string, Schema> } & Obj } = { components: { schemas: kept } };
  for (const pointer of model.foreignSchemaRefs) {
    let target: Obj = document;
    pointer.forEach((segment, i) => {
      if (i === pointer.length - 1) target[segment] = validationSchema(resolvePointer(model.document, pointer));
      else target = (target[segment] = isObject(target[segment]) ? { ...(target[segment] as Obj) } : {}) as Obj;
    });
  }
  return document;
}

const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set(SCHEMA_MAPS);

/**
 * The names of the component schemas reachable from the routes through `$ref`s and discriminator mappings,
 * transitively (through `$ref`s to elsewhere in the document too, which `foreignSchemaRefs` ships); `undefined`
 * (keep them all) when a `$ref` does not resolve here: nothing may be dropped then.
 */
function schemasUsedBy(document: Obj, routes: unknown): Set<string> | undefined {
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
        } else if (SCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) {
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

/**
 * Keywords that only annotate a schema (JSON Schema 2020-12 §9 meta-data, `$comment`, OpenAPI's `externalDocs` and
 * `xml`, `x-` extensions): nothing the router, its validators, its error messages or its mocks read. The examples,
 * defaults, formats and discriminators they do read stay.
 */
const ANNOTATIONS: ReadonlySet<string> = new Set(["title", "description", "$comment", "deprecated", "externalDocs", "xml"]);

/** Keywords whose value is a schema or a list of schemas. */
const SUBSCHEMAS: ReadonlySet<string> = new Set([...SCHEMA_SINGLES, ...SCHEMA_LISTS]);

/**
 * A schema as the router carries it: without its annotations, at every depth. Only keywords are read: a property
 * named `description` or `x-id`, an `enum` or `example` that holds such keys, and every keyword the walk does not
 * know (whose value may be anything) stay as the spec wrote them.
 */
function validationSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(validationSchema);
  if (!isObject(schema)) return schema;
  const out: Obj = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key) || key.startsWith("x-")) continue;
    let kept = value;
    if (SUBSCHEMAS.has(key)) kept = validationSchema(value);
    else if (SCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) kept = mapValues(value, validationSchema);
    Object.defineProperty(out, key, { value: kept, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** `record` with each value mapped, its keys (names, `__proto__` among them) as they were. */
function mapValues(record: Obj, map: (value: unknown) => unknown): Obj {
  const out: Obj = {};
  for (const [key, value] of Object.entries(record)) Object.defineProperty(out, key, { value: map(value), enumerable: true, writable: true, configurable: true });
  return out;
}

/** The schemas a route table holds (parameters', bodies', responses'): what the walk above starts from. */
function schemasOfRoutes(routes: unknown): unknown[] {
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

/** The route table the server runtime is configured with, one entry per path of each operation. */
export function serverRoutes(model: ApiModel): RouteSpec[] {
  // Which server's paths a route is served under matters only when some server has a path.
  const servers = routedServerPaths(model) !== undefined;
  return model.operations.flatMap((op) => {
    const base: Omit<RouteSpec, "path"> = {
      name: op.name,
      method: op.wireMethod,
      ...(servers && op.server !== 0 ? { server: op.server } : {}),
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
    // `path` last: the order of the keys is the order of the JSON in server.ts.
    return op.paths.map((path): RouteSpec => ({ ...base, path }));
  });
}

function paramsIn(op: Operation, location: Parameter["in"]): ParamSpec[] {
  return op.parameters
    .filter((p) => p.in === location)
    .map((p) => {
      // The spec's schema is data here: the runtime reads the keywords it knows.
      const spec: ParamSpec = { name: p.name, required: p.required, schema: validationSchema(p.schema) as Schema };
      // The spec's own style; the runtime treats a style it does not know as the location's default.
      if (p.style !== defaultStyle(location)) spec.style = p.style as ParamSpec["style"];
      if (p.explode !== defaultExplode(p.style)) spec.explode = p.explode;
      if (p.contentType) spec.contentType = p.contentType;
      return spec;
    });
}

/** An `in: querystring` parameter as the router reads it (templates/server/types.ts `QuerystringParamSpec`). */
function querystringOf(op: Operation): { querystring?: QuerystringParamSpec } {
  const param = op.parameters.find((p) => p.in === "querystring");
  if (!param) return {};
  return {
    querystring: {
      required: param.required,
      contentType: param.contentType!,
      schema: validationSchema(param.schema) as Schema,
      ...(param.encoding ? { encoding: encodingOf(param.encoding) } : {}),
    },
  };
}

/** A content map as the router reads it; a streamed media type's schema is one item's (load/sequential.ts). */
export function contentOf(content: MediaType[]): Record<string, MediaSpec> {
  return Object.fromEntries(
    content.map((media): [string, MediaSpec] => {
      const schema = media.sequence ? media.sequence.schema : media.schema;
      return [
        media.type,
        {
          ...(schema !== undefined ? { schema: validationSchema(schema) as Schema } : {}),
          ...(media.sequence ? sequenceOf(media.sequence) : {}),
          ...(media.example !== undefined ? { example: media.example } : {}),
          ...(media.encoding ? { encoding: encodingOf(media.encoding) } : {}),
          ...(media.positional ? positionalHeadersOf(media.positional) : {}),
        },
      ];
    }),
  );
}

/**
 * How the router frames a streamed media type (`SequenceSpec`). An event stream whose items are each event's JSON
 * data is the router's default and is left out, so route tables of 3.1 specs stay as they were.
 */
function sequenceOf(sequence: NonNullable<MediaType["sequence"]>): Pick<MediaSpec, "sequence"> {
  const sse = sequence.sse;
  if (sequence.format === "sse" && (!sse || (!sse.events && sse.json === true))) return {};
  return { sequence: { format: sequence.format, ...(sse ? { sse: { ...(sse.events ? { events: true } : {}), json: sse.json } } : {}) } };
}

/**
 * What the router reads of a media type's Encoding Objects: how fields are serialised, and the part headers the spec
 * declares (multipart; the IR has dropped `Content-Type`, which OpenAPI ignores there, and `Content-Disposition` is
 * the part's name and filename, read by the multipart parser itself).
 */
function encodingOf(encoding: NonNullable<MediaType["encoding"]>): Record<string, EncodingSpec> {
  const out: Record<string, EncodingSpec> = {};
  for (const [property, entry] of Object.entries(encoding)) {
    const spec: EncodingSpec = {};
    if (entry.style !== undefined) spec.style = entry.style as EncodingSpec["style"];
    if (entry.explode !== undefined) spec.explode = entry.explode;
    if (entry.allowReserved !== undefined) spec.allowReserved = entry.allowReserved;
    if (entry.contentType !== undefined) spec.contentType = entry.contentType;
    const headers = partHeaderSpecs(entry.headers);
    if (headers) spec.headers = headers;
    Object.defineProperty(out, property, { value: spec, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The part headers of multipart parts by position (3.2 `prefixEncoding`, `itemEncoding`), when any position declares some. */
function positionalHeadersOf(positional: NonNullable<MediaType["positional"]>): Pick<MediaSpec, "positionalHeaders"> {
  const prefix = positional.prefix.map((encoding) => partHeaderSpecs(encoding.headers));
  const items = positional.items && partHeaderSpecs(positional.items.headers);
  if (!items && prefix.every((headers) => headers === undefined)) return {};
  return { positionalHeaders: { ...(prefix.length > 0 ? { prefix: prefix.map((headers) => headers ?? {}) } : {}), ...(items ? { items } : {}) } };
}

/** An Encoding Object's part headers as the router validates them, by name; undefined when it declares none. */
function partHeaderSpecs(declared: readonly EncodingHeader[]): Record<string, PartHeaderSpec> | undefined {
  const headers = validatedPartHeaders(declared);
  if (headers.length === 0) return undefined;
  return Object.fromEntries(headers.map((header) => [header.name, { required: header.required, ...(header.schema !== undefined ? { schema: validationSchema(header.schema) as Schema } : {}) }]));
}

/** The part headers of an Encoding Object the router validates (all but Content-Type and Content-Disposition). */
export function validatedPartHeaders(headers: readonly EncodingHeader[]): EncodingHeader[] {
  return headers.filter((header) => !/^content-(?:type|disposition)$/i.test(header.name));
}

/** The schemes the routes name, in the spec's own shape (only what the router reads: type, scheme, in, name). */
function securitySchemesOf(model: ApiModel, routes: readonly RouteSpec[]): Obj {
  const used = new Set<string>();
  for (const route of routes) {
    for (const alternative of route.security ?? []) for (const { scheme } of alternative) used.add(scheme);
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
