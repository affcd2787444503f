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
const FETCHES = 5_000;
const LOOKUPS = 200_000;

if (!existsSync(SPEC)) {
  console.log(JSON.stringify({ markdown: `Routing scale: skipped (${SPEC} not found).\n`, data: null }));
  process.exit(0);
}

const github = generateServer(SPEC, "github");
const v1 = compileGenerated("generated-scale");

/** name, method, path of every operation, from the emitted `Handlers` interface (document order). */
/** The routes of a generated folder, read from its `Handlers` (server.d.ts; server.ts before 0.1's module form). */
function operations(dir) {
  const out = [];
  const file = existsSync(join(dir, "server.d.ts")) ? join(dir, "server.d.ts") : join(dir, "server.ts");
  for (const m of readFileSync(file, "utf8").matchAll(/^\s*(\w+)\?: Handler<\s*paths\["([^"]+)"\]\["(\w+)"\]/gm)) {
    out.push({ name: m[1], path: m[2], method: m[3].toUpperCase() });
  }
  return out;
}

const ghOps = operations(github.ts);
const gets = ghOps.filter((o) => o.method === "GET");
const concrete = (template) => template.replace(/\{[^}]+\}/g, "1");
const handler = () => ({ status: 200, body: { ok: true } });
const headers = { authorization: `Bearer ${TOKEN}` };
// The router hands authenticate the credentials it read, keyed by security scheme (GitHub's GETs need none).
const authenticate = (credentials) => (Object.values(credentials).some((c) => c.token === TOKEN) ? { user: "bench" } : null);
const ops = fmt.int(ghOps.length);

const { createRouter: createGithubRouter } = await import(pathToFileURL(join(github.js, "server.js")).href);
const ghRouter = createGithubRouter(Object.fromEntries(ghOps.map((o) => [o.name, handler])), { authenticate });
const { createRouter: createV1Router } = await import(pathToFileURL(join(v1, "server.js")).href);
const v1Router = createV1Router({ getTrainingJob: handler }, { authenticate });

const cases = [
  { label: `GitHub (${ops} ops), first GET: \`${gets[0].path}\``, router: ghRouter, path: concrete(gets[0].path) },
  { label: `GitHub (${ops} ops), last GET: \`${gets.at(-1).path}\``, router: ghRouter, path: concrete(gets.at(-1).path) },
  { label: "v1 (13 ops): `/v1/preview/training-jobs/{training_job_id}`", router: v1Router, path: `/v1/preview/training-jobs/${JOB_ID}` },
];
for (const c of cases) {
  const res = await c.router.fetch(new Request(`http://localhost${c.path}`, { headers }));
  if (res.status !== 200) throw new Error(`${c.path}: status ${res.status} ${await res.text()}`);
}

/**
 * Mean time per call (µs) of each function: a warm-up, then ROUNDS rounds that run every function in turn
 * (so a busy moment of the machine hits all of them); the median over the rounds.
 */
async function time(fns, iterations, { sync = false } = {}) {
  const batch = sync
    ? (fn) => {
        for (let i = 0; i < iterations; i++) fn();
      }
    : async (fn) => {
        for (let i = 0; i < iterations; i++) await fn();
      };
  for (const fn of fns) await batch(fn);
  const rounds = fns.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let f = 0; f < fns.length; f++) {
      const start = process.hrtime.bigint();
      await batch(fns[f]);
      rounds[f].push(Number(process.hrtime.bigint() - start) / 1000 / iterations);
    }
  }
  return rounds.map(median);
}

const fetchTimes = await time(
  cases.map((c) => () => c.router.fetch(new Request(`http://localhost${c.path}`, { headers }))),
  FETCHES,
);

// The lookup alone: a trie of every GitHub route (as the router builds it) against one of the v1 routes.
const { RouteTrie } = await import(pathToFileURL(join(github.js, "runtime", "server", "routing.js")).href);
const build = (list) => {
  const trie = new RouteTrie();
  for (const o of list) trie.add(o.method, o.path, o.name);
  return trie;
};
const ghTrie = build(ghOps);
const v1Trie = build(operations(join(ROOT, "generated")).concat([{ name: "slash", method: "POST", path: "/v1/chat/completions/" }]));
const lookups = [
  ...cases.map((c) => ({ label: c.label, trie: c.router === ghRouter ? ghTrie : v1Trie, path: c.path })),
  { label: `GitHub (${ops} ops), unknown path (404)`, trie: ghTrie, path: "/repos/1/1/no-such-thing/1" },
];
for (const l of lookups.slice(0, cases.length)) if (!l.trie.match("GET", l.path)) throw new Error(`no match for ${l.path}`);
const matchTimes = await time(
  lookups.map((l) => () => l.trie.match("GET", l.path)),
  LOOKUPS,
  { sync: true },
);

const segments = (path) => path.split("/").length - 1;
const perSegment = (i) => (matchTimes[i] * 1000) / segments(lookups[i].path);
const rows = lookups.map((l, i) => [
  l.label,
  String(segments(l.path)),
  i < cases.length ? fmt.us(fetchTimes[i]) : "–",
  `${fmt.int(matchTimes[i] * 1000)} ns`,
  `${fmt.int(perSegment(i))} ns`,
]);
const markdown = `### Routing cost against route count

${table(["route", "path segments", "router.fetch µs/request (in process)", "route lookup (RouteTrie.match)", "lookup per segment"], rows)}

Lookup time per path segment: ${fmt.int(perSegment(0))} / ${fmt.int(perSegment(1))} ns for the first / last GET of the ${ops}-operation spec, ${fmt.int(perSegment(2))} ns on the 13-operation v1 spec. The trie walks one level per segment (static children by Map, then parameter patterns), so a lookup costs what the path's depth costs, whatever the number of routes: the first and the last route differ only by their depth. \`router.fetch\` (the whole in-process pipeline from a web Request: auth, parameters, handler, JSON) differs by what the operations declare, not by their position (GitHub last GET / v1 GET: ${fmt.ratio(fetchTimes[1] / fetchTimes[2])} ×). Median of ${ROUNDS} interleaved rounds (${fmt.int(FETCHES)} fetches / ${fmt.int(LOOKUPS)} lookups per case and round) after a warm-up; spec: \`../shared/corpus/github-api.github.com-3.0.json\`, server generated with \`outputs: ["server"]\`.
`;
const data = {
  cases: lookups.map((l, i) => ({ label: l.label, segments: segments(l.path), fetchUs: fetchTimes[i], matchNs: matchTimes[i] * 1000 })),
};
console.log(JSON.stringify({ markdown, data }));
