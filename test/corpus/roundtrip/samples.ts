import type { ApiModel, MediaType, Operation, Parameter, SecurityScheme } from "../../../src/ir/model.js";
import { mockFromSchema } from "../../../templates/server/mock.js";
import { derefSchema, schemaTypes, type Schema, type SchemaDocument, type SchemaObject, type ValidationIssue } from "../../../templates/server/schema.js";
import { SchemaCompiler } from "../../../templates/server/validate.js";

/**
 * Schema-valid requests and answers for every operation of a spec, made by the server runtime's own mock value
 * generator (`mockFromSchema`), seeded per operation and parameter: the seed picks enum values, booleans, numbers
 * and which of the strings below fill free-text fields, so that across a corpus every place on the wire carries
 * text that needs escaping there.
 */

/** Text that must survive each place it can travel, where the schema leaves a string free. */
export const WIRE_TEXT = {
  /** Path segments: percent-encoded by the client, decoded by the router after the path is split. */
  path: ["a b", "x/y", "50%", "q?r#s", "Zoë ✓ 😀", "...", ".hidden", "a;b=c", "~-._", "[x]", "+"],
  query: ["a b&c=d+e", "50% off", "x/y?z#w", "[k]=v", "Zoë ✓ 😀", "'!*()", "a,b|c d", "+1"],
  /** Header values are bytes, not text: visible ASCII, no outer spaces (fetch trims them). */
  header: ["a b", "x/y;z=1", "'q' \"r\"", "50%", "t=1, u=2"],
  cookie: ["a b", "x=y", "Zoë ✓", "50%;"],
  json: ["Zoë ✓ 😀", 'quote " backslash \\', "line\nbreak\ttab", "<b>&amp;</b>", " padded ", "\u0000nul"],
  form: ["a&b=c+d", "50% off", "[x]", "Zoë ✓ 😀", "line\r\nbreak", "a b", "=", "%zz"],
  multipart: ["a\r\nb", '"quoted"', "--boundary--", "Zoë ✓ 😀", "tab\there", "\r\n\r\n"],
} as const;

/** Bytes for binary bodies and file parts: NUL, CR LF, a boundary-like line, invalid UTF-8. */
export const WIRE_BYTES = new Uint8Array([0, 1, 2, 13, 10, 45, 45, 98, 13, 10, 255, 254, 0xc3, 0x28, 0x22]);

/** One request to send and the answer to give. */
export interface Case {
  /** Sent in the `x-roundtrip-case` header to find the request, the handler call and the verdict again. */
  id: string;
  operation: Operation;
  /** What the generated client is called with. */
  params: CallParams;
  /** The media type the client sends the body as (the operation's preferred one). */
  mediaType?: string;
  /** How that body travels: JSON (also a JSON value under a media range such as Kubernetes' any-type), form, … */
  bodyKind?: BodyKind;
  /** Whether the call asks for the operation's event stream (the client then yields events). */
  streamed: boolean;
  answer: Answer;
  /** Why this operation is not sent, when it cannot be (see the list in docs/client.md, "Checked on real specs: the round trip"). */
  skip?: string;
}

export type BodyKind = "json" | "form" | "multipart" | "text" | "bytes";

export interface CallParams {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  cookies?: Record<string, unknown>;
  body?: unknown;
}

export interface Answer {
  status: number;
  contentType?: string;
  body?: unknown;
  /** Server-sent events, when the call streams. */
  events?: unknown[];
}

/**
 * Request samples go deeper than mock answers (6 levels before only required properties and `minItems` items are
 * made): a form encoding cannot carry an empty array, so a required array three levels down must have an item.
 */
const REQUEST = { direction: "request", maxDepth: 6 } as const;

/** One request of an operation: how many items its arrays get, and whether its optional values are sent. */
export interface Sample {
  name: string;
  /** Items per array (within the schema's bounds; a required array on the wire gets one at least). */
  items: number;
  /** Optional parameters and properties sent (true), or only the required ones (false). */
  optional: boolean;
}

/**
 * The requests sent per operation: arrays of one item, then of three (a serializer that keeps only the first item,
 * or joins them wrongly, passes with one), then of none with only the required values (what is left out must stay
 * out, and defaults fill in; a list on the wire, in a parameter or a form, keeps one item: an empty one is absent).
 */
export const SAMPLES: readonly Sample[] = [
  { name: "one", items: 1, optional: true },
  { name: "several", items: 3, optional: true },
  { name: "required", items: 0, optional: false },
];

/** Headers OpenAPI says a parameter may not describe (they are governed by `content`, `security` and responses). */
const GOVERNED_HEADERS = new Set(["accept", "content-type", "authorization"]);

export interface SampleContext {
  model: ApiModel;
  document: SchemaDocument;
  compiler: SchemaCompiler;
  /**
   * A compiler of the same document without its discriminators, which judges whether a sample is valid: OpenAPI
   * 3.0.4 and 3.1.1 say a discriminator "MUST NOT change the validation outcome of the schema", and specforge's
   * router lets it pick the one branch to validate (DigitalOcean's `{type: enable_backups}` matches two branches of a
   * `oneOf`, and its mapping names one). See strictCompiler.
   */
  strict: SchemaCompiler;
}

/** `document` without discriminators, compiled: the judge of "schema-valid" (see SampleContext.strict). */
export function strictCompiler(document: SchemaDocument): SchemaCompiler {
  return new SchemaCompiler(withoutDiscriminators(structuredClone(document)) as SchemaDocument);
}

function withoutDiscriminators<T>(value: T): T {
  const seen = new Set<object>();
  const walk = (node: unknown) => {
    if (node === null || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    if (!Array.isArray(node)) delete (node as Record<string, unknown>).discriminator;
    for (const child of Object.values(node)) walk(child);
  };
  walk(value);
  return value;
}

/** The first way `value` fails `schema` in a request, strictly (see SampleContext.strict), or undefined when it is valid. */
function firstIssue(context: SampleContext, schema: Schema, value: unknown): ValidationIssue | undefined {
  const issues: ValidationIssue[] = [];
  const check = context.strict.compile(typeof schema === "object" ? withoutDiscriminators(structuredClone(schema)) : schema, "request");
  check(structuredClone(value), [], issues);
  return issues[0];
}

export function buildCase(context: SampleContext, operation: Operation, index: number, sample: Sample = SAMPLES[0]!): Case {
  const id = `${index}-${operation.name}-${sample.name}`;
  const base: Case = { id, operation, params: {}, streamed: false, answer: { status: 200 } };
  const method = operation.method.toUpperCase();
  if (method === "TRACE") return { ...base, skip: "TRACE: fetch refuses the method (a Fetch standard forbidden method)" };
  const params: CallParams = {};
  for (const param of operation.parameters) {
    if (param.in === "header" && GOVERNED_HEADERS.has(param.name.toLowerCase())) continue;
    if (param.in === "querystring") return { ...base, skip: "a querystring parameter (OpenAPI 3.2): express-openapi-validator reads 3.0/3.1 only" };
    const group = param.in === "header" ? "headers" : param.in === "cookie" ? "cookies" : param.in;
    if (!param.required && !sample.optional) continue;
    if (isFreeFormExplodedQuery(context, param)) {
      if (!param.required) continue;
      return { ...base, skip: "a required form-style (exploded) query object without declared properties: its keys cannot be told from other query parameters" };
    }
    const made = validParameterSample(context, operation, param, sample);
    if ("issue" in made) {
      // An optional parameter no value satisfies (Discord's `enum: []`) is left out, as a caller would.
      if (!param.required) continue;
      return { ...base, skip: `no schema-valid parameter sample: the value generator's best for the ${param.in} parameter ${param.name} fails ${made.issue.type} (${made.issue.msg})` };
    }
    (params[group] ??= {})[param.name] = made.value;
  }
  let mediaType: string | undefined;
  let bodyKind: BodyKind | undefined;
  const body = operation.requestBody;
  if (body) {
    if (method === "GET" || method === "HEAD") {
      if (body.required) return { ...base, skip: `a required request body on GET or HEAD: fetch refuses to send one on ${method}` };
    } else {
      const media = body.content.find((m) => m.type === body.preferred)!;
      mediaType = media.type;
      bodyKind = kindOf(media, context.document);
      if (bodyKind === "form" && !schemaTypes((media.schema ?? {}) as Schema, context.document).has("object") && !schemaTypes((media.schema ?? {}) as Schema, context.document).has("any")) {
        return { ...base, skip: "its application/x-www-form-urlencoded body is not an object: a form is name=value pairs" };
      }
      params.body = bodySample(context, operation, media, bodyKind, sample);
      // The generator's best may still fail the schema (a oneOf whose branches all accept the same objects): such a
      // body cannot be sent as a valid request, so the case says why instead of failing on the sample. A string
      // `pattern` the wire texts miss gets a second try, with strings made from the schema's patterns.
      if (bodyKind !== "bytes" && media.schema !== undefined) {
        const schema = media.schema as Schema;
        let issue = firstIssue(context, schema, withoutFiles(params.body));
        if (issue?.type === "string_pattern_mismatch") {
          const retried = bodySample(context, operation, media, bodyKind, sample, patternSamplesIn(schema, context.document));
          const retriedIssue = firstIssue(context, schema, withoutFiles(retried));
          if (retriedIssue === undefined) [params.body, issue] = [retried, undefined];
        }
        // The generator fills every optional property, so an object that must have exactly one of several (GitHub's
        // `oneOf: [{required: [id]}, {required: [owner, repo, number]}]`) matches more than one: a few are left out.
        if (issue?.type === "one_of_multiple") {
          const fewer = withFewerProperties(params.body, (value) => firstIssue(context, schema, withoutFiles(value)) === undefined);
          if (fewer !== undefined) [params.body, issue] = [fewer, undefined];
        }
        if (issue) return { ...base, skip: `no schema-valid body sample: the value generator's best fails ${issue.type} (${issue.msg})` };
      }
    }
  }
  const streamed = asksToStream(operation, params.body);
  return { id, operation, params, mediaType, bodyKind, streamed, answer: answerFor(context, operation, streamed, sample) };
}

/** How the client sends a body of `media`: by its media type, and under a range by what the schema describes. */
function kindOf(media: MediaType, document: SchemaDocument): BodyKind {
  const type = essence(media.type);
  if (isJson(type)) return "json";
  if (type === "application/x-www-form-urlencoded") return "form";
  if (type.startsWith("multipart/")) return "multipart";
  if (type.includes("*") && (type === "*/*" || type === "application/*") && media.schema !== undefined && !isBinary(resolve(media.schema as Schema, document), document)) return "json";
  if (type.startsWith("text/")) return "text";
  return "bytes";
}

/** A seed from the names, so that a sample does not change when other operations are added. */
function seed(...parts: string[]): number {
  let hash = 2166136261;
  for (const char of parts.join("\u0000")) hash = Math.imul(hash ^ char.codePointAt(0)!, 16777619) >>> 0;
  return hash % 16;
}

/** A query object in form style, exploded (`?a=1&b=2`), that declares no properties: a free-form dictionary. */
function isFreeFormExplodedQuery(context: SampleContext, param: Parameter): boolean {
  if (param.in !== "query" || param.style !== "form" || !param.explode || param.contentType) return false;
  const types = schemaTypes(param.schema as Schema, context.document);
  if (!types.has("object") || types.has("array") || types.has("string")) return false;
  return Object.keys(propertiesOf(param.schema as Schema, context.document, 0, true)).length === 0;
}

/**
 * A schema-valid sample of the parameter (judged strictly, see SampleContext.strict): the value generator's, else its
 * schema's first valid example, else the generator's with strings made from the schema's patterns
 * (GitHub's `version: ^\d+\.\d+\.\d+$`, which no wire text matches); or the first issue of the generator's value.
 */
function validParameterSample(context: SampleContext, operation: Operation, param: Parameter, sample: Sample): { value: unknown } | { issue: ValidationIssue } {
  const schema = param.schema as Schema;
  const value = parameterSample(context, operation, param, sample);
  const issue = firstIssue(context, schema, value);
  if (issue === undefined) return { value };
  for (const example of declaredExamples(schema, context.document)) if (firstIssue(context, schema, example) === undefined) return { value: structuredClone(example) };
  const patterns = patternSamplesIn(schema, context.document);
  if (patterns.length > 0) {
    const retried = parameterSample(context, operation, param, sample, patterns);
    if (firstIssue(context, schema, retried) === undefined) return { value: retried };
  }
  return { issue };
}

/** The examples a schema gives: its `example` and `examples`. */
function declaredExamples(schema: Schema, document: SchemaDocument): unknown[] {
  const resolved = resolve(schema, document);
  return [...(resolved.example !== undefined ? [resolved.example] : []), ...(Array.isArray(resolved.examples) ? resolved.examples : [])];
}

function parameterSample(context: SampleContext, operation: Operation, param: Parameter, sample: Sample, extraStrings: readonly string[] = []): unknown {
  const schema = param.schema === true || (typeof param.schema === "object" && Object.keys(param.schema).length === 0) ? { type: "string" } : param.schema;
  const collection = isCollection(schema as Schema, context.document);
  let strings: readonly string[] = param.contentType ? WIRE_TEXT.json : WIRE_TEXT[param.in === "querystring" ? "query" : param.in];
  if (extraStrings.length > 0) strings = [...extraStrings, ...strings];
  // A value holding its style's delimiter cannot be told from two values (OpenAPI 3.1.1 Appendix E): collections in
  // delimited styles get text without delimiters.
  if (collection && !(param.in === "query" && (param.style === "deepObject" || (param.style === "form" && param.explode)))) {
    strings = strings.filter((text) => !/[ ,|.;=]/.test(text));
  }
  // (An empty list is no value on the wire (RFC 6570): a parameter's lists get an item at least.)
  // (The sample's `optional` says which parameters are sent; inside one, an object whose properties are all
  // optional would be empty, which no style can send: its optional properties are made.)
  const options = { ...REQUEST, items: Math.max(1, sample.items), compiler: context.compiler, variant: seed(operation.name, param.in, param.name), strings };
  const value = mockFromSchema(schema as Schema, context.document, options);
  // An empty list or object is no value on the wire (RFC 6570): a required one gets an item (an object, its
  // optional properties even in the sample without them).
  if (param.required && Array.isArray(value) && value.length === 0) return mockFromSchema({ allOf: [schema as Schema], minItems: 1 }, context.document, options);
  if (param.required && value !== null && typeof value === "object" && Object.keys(value).length === 0) {
    return mockFromSchema({ allOf: [schema as Schema], minProperties: 1 }, context.document, options);
  }
  return value;
}

function bodySample(context: SampleContext, operation: Operation, media: MediaType, kind: BodyKind, shape: Sample, extraStrings: readonly string[] = []): unknown {
  const variant = seed(operation.name, "body");
  const schema = (media.schema ?? {}) as Schema;
  // A form or multipart body cannot carry an empty list or object (its field is then absent): their lists get an
  // item at least, and their objects their optional properties (a required object of optional ones would be empty).
  const items = kind === "json" ? shape.items : Math.max(1, shape.items);
  const optional = kind === "json" ? shape.optional : true;
  const sample = (strings: readonly string[]) =>
    mockFromSchema(schema, context.document, { ...REQUEST, items, optional, compiler: context.compiler, variant, strings: [...extraStrings, ...strings] });
  switch (kind) {
    case "json":
      return sample(WIRE_TEXT.json);
    case "form":
      return sample(WIRE_TEXT.form);
    case "multipart":
      return withFileParts(sample(WIRE_TEXT.multipart), schema, context.document);
    case "text": {
      const text = sample(WIRE_TEXT.json);
      return typeof text === "string" ? text : JSON.stringify(text);
    }
    default:
      // Bytes to the client and the router (octet-stream, images, or a media type neither reads).
      return WIRE_BYTES.slice();
  }
}

/** Multipart: the properties the schema declares as binary (`format: binary`, or 3.1 `contentMediaType`) become files. */
function withFileParts(value: unknown, schema: Schema, document: SchemaDocument): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const properties = propertiesOf(schema, document);
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [name, property] of Object.entries(properties)) {
    if (!(name in out)) continue;
    const resolved = resolve(property, document);
    if (isBinary(resolved, document)) out[name] = file(name);
    else if (resolved.type === "array" && resolved.items !== undefined && !Array.isArray(resolved.items) && isBinary(resolve(resolved.items as Schema, document), document)) {
      out[name] = [file(`${name}-1`), file(`${name}-2`)];
    }
  }
  return out;
}

/** Files stand for `format: binary` strings in validation, as the router validates multipart bodies. */
function withoutFiles(value: unknown): unknown {
  if (value instanceof Blob || value instanceof Uint8Array) return "";
  if (Array.isArray(value)) return value.map(withoutFiles);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutFiles(v)]));
  return value;
}

function file(name: string): File {
  return new File([WIRE_BYTES.slice()], `${name}.bin`, { type: "application/octet-stream" });
}

function isBinary(schema: SchemaObject, document: SchemaDocument): boolean {
  if (schema.format === "binary" || typeof schema.contentMediaType === "string") return true;
  const branches = schema.anyOf ?? schema.oneOf;
  return Array.isArray(branches) && branches.some((branch) => isBinary(resolve(branch, document), document));
}

/** The properties of an object schema, through `$ref`s and `allOf` (and `anyOf`/`oneOf` with `unions`). */
function propertiesOf(schema: Schema, document: SchemaDocument, depth = 0, unions = false): Record<string, Schema> {
  const resolved = resolve(schema, document);
  const out: Record<string, Schema> = { ...(resolved.properties ?? {}) };
  const parts = unions ? [...(resolved.allOf ?? []), ...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])] : (resolved.allOf ?? []);
  if (depth < 8) for (const part of parts) Object.assign(out, propertiesOf(part, document, depth + 1, unions));
  return out;
}

function resolve(schema: Schema, document: SchemaDocument): SchemaObject {
  try {
    const resolved = derefSchema(schema, document);
    return typeof resolved === "object" ? resolved : {};
  } catch {
    return {};
  }
}

function isCollection(schema: Schema, document: SchemaDocument): boolean {
  const resolved = resolve(schema, document);
  const types = Array.isArray(resolved.type) ? resolved.type : [resolved.type];
  return types.includes("array") || types.includes("object") || resolved.items !== undefined || resolved.properties !== undefined;
}

/** Whether the call asks for the event stream: the request's `stream: true` (OpenAI's flag), or always when it is the only answer. */
function asksToStream(operation: Operation, body: unknown): boolean {
  const stream = operation.stream;
  if (!stream) return false;
  if (!stream.when) return true;
  return typeof body === "object" && body !== null && (body as Record<string, unknown>)[stream.when.name] === true;
}

/**
 * The handler's answer: the first declared success status (else `default` as 200), with a sample of its JSON
 * media type (else its first one): text as text, any other media type as bytes; or two events when streamed.
 */
function answerFor(context: SampleContext, operation: Operation, streamed: boolean, shape: Sample): Answer {
  const success = operation.responses.filter((r) => /^2\d\d$/.test(r.status)).sort((a, b) => a.status.localeCompare(b.status))[0];
  const response = success ?? operation.responses.find((r) => r.status === "default");
  const status = success ? Number(success.status) : 200;
  if (!response || operation.method === "head") return { status };
  const variant = seed(operation.name, "response");
  const sample = (schema: unknown, offset = 0) =>
    mockFromSchema((schema ?? {}) as Schema, context.document, { direction: "response", items: shape.items, optional: shape.optional, compiler: context.compiler, variant: variant + offset, strings: WIRE_TEXT.json });
  if (streamed) {
    const events = response.content.find((m) => m.type === operation.stream!.mediaType);
    return { status, contentType: operation.stream!.mediaType, events: [sample(events?.schema), sample(events?.schema, 1)] };
  }
  const media = response.content.find((m) => isJson(essence(m.type))) ?? response.content.find((m) => essence(m.type) !== "text/event-stream");
  if (!media || status === 204 || status === 205) return { status };
  const type = essence(media.type);
  if (isJson(type)) return { status, contentType: media.type, body: sample(media.schema) };
  if (type.startsWith("text/")) {
    const text = sample(media.schema);
    return { status, contentType: media.type, body: typeof text === "string" ? text : JSON.stringify(text) };
  }
  return { status, contentType: media.type.includes("*") ? "application/octet-stream" : media.type, body: WIRE_BYTES.slice() };
}

export function essence(mediaType: string): string {
  return mediaType.split(";", 1)[0]!.trim().toLowerCase();
}

export function isJson(type: string): boolean {
  return type === "application/json" || type.endsWith("+json");
}

/** The client options that hold a credential for every scheme the spec declares, and what each should arrive as. */
export function credentialOptions(schemes: readonly SecurityScheme[]): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const scheme of schemes) {
    if (scheme.type === "unsupported") continue;
    options[scheme.option] = credentialValue(scheme);
  }
  return options;
}

export function credentialValue(scheme: SecurityScheme): unknown {
  if (scheme.type === "http" && scheme.scheme.toLowerCase() === "basic") return { username: `user-${scheme.key}`, password: "pass: wörd" };
  return `token-${scheme.key.replace(/[^A-Za-z0-9]/g, "")}`;
}

/** `value` (an object) without one or two of its properties, the first such that `valid` accepts, else undefined. */
function withFewerProperties(value: unknown, valid: (value: unknown) => boolean): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  const without = (...left: string[]) => Object.fromEntries(Object.entries(value).filter(([key]) => !left.includes(key)));
  for (const a of keys) if (valid(without(a))) return without(a);
  for (let i = 0; i < keys.length; i++) for (let j = i + 1; j < keys.length; j++) if (valid(without(keys[i]!, keys[j]!))) return without(keys[i]!, keys[j]!);
  return undefined;
}

/** A string for each `pattern` in `schema` (through `$ref`s and subschemas) that sampleOfPattern can make. */
export function patternSamplesIn(schema: Schema, document: SchemaDocument): string[] {
  const out = new Set<string>();
  const seen = new Set<object>();
  const walk = (node: unknown) => {
    if (node === null || typeof node !== "object" || seen.has(node) || seen.size > 10_000) return;
    seen.add(node);
    const record = node as SchemaObject;
    if (typeof record.$ref === "string") walk(resolve(record as Schema, document));
    if (typeof record.pattern === "string") {
      const sample = sampleOfPattern(record.pattern);
      if (sample !== undefined) out.add(sample);
    }
    for (const key of ["items", "additionalProperties", "not", "contains"] as const) walk(record[key]);
    for (const key of ["allOf", "anyOf", "oneOf", "prefixItems"] as const) if (Array.isArray(record[key])) for (const branch of record[key] as unknown[]) walk(branch);
    for (const property of Object.values(record.properties ?? {})) walk(property);
  };
  walk(schema);
  return [...out];
}

/**
 * One string that the regular expression `source` matches, for the patterns specs write (literals, classes, `\d`,
 * groups, alternatives, quantifiers): the first alternative, each class's first character, each quantifier's least
 * count (one for `+`). Undefined for what it does not read (backreferences, lookaround) or when the string it made
 * does not match after all.
 */
export function sampleOfPattern(source: string): string | undefined {
  let at = 0;
  const fail = (): never => {
    throw new SyntaxError("unsupported");
  };
  const ESCAPES: Record<string, string> = { d: "0", w: "a", s: " ", D: "a", W: "-", S: "a", n: "\n", r: "\r", t: "\t", f: "\f", v: "\v", "0": "\0" };
  const escape = (): string => {
    const char = source[at++] ?? fail();
    if (char in ESCAPES) return ESCAPES[char]!;
    if (char === "b" || char === "B") return "";
    if (char === "u" && /^[0-9A-Fa-f]{4}/.test(source.slice(at))) return String.fromCharCode(parseInt(source.slice(at, (at += 4)), 16));
    if (char === "x" && /^[0-9A-Fa-f]{2}/.test(source.slice(at))) return String.fromCharCode(parseInt(source.slice(at, (at += 2)), 16));
    if (/[1-9kpPc]/.test(char)) fail(); // backreferences, named groups, Unicode properties, control letters
    return char;
  };
  const characterClass = (): string => {
    // (The class is tested as the regex reads it; its first member, else a common character in it, is the sample.)
    const start = at;
    const negated = source[at] === "^";
    if (negated) at++;
    let first: string | undefined;
    while (source[at] !== "]") {
      if (at >= source.length) fail();
      const char = source[at++]!;
      const member = char === "\\" ? escape() : char;
      first ??= negated ? undefined : member;
    }
    const inClass = new RegExp(`[${source.slice(start, at++)}]`);
    for (const candidate of [first, "a", "0", "A", "_", "-", " ", "x"]) if (candidate !== undefined && inClass.test(candidate)) return candidate;
    return fail();
  };
  const quantified = (atom: string): string => {
    const rest = source.slice(at);
    let match: RegExpExecArray | null;
    let count = 1;
    if (rest[0] === "*" || rest[0] === "?") [count, at] = [0, at + 1];
    else if (rest[0] === "+") [count, at] = [1, at + 1];
    else if ((match = /^\{(\d+)(,\d*)?\}/.exec(rest))) [count, at] = [Number(match[1]), at + match[0].length];
    else return atom;
    if (source[at] === "?") at++; // (lazy)
    return atom.repeat(count);
  };
  const alternatives = (): string => {
    const first = sequence();
    while (source[at] === "|") {
      at++;
      sequence();
    }
    return first;
  };
  const sequence = (): string => {
    let out = "";
    while (at < source.length && source[at] !== "|" && source[at] !== ")") {
      const char = source[at++]!;
      let atom: string;
      if (char === "^" || char === "$") continue;
      else if (char === "\\") atom = escape();
      else if (char === "[") atom = characterClass();
      else if (char === ".") atom = "a";
      else if (char === "(") {
        if (source[at] === "?") {
          if (source[at + 1] === ":") at += 2;
          else if (source[at + 1] === "<" && source[at + 2] !== "=" && source[at + 2] !== "!") at = source.indexOf(">", at) + 1;
          else fail(); // lookaround
        }
        atom = alternatives();
        if (source[at++] !== ")") fail();
      } else atom = char;
      out += quantified(atom);
    }
    return out;
  };
  try {
    const sample = alternatives();
    if (at !== source.length) return undefined;
    let regex: RegExp;
    try {
      regex = new RegExp(source, "u");
    } catch {
      regex = new RegExp(source);
    }
    return regex.test(sample) ? sample : undefined;
  } catch {
    return undefined;
  }
}
