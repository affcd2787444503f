import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildModel } from "../../src/ir/build.js";
import type { ApiModel, Encoding, Operation } from "../../src/ir/model.js";
import { loadSpec } from "../../src/load/index.js";
import { derefSchema, type Schema, type SchemaDocument } from "../../templates/server/schema.js";
import { SchemaCompiler } from "../../templates/server/validate.js";
import { ROOT, runCli } from "../helpers.js";
import { corpusDocuments } from "./corpus.js";
import { writeReportSection } from "./report.js";
import { differences, plain, show, withoutEmpty } from "./roundtrip/compare.js";
import { buildCase, credentialOptions, credentialValue, essence, isJson, strictCompiler, type Case } from "./roundtrip/samples.js";
import { fetchVia, fixedServerOptions, isRelative } from "./roundtrip/servers.js";
import { documentForValidator, startRequestValidator } from "./roundtrip/validator.js";
import { CASE_HEADER, close, listen, WireRecorder } from "./roundtrip/wire.js";

/**
 * On every operation of every corpus document, what the generated client sends is what the spec
 * says. For each operation a schema-valid request (every parameter, the body in the media type the client sends)
 * goes from the generated client to the generated router on 127.0.0.1 (node:http, `toNodeListener`) through a hop
 * that records it as it arrived, and:
 *
 *   (a) express-openapi-validator, reading the spec on its own, accepts the recorded request (roundtrip/validator.ts);
 *   (b) the handler receives the values the client was given (and the credentials it was configured with);
 *   (c) the handler's answer, a schema-valid sample of the declared success response, comes back from the client equal.
 *
 * Every operation is sent, or skipped for a reason docs/client.md lists; the counts per document go to
 * test/corpus/.out/report.md.
 */
const OUT = join(ROOT, "test", "corpus", ".out", "roundtrip");
/** Requests in flight at once per document. */
const CONCURRENCY = 6;
/** Events read from a stream at most (the handler sends two). */
const MAX_EVENTS = 16;

/** docs/client.md's section on the round trip, which lists the reasons an operation may be skipped for. */
const LISTED_SKIPS = (() => {
  const page = readFileSync(join(ROOT, "docs", "client.md"), "utf8");
  const start = page.indexOf("### Checked on real specs: the round trip");
  if (start < 0) throw new Error("docs/client.md has no section \"Checked on real specs: the round trip\"");
  const end = page.indexOf("\n## ", start);
  return page.slice(start, end < 0 ? undefined : end);
})();

interface Outcome {
  case: Case;
  problems: string[];
}

interface Row {
  name: string;
  operations: number;
  passed: number;
  failed: number;
  /** Reason → how many operations it kept from being sent. */
  skipped: Map<string, number>;
  /** The operations skipped, with their reasons. */
  skips: Case[];
  ms: number;
  failures: Outcome[];
}
const rows: Row[] = [];

afterAll(() => {
  const skipReasons = (row: Row) => [...row.skipped].map(([reason, count]) => `${count}: ${reason}`).join("; ") || "—";
  const lines = [
    "## Round trip: generated client → 127.0.0.1 → generated router, judged by express-openapi-validator",
    "",
    "| document | operations | exercised | passed | failed | skipped (reason) | seconds |",
    "|---|---:|---:|---:|---:|---|---:|",
    ...rows.map((r) => {
      const skipped = [...r.skipped.values()].reduce((a, b) => a + b, 0);
      return `| ${r.name} | ${r.operations} | ${r.operations - skipped} | ${r.passed} | ${r.failed} | ${skipReasons(r)} | ${(r.ms / 1000).toFixed(1)} |`;
    }),
    "",
    ...rows.flatMap((r) =>
      r.skips.length === 0
        ? []
        : [`### Skipped: ${r.name}`, "", ...r.skips.map((c) => `- \`${c.operation.method.toUpperCase()} ${c.operation.path}\` (${c.operation.name}): ${c.skip}`), ""],
    ),
    ...rows.flatMap((r) =>
      r.failures.length === 0
        ? []
        : [`### Failures: ${r.name}`, "", ...r.failures.slice(0, 40).map((f) => `- \`${f.case.operation.method.toUpperCase()} ${f.case.operation.path}\` (${f.case.operation.name}): ${f.problems.join(" / ").replace(/\n/g, " ")}`), ""],
    ),
  ];
  writeReportSection("2-roundtrip", lines.join("\n"));
  console.log(lines.join("\n"));
});

describe("corpus: every operation, client → router on 127.0.0.1, judged by an independent validator", () => {
  for (const doc of corpusDocuments()) {
    it(doc.name, async () => {
      const row = await roundTrip(doc.name, doc.path);
      rows.push(row);
      expect(row.failures.map((f) => `${f.case.operation.name}: ${f.problems.join(" / ")}`).slice(0, 20)).toEqual([]);
      // Every skip is for a reason docs/client.md lists (its words before the first ": ", in bold there).
      const unlisted = row.skips.map((c) => c.skip!).filter((reason) => !LISTED_SKIPS.includes(`**${reason.slice(0, reason.indexOf(": "))}**`));
      expect(unlisted).toEqual([]);
    }, 1_800_000);
  }
});

async function roundTrip(name: string, specPath: string): Promise<Row> {
  const started = performance.now();
  const row: Row = { name, operations: 0, passed: 0, failed: 0, skipped: new Map(), skips: [], ms: 0, failures: [] };
  const model = buildModel(loadSpec(specPath), name);
  row.operations = model.operations.length;
  if (model.operations.length === 0) return { ...row, ms: performance.now() - started };

  const out = join(OUT, name.replace(/[^A-Za-z0-9.-]+/g, "_"));
  const generated = await runCli(["generate", "--spec", specPath, "--out", out, "--outputs", "client,server", "--no-format"], ROOT);
  if (generated.code !== 0) throw new Error(`generate failed:\n${generated.stderr}`);
  const api = (await import(join(out, "index.ts"))) as Record<string, any>;

  const document = model.document as SchemaDocument;
  const compiler = new SchemaCompiler(document);
  const strict = strictCompiler(document);
  const cases = model.operations.map((operation, index) => buildCase({ model, document, compiler, strict }, operation, index));
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
    for (const outcome of outcomes.sort((a, b) => a.case.id.localeCompare(b.case.id, "en", { numeric: true }))) {
      if (outcome.problems.length === 0) row.passed++;
      else {
        row.failed++;
        row.failures.push(outcome);
      }
    }
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
      const value = location === "path" ? given?.[param.name] : withoutEmpty(given?.[param.name]);
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

function defaultOf(schema: Schema, document: SchemaDocument): unknown {
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

/** Runs `work` on every item, at most `limit` at a time. */
async function forEachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
