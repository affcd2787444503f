/**
 * The request-body work of the router scenarios, in process and without HTTP: parsing, then validation by the
 * router's compiled validator (templates/server/validate.ts) against ajv with the options Fastify uses, over the
 * same schemas (bench/runtime/workload.mjs). Tells how much of a scenario's gap to Fastify is validation.
 *
 *   node bench/runtime/validate-micro.mjs [rounds=7]
 *
 * Each figure is the median over the rounds of the mean µs per body; the bodies are parsed beforehand, fresh for
 * every call (validation fills defaults into them), as ordinary objects, which is how the router validates them
 * (their prototypes are removed afterwards, measured on its own in the last column).
 */
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import yaml from "js-yaml";
import { OUT, ROOT, transpileTree } from "./compile.mjs";
import { fmt, median, table } from "./report.mjs";
import { AJV_OPTIONS, CHAT_BODY, DEEP_ONEOF_BODY, DEEP_ONEOF_SPEC, LARGE_CHAT_BODY, ajvSchemas } from "./workload.mjs";

const ROUNDS = Number(process.argv[2] ?? 7);
const runtime = transpileTree(join(ROOT, "templates", "server"), join(OUT, "validate-micro"));
const { SchemaCompiler } = await import(pathToFileURL(join(runtime, "validate.js")).href);
const { parseClientJson, removePrototypes } = await import(pathToFileURL(join(runtime, "json.js")).href);
const Ajv = createRequire(join(ROOT, "bench", "package.json"))("ajv").default;

const v1 = yaml.load(readFileSync(join(ROOT, "spec", "training-api.v1.yaml"), "utf8"));
const deep = yaml.load(readFileSync(DEEP_ONEOF_SPEC, "utf8"));
const schemas = ajvSchemas();
const ajv = new Ajv(AJV_OPTIONS);
ajv.addSchema(schemas.shared);
ajv.addSchema(schemas.deepShared);
const chatSchema = v1.paths["/v1/chat/completions"].post.requestBody.content["application/json"].schema;
const cases = [
  { id: "chat", body: CHAT_BODY, specforge: new SchemaCompiler(v1).compile(chatSchema, "request"), ajv: ajv.compile(schemas.chatBody), n: 5_000 },
  { id: "chat-100k", body: LARGE_CHAT_BODY, specforge: new SchemaCompiler(v1).compile(chatSchema, "request"), ajv: ajv.compile(schemas.chatBody), n: 100 },
  {
    id: "deep-oneof",
    body: DEEP_ONEOF_BODY,
    specforge: new SchemaCompiler(deep).compile(deep.paths["/search"].post.requestBody.content["application/json"].schema, "request"),
    ajv: ajv.compile(schemas.searchBody),
    n: 5_000,
  },
];

/** Mean µs per call of `f(values[i])` over fresh values. */
function time(values, f) {
  const start = process.hrtime.bigint();
  for (const value of values) f(value);
  return Number(process.hrtime.bigint() - start) / values.length / 1000;
}

const results = Object.fromEntries(cases.map((c) => [c.id, { parse: [], specforge: [], ajv: [], strip: [] }]));
for (let round = 0; round <= ROUNDS; round++) {
  for (const c of cases) {
    const text = JSON.stringify(c.body);
    const fresh = () => Array.from({ length: c.n }, () => JSON.parse(text));
    const parse = time(Array.from({ length: c.n }, () => text), (t) => parseClientJson(t, 128, true));
    // Both validators get their own fresh copies, made before either runs; who goes first alternates by round.
    const copies = { specforge: fresh(), ajv: fresh(), strip: fresh() };
    const run = {
      specforge: () =>
        time(copies.specforge, (value) => {
          if (!c.specforge(value, ["body"], [])) throw new Error(`specforge refused the ${c.id} body`);
        }),
      ajv: () =>
        time(copies.ajv, (value) => {
          if (!c.ajv(value)) throw new Error(`ajv refused the ${c.id} body: ${JSON.stringify(c.ajv.errors)}`);
        }),
    };
    const order = round % 2 ? ["ajv", "specforge"] : ["specforge", "ajv"];
    const timed = Object.fromEntries(order.map((name) => [name, run[name]()]));
    const specforge = timed.specforge;
    const ajvTime = timed.ajv;
    const strip = time(copies.strip, (value) => removePrototypes(value, 128));
    if (round === 0) continue; // warm-up
    Object.entries({ parse, specforge, ajv: ajvTime, strip }).forEach(([k, v]) => results[c.id][k].push(v));
  }
}
console.log(
  table(
    ["body", "parse + depth check µs", "specforge validation µs", "ajv validation µs", "specforge / ajv", "removing prototypes µs"],
    cases.map((c) => {
      const r = results[c.id];
      return [c.id, fmt.us(median(r.parse)), fmt.us(median(r.specforge)), fmt.us(median(r.ajv)), fmt.ratio(median(r.specforge) / median(r.ajv)), fmt.us(median(r.strip))];
    }),
  ),
);
console.log(`\nMedian of ${ROUNDS} rounds after a warm-up; Node ${process.version}.`);
