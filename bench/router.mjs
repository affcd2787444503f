/**
 * Router throughput: requests per second through the generated v1 router (`toNodeListener(createRouter(…))`)
 * against a hand-written node:http handler and a Fastify route doing the same work, on 127.0.0.1; then the
 * routing cost of a 1,223-operation spec (GitHub REST), first route against last.
 *
 *   npm run bench:router [-- --rounds 5 --duration 5 --connections 16 --warmup 3 --scenarios chat,get-job]
 *   npm run bench:router -- --generated DIR   (another version's generated/ folder, to compare; not saved)
 *
 * Each target runs in its own child process; autocannon (this process) sends the load. Per scenario: a warm-up
 * of every target, then N rounds, each round running every target once in a rotated order; reported: the
 * median req/s, the median of the per-round ratios, and each server's CPU time per request (steadier than
 * req/s on a shared machine). Before measuring, every target must give the same answers (and the same
 * 401/4xx refusals), so that all of them really do the work. Writes bench/RESULTS.runtime.md (router section).
 */
import { execFileSync, fork } from "node:child_process";
import { join, resolve } from "node:path";
import { isDeepStrictEqual, parseArgs } from "node:util";
import autocannon from "autocannon";
import { ROOT, compileDeepOneOf, compileGenerated, warnIfStale } from "./runtime/compile.mjs";
import { environment, fmt, median, saveSection, table } from "./runtime/report.mjs";
import { CHAT_BODY, DEEP_ONEOF_BODY, SCENARIOS, TOKEN } from "./runtime/workload.mjs";

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "16" },
    warmup: { type: "string", default: "3" },
    scenarios: { type: "string", default: SCENARIOS.map((s) => s.id).join(",") },
    "no-scale": { type: "boolean", default: false },
    "no-save": { type: "boolean", default: false },
    // Another generated folder to measure (e.g. a previous version's, exported with git archive); implies --no-save.
    generated: { type: "string" },
  },
});
const ROUNDS = Number(args.rounds);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const WARMUP = Number(args.warmup);
const TARGETS = ["specforge", "node-http", "fastify", "floor"];
const LABEL = { specforge: "specforge", "node-http": "node:http", fastify: "Fastify", floor: "floor" };
/** The targets that do the work (the floor answers fixed bytes: no validation, no auth). */
const WORKING = TARGETS.filter((t) => t !== "floor");
/** specforge must reach this share of Fastify's throughput (docs/performance.md, "Router throughput"). */
const GOAL = 1.2;

if (args.generated === undefined) warnIfStale();
const generated = args.generated === undefined ? compileGenerated() : compileGenerated("generated-other", resolve(args.generated));
if (args.generated !== undefined) args["no-save"] = true;
// The deep-oneOf scenario's router, generated from its own small spec by this checkout's generator (with
// --generated too: the runtime measured is then this checkout's for that scenario).
const deepOneOf = compileDeepOneOf();
const scenarios = SCENARIOS.filter((s) => args.scenarios.split(",").includes(s.id));

const children = [];
process.on("exit", () => children.forEach((c) => c.kill()));
const servers = {};
const processes = {};
for (const target of TARGETS) {
  const child = fork(join(ROOT, "bench", "runtime", "server.mjs"), [target, generated, deepOneOf], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  children.push(child);
  const port = await new Promise((resolve, reject) => {
    child.once("message", (m) => resolve(m.port));
    child.once("exit", (code) => reject(new Error(`${target} exited with ${code}`)));
  });
  servers[target] = `http://127.0.0.1:${port}`;
  processes[target] = child;
}

await checkSameWork();

const env = environment();
console.log(`node ${env.node}, ${env.cpu}; ${ROUNDS} rounds × ${DURATION} s, ${CONNECTIONS} connections, warm-up ${WARMUP} s per target\n`);
const results = [];
for (const scenario of scenarios) {
  for (const target of TARGETS) await load(target, scenario, WARMUP);
  const rates = Object.fromEntries(TARGETS.map((t) => [t, []]));
  const cpu = Object.fromEntries(TARGETS.map((t) => [t, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = TARGETS.map((_, i) => TARGETS[(i + round) % TARGETS.length]);
    for (const target of order) {
      const { rate, cpuPerRequest } = await load(target, scenario, DURATION);
      rates[target].push(rate);
      cpu[target].push(cpuPerRequest);
    }
    console.log(`${scenario.id} round ${round + 1}: ${TARGETS.map((t) => `${LABEL[t]} ${fmt.int(rates[t].at(-1))} req/s (${fmt.us(cpu[t].at(-1))} µs CPU/req)`).join(", ")}`);
  }
  // Ratios are taken per round (the targets ran back to back) and then the median: robust against the load of
  // other processes drifting during the run.
  const pairedOf = (one, other) => median(rates[one].map((r, i) => r / rates[other][i]));
  const paired = (other) => pairedOf("specforge", other);
  const med = Object.fromEntries(TARGETS.map((t) => [t, median(rates[t])]));
  const cpuMed = Object.fromEntries(TARGETS.map((t) => [t, median(cpu[t])]));
  results.push({ scenario: scenario.id, title: scenario.title, rates, cpu, median: med, cpuMedian: cpuMed, vsNode: paired("node-http"), vsFastify: paired("fastify"), vsFloor: paired("floor"), fastifyVsFloor: pairedOf("fastify", "floor") });
}
children.forEach((c) => c.kill());

const scale = args["no-scale"] ? undefined : JSON.parse(execFileSync(process.execPath, [join(ROOT, "bench", "runtime", "routing-scale.mjs")], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }));

const range = (values) => `${fmt.int(Math.min(...values))}–${fmt.int(Math.max(...values))}`;
let markdown = `${table(
  ["scenario", "specforge req/s (median)", "node:http req/s", "Fastify req/s", "floor req/s (node:http, fixed answer)", "specforge / node:http", "specforge / Fastify", "floor / Fastify", `target met (≥ ${GOAL.toFixed(2)} × Fastify)`, "runs", "Node", "CPU"],
  results.map((r) => [
    r.title,
    fmt.int(r.median.specforge),
    fmt.int(r.median["node-http"]),
    fmt.int(r.median.fastify),
    fmt.int(r.median.floor),
    fmt.ratio(r.vsNode),
    fmt.ratio(r.vsFastify),
    fmt.ratio(1 / r.fastifyVsFloor),
    r.vsFastify >= GOAL ? "yes" : "**no**",
    `${ROUNDS} × ${DURATION} s`,
    env.node,
    env.cpu,
  ]),
)}

Server CPU time per request (median µs; lower is better; a cross-check that does not depend on how much CPU the machine's other processes left): ${results
  .map((r) => `${r.scenario}: specforge ${fmt.us(r.cpuMedian.specforge)}, node:http ${fmt.us(r.cpuMedian["node-http"])}, Fastify ${fmt.us(r.cpuMedian.fastify)}, floor ${fmt.us(r.cpuMedian.floor)} (Fastify / specforge ${fmt.ratio(r.cpuMedian.fastify / r.cpuMedian.specforge)}, Fastify / floor ${fmt.ratio(r.cpuMedian.fastify / r.cpuMedian.floor)})`)
  .join("; ")}.

Ranges over the rounds (min–max req/s): ${results.map((r) => `${r.scenario}: specforge ${range(r.rates.specforge)}, node:http ${range(r.rates["node-http"])}, Fastify ${range(r.rates.fastify)}, floor ${range(r.rates.floor)}`).join("; ")}.

The floor is node:http answering each scenario's bytes (computed once) after reading the request: no validation, no auth, no parsing. "floor / Fastify" is the most any router on node:http could reach; where it is under ${GOAL.toFixed(2)}, the target is beyond what node:http allows.

Setup: each target in its own process on 127.0.0.1, autocannon ${autocannonVersion()} in another with ${CONNECTIONS} keep-alive connections, no pipelining; warm-up ${WARMUP} s per target, then ${ROUNDS} rounds of ${DURATION} s alternating the targets (rotated order); req/s: median of the rounds; ratios: median of the per-round ratios (the targets of one round ran back to back). Every target validates with the spec's schemas (specforge: its own compiled validator; Fastify and node:http: ajv with Fastify's options), checks the bearer token and answers the same JSON; the run stops if any answer differs or any request fails. Measured ${env.date}, load average ${env.load} at the start (2 cores).
`;
if (scale) markdown += `\n${scale.markdown}`;
markdown += `\nRerun: \`npm run bench:router\` (options: \`-- --rounds 5 --duration 5 --connections 16 --warmup 3 --scenarios chat,chat-100k,deep-oneof,get-job,list-checkpoints --no-scale --no-save --generated DIR\`).\n`;
console.log(`\n${markdown}`);
if (!args["no-save"]) saveSection("router", { markdown, env, results, scale: scale?.data });

/** CPU time (µs) the target's process has used so far. */
function cpuTime(target) {
  return new Promise((resolve) => {
    const onMessage = (m) => {
      if (m.cpu === undefined) return;
      processes[target].off("message", onMessage);
      resolve(m.cpu);
    };
    processes[target].on("message", onMessage);
    processes[target].send("cpu");
  });
}

/**
 * Runs autocannon against one target, refusing any failed or non-2xx request. Returns requests per second and
 * the server process's CPU time per request (µs), which the load of other processes on the machine barely
 * moves.
 */
async function load(target, scenario, seconds) {
  const cpuBefore = await cpuTime(target);
  const result = await autocannon({
    url: `${servers[target]}${scenario.path}`,
    method: scenario.method,
    headers: scenario.headers,
    body: scenario.body,
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
  });
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(`${target} ${scenario.id}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx responses`);
  }
  const cpuAfter = await cpuTime(target);
  return { rate: result.requests.total / result.duration, cpuPerRequest: (cpuAfter - cpuBefore) / result.requests.total };
}

/** Every target must answer every scenario identically, and refuse the same bad requests. */
async function checkSameWork() {
  const call = (target, path, init) => fetch(`${servers[target]}${path}`, init).then(async (r) => ({ status: r.status, body: await r.json() }));
  for (const scenario of SCENARIOS) {
    const answers = {};
    for (const target of TARGETS) {
      answers[target] = await call(target, scenario.path, { method: scenario.method, headers: scenario.headers, body: scenario.body });
      if (answers[target].status !== 200) throw new Error(`${target} ${scenario.id}: status ${answers[target].status} ${JSON.stringify(answers[target].body)}`);
      if (target === "floor") continue;
      const anonymous = await call(target, scenario.path, { method: scenario.method, headers: { ...scenario.headers, authorization: "Bearer wrong" }, body: scenario.body });
      if (anonymous.status !== 401) throw new Error(`${target} ${scenario.id}: a wrong token got ${anonymous.status}`);
    }
    for (const target of TARGETS) {
      if (!isDeepStrictEqual(answers[target].body, answers.specforge.body)) throw new Error(`${scenario.id}: ${target} answers differently from specforge`);
    }
  }
  const refusals = [
    ["chat without messages", "/v1/chat/completions", { method: "POST", body: { model: "m" } }],
    ["chat with a bad content part", "/v1/chat/completions", { method: "POST", body: { ...CHAT_BODY, messages: [{ role: "user", content: [{ type: "image_url", image_url: {} }] }] } }],
    ["chat with an unknown role", "/v1/chat/completions", { method: "POST", body: { messages: [{ role: "robot", content: "x" }] } }],
    ["limit out of range", "/v1/preview/models/m/checkpoints?limit=0", { method: "GET" }],
    ["limit not an integer", "/v1/preview/models/m/checkpoints?limit=x", { method: "GET" }],
    ["unknown order", "/v1/preview/models/m/checkpoints?order=up", { method: "GET" }],
    ["search with an unknown filter op", "/search", { method: "POST", body: { filter: { op: "xor", filters: [] } } }],
    ["search with a bad leaf six levels down", "/search", { method: "POST", body: withDeepLeaf({ op: "compare", field: "x", comparator: "eq", value: [] }) }],
    ["search with a leaf missing its field", "/search", { method: "POST", body: withDeepLeaf({ op: "match", text: "x" }) }],
    ["search with an empty and", "/search", { method: "POST", body: withDeepLeaf({ op: "and", filters: [] }) }],
    ["search limit out of range", "/search", { method: "POST", body: { ...DEEP_ONEOF_BODY, limit: 101 } }],
  ];
  for (const [what, path, { method, body }] of refusals) {
    for (const target of WORKING) {
      const headers = { authorization: `Bearer ${TOKEN}`, ...(body ? { "content-type": "application/json" } : {}) };
      const { status } = await call(target, path, { method, headers, body: body && JSON.stringify(body) });
      if (status < 400 || status >= 500) throw new Error(`${target} accepted a request it must refuse (${what}): ${status}`);
    }
  }
}

/** The deep-oneOf body with its first leaf (six levels down) replaced. */
function withDeepLeaf(leaf) {
  const body = structuredClone(DEEP_ONEOF_BODY);
  for (let node = body.filter; ; ) {
    const next = node.filters?.[0] ?? node.filter;
    if (next.filters === undefined && next.filter === undefined) {
      if (node.filters) node.filters[0] = leaf;
      else node.filter = leaf;
      return body;
    }
    node = next;
  }
}

function autocannonVersion() {
  return JSON.parse(execFileSync(process.execPath, ["-p", "JSON.stringify(require('autocannon/package.json').version)"], { cwd: join(ROOT, "bench"), encoding: "utf8" }));
}
