import { createServer } from "node:http";
import { join } from "node:path";
import { buildModel } from "../../../src/ir/build.js";
import type { ApiModel, Encoding, Operation } from "../../../src/ir/model.js";
import { loadSpec } from "../../../src/load/index.js";
import { derefSchema, schemaTypes, type Schema, type SchemaDocument } from "../../../templates/server/schema.js";
import { SchemaCompiler } from "../../../templates/server/validate.js";
import { ROOT, runCli } from "../../helpers.js";
import { differences, plain, show, withoutEmpty } from "./compare.js";
import { SAMPLES, buildCase, credentialOptions, credentialValue, essence, isJson, strictCompiler, type Case, type Sample } from "./samples.js";
import { fetchVia, fixedServerOptions, isRelative } from "./servers.js";
import { documentForValidator, startRequestValidator } from "./validator.js";
import { CASE_HEADER, close, listen, WireRecorder } from "./wire.js";

/**
 * The round trip of one document (see test/corpus/roundtrip.test.ts): for every operation, a request for each
 * sample (`SAMPLES`: arrays of one, several and no items; optional values present and absent) from the generated
 * client to the generated router on 127.0.0.1, judged by express-openapi-validator, the values the handler
 * receives, and the answer the client reads back.
 */
const OUT = join(ROOT, "test", "corpus", ".out", "roundtrip");
/** Requests in flight at once per document. */
const CONCURRENCY = 6;
/** Events read from a stream at most (the handler sends two). */
const MAX_EVENTS = 16;

export interface Outcome {
  case: Case;
  problems: string[];
}

export interface Row {
  name: string;
  operations: number;
  /** Requests sent (several per operation: one per distinct sample). */
  requests: number;
  /** Operations all of whose requests passed. */
  passed: number;
  /** Operations one of whose requests failed. */
  failed: number;
  /** Reason → how many operations it kept from being sent. */
  skipped: Map<string, number>;
  /** The operations skipped, with their reasons. */
  skips: Case[];
  ms: number;
  /** The requests that failed. */
  failures: Outcome[];
  /** The requests the judge refused for one of its own known disagreements with the spec (JUDGE_DISAGREEMENTS) alone. */
  judgeDisagreements: Outcome[];
}

/**
 * Refusals of express-openapi-validator that are its reading, not the request's fault; a request refused for these
 * alone is reported apart from the failures.
 * - It requires the required properties of a `deepObject` query parameter that the request does not carry at all
 *   (it reads an absent deepObject parameter as an empty object). Only when the parameter's name is not in the target.
 * - It refuses an empty query value (`discounts=`) unless the parameter sets `allowEmptyValue`, which OpenAPI 3.1
 *   deprecates; Stripe's schemas allow `""` (how its API unsets a list), and the client sends the value it is given.
 */
export const JUDGE_DISAGREEMENTS: readonly ((problem: string) => boolean)[] = [
  (problem) => {
    const match = /^\(a\) express-openapi-validator refused \w+ (\S+): 400 \{"message":"request\/query\/(\w+) must have required property '\w+'","errors":\[\{[^\]]*\}\]\}/.exec(problem);
    if (!match) return false;
    const query = match[1]!.includes("?") ? match[1]!.slice(match[1]!.indexOf("?") + 1) : "";
    return !query.split("&").some((pair) => decodeURIComponent(pair.split("=")[0]!).split("[")[0] === match[2]);
  },
  (problem) => /^\(a\) express-openapi-validator refused \w+ \S+: 400 \{"message":"Empty value found for query parameter '\w+'","errors":\[\{[^\]]*\}\]\}/.test(problem),
];

export interface RoundTripOptions {
  /** The samples sent per operation. @default SAMPLES */
  samples?: readonly Sample[];
  /** Only these operations are sent. */
  only?: (operation: Operation) => boolean;
  /** Changes the generated output before it is used (a test that breaks the client on purpose). */
  patch?: (out: string) => void;
  /** Where the output is generated, below test/corpus/.out/roundtrip. @default the document's name */
  outName?: string;
}

export async function roundTrip(name: string, specPath: string, options: RoundTripOptions = {}): Promise<Row> {
  const started = performance.now();
  const row: Row = { name, operations: 0, requests: 0, passed: 0, failed: 0, skipped: new Map(), skips: [], ms: 0, failures: [], judgeDisagreements: [] };
  const model = buildModel(loadSpec(specPath), name);
  const operations = model.operations.filter(options.only ?? (() => true));
  row.operations = operations.length;
  if (operations.length === 0) return { ...row, ms: performance.now() - started };

  const out = join(OUT, options.outName ?? name.replace(/[^A-Za-z0-9.-]+/g, "_"));
  const generated = await runCli(["generate", "--spec", specPath, "--out", out, "--outputs", "client,server", "--no-format"], ROOT);
  if (generated.code !== 0) throw new Error(`generate failed:\n${generated.stderr}`);
  options.patch?.(out);
  const api = (await import(join(out, "index.ts"))) as Record<string, any>;

  const document = model.document as SchemaDocument;
  const compiler = new SchemaCompiler(document);
  const strict = strictCompiler(document);
  const context = { model, document, compiler, strict };
  const cases = operations.flatMap((operation) => distinct((options.samples ?? SAMPLES).map((sample) => buildCase(context, operation, model.operations.indexOf(operation), sample))));
  const byId = new Map(cases.map((c) => [c.id, c]));
  for (const c of cases) {
    const server = model.servers[c.operation.server];
    // (Never sent to the spec's own host: see roundtrip/servers.ts.)
    if (!c.skip && server && !server.urlOption && isRelative(server)) c.skip = "its server URL is relative and has variables: the client has no base URL to resolve it against";
  }

  const received = new Map<string, Record<string, unknown>>();
  const handlers = Object.fromEntries(
    model.operations.map((operation) => [
      operation.name,
      async (ctx: Record<string, any>) => {
        const id = (ctx.request as Request).headers.get(CASE_HEADER) ?? "";
        const c = byId.get(id);
        received.set(id, { path: ctx.path, query: ctx.query, headers: ctx.headers, cookies: ctx.cookies, body: await plain(ctx.body), auth: ctx.auth });
        if (!c) return { status: 500, body: { detail: `no case ${id}` } };
        const { status, contentType, body, events } = c.answer;
        if (events) return { status, stream: (async function* () { yield* events; })() };
        return body === undefined ? { status } : { status, body, contentType };
      },
    ]),
  );
  // Each operation under its server's path: the router's default, where the client sends it.
  const router = api.createRouter(handlers, { authenticate: (credentials: unknown) => ({ credentials }), maxBodyBytes: 16 * 1024 * 1024 });
  const routerServer = createServer(api.toNodeListener(router));
  const recorder = new WireRecorder(await listen(routerServer));
  await recorder.start();
  const validator = await startRequestValidator(await documentForValidator(specPath));
  try {
    const options = { ...fixedServerOptions(model.servers, recorder.origin), ...credentialOptions(model.securitySchemes), maxRetries: 0 };
    const client = api.createClient(options);
    // Servers with variables keep their defaults; this client sends what it builds from them to 127.0.0.1.
    const viaClient = model.servers.some((server) => !server.urlOption) ? api.createClient({ ...options, fetch: fetchVia(recorder.origin) }) : client;
    const clientFor = (c: Case) => (model.servers[c.operation.server]?.urlOption === undefined && model.servers.length > 0 ? viaClient : client);
    const outcomes: Outcome[] = [];
    await forEachLimited(cases, CONCURRENCY, async (c) => {
      if (c.skip) {
        row.skipped.set(c.skip, (row.skipped.get(c.skip) ?? 0) + 1);
        row.skips.push(c);
        return;
      }
      outcomes.push({ case: c, problems: await exchange(c, clientFor(c), recorder, validator, received.get.bind(received), model, compiler) });
    });
    row.requests = outcomes.length;
    const failedOperations = new Set<Operation>();
    for (const outcome of outcomes.sort((a, b) => a.case.id.localeCompare(b.case.id, "en", { numeric: true }))) {
      if (outcome.problems.length === 0) continue;
      if (outcome.problems.every((problem) => JUDGE_DISAGREEMENTS.some((known) => known(problem)))) {
        row.judgeDisagreements.push(outcome);
        continue;
      }
      failedOperations.add(outcome.case.operation);
      row.failures.push(outcome);
    }
    const sent = new Set(outcomes.map((outcome) => outcome.case.operation));
    row.failed = failedOperations.size;
    row.passed = sent.size - failedOperations.size;
  } finally {
    await validator.close();
    await recorder.stop();
    await close(routerServer);
  }
  row.ms = performance.now() - started;
  return row;
}

/** Sends one case and checks (a), (b) and (c); returns what went wrong. */
async function exchange(
  c: Case,
  client: Record<string, any>,
  recorder: WireRecorder,
  validator: Awaited<ReturnType<typeof startRequestValidator>>,
  receivedFor: (id: string) => Record<string, unknown> | undefined,
  model: ApiModel,
  compiler: SchemaCompiler,
): Promise<string[]> {
  const problems: string[] = [];
  let data: unknown;
  try {
    const result = await client[c.operation.name](c.params, { headers: { [CASE_HEADER]: c.id }, timeoutMs: 60_000, maxRetries: 0 });
    data = c.streamed ? await collect(result as AsyncIterable<unknown>) : result;
  } catch (error) {
    const e = error as { status?: number; body?: unknown; message?: string };
    problems.push(e.status ? `the router answered ${e.status} ${JSON.stringify(e.body)?.slice(0, 600)}` : `the client threw ${e.message ?? String(error)}`);
  }
  const wire = recorder.seen.get(c.id);
  if (!wire) return [...problems, "no request arrived"];
  const verdict = await validator.judge(wire, `${c.operation.method.toUpperCase()} ${c.operation.path}`).catch((error: Error) => ({ accepted: false, problem: `the request could not be replayed to the validator: ${error.message}` }));
  if (process.env.ROUNDTRIP_DEBUG && new RegExp(process.env.ROUNDTRIP_DEBUG).test(c.operation.name)) {
    // (For a person reading one case: `ROUNDTRIP_DEBUG=<operation regex> npm run test:corpus -- -t <document>`.)
    console.log(JSON.stringify({ operation: c.operation.name, params: await plain(c.params), target: wire.target, headers: wire.rawHeaders, body: wire.body.toString(), verdict, received: await plain(receivedFor(c.id)), data: await plain(data), problems }, null, 1));
  }
  if (!verdict.accepted) problems.push(`(a) express-openapi-validator refused ${wire.method} ${wire.target}: ${verdict.problem} (body: ${show(wire.body.toString())})`);
  const received = receivedFor(c.id);
  if (!received) return problems;

  const expected = await expectedValues(c, model, compiler);
  for (const location of ["path", "query", "headers", "cookies", "body", "auth"] as const) {
    const diff = differences(expected[location], await plain(received[location]), `(b) ${location}`);
    problems.push(...diff);
  }
  if (problems.length === 0) problems.push(...differences(await expectedAnswer(c), await plain(data), "(c) answer"));
  return problems;
}

/** What the handler should receive, from what the client was given (docs/client.md: "On the wire"). */
async function expectedValues(c: Case, model: ApiModel, compiler: SchemaCompiler): Promise<Record<string, unknown>> {
  const document = model.document as SchemaDocument;
  const byLocation = (location: "path" | "query" | "header" | "cookie", given: Record<string, unknown> | undefined) => {
    const out: Record<string, unknown> = {};
    for (const param of c.operation.parameters) {
      if (param.in !== location) continue;
      if (location === "header" && ["accept", "content-type", "authorization"].includes(param.name.toLowerCase())) continue;
      let value = location === "path" ? given?.[param.name] : withoutEmpty(given?.[param.name]);
      // A list of one, in a query parameter that is a string or a list (GitHub's `has`), is on the wire the string it
      // holds: `has=patch` either way, and the router reads the string.
      if (location === "query" && Array.isArray(value) && value.length === 1 && (param.style ?? "form") === "form" && param.explode !== false) {
        const types = schemaTypes(param.schema as Schema, document);
        if (types.has("string") && types.has("array")) value = value[0];
      }
      if (value !== undefined) out[param.name] = value;
      else {
        const fallback = defaultOf(param.schema as Schema, document);
        if (fallback !== undefined) out[param.name] = fallback;
      }
    }
    return out;
  };
  let body: unknown;
  if (c.params.body !== undefined && c.mediaType) {
    const schema = c.operation.requestBody!.content.find((m) => m.type === c.mediaType)?.schema as Schema | undefined;
    const media = c.operation.requestBody!.content.find((m) => m.type === c.mediaType);
    if (c.bodyKind === "json") body = withDefaults(JSON.parse(JSON.stringify(c.params.body)), schema, compiler);
    else if (c.bodyKind === "form") {
      // A form with no field left is an empty body: no body at all, to the router.
      const sent = withoutEmpty(c.params.body);
      body = sent === undefined ? undefined : withDefaults(sent, schema, compiler);
    } else if (c.bodyKind === "multipart") body = withDefaults(multipartValue(c.params.body, media?.encoding ?? {}), schema, compiler);
    else body = c.params.body;
  }
  return {
    path: byLocation("path", c.params.path),
    query: byLocation("query", c.params.query),
    headers: byLocation("header", c.params.headers),
    cookies: byLocation("cookie", c.params.cookies),
    body: await plain(body),
    auth: expectedAuth(c.operation, model),
  };
}

/**
 * Multipart carries the top-level properties that have a value; an array is one part per item; a property with a
 * `style` is written like a form field, so its empty parts are left out.
 */
function multipartValue(value: unknown, encoding: Record<string, Encoding>): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const styled = Object.hasOwn(encoding, key) && (encoding[key]!.style !== undefined || encoding[key]!.explode !== undefined);
    const kept = styled ? withoutEmpty(child) : Array.isArray(child) ? child.filter((item) => item !== null && item !== undefined) : child;
    if (kept === null || kept === undefined || (Array.isArray(kept) && kept.length === 0)) continue;
    out[key] = kept;
  }
  return out;
}

/** The router fills the `default`s of absent body properties (pydantic-like); the same check on the sent value does too. */
function withDefaults(value: unknown, schema: Schema | undefined, compiler: SchemaCompiler): unknown {
  if (schema === undefined || value instanceof Blob) return value;
  const copy = structuredClone(value);
  compiler.compile(schema, "request")(copy, ["body"], []);
  return copy;
}

/** A parameter schema's `default`: its own (beside a `$ref` too, as the router reads it), else its target's. */
function defaultOf(schema: Schema, document: SchemaDocument): unknown {
  if (typeof schema === "object" && schema.default !== undefined) return schema.default;
  try {
    const resolved = derefSchema(schema, document);
    return typeof resolved === "object" ? resolved.default : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The credentials `authenticate` should be handed: those of the first alternative of the operation's security whose
 * schemes the client has credentials for (the client configures one for every scheme), keyed by scheme.
 */
function expectedAuth(operation: Operation, model: ApiModel): unknown {
  const schemes = new Map(model.securitySchemes.map((scheme) => [scheme.key, scheme]));
  const alternative = operation.security.requirements.find((alt) => alt.length > 0 && alt.every(({ scheme }) => schemes.get(scheme) && schemes.get(scheme)!.type !== "unsupported"));
  if (!alternative) return undefined;
  const credentials: Record<string, unknown> = {};
  for (const { scheme: key, scopes } of alternative) {
    const scheme = schemes.get(key)!;
    const value = credentialValue(scheme);
    if (scheme.type === "http" && scheme.scheme.toLowerCase() === "basic") credentials[key] = { type: "basic", ...(value as object) };
    else if (scheme.type === "http" && scheme.scheme.toLowerCase() === "bearer") credentials[key] = { type: "bearer", token: value };
    else if (scheme.type === "http") credentials[key] = { type: "http", scheme: scheme.scheme, credentials: value };
    else if (scheme.type === "apiKey") credentials[key] = { type: "apiKey", in: scheme.in, name: scheme.name, value };
    else credentials[key] = { type: scheme.type, token: value, scopes };
  }
  return { credentials };
}

async function expectedAnswer(c: Case): Promise<unknown> {
  const { answer } = c;
  if (answer.events) return plain(answer.events);
  if (answer.body === undefined) return undefined;
  const type = essence(answer.contentType ?? "application/json");
  if (isJson(type)) return JSON.parse(JSON.stringify(answer.body));
  return plain(answer.body);
}

async function collect(stream: AsyncIterable<unknown>): Promise<unknown[]> {
  const events: unknown[] = [];
  for await (const event of stream) {
    events.push(event);
    if (events.length >= MAX_EVENTS) break;
  }
  return events;
}

/**
 * The cases of one operation whose requests differ (an operation without arrays or optional values sends the same
 * request for every sample: once is enough); a skipped operation is one case.
 */
function distinct(cases: Case[]): Case[] {
  if (cases[0]?.skip) return [cases[0]];
  const seen = new Set<string>();
  return cases.filter((c) => {
    if (c.skip) return false;
    const key = JSON.stringify([c.params, c.answer], (_key, value) => (value instanceof Blob ? `blob:${value.size}` : value instanceof Uint8Array ? `bytes:${value.length}` : value));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Runs `work` on every item, at most `limit` at a time. */
async function forEachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
