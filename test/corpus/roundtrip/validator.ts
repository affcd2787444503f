import cookieParser from "cookie-parser";
import express, { type NextFunction, type Request, type Response } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import { bundle, createConfig } from "@redocly/openapi-core";
import { Agent, createServer, type Server } from "node:http";
import { close, listen, replay, type WireRequest } from "./wire.js";

/**
 * The independent judge of what the generated client puts on the wire: express-openapi-validator (EOV), the most
 * used OpenAPI 3.0/3.1 request validator on npm, in the Express app it is written for, reading the spec on its own
 * (a copy bundled by @redocly/openapi-core, never specforge's loader). A recorded request is sent to it over
 * 127.0.0.1 byte for byte; EOV routes it, parses path, query (form, deepObject), header and cookie parameters by
 * their style, the body by its Content-Type (JSON, form-urlencoded through qs, multipart through multer, text),
 * checks the credentials the operation's `security` asks for, and validates everything with Ajv (draft-04 rules for
 * 3.0 documents, 2020-12 for 3.1). Its verdict is the answer's status: 204 accepted, else its error.
 *
 * Two instances judge: form and multipart bodies are text on the wire, so that one coerces body values to their
 * schema types as every server framework does; JSON bodies are judged without coercion (a number sent as a string
 * is a failure).
 */
export interface RequestValidator {
  judge(request: WireRequest): Promise<Verdict>;
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

export async function startRequestValidator(document: Record<string, unknown>): Promise<RequestValidator> {
  const unknownFormats = Object.fromEntries([...formatsOf(document)].filter((format) => !KNOWN_FORMATS.has(format)).map((format) => [format, true as const]));
  const securityHandlers = Object.fromEntries(Object.keys(securitySchemesOf(document)).map((name) => [name, () => true]));
  const validator = (apiSpec: Record<string, unknown>, coerceTypes: boolean) =>
    OpenApiValidator.middleware({
      apiSpec: structuredClone(apiSpec) as never,
      validateApiSpec: false,
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes },
      validateResponses: false,
      validateSecurity: Object.keys(securityHandlers).length > 0 ? { handlers: securityHandlers } : false,
      validateFormats: true,
      formats: unknownFormats,
      fileUploader: { limits: { fileSize: 16 * 1024 * 1024 } },
    });
  // One pair of validators per fixed query the spec writes into paths (see fixedQueryVariants), most pairs first.
  const variants = fixedQueryVariants(document).map(({ pairs, document: variant }) => ({ pairs, asJson: validator(variant, false), asForm: validator(variant, true) }));

  const app = express();
  app.disable("x-powered-by");
  app.use(express.json({ type: (req) => isJson(req.headers["content-type"]), strict: false, limit: "16mb" }));
  app.use(express.urlencoded({ extended: true, limit: "16mb", parameterLimit: 100_000 }));
  app.use(express.text({ type: "text/*", limit: "16mb" }));
  // Any other media type (octet-stream, XML, YAML) arrives as bytes; multipart is EOV's own (multer).
  app.use(express.raw({ type: (req) => !/^multipart\//i.test(req.headers["content-type"] ?? ""), limit: "16mb" }));
  app.use(cookieParser());
  app.use((req: Request, res: Response, next: NextFunction) => {
    const type = req.headers["content-type"] ?? "";
    const query = new URLSearchParams(req.url.includes("?") ? req.url.slice(req.url.indexOf("?") + 1) : "");
    const variant = variants.find(({ pairs }) => pairs.every(([name, value]) => query.getAll(name).includes(value)))!;
    const chain = /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type) ? variant.asForm : variant.asJson;
    runChain(chain, req, res, next);
  });
  app.use((_req: Request, res: Response) => void res.status(204).end());
  app.use((error: { status?: number; message?: string; errors?: unknown }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(error.status && error.status >= 400 ? error.status : 500).json({ message: error.message, errors: error.errors });
  });

  const server: Server = createServer(app);
  const origin = await listen(server);
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  return {
    async judge(request) {
      const answer = await replay(origin, request, agent);
      if (answer.status === 204) return { accepted: true };
      return { accepted: false, problem: `${answer.status} ${answer.body.slice(0, 600)}` };
    },
    async close() {
      agent.destroy();
      await close(server);
    },
  };
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
 * The spec as the validator reads it: bundled by @redocly/openapi-core (external files inlined), with one rewrite
 * Ajv needs, and one its `$ref` resolver (json-schema-ref-parser) needs:
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
  rewriteTypelessNullable(document);
  rewriteIdRefs(document);
  dropNullRefs(document);
  readableSchemas(document);
  allowQueryNamedLikePathParameters(document);
  judgeableParameters(document);
  judgeableMultipart(document);
  routablePaths(document);
  // EOV reads 3.0 and 3.1 only; a 3.2 document without 3.2's additions (the corpus's) is a valid 3.1 one.
  if (typeof document.openapi === "string" && document.openapi.startsWith("3.2")) document.openapi = "3.1.1";
  return document;
}

/**
 * EOV fills schema `default`s into the request before Ajv validates it (Ajv's `useDefaults`, always on), so a default
 * its own schema refuses (Kubernetes writes `default: {}` on timestamps and int-or-string ports, 300 times) fails
 * requests that never sent the property. The verdict is wanted on the request as sent: schema `default`s are
 * dropped. And three things Ajv refuses the whole document for are said the way it reads them: `required: true`
 * inside a schema (Swagger 2.0's spelling, in hey-api's fixture) is dropped, as JSON Schema ignores it; `enum: []`
 * (Discord) becomes `not: {}`, which also admits nothing; 3.0's boolean `exclusiveMinimum: true` beside `minimum` in
 * a 3.1 document (OpenAI) becomes 3.1's `exclusiveMinimum: <the minimum>`. Discriminators are dropped: EOV reads
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
          const parameter = dereference(document, raw) as { in?: string; schema?: unknown } | undefined;
          if (!parameter || typeof parameter !== "object") return [raw];
          const schema = dereference(document, parameter.schema) as Record<string, unknown> | undefined;
          if ((parameter.in === "header" || parameter.in === "cookie") && schema && admitsObject(document, schema)) return [];
          if (parameter.in !== "query" && (parameter as { content?: unknown }).content !== undefined) return [];
          const exploded = parameter.in === "query" && ((parameter as { style?: string }).style ?? "form") === "form" && (parameter as { explode?: boolean }).explode !== false;
          if (exploded && schema && admitsObject(document, schema)) return [{ ...parameter, schema: readableExplodedObject(document, schema) }];
          // qs, which parses EOV's query, reads `include[]=a` as `include`: OpenAI names such parameters `include[]`.
          if (parameter.in === "query" && typeof (parameter as { name?: unknown }).name === "string" && (parameter as { name: string }).name.endsWith("[]")) {
            return [{ ...parameter, name: (parameter as { name: string }).name.slice(0, -2) }];
          }
          // Header names are case-insensitive, and EOV reads them lower-cased only (hey-api's `x-Foo-Bar`).
          if (parameter.in === "header" && typeof (parameter as { name?: unknown }).name === "string") {
            return [{ ...parameter, name: ((parameter as { name: string }).name).toLowerCase() }];
          }
          if (schema && Array.isArray(schema.type) && schema.type.length === 2 && schema.type.includes("null")) {
            return [{ ...parameter, schema: { ...schema, type: schema.type.find((t) => t !== "null"), nullable: true } }];
          }
          return [raw];
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
