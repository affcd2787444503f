/**
 * Does routing cost grow with the number of routes? Generates the server of the GitHub REST description
 * (1,223 operations, ../shared/corpus) into bench/.out/, then times, in this process:
 *
 * - `router.fetch(request)` for the first and the last GET operation of the spec (document order), and for
 *   the v1 router's GET /v1/preview/training-jobs/{id} (13 operations) as a reference;
 * - the route lookup alone (`RouteTrie.match`) for the same paths and for an unknown path (404).
 *
 * Prints `{ markdown, data }` as JSON on stdout (bench/router.mjs embeds it in the router section).
 *   node bench/runtime/routing-scale.mjs
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, compileGenerated, generateServer } from "./compile.mjs";
import { fmt, median, table } from "./report.mjs";
import { JOB_ID, TOKEN } from "./workload.mjs";

const SPEC = join(ROOT, "..", "shared", "corpus", "github-api.github.com-3.0.json");
const ROUNDS = 7;

if (!existsSync(SPEC)) {
  console.log(JSON.stringify({ markdown: `Routing scale: skipped (${SPEC} not found).\n`, data: null }));
  process.exit(0);
}

const github = generateServer(SPEC, "github");
const v1 = compileGenerated("generated-scale");

/** name, method, path of every operation, from the emitted `Handlers` interface (document order). */
function operations(serverTs) {
  const out = [];
  for (const m of readFileSync(serverTs, "utf8").matchAll(/^\s*(\w+)\?: Handler<\s*paths\["([^"]+)"\]\["(\w+)"\]/gm)) {
    out.push({ name: m[1], path: m[2], method: m[3].toUpperCase() });
  }
  return out;
}

const ghOps = operations(join(github.ts, "server.ts"));
const gets = ghOps.filter((o) => o.method === "GET");
const concrete = (template) => template.replace(/\{[^}]+\}/g, "1");
const handler = () => ({ status: 200, body: { ok: true } });
const headers = { authorization: `Bearer ${TOKEN}` };
const authenticate = (token) => (token === TOKEN ? { user: "bench" } : null);

const { createRouter: createGithubRouter } = await import(pathToFileURL(join(github.js, "server.js")).href);
const ghRouter = createGithubRouter(Object.fromEntries(ghOps.map((o) => [o.name, handler])), { authenticate });
const { createRouter: createV1Router } = await import(pathToFileURL(join(v1, "server.js")).href);
const v1Router = createV1Router({ getTrainingJob: handler }, { authenticate });

const cases = [
  { label: `GitHub (${ghOps.length} ops), first GET: \`${gets[0].path}\``, router: ghRouter, path: concrete(gets[0].path), template: gets[0].path },
  { label: `GitHub (${ghOps.length} ops), last GET: \`${gets.at(-1).path}\``, router: ghRouter, path: concrete(gets.at(-1).path), template: gets.at(-1).path },
  { label: "v1 (13 ops): `/v1/preview/training-jobs/{training_job_id}`", router: v1Router, path: `/v1/preview/training-jobs/${JOB_ID}`, template: "/v1/preview/training-jobs/{training_job_id}" },
];
for (const c of cases) {
  const res = await c.router.fetch(new Request(`http://localhost${c.path}`, { headers }));
  if (res.status !== 200) throw new Error(`${c.path}: status ${res.status} ${await res.text()}`);
}

/** Median over rounds of the mean time per call, in microseconds. */
async function time(fn, iterations) {
  for (let i = 0; i < iterations; i++) await fn(); // warm-up
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) await fn();
    rounds.push(Number(process.hrtime.bigint() - start) / 1000 / iterations);
  }
  return median(rounds);
}

const fetchTimes = [];
for (const c of cases) fetchTimes.push(await time(() => c.router.fetch(new Request(`http://localhost${c.path}`, { headers })), 5_000));

// The lookup alone: a trie of every GitHub route (as the router builds it) against one of the 13 v1 routes.
const { RouteTrie } = await import(pathToFileURL(join(github.js, "runtime", "server", "routing.js")).href);
const build = (ops) => {
  const trie = new RouteTrie();
  for (const o of ops) trie.add(o.method, o.path, o.name);
  return trie;
};
const ghTrie = build(ghOps);
const v1Trie = build(operations(join(ROOT, "generated", "server.ts")).concat([{ name: "slash", method: "POST", path: "/v1/chat/completions/" }]));
const lookups = [
  ...cases.map((c) => ({ label: c.label, trie: c.router === ghRouter ? ghTrie : v1Trie, path: c.path })),
  { label: `GitHub (${ghOps.length} ops), unknown path (404)`, trie: ghTrie, path: "/repos/1/1/no-such-thing/1" },
];
const matchTimes = [];
for (const l of lookups) {
  if (!l.label.includes("404") && !l.trie.match("GET", l.path)) throw new Error(`no match for ${l.path}`);
  matchTimes.push(await time(() => l.trie.match("GET", l.path), 200_000));
}

const rows = cases.map((c, i) => [c.label, fmt.us(fetchTimes[i]), `${fmt.int(matchTimes[i] * 1000)} ns`]);
rows.push([lookups[3].label, "–", `${fmt.int(matchTimes[3] * 1000)} ns`]);
const ratio = fetchTimes[1] / fetchTimes[0];
const markdown = `### Routing cost against route count

${table(["route", "router.fetch µs/request (in process)", "route lookup (RouteTrie.match)"], rows)}

Last GET / first GET of the 1,223-operation spec: ${fmt.ratio(ratio)} × for \`router.fetch\`, ${fmt.ratio(matchTimes[1] / matchTimes[0])} × for the lookup; GitHub last GET / v1: ${fmt.ratio(fetchTimes[1] / fetchTimes[2])} ×. The trie walks one level per path segment (static children by Map, then parameter patterns), so the cost follows the path's depth, not the route count. Median of ${ROUNDS} rounds (${fmt.int(5_000)} fetches / ${fmt.int(200_000)} lookups each) after a warm-up; spec: \`../shared/corpus/github-api.github.com-3.0.json\`, server generated with \`outputs: ["server"]\`.
`;
console.log(JSON.stringify({ markdown, data: { cases: cases.map((c, i) => ({ label: c.label, fetchUs: fetchTimes[i], matchNs: matchTimes[i] * 1000 })), unknownNs: matchTimes[3] * 1000 } }));
