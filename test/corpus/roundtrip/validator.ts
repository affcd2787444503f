import cookieParser from "cookie-parser";
import express, { type NextFunction, type Request, type Response } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import { bundle, createConfig } from "@redocly/openapi-core";
import { Agent, createServer, type Server } from "node:http";
import { close, header, listen, replay, type WireRequest } from "./wire.js";

/**
 * The independent judge of what the generated client puts on the wire: express-openapi-validator (EOV), the most
 * used OpenAPI 3.0/3.1 request validator on npm, in the Express app it is written for, reading the spec on its own
 * (a copy bundled by @redocly/openapi-core, never specforge's loader). A recorded request is sent to it over
 * 127.0.0.1 byte for byte; EOV routes it, parses path, query (form, deepObject), header and cookie parameters by
 * their style, the body by its Content-Type (JSON, form-urlencoded through qs, multipart through multer, text),
 * checks the credentials the operation's `security` asks for, and validates everything with Ajv (draft-04 rules for
 * 3.0 documents, 2020-12 for 3.1). Its verdict is the answer's status: 204 accepted, else its error.
 *
 * Form and multipart bodies are text on the wire, so for them EOV coerces body values to their schema types as
 * every server framework does; JSON bodies are judged without coercion (a number sent as a string is a failure).
 *
 * The operations are judged a batch at a time, each batch by EOVs of its own over the document cut down to that
 * batch (see DocumentCutter): EOV compiles each operation's schemas with the whole `paths` and `components` as Ajv's
 * root, and Ajv walks its root on every compile, so over GitHub's whole 13 MB description judging took most of the
 * round trip's six minutes. A cut document gives the same verdicts for its batch's requests: it has the batch's
 * operations, everything they refer to and every security scheme, and every other operation as a stand-in that
 * refuses whatever is routed to it, so EOV routes exactly as over the whole document. A request it accepts must also
 * have been routed to the operation it is meant for.
 */
export interface RequestValidator {
  /** `operation` is the operation the request is meant for: `"<METHOD> <path as the spec writes it>"`. */
  judge(request: WireRequest, operation: string): Promise<Verdict>;
  close(): Promise<void>;
}

export interface Verdict {
  accepted: boolean;
  /** EOV's message and errors when it refused the request. */
  problem?: string;
}

/** Formats Ajv and ajv-formats check, or EOV declares; any other format in a spec is accepted as it is (as Ajv's own `strict: false` would, noisily). */
const KNOWN_FORMATS = new Set(
  "date time date-time iso-time iso-date-time duration uri uri-reference uri-template url email hostname ipv4 ipv6 regex uuid json-pointer json-pointer-uri-fragment relative-json-pointer byte int32 int64 float double password binary".split(" "),
);

/** Marks each operation of the validator's document with the operation it was in the spec (see tagOperations). */
const OPERATION_TAG = "x-roundtrip-operation";
/** A header no request carries, which the stand-ins for the operations a request is not meant for require. */
const ELSEWHERE = "x-roundtrip-routed-elsewhere";
const CASE = "x-roundtrip-case";

export async function startRequestValidator(document: Record<string, unknown>, { batchSize = BATCH } = {}): Promise<RequestValidator> {
  const unknownFormats = Object.fromEntries([...formatsOf(document)].filter((format) => !KNOWN_FORMATS.has(format)).map((format) => [format, true as const]));
  const securityHandlers = Object.fromEntries(Object.keys(securitySchemesOf(document)).map((name) => [name, () => true]));
  const validator = (apiSpec: Record<string, unknown>, coerceTypes: boolean) =>
    OpenApiValidator.middleware({
      apiSpec: apiSpec as never,
      validateApiSpec: false,
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes },
      validateResponses: false,
      validateSecurity: Object.keys(securityHandlers).length > 0 ? { handlers: securityHandlers } : false,
      validateFormats: true,
      formats: unknownFormats,
      fileUploader: { limits: { fileSize: 16 * 1024 * 1024 } },
    });
  // One document per fixed query the spec writes into paths (see fixedQueryVariants), most pairs first.
  const variants = fixedQueryVariants(document).map(({ pairs, document: variant }) => ({ pairs, cutter: new DocumentCutter(variant, batchSize) }));
  /** EOV's middleware per variant, batch and body coercion, made when a request first needs it. */
  const middlewares = new Map<string, ReturnType<typeof validator>>();
  /** Case id → the operation its request is meant for. */
  const meant = new Map<string, string>();

  const app = express();
  app.disable("x-powered-by");
  // Queries are read by qs (Express 4's default), as deepObject needs: under Express 5's default parser EOV puts
  // bracketed keys together itself, one key at a time and shallowly, so of Stripe's `lines[0][type]=…&lines[0][amount]=…`
  // only the last key's object is left (`lines/0 must have required property 'type'`), and of
  // `customer_details[address][city]=…&customer_details[address][line1]=…` only the last `address`. (qs reads up to 5
  // levels and lists of up to 20 items: Stripe's deepest query parameter has 4, the samples' lists are shorter.)
  app.set("query parser", "extended");
  app.use(express.json({ type: (req) => isJson(req.headers["content-type"]), strict: false, limit: "16mb" }));
  app.use(express.urlencoded({ extended: true, limit: "16mb", parameterLimit: 100_000 }));
  app.use(express.text({ type: "text/*", limit: "16mb" }));
  // Any other media type (octet-stream, XML, YAML) arrives as bytes; multipart is EOV's own (multer).
  app.use(express.raw({ type: (req) => !/^multipart\//i.test(req.headers["content-type"] ?? ""), limit: "16mb" }));
  app.use(cookieParser());
  app.use((req: Request, res: Response, next: NextFunction) => {
    const operation = meant.get(String(req.headers[CASE] ?? ""));
    if (operation === undefined) return next(new Error(`no operation is expected for the case ${String(req.headers[CASE])}`));
    const type = req.headers["content-type"] ?? "";
    const target = req.originalUrl;
    const query = new URLSearchParams(target.includes("?") ? target.slice(target.indexOf("?") + 1) : "");
    const index = variants.findIndex(({ pairs }) => pairs.every(([name, value]) => query.getAll(name).includes(value)));
    const { cutter } = variants[index]!;
    const batch = cutter.batchOf(operation);
    if (batch === undefined) return next(new Error(`${operation} is not in the validator's document`));
    const coerce = /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type);
    const key = `${index} ${batch} ${coerce}`;
    let chain = middlewares.get(key);
    if (!chain) middlewares.set(key, (chain = validator(cutter.cut(batch), coerce)));
    runChain(chain, req, res, next);
  });
  // Accepted, but as the request of another operation (one in the same batch: see DocumentCutter) is refused too.
  app.use((req: Request, res: Response) => {
    const routed = (req as Request & { openapi?: { schema?: Record<string, unknown> } }).openapi?.schema?.[OPERATION_TAG];
    const operation = meant.get(String(req.headers[CASE] ?? ""));
    if (routed === operation) return void res.status(204).end();
    res.status(409).json({ message: `EOV routed the request to ${String(routed)}, not to ${String(operation)}` });
  });
  app.use((error: { status?: number; message?: string; errors?: unknown }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(error.status && error.status >= 400 ? error.status : 500).json({ message: error.message, errors: error.errors });
  });

  const server: Server = createServer(app);
  const origin = await listen(server);
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  return {
    async judge(request, operation) {
      const id = header(request, CASE) ?? "";
      meant.set(id, operation);
      try {
        const answer = await replay(origin, request, agent);
        if (answer.status === 204) return { accepted: true };
        const elsewhere = answer.body.includes(ELSEWHERE) ? " (EOV routed it to another operation of the spec)" : "";
        return { accepted: false, problem: `${answer.status}${elsewhere} ${answer.body.slice(0, 600)}` };
      } finally {
        meant.delete(id);
      }
    },
    async close() {
      agent.destroy();
      await close(server);
    },
  };
}

/** Operations per cut document: EOV's set-up costs about 70 ms, its compiles grow with the document. */
const BATCH = 40;

/**
 * The validator's document cut down to a batch of its operations (BATCH of them, in document order): those
 * operations (without their responses, which are not judged) and their path items' parameters; the components they
 * refer to, transitively (and any path item a `$ref` points into, whole); every security scheme; and every other
 * operation of every path as a stand-in that requires the header ELSEWHERE, which no request carries. A fresh copy
 * each time: EOV rewrites the schemas it is given.
 */
class DocumentCutter {
  private readonly batches = new Map<string, number>();
  private readonly members: Set<string>[] = [];

  constructor(
    private readonly document: Record<string, unknown>,
    batchSize: number,
  ) {
    for (const item of Object.values(this.paths)) {
      for (const [method, operation] of Object.entries((dereference(document, item) ?? {}) as Record<string, unknown>)) {
        const tag = METHOD.test(method) && operation && typeof operation === "object" ? (operation as Record<string, unknown>)[OPERATION_TAG] : undefined;
        if (typeof tag !== "string") continue;
        const batch = Math.floor(this.batches.size / batchSize);
        this.batches.set(tag, batch);
        (this.members[batch] ??= new Set()).add(tag);
      }
    }
  }

  private get paths(): Record<string, Record<string, unknown>> {
    return (this.document.paths ?? {}) as Record<string, Record<string, unknown>>;
  }

  /** The batch of the operation `"<METHOD> <path>"`, undefined when the document does not have it. */
  batchOf(operation: string): number | undefined {
    return this.batches.get(operation);
  }

  cut(batch: number): Record<string, unknown> {
    const members = this.members[batch] ?? new Set<string>();
    const components = (this.document.components ?? {}) as Record<string, Record<string, unknown>>;
    const paths: Record<string, unknown> = {};
    const pending: unknown[] = [];
    for (const [key, raw] of Object.entries(this.paths)) {
      const item = (dereference(this.document, raw) ?? {}) as Record<string, unknown>;
      const written = standIns(key, item);
      let judged = false;
      for (const [method, operation] of Object.entries(item)) {
        if (!METHOD.test(method) || !operation || typeof operation !== "object" || !members.has(String((operation as Record<string, unknown>)[OPERATION_TAG]))) continue;
        // (Responses are not judged: what only they refer to stays out.)
        const { responses: _responses, callbacks: _callbacks, ...request } = operation as Record<string, unknown>;
        written[method] = { ...request, responses: { default: { description: "not judged" } } };
        pending.push(written[method]);
        judged = true;
      }
      if (judged && item.parameters !== undefined) {
        written.parameters = item.parameters;
        pending.push(item.parameters);
      }
      paths[key] = written;
    }
    // The components (and path items) the batch refers to, transitively.
    const entries = new Set<string>();
    const seen = new Set<object>();
    while (pending.length > 0) {
      const node = pending.pop();
      if (node === null || typeof node !== "object" || seen.has(node)) continue;
      seen.add(node);
      const ref = (node as { $ref?: unknown }).$ref;
      if (typeof ref === "string" && ref.startsWith("#/")) {
        const [top, section, name] = ref.slice(2).split("/").map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
        if (top === "components" && section !== undefined && name !== undefined && !entries.has(`${section}/${name}`)) {
          entries.add(`${section}/${name}`);
          pending.push(components[section]?.[name]);
        } else if (top === "paths" && section !== undefined && paths[section] !== this.paths[section]) {
          paths[section] = this.paths[section];
          pending.push(this.paths[section]);
        }
      }
      for (const child of Object.values(node)) if (child !== null && typeof child === "object") pending.push(child);
    }
    const cutComponents: Record<string, Record<string, unknown>> = {};
    if (components.securitySchemes) cutComponents.securitySchemes = components.securitySchemes;
    for (const entry of entries) {
      const [section, name] = [entry.slice(0, entry.indexOf("/")), entry.slice(entry.indexOf("/") + 1)];
      if (components[section]?.[name] !== undefined) (cutComponents[section] ??= {})[name] = components[section]![name];
    }
    const { paths: _paths, components: _components, webhooks: _webhooks, "x-webhooks": _xWebhooks, ...rest } = this.document;
    return structuredClone({ ...rest, paths, components: cutComponents });
  }
}

/** The operations of a path item as stand-ins that refuse any request EOV routes to them (they require ELSEWHERE). */
function standIns(key: string, item: unknown): Record<string, unknown> {
  const resolved = (item ?? {}) as Record<string, unknown>;
  const pathParameters = [...key.matchAll(/\{([^{}]+)\}/g)].map((match) => ({ name: match[1], in: "path", required: true, schema: { type: "string" } }));
  const standIn = { parameters: [...pathParameters, { name: ELSEWHERE, in: "header", required: true, schema: { type: "string" } }], responses: { default: { description: "stand-in" } }, security: [] };
  return Object.fromEntries(Object.keys(resolved).filter((method) => METHOD.test(method)).map((method) => [method, standIn]));
}

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

/**
 * A path key may carry a query of its own (OpenAI's `/responses?beta=true`, an operation apart from `/responses`);
 * EOV matches paths without queries, so each such query gets a document of its own: its paths written without it
 * (replacing the plain ones), their operations requiring its pairs as query parameters. A request is judged by the
 * document of the query it carries, most pairs first, else by the plain one (the last).
 */
function fixedQueryVariants(document: Record<string, unknown>): { pairs: [string, string][]; document: Record<string, unknown> }[] {
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown>>;
  const queries = new Map<string, [string, string][]>();
  for (const key of Object.keys(paths)) if (key.includes("?")) queries.set(key.slice(key.indexOf("?") + 1), [...new URLSearchParams(key.slice(key.indexOf("?") + 1))]);
  const plain = { ...document, paths: Object.fromEntries(Object.entries(paths).filter(([key]) => !key.includes("?"))) };
  const variants = [...queries].map(([query, pairs]) => {
    const own = Object.entries(paths).filter(([key]) => key.endsWith(`?${query}`));
    const required = pairs.map(([name, value]) => ({ name, in: "query", required: true, schema: { type: "string", enum: [value] } }));
    const written = own.map(([key, item]): [string, Record<string, unknown>] => {
      const copy: Record<string, unknown> = { ...item };
      for (const [method, operation] of Object.entries(item)) {
        if (/^(get|put|post|delete|options|head|patch|trace)$/.test(method) && operation && typeof operation === "object") {
          const op = operation as Record<string, unknown>;
          copy[method] = { ...op, parameters: [...((op.parameters ?? []) as unknown[]), ...required] };
        }
      }
      return [key.slice(0, key.indexOf("?")), copy];
    });
    return { pairs, document: { ...document, paths: { ...plain.paths, ...Object.fromEntries(written) } } };
  });
  return [...variants.sort((a, b) => b.pairs.length - a.pairs.length), { pairs: [], document: plain }];
}

/** Runs EOV's middleware list in order, as Express would for `app.use(list)`. */
function runChain(chain: Middleware | Middleware[], req: Request, res: Response, done: NextFunction): void {
  const list = Array.isArray(chain) ? chain.flat(Infinity as 1) : [chain];
  const step = (index: number, error?: unknown) => {
    if (error !== undefined || index === list.length) return done(error);
    try {
      list[index]!(req, res, (err?: unknown) => step(index + 1, err));
    } catch (err) {
      done(err);
    }
  };
  step(0);
}

function isJson(contentType: string | undefined): boolean {
  const essence = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return essence === "application/json" || essence.endsWith("+json");
}

function securitySchemesOf(document: Record<string, unknown>): Record<string, unknown> {
  const components = document.components as { securitySchemes?: Record<string, unknown> } | undefined;
  return components?.securitySchemes ?? {};
}

function formatsOf(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) formatsOf(item, found);
  else if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      if (key === "format" && typeof child === "string") found.add(child);
      else formatsOf(child, found);
    }
  }
  return found;
}

/**
 * The spec as the validator reads it: bundled by @redocly/openapi-core (external files inlined), each operation
 * marked with the operation it is (tagOperations), and rewritten where EOV, Ajv or json-schema-ref-parser read the
 * spec differently from OpenAPI, each rewrite saying the same thing their way and naming the behaviour it answers
 * (readableSchemas, mergeIdenticalTemplates, allowQueryNamedLikePathParameters, judgeableParameters,
 * judgeableMultipart, routablePaths), among them:
 *
 * - Ajv refuses `nullable: true` in a schema without `type` ("nullable cannot be used without type";
 *   express-openapi-validator issue #802, openapi-backend #747), which Stripe writes beside `anyOf` 1,299 times; such a
 *   schema becomes `anyOf: [itself without nullable, {enum: [null]}]`, which is what its author meant and what the
 *   generated code does.
 * - json-schema-ref-parser reads a `$ref` as a file path, also one naming a schema by its `$id` or `$anchor` (the
 *   Swagger Petstore 3.1's `/components/schemas/petdetails#pet_details_id`); such a `$ref` becomes the JSON pointer
 *   of the schema it names.
 */
export async function documentForValidator(specPath: string): Promise<Record<string, unknown>> {
  const { bundle: bundled } = await bundle({ ref: specPath, config: await createConfig({}) });
  const document = bundled.parsed as Record<string, unknown>;
  tagOperations(document);
  rewriteTypelessNullable(document);
  rewriteIdRefs(document);
  dropNullRefs(document);
  readableSchemas(document);
  mergeIdenticalTemplates(document);
  allowQueryNamedLikePathParameters(document);
  judgeableParameters(document);
  judgeableMultipart(document);
  routablePaths(document);
  // EOV reads 3.0 and 3.1 only; a 3.2 document without 3.2's additions (the corpus's) is a valid 3.1 one.
  if (typeof document.openapi === "string" && document.openapi.startsWith("3.2")) document.openapi = "3.1.1";
  return document;
}

/** Marks each operation with `"<METHOD> <path key>"` (OPERATION_TAG), which the rewrites below carry along, so that a request is judged by its operation's document. */
function tagOperations(document: Record<string, unknown>): void {
  for (const [key, item] of Object.entries((document.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    for (const [method, operation] of Object.entries(item ?? {})) {
      if (METHOD.test(method) && operation && typeof operation === "object") (operation as Record<string, unknown>)[OPERATION_TAG] = `${method.toUpperCase()} ${key}`;
    }
  }
}

/**
 * EOV fills schema `default`s into the request before Ajv validates it (Ajv's `useDefaults`, always on), so a default
 * its own schema refuses (Kubernetes writes `default: {}` on timestamps and int-or-string ports, 300 times) fails
 * requests that never sent the property. The verdict is wanted on the request as sent: schema `default`s are
 * dropped. And three things Ajv refuses the whole document for are said the way it reads them: `required: true`
 * inside a schema (Swagger 2.0's spelling, in hey-api's fixture) is dropped, as JSON Schema ignores it; `enum: []`
 * (Discord) becomes `not: {}`, which also admits nothing; 3.0's boolean `exclusiveMinimum: true` beside `minimum` in
 * a 3.1 document (OpenAI) becomes 3.1's `exclusiveMinimum: <the minimum>`; a pattern only the legacy regex flavour
 * reads (DigitalOcean) is written as the `u` flag reads it (see unicodePattern). Discriminators are dropped: EOV reads
 * one without a mapping as schema names, which contradicts branches that pin the property (OpenAI), and `oneOf`
 * decides the same without it.
 */
function readableSchemas(document: Record<string, unknown>): void {
  const version31 = typeof document.openapi === "string" && !document.openapi.startsWith("3.0");
  const SCHEMA_KEYS = ["items", "additionalProperties", "not", "contains", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems", "propertyNames"];
  const LIST_KEYS = ["allOf", "anyOf", "oneOf", "prefixItems"];
  const MAP_KEYS = ["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"];
  const seen = new Set<object>();
  const schema = (value: unknown): void => {
    if (value === null || typeof value !== "object" || Array.isArray(value) || seen.has(value)) return;
    seen.add(value);
    const record = value as Record<string, unknown>;
    delete record.default;
    // EOV reads a discriminator without a mapping by schema names, which contradicts branches that pin the property
    // to the value the wire carries (OpenAI's `type: {enum: [response.create]}`): `oneOf` alone decides the same.
    delete record.discriminator;
    // `required: true` on a property is Swagger 2.0's spelling; Ajv refuses the schema, specforge ignores it.
    if (record.required !== undefined && !Array.isArray(record.required)) delete record.required;
    // `enum: []` (Discord) admits no value; Ajv refuses the schema instead.
    if (Array.isArray(record.enum) && record.enum.length === 0) {
      delete record.enum;
      record.not = {};
    }
    // A pattern valid in ECMA-262's legacy flavour only (DigitalOcean's `^[a-zA-Z0-9_\-\:]+$`): Ajv compiles every
    // pattern with the `u` flag and fails the whole document; the same pattern is written as the `u` flag reads it.
    if (typeof record.pattern === "string") record.pattern = unicodePattern(record.pattern);
    // 3.0's boolean exclusiveMinimum/Maximum in a 3.1 document (OpenAI's), which Ajv's 2020-12 mode refuses.
    if (version31) {
      for (const [flag, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
        if (record[flag] === true && typeof record[bound] === "number") {
          record[flag] = record[bound];
          delete record[bound];
        } else if (typeof record[flag] === "boolean") delete record[flag];
      }
    }
    for (const key of SCHEMA_KEYS) schema(record[key]);
    for (const key of LIST_KEYS) if (Array.isArray(record[key])) (record[key] as unknown[]).forEach(schema);
    for (const key of MAP_KEYS) if (record[key] && typeof record[key] === "object") Object.values(record[key] as object).forEach(schema);
  };
  // Schemas sit under `schema` (parameters, media types, headers) and in components.schemas.
  const walk = (value: unknown): void => {
    if (value === null || typeof value !== "object") return;
    for (const [key, child] of Object.entries(value)) {
      if (key === "schema") schema(child);
      else walk(child);
    }
  };
  walk(document.paths);
  walk(document.webhooks);
  const components = (document.components ?? {}) as Record<string, unknown>;
  for (const [section, entries] of Object.entries(components)) {
    if (section === "schemas" && entries && typeof entries === "object") Object.values(entries).forEach(schema);
    else walk(entries);
  }
}

/**
 * A `pattern` as a regex with the `u` flag reads it, meaning what it means without the flag (as OpenAPI 3.0's
 * ECMA-262 5.1 and specforge's router read it): the legacy flavour lets any punctuation be escaped (`\:` is `:`),
 * the `u` flag only syntax characters (and `-` in a class), so the other escapes lose their backslash.
 */
export function unicodePattern(source: string): string {
  try {
    new RegExp(source, "u");
    return source;
  } catch {
    // (rewritten below)
  }
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === "\\" && i + 1 < source.length) {
      const next = source[++i]!;
      const keeps = /[A-Za-z0-9^$\\.*+?()[\]{}|/]/.test(next) || (inClass && next === "-");
      out += keeps ? `\\${next}` : next;
      continue;
    }
    if (char === "[" && !inClass) inClass = true;
    else if (char === "]" && inClass) inClass = false;
    out += char;
  }
  try {
    new RegExp(out, "u");
    return out;
  } catch {
    return source; // (EOV's refusal then names the pattern)
  }
}

const METHOD = /^(get|put|post|delete|options|head|patch|trace)$/;

/**
 * Paths that differ only in the names of their template variables are one path to a router (OpenAPI: "Templated
 * paths with the same hierarchy but different templated names MUST NOT exist as they are identical"), yet GitHub has
 * `/orgs/{org}/attestations/{attestation_id}` (DELETE) beside `/orgs/{org}/attestations/{subject_digest}` (GET).
 * EOV takes the first path that matches and answers 405 for the other's method; specforge routes by path and method.
 * Such paths are merged into one (the first's variable names, each operation's path parameters renamed to them and
 * its path item's parameters moved into it), so each request is judged by its own operation. Paths that declare the
 * same method are left alone: which operation such a request means is the spec's ambiguity.
 */
function mergeIdenticalTemplates(document: Record<string, unknown>): void {
  const paths = document.paths as Record<string, Record<string, unknown>> | undefined;
  if (!paths) return;
  const groups = new Map<string, string[]>();
  for (const key of Object.keys(paths)) {
    if (key.includes("?")) continue; // (see fixedQueryVariants)
    const shape = key.replace(/\{[^{}]+\}/g, "{}");
    groups.set(shape, [...(groups.get(shape) ?? []), key]);
  }
  const methodsOf = (key: string) => Object.keys(paths[key] ?? {}).filter((method) => METHOD.test(method));
  const merged = new Map<string, Record<string, unknown>>();
  const dropped = new Set<string>();
  for (const keys of groups.values()) {
    if (keys.length < 2) continue;
    const methods = keys.flatMap(methodsOf);
    if (new Set(methods).size !== methods.length) continue;
    const names = [...keys[0]!.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]!);
    const item: Record<string, unknown> = {};
    for (const key of keys) {
      const own = paths[key]!;
      const rename = new Map([...key.matchAll(/\{([^{}]+)\}/g)].map((match, index) => [match[1]!, names[index]!]));
      for (const method of methodsOf(key)) {
        const operation = own[method] as Record<string, unknown>;
        const byKey = new Map<string, unknown>();
        for (const raw of [...((own.parameters ?? []) as unknown[]), ...((operation.parameters ?? []) as unknown[])]) {
          const parameter = dereference(document, raw) as { in?: string; name?: string } | undefined;
          if (!parameter || typeof parameter !== "object") continue;
          const renamed = parameter.in === "path" && parameter.name !== undefined && rename.has(parameter.name) && rename.get(parameter.name) !== parameter.name;
          byKey.set(`${parameter.in}:${parameter.name}`, renamed ? { ...parameter, name: rename.get(parameter.name!) } : raw);
        }
        item[method] = { ...operation, parameters: [...byKey.values()] };
      }
      if (key !== keys[0]) dropped.add(key);
    }
    merged.set(keys[0]!, item);
  }
  if (merged.size === 0) return;
  document.paths = Object.fromEntries(Object.entries(paths).flatMap(([key, item]) => (dropped.has(key) ? [] : [[key, merged.get(key) ?? item]])));
}

/**
 * EOV matches paths with path-to-regexp 8 after turning `{name}` into `:name`, which reads `+ ( ) [ ] ? ! *` in a
 * path as syntax (hey-api's `/no+tag`), ends a parameter name at the first character that
 * cannot be in an identifier (`{api-version}` became `:api` followed by the text `-version`), and compares the path
 * as written with the request's, which is percent-encoded (`/non-ascii-æøå`). Each path is written the way
 * path-to-regexp and the wire read it: such characters escaped, non-ASCII percent-encoded as a URL parser does, and
 * template variables that are not identifiers renamed (`{p0}`), their path parameters with them.
 */
function routablePaths(document: Record<string, unknown>): void {
  const paths = document.paths as Record<string, Record<string, unknown>> | undefined;
  if (!paths) return;
  const renamedPaths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries(paths)) {
    const renames = new Map<string, string>();
    // (A query written into the path key, `?beta=true`, is kept as written: see fixedQueryVariants.)
    const queryAt = path.indexOf("?");
    const parts = (queryAt < 0 ? path : path.slice(0, queryAt)).split(/(\{[^{}]+\})/);
    const routable = parts
      .map((part) => {
        const template = /^\{([^{}]+)\}$/.exec(part);
        // (EOV escapes `:` itself.)
        if (!template) return encodeURI(part).replace(/[+()[\]?!*\\]/g, (c) => `\\${c}`);
        const name = template[1]!;
        if (/^[A-Za-z_$][\w$]*$/.test(name)) return part;
        if (!renames.has(name)) renames.set(name, `p${renames.size}`);
        return `{${renames.get(name)}}`;
      })
      .join("") + (queryAt < 0 ? "" : path.slice(queryAt));
    const names = new Set([...path.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]!));
    if (item && typeof item === "object") {
      // A path parameter the path has no place for (hey-api's `foo_param` on `/simple:operation`) no request can
      // carry: it is left out, as specforge leaves it out (with a warning).
      const rename = (list: unknown) =>
        Array.isArray(list)
          ? list.flatMap((raw) => {
              const parameter = dereference(document, raw) as { in?: string; name?: string } | undefined;
              if (parameter?.in !== "path" || parameter.name === undefined) return [raw];
              if (!names.has(parameter.name)) return [];
              return renames.has(parameter.name) ? [{ ...parameter, name: renames.get(parameter.name) }] : [raw];
            })
          : list;
      item.parameters = rename(item.parameters);
      for (const [method, operation] of Object.entries(item)) {
        if (/^(get|put|post|delete|options|head|patch|trace)$/.test(method) && operation && typeof operation === "object") {
          const op = operation as Record<string, unknown>;
          op.parameters = rename(op.parameters);
        }
      }
    }
    renamedPaths[routable] = item;
  }
  document.paths = renamedPaths;
}

function dereference(document: unknown, value: unknown): unknown {
  let node = value;
  for (let hops = 0; hops < 16 && node && typeof node === "object" && typeof (node as { $ref?: unknown }).$ref === "string"; hops++) {
    const ref = (node as { $ref: string }).$ref;
    if (!ref.startsWith("#/")) return node;
    node = resolveLocal(document, ref);
  }
  return node;
}

/**
 * `$ref: null` (YAML reads an unquoted `$ref: #/…` as a comment; the Swagger Petstore 3.1 has one) leaves the schema
 * unconstrained, as specforge reads it (with a warning); json-schema-ref-parser refuses the document.
 */
function dropNullRefs(value: unknown): void {
  if (value === null || typeof value !== "object") return;
  const record = value as Record<string, unknown>;
  if ("$ref" in record && record.$ref === null) delete record.$ref;
  for (const child of Object.values(record)) dropNullRefs(child);
}

/**
 * Parameters as EOV's parser can read them; what it cannot read at all is left out of its copy, unjudged (the round
 * trip still checks what the handler receives for those):
 *
 * - header parameters named `Accept`, `Content-Type` or `Authorization` are left out: OpenAPI says such a definition
 *   "SHALL be ignored" (DigitalOcean declares `Accept: application/json | application/yaml`), EOV validates them;
 * - a parameter's schema is judged without `readOnly`, which OpenAPI gives a meaning for properties only (a request
 *   SHOULD NOT send them) and EOV applies to any value, so that GitHub's `alert_number` (`$ref` to a schema that
 *   says `readOnly: true`, shared with its responses) "is read-only" in every request (see parameterSchema);
 * - a `oneOf` of primitive types (GitHub's `workflow_id: oneOf: [integer, string]`) is judged as `anyOf`: a
 *   parameter is text on the wire, EOV coerces `11` to the integer branch and also lets it match the string one, so
 *   every id would match "more than one"; between branches of different primitive types the two say the same of
 *   every JSON value (see parameterSchema);
 * - it decides how to split a parameter by `type === "array"`, so a 3.1 `type: [array, "null"]` is said as
 *   `type: array, nullable: true`, which Ajv reads the same;
 * - it finds the properties of an exploded form object (`?prop=x`) only on union branches that say `type: object`
 *   themselves, so such a schema is written as one object with every property it declares;
 * - it reads header names lower-cased only (hey-api's `x-Foo-Bar`), and header names are case-insensitive;
 * - not judged: header and cookie parameters whose schema is an object (it does not split `role,admin,x,1`),
 *   parameters described with `content` outside the query (its `handleContent` looks the location up twice and finds
 *   nothing), and the object-valued properties of an exploded form object (JSON text it does not parse).
 */
function judgeableParameters(document: Record<string, unknown>): void {
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown>>;
  const adapt = (list: unknown): unknown =>
    Array.isArray(list)
      ? list.flatMap((raw) => {
          const found = dereference(document, raw) as { in?: string; name?: unknown; schema?: unknown } | undefined;
          if (!found || typeof found !== "object") return [raw];
          if (found.in === "header" && typeof found.name === "string" && /^(accept|content-type|authorization)$/i.test(found.name)) return [];
          const judged = found.schema === undefined ? found.schema : parameterSchema(document, found.schema);
          const parameter = judged === found.schema ? found : { ...found, schema: judged };
          const schema = dereference(document, parameter.schema) as Record<string, unknown> | undefined;
          if ((parameter.in === "header" || parameter.in === "cookie") && schema && admitsObject(document, schema)) return [];
          if (parameter.in !== "query" && (parameter as { content?: unknown }).content !== undefined) return [];
          const exploded = parameter.in === "query" && ((parameter as { style?: string }).style ?? "form") === "form" && (parameter as { explode?: boolean }).explode !== false;
          if (exploded && schema && admitsObject(document, schema)) return [{ ...parameter, schema: readableExplodedObject(document, schema) }];
          // qs, which parses EOV's query, reads `include[]=a` as `include`: OpenAI names such parameters `include[]`.
          if (parameter.in === "query" && typeof parameter.name === "string" && parameter.name.endsWith("[]")) {
            return [{ ...parameter, name: parameter.name.slice(0, -2) }];
          }
          // Header names are case-insensitive, and EOV reads them lower-cased only (hey-api's `x-Foo-Bar`).
          if (parameter.in === "header" && typeof parameter.name === "string") {
            return [{ ...parameter, name: parameter.name.toLowerCase() }];
          }
          if (schema && Array.isArray(schema.type) && schema.type.length === 2 && schema.type.includes("null")) {
            return [{ ...parameter, schema: { ...schema, type: schema.type.find((t) => t !== "null"), nullable: true } }];
          }
          return [parameter === found ? raw : parameter];
        })
      : list;
  for (const item of Object.values(paths)) {
    if (!item || typeof item !== "object") continue;
    item.parameters = adapt(item.parameters);
    for (const [method, operation] of Object.entries(item)) {
      if (/^(get|put|post|delete|options|head|patch|trace)$/.test(method) && operation && typeof operation === "object") {
        (operation as Record<string, unknown>).parameters = adapt((operation as Record<string, unknown>).parameters);
      }
    }
  }
}

const PRIMITIVE_TYPES = new Set(["string", "integer", "number", "boolean"]);

/**
 * A parameter's schema as EOV should judge it (see judgeableParameters): without `readOnly`, and with a `oneOf` whose
 * branches are each of another primitive type (not `integer` beside `number`, which overlap in JSON too) said as
 * `anyOf`. The schema is copied (its `$ref`s written out, but for recursion) only where it has either: the components
 * it refers to are shared with bodies and responses, where `readOnly` means something. The same object when nothing
 * changes.
 */
export function parameterSchema(document: unknown, schema: unknown): unknown {
  const needs = new Map<object, boolean>();
  const copies = new Map<object, Record<string, unknown>>();
  const SCHEMA_KEYS = ["items", "additionalProperties", "not"];
  const LIST_KEYS = ["allOf", "anyOf", "oneOf", "prefixItems"];
  const childrenOf = (record: Record<string, unknown>) => [
    ...SCHEMA_KEYS.map((key) => record[key]),
    ...LIST_KEYS.flatMap((key) => (Array.isArray(record[key]) ? (record[key] as unknown[]) : [])),
    ...Object.values((record.properties ?? {}) as Record<string, unknown>),
  ];
  const needsRewrite = (value: unknown): boolean => {
    const resolved = dereference(document, value);
    if (resolved === null || typeof resolved !== "object" || Array.isArray(resolved)) return false;
    const known = needs.get(resolved);
    if (known !== undefined) return known;
    needs.set(resolved, false); // (a cycle back here adds nothing)
    const record = resolved as Record<string, unknown>;
    const result = record.readOnly !== undefined || isPrimitiveUnion(document, record.oneOf) || childrenOf(record).some(needsRewrite);
    needs.set(resolved, result);
    return result;
  };
  const rewrite = (value: unknown): unknown => {
    const resolved = dereference(document, value);
    if (resolved === null || typeof resolved !== "object" || Array.isArray(resolved) || !needsRewrite(resolved)) return value;
    // (A schema met again inside itself keeps its `$ref`: the copy is a tree, as JSON.)
    if (copies.has(resolved)) return value;
    const copy: Record<string, unknown> = { ...(resolved as Record<string, unknown>) };
    copies.set(resolved, copy);
    delete copy.readOnly;
    if (isPrimitiveUnion(document, copy.oneOf)) {
      copy.anyOf = copy.oneOf;
      delete copy.oneOf;
    }
    for (const key of SCHEMA_KEYS) if (copy[key] !== undefined) copy[key] = rewrite(copy[key]);
    for (const key of LIST_KEYS) if (Array.isArray(copy[key])) copy[key] = (copy[key] as unknown[]).map(rewrite);
    if (copy.properties && typeof copy.properties === "object") {
      copy.properties = Object.fromEntries(Object.entries(copy.properties).map(([name, property]) => [name, rewrite(property)]));
    }
    copies.delete(resolved);
    return copy;
  };
  return rewrite(schema);
}

function isPrimitiveUnion(document: unknown, branches: unknown): boolean {
  if (!Array.isArray(branches) || branches.length < 2) return false;
  const types = branches.map((branch) => (dereference(document, branch) as { type?: unknown } | undefined)?.type);
  if (!types.every((type) => typeof type === "string" && PRIMITIVE_TYPES.has(type))) return false;
  return new Set(types).size === types.length && !(types.includes("integer") && types.includes("number"));
}

/**
 * An exploded form object's schema as EOV can read it: one `type: object` with every property the schema declares
 * through `$ref`s and compositions (EOV looks one union level deep, for branches that say `type: object`), the
 * object-valued ones left free.
 */
function readableExplodedObject(document: unknown, schema: Record<string, unknown>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const collect = (value: unknown, depth: number) => {
    const resolved = dereference(document, value);
    if (depth > 8 || resolved === null || typeof resolved !== "object") return;
    const record = resolved as Record<string, unknown>;
    for (const [name, property] of Object.entries((record.properties ?? {}) as Record<string, unknown>)) {
      const target = dereference(document, property);
      properties[name] ??= target !== null && typeof target === "object" && admitsObject(document, target as Record<string, unknown>) ? {} : property;
    }
    for (const key of ["allOf", "anyOf", "oneOf"]) if (Array.isArray(record[key])) for (const branch of record[key] as unknown[]) collect(branch, depth + 1);
  };
  collect(schema, 0);
  return { type: "object", properties };
}

function admitsObject(document: unknown, schema: Record<string, unknown>, depth = 0): boolean {
  if (depth > 8) return false;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("object") || (schema.type === undefined && schema.properties !== undefined)) return true;
  const branches = [...((schema.oneOf ?? []) as unknown[]), ...((schema.anyOf ?? []) as unknown[]), ...((schema.allOf ?? []) as unknown[])];
  return branches.some((branch) => {
    const resolved = dereference(document, branch);
    return resolved !== null && typeof resolved === "object" && admitsObject(document, resolved as Record<string, unknown>, depth + 1);
  });
}

/**
 * Multipart bodies as EOV reads them (multer, then a JSON.parse of fields whose schema says `type: object` or
 * `array` right there): a property `$ref` is written out in place so its `type` is seen; a single part of a list
 * arrives as a string, so a list property also admits one item; a property that is an object only through
 * `anyOf`/`oneOf` (its JSON part is never parsed) is left free, unjudged.
 */
function judgeableMultipart(document: Record<string, unknown>): void {
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown>>;
  for (const item of Object.values(paths)) {
    for (const [method, operation] of Object.entries(item ?? {})) {
      if (!/^(get|put|post|delete|options|head|patch|trace)$/.test(method) || !operation || typeof operation !== "object") continue;
      const body = dereference(document, (operation as Record<string, unknown>).requestBody) as { content?: Record<string, { schema?: unknown }> } | undefined;
      for (const [type, media] of Object.entries(body?.content ?? {})) {
        if (!/^multipart\//i.test(type) || !media?.schema) continue;
        const schema = dereference(document, media.schema) as Record<string, unknown> | undefined;
        if (!schema || typeof schema.properties !== "object" || schema.properties === null) continue;
        const properties: Record<string, unknown> = {};
        for (const [name, property] of Object.entries(schema.properties as Record<string, unknown>)) {
          const resolved = dereference(document, property) as Record<string, unknown> | undefined;
          if (!resolved || typeof resolved !== "object") properties[name] = property;
          else if (resolved.type === "array") properties[name] = { anyOf: [resolved, resolved.items ?? {}] };
          else if (resolved.type !== "object" && admitsObject(document, resolved)) properties[name] = {};
          else properties[name] = resolved;
        }
        media.schema = { ...schema, properties };
      }
    }
  }
}

/**
 * EOV keys an operation's parameters by name, so a query parameter named like a path parameter (Kubernetes'
 * `/proxy/{path}` with `?path=`) is "unknown"; such operations accept unknown query parameters (EOV's
 * `x-eov-allow-unknown-query-parameters`), the rest of the request is judged as usual.
 */
function allowQueryNamedLikePathParameters(document: Record<string, unknown>): void {
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown>>;
  for (const item of Object.values(paths)) {
    const shared = (item.parameters ?? []) as { in?: string; name?: string }[];
    for (const [method, operation] of Object.entries(item)) {
      if (!/^(get|put|post|delete|options|head|patch|trace)$/.test(method) || operation === null || typeof operation !== "object") continue;
      const op = operation as Record<string, unknown>;
      const params = [...shared, ...((op.parameters ?? []) as { in?: string; name?: string }[])];
      const pathNames = new Set(params.filter((p) => p.in === "path").map((p) => p.name));
      if (params.some((p) => p.in === "query" && pathNames.has(p.name))) op["x-eov-allow-unknown-query-parameters"] = true;
    }
  }
}

/** `$ref`s to an `$id` (or `$id#anchor`) declared in the document, rewritten to the JSON pointer of that schema. */
function rewriteIdRefs(document: Record<string, unknown>): void {
  const targets = new Map<string, string>();
  const collect = (value: unknown, pointer: string, resource: string | undefined) => {
    if (value === null || typeof value !== "object") return;
    const record = value as Record<string, unknown>;
    let base = resource;
    if (typeof record.$id === "string") {
      base = record.$id.replace(/#$/, "");
      targets.set(base, pointer);
    }
    if (typeof record.$anchor === "string" && base !== undefined) targets.set(`${base}#${record.$anchor}`, pointer);
    for (const [key, child] of Object.entries(record)) collect(child, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, base);
  };
  collect(document, "#", undefined);
  const rewrite = (value: unknown) => {
    if (value === null || typeof value !== "object") return;
    const record = value as Record<string, unknown>;
    const pointer = typeof record.$ref === "string" ? targets.get(record.$ref) : undefined;
    if (pointer !== undefined && /^#\/components\/schemas\/[^/]+$/.test(pointer)) record.$ref = pointer;
    else if (pointer !== undefined) {
      // EOV resolves `$ref`s to whole components only: a schema inside one (an `$anchor`'s) is copied in.
      delete record.$ref;
      Object.assign(record, structuredClone(resolveLocal(document, pointer)));
    }
    for (const child of Object.values(record)) rewrite(child);
  };
  if (targets.size === 0) return;
  rewrite(document);
  // Every `$ref` is a pointer into the one document now; Ajv would refuse pointers that cross an `$id`'s resource.
  const forget = (value: unknown) => {
    if (value === null || typeof value !== "object") return;
    const record = value as Record<string, unknown>;
    if (typeof record.$id === "string") delete record.$id;
    if (typeof record.$anchor === "string") delete record.$anchor;
    for (const child of Object.values(record)) forget(child);
  };
  forget(document);
}

function rewriteTypelessNullable(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) rewriteTypelessNullable(item);
    return;
  }
  if (value === null || typeof value !== "object") return;
  const record = value as Record<string, unknown>;
  for (const child of Object.values(record)) rewriteTypelessNullable(child);
  // (`nullable: false` says nothing, and Ajv refuses it without `type` too: OpenAI writes it beside `anyOf`.)
  if (record.nullable === false && record.type === undefined) delete record.nullable;
  if (record.nullable === true && record.type === undefined) {
    const { nullable: _nullable, ...rest } = record;
    for (const key of Object.keys(record)) delete record[key];
    record.anyOf = [rest, { enum: [null] }];
  }
}

function resolveLocal(document: unknown, pointer: string): unknown {
  let node = document;
  for (const token of pointer.slice(2).split("/")) node = (node as Record<string, unknown>)[token.replace(/~1/g, "/").replace(/~0/g, "~")];
  return node;
}
