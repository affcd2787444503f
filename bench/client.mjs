/**
 * Client overhead: time per request of the generated client (generated/client.js: `createChatCompletion`,
 * `getTrainingJob`) against a bare `fetch` sending the same request and parsing the same JSON, on a loopback
 * server in another process.
 *
 *   npm run bench:client [-- --rounds 7 --requests 2000 --concurrency 16]
 *   npm run bench:client -- --generated DIR   (another version's generated/ folder, to compare; not saved)
 *
 * Each round runs, for each client (in a rotated order), N sequential requests and N requests with
 * `concurrency` in flight; the figure is the mean time per request (wall clock) and the client process's CPU
 * time per request; reported: medians over the rounds and the ratios, like for like: the client with its
 * timeout off against the bare fetch, and the client with its defaults (10-minute timeout) against a fetch with
 * the same abort signal and timer. Writes bench/RESULTS.runtime.md (client section).
 */
import { fork } from "node:child_process";
import { join, resolve } from "node:path";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { ROOT, compileGenerated, warnIfStale } from "./runtime/compile.mjs";
import { environment, fmt, median, saveSection, table } from "./runtime/report.mjs";
import { CHAT_BODY, CHAT_BODY_SIZE, JOB_ID, TOKEN, bareRequests, callsInFlight, withTimeoutSignal } from "./runtime/workload.mjs";

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "7" },
    requests: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "16" },
    "no-save": { type: "boolean", default: false },
    // Another generated folder to measure (e.g. a previous version's, exported with git archive); implies --no-save.
    generated: { type: "string" },
  },
});
const ROUNDS = Number(args.rounds);
const REQUESTS = Number(args.requests);
const CONCURRENCY = Number(args.concurrency);
/** The generated client may add at most this much to a request (docs/performance.md, "Client overhead"). */
const GOAL = 0.05;

if (args.generated === undefined) warnIfStale();
const generated = args.generated === undefined ? compileGenerated() : compileGenerated("generated-other", resolve(args.generated));
if (args.generated !== undefined) args["no-save"] = true;
const { createClient } = await import(pathToFileURL(join(generated, "client.js")).href);

const server = fork(join(ROOT, "bench", "runtime", "echo-server.mjs"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
process.on("exit", () => server.kill());
const port = await new Promise((resolve) => server.once("message", (m) => resolve(m.port)));
const base = `http://127.0.0.1:${port}`;

// The generated client as an application would make it: defaults (timeout, retries) kept.
const client = createClient({ apiKey: TOKEN, baseUrl: base });
// The same with its timeout off: what a bare fetch does (no time limit), so the two compare like for like.
const untimedClient = createClient({ apiKey: TOKEN, baseUrl: base, timeoutMs: 0 });

/** The same requests, by hand: what the client must add as little as possible to. */
const byHand = bareRequests(base);
const bare = { chat: () => byHand.chat(), get: () => byHand.get() };
/** The same, with what the client does for its default timeout (workload.mjs `withTimeoutSignal`). */
const bareWithTimeout = { chat: withTimeoutSignal(byHand.chat), get: withTimeoutSignal(byHand.get) };
const generatedClient = {
  chat: () => client.createChatCompletion({ body: CHAT_BODY }),
  get: () => client.getTrainingJob({ path: { training_job_id: JOB_ID } }),
};
const generatedUntimed = {
  chat: () => untimedClient.createChatCompletion({ body: CHAT_BODY }),
  get: () => untimedClient.getTrainingJob({ path: { training_job_id: JOB_ID } }),
};
const CLIENTS = { fetch: bare, untimed: generatedUntimed, timed: bareWithTimeout, client: generatedClient };

await checkSameRequests();

/** Mean wall time and client CPU time per request (µs) of `count` requests, `inFlight` at a time. */
async function run(call, count, inFlight) {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await callsInFlight(call, count, inFlight);
  const wall = Number(process.hrtime.bigint() - start) / 1000 / count;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / count };
}

const env = environment();
const modes = [
  { id: "sequential", inFlight: 1 },
  { id: "concurrent", inFlight: CONCURRENCY },
];
const scenarios = [
  { id: "chat", title: `createChatCompletion (POST, ${CHAT_BODY_SIZE} JSON body, JSON answer)` },
  { id: "get", title: "getTrainingJob (GET with a path parameter)" },
];
console.log(`node ${env.node}, ${env.cpu}; ${ROUNDS} rounds × ${REQUESTS} requests per client and mode\n`);
// Warm-up: JIT, connection pool.
for (const name of Object.keys(CLIENTS)) for (const s of scenarios) for (const m of modes) await run(CLIENTS[name][s.id], REQUESTS / 2, m.inFlight);

const results = [];
for (const s of scenarios) {
  for (const m of modes) {
    const names = Object.keys(CLIENTS);
    const samples = Object.fromEntries(names.map((n) => [n, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate who goes first.
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + round) % names.length];
        samples[name].push(await run(CLIENTS[name][s.id], REQUESTS, m.inFlight));
      }
    }
    const wall = (name) => median(samples[name].map((x) => x.wall));
    const cpu = (name) => median(samples[name].map((x) => x.cpu));
    // Paired per round (the clients ran back to back), then the median.
    const paired = (a, b, key) => median(samples[a].map((x, i) => x[key] / samples[b][i][key]));
    results.push({
      scenario: s.id,
      mode: m.id,
      title: `${s.title}, ${m.id}${m.inFlight > 1 ? ` (${m.inFlight} in flight)` : ""}`,
      fetch: wall("fetch"),
      untimed: wall("untimed"),
      timed: wall("timed"),
      client: wall("client"),
      ratioUntimed: paired("untimed", "fetch", "wall"),
      ratio: paired("client", "fetch", "wall"),
      ratioTimed: paired("client", "timed", "wall"),
      cpuFetch: cpu("fetch"),
      cpuUntimed: cpu("untimed"),
      cpuTimed: cpu("timed"),
      cpuClient: cpu("client"),
      cpuRatioUntimed: paired("untimed", "fetch", "cpu"),
      cpuRatio: paired("client", "fetch", "cpu"),
      cpuRatioTimed: paired("client", "timed", "cpu"),
    });
    const r = results.at(-1);
    console.log(
      `${s.id} ${m.id}: fetch ${fmt.us(r.fetch)}, client (timeout off) ${fmt.us(r.untimed)} (${fmt.pct(r.ratioUntimed - 1)}); fetch+timeout ${fmt.us(r.timed)}, client ${fmt.us(r.client)} (${fmt.pct(r.ratioTimed - 1)}) µs per request; client / bare fetch ${fmt.pct(r.ratio - 1)}; CPU ${fmt.us(r.cpuFetch)} / ${fmt.us(r.cpuUntimed)} / ${fmt.us(r.cpuTimed)} / ${fmt.us(r.cpuClient)} µs`,
    );
  }
}
server.send("exit");

const met = (r) => r.ratioUntimed - 1 < GOAL && r.ratioTimed - 1 < GOAL;
const markdown = `${table(
  [
    "scenario",
    "bare fetch µs/request (median)",
    "client, timeout off µs/request",
    "client (timeout off) / fetch",
    "fetch + 10-min timeout signal µs/request",
    "client, defaults (10-min timeout) µs/request",
    "client (defaults) / (fetch + timeout)",
    `target met (< ${GOAL * 100} % like for like)`,
    "client (defaults) / bare fetch",
    "runs",
    "Node",
    "CPU",
  ],
  results.map((r) => [
    r.title,
    fmt.us(r.fetch),
    fmt.us(r.untimed),
    `${fmt.ratio(r.ratioUntimed)} (${fmt.pct(r.ratioUntimed - 1)})`,
    fmt.us(r.timed),
    fmt.us(r.client),
    `${fmt.ratio(r.ratioTimed)} (${fmt.pct(r.ratioTimed - 1)})`,
    met(r) ? "yes" : "**no**",
    `${fmt.ratio(r.ratio)} (${fmt.pct(r.ratio - 1)})`,
    `${ROUNDS} × ${fmt.int(REQUESTS)}`,
    env.node,
    env.cpu,
  ]),
)}

Client-process CPU time per request (median µs; bare fetch / client with timeout off / fetch + timeout signal / client with defaults): ${results
  .map(
    (r) =>
      `${r.scenario} ${r.mode} ${fmt.us(r.cpuFetch)} / ${fmt.us(r.cpuUntimed)} / ${fmt.us(r.cpuTimed)} / ${fmt.us(r.cpuClient)} (client ${fmt.pct(r.cpuRatioUntimed - 1)} vs fetch with the timeout off, ${fmt.pct(r.cpuRatioTimed - 1)} vs fetch + timeout with defaults)`,
  )
  .join("; ")}.

Like for like: the client with its timeout off against a bare fetch (no time limit either), and the client with its defaults against a fetch with the same 10-minute timeout (an AbortController whose signal fetch follows, and a timer). The timeout itself is not the client's code but what any time limit costs on this platform: Node 20 builds an AbortSignal in about 10 µs (\`makeTransferable\`), and its fetch registers a listener, a WeakRef and a finalizer for each signal it follows. That is why the client passes a signal only when something can end the attempt early (a timeout, the caller's signal, an asked-for stream); the last ratio column shows what the default 10-minute limit adds against a fetch without one.

Setup: Node's built-in fetch for all four (the generated client calls it), one keep-alive connection pool; a node:http server in another process answers fixed JSON. Per round and mode, each client sends ${fmt.int(REQUESTS)} requests (sequentially, or ${CONCURRENCY} in flight), in a rotated order; time per request = wall time ÷ requests; ratios are the median of the per-round ratios. The generated clients run with their defaults (retries; the timeout as said). Before measuring, the server checks that the clients send the same method, URL, Authorization, Content-Type, Accept and body. Measured ${env.date}, load average ${env.load} at the start (2 cores).

Rerun: \`npm run bench:client\` (options: \`-- --rounds 7 --requests 2000 --concurrency 16 --no-save --generated DIR\`).
`;
console.log(`\n${markdown}`);
if (!args["no-save"]) saveSection("client", { markdown, env, results });

/** Every client must send the very same request. */
async function checkSameRequests() {
  const last = () =>
    new Promise((resolve) => {
      server.once("message", (m) => resolve(m.last));
      server.send("last");
    });
  for (const kind of ["chat", "get"]) {
    const answers = [];
    const seen = [];
    for (const calls of Object.values(CLIENTS)) {
      answers.push(await calls[kind]());
      seen.push((await last())[kind]);
    }
    for (let i = 1; i < seen.length; i++) {
      if (!isDeepStrictEqual(seen[0], seen[i])) throw new Error(`${kind}: the clients sent different requests: ${JSON.stringify(seen[0])} vs ${JSON.stringify(seen[i])}`);
      if (!isDeepStrictEqual(answers[0], answers[i])) throw new Error(`${kind}: the clients parsed different answers`);
    }
  }
}
