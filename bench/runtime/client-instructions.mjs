/**
 * The client's overhead over a bare `fetch` as a count of machine instructions, which (unlike time) does not depend
 * on what else the machine runs. Each target (the four clients of bench/client.mjs) runs in its own process under
 * valgrind's callgrind and sends the scenario's requests, for real, to bench/runtime/echo-server.mjs on 127.0.0.1
 * (a normal process, not counted): first `--warmup` requests (JIT tiering, the connection pool), then `--calls`
 * requests between two markers. Only the instructions between the markers are counted: callgrind dumps its counters
 * on entry to `uv_os_getppid` (`--dump-before`), which the child reaches by reading `process.ppid` and nothing else
 * in it calls.
 *
 * Node runs `--single-threaded` (V8's background compiler and GC threads otherwise move the same build's count by
 * ±30 % between runs), with fixed hash and random seeds, and without what depends on the wall clock, which valgrind
 * on a loaded machine stretches 50-500×: `--predictable-gc-schedule --no-memory-reducer --no-flush-bytecode` (under
 * load the memory reducer's GCs flushed code that was then compiled again inside the measured window).
 * `--interrupt-budget` (default 8192, V8's is 67584) makes functions tier up after fewer calls, so that a warm-up
 * affordable under valgrind reaches optimized code. What the optimizing compiler still does inside the window (the
 * inclusive cost of V8's compile and deoptimize runtime entries, read with callgrind_annotate) is reported apart and
 * left out of the steady-state figure: it is a one-off of tiering, not a request's cost.
 *
 * The garbage collector's instructions (the inclusive cost of `Heap::CollectGarbage`) are also reported apart, in
 * brackets: the same build's count of them lands on one of two levels (a bare fetch GET: 137-139 k per request in
 * three runs, 187 k in a fourth), by whether a full GC fell just before the window, leaving old-space pages that the
 * window's scavenges then sweep as they promote. Without them the four runs agreed within 0.75 % (366.0, 366.0,
 * 366.0, 368.7 k), with them they were 9 % apart, which made a ratio to a bare fetch unreadable at 5 %. A full GC
 * forced before the window (`--expose-gc`, `gc()`) does not settle it: it throws away optimized code and type
 * feedback, and the window then recompiles (1.1 M instructions per request of compiling; docs/performance.md,
 * "How the figures are measured").
 *
 *   node bench/runtime/client-instructions.mjs [--scenarios get-sequential,get-concurrent,chat-sequential,chat-concurrent]
 *     [--targets fetch,untimed,timed,client] [--warmup 1000] [--calls 1000] [--repeats 3] [--jobs 1] [--wire http|stub]
 *     [--interrupt-budget 8192] [--generated DIR] [--baseline DIR] [--json FILE] [--functions N]
 *
 * Targets (as bench/client.mjs): `fetch` a bare fetch, `untimed` the generated client with `timeoutMs: 0`, `timed`
 * a fetch with the client's default 10-minute timeout signal and timer, `client` the generated client with its
 * defaults. Reported per scenario: instructions per request (median of `--repeats` runs, each its own process, the
 * targets in a rotated order), their spread (max − min over median), and the like-for-like ratios of the overhead target:
 * untimed ÷ fetch and client ÷ timed (median of the per-repeat ratios, and their range). `--baseline DIR` adds the
 * client targets built from another generated/ folder (e.g. the branch point's) for an A/B in the same run.
 * `--wire stub` replaces `globalThis.fetch` by a stub answering at once (the client's own JavaScript only; the stub
 * ignores `init`, so what the client makes undici do with its headers is not counted there).
 *
 * `--functions N` attributes the counts to functions: each pair of targets above gets the N functions whose
 * instructions per request differ most between them (exclusive costs, compile and collector included; JIT code named
 * through V8's `--perf-basic-prof` map, which callgrind cannot read itself). Incremental marking and sweeping done
 * outside `Heap::CollectGarbage` are in the steady figure: a major GC's marking steps landing in one target's window
 * and not the other's show up there as `MarkingVisitor…`, `Sweeper::RawSweep`, `RecordWriteSaveFP`.
 *
 * Kernel work (the loopback socket's syscalls) is not counted, for any target: the ratios are therefore harsher than
 * CPU-time ratios (the same numerator over a smaller denominator). One run of one target at the defaults takes 2-3
 * minutes of CPU; at load 15-18 on the 2-core machine a run took 5-8 minutes of wall time.
 */
import { fork, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { ROOT } from "./paths.mjs";
import { fmt, median } from "./report.mjs";
import { CHAT_BODY, JOB_ID, TOKEN, USER, bareRequests, callsInFlight, chatAnswer, jobAnswer, withTimeoutSignal } from "./workload.mjs";

const SELF = fileURLToPath(import.meta.url);
const CONCURRENCY = 16;

if (process.argv[2] === "--child") await child(JSON.parse(process.argv[3]));
else await parent();

/** One measured process: warm up, marker, the measured requests, marker. */
async function child({ target, clientJs, scenario, mode, warmup, calls, base, wire }) {
  const answers = { chat: chatAnswer(CHAT_BODY.model, USER.user), get: jobAnswer(JOB_ID) };
  if (wire === "stub") {
    const text = { chat: JSON.stringify(answers.chat), get: JSON.stringify(answers.get) };
    globalThis.fetch = async (url) =>
      new Response(String(url).endsWith("/completions") ? text.chat : text.get, { status: 200, headers: { "content-type": "application/json" } });
  }
  const bare = bareRequests(base);
  let call;
  if (target === "fetch") call = () => bare[scenario](undefined);
  // What any time limit costs (bench/client.mjs' "fetch + timeout signal").
  else if (target === "timed") call = withTimeoutSignal(bare[scenario]);
  else {
    const { createClient } = await import(pathToFileURL(clientJs).href);
    const client = createClient({ apiKey: TOKEN, baseUrl: base, ...(target === "untimed" ? { timeoutMs: 0 } : {}) });
    call =
      scenario === "get"
        ? () => client.getTrainingJob({ path: { training_job_id: JOB_ID } })
        : () => client.createChatCompletion({ body: CHAT_BODY });
  }
  if (!isDeepStrictEqual(await call(), answers[scenario])) throw new Error(`${target} ${scenario}: unexpected answer`);
  const inFlight = mode === "concurrent" ? CONCURRENCY : 1;
  const run = (count) => callsInFlight(call, count, inFlight);
  await run(warmup);
  // The markers: callgrind dumps (and zeroes) its counters on entry to uv_os_getppid.
  void process.ppid;
  await run(calls);
  void process.ppid;
}

async function parent() {
  const { values: args } = parseArgs({
    options: {
      scenarios: { type: "string", default: "get-sequential,get-concurrent,chat-sequential,chat-concurrent" },
      targets: { type: "string", default: "fetch,untimed,timed,client" },
      warmup: { type: "string", default: "1000" },
      calls: { type: "string", default: "1000" },
      repeats: { type: "string", default: "3" },
      wire: { type: "string", default: "http" },
      jobs: { type: "string", default: "1" },
      "interrupt-budget": { type: "string", default: "8192" },
      generated: { type: "string" },
      baseline: { type: "string" },
      json: { type: "string" },
      functions: { type: "string" },
    },
  });
  const { compileGenerated } = await import("./compile.mjs");
  // (Compiled into folders of this run's own: another run may be measuring its build at the same time.)
  const compiled = [compileGenerated(`instructions-${process.pid}`, resolve(args.generated ?? join(ROOT, "generated")))];
  const clientJs = join(compiled[0], "client.js");
  const targets = args.targets.split(",").map((name) => ({ name, target: name, clientJs }));
  if (args.baseline !== undefined) {
    compiled.push(compileGenerated(`instructions-${process.pid}-baseline`, resolve(args.baseline)));
    const baseJs = join(compiled[1], "client.js");
    for (const name of ["untimed", "client"].filter((n) => targets.some((t) => t.name === n))) targets.push({ name: `${name}@baseline`, target: name, clientJs: baseJs });
  }
  const calls = Number(args.calls);
  const scenarios = args.scenarios.split(",").map((id) => {
    const [scenario, mode] = id.split("-");
    return { id, scenario, mode };
  });

  let base = "http://127.0.0.1:9";
  let server;
  if (args.wire === "http") {
    server = fork(join(ROOT, "bench", "runtime", "echo-server.mjs"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    process.on("exit", () => server.kill());
    base = `http://127.0.0.1:${await new Promise((done) => server.once("message", (m) => done(m.port)))}`;
  }

  const scratch = mkdtempSync(join(tmpdir(), "client-instructions-"));
  const measure = (t, s) =>
    new Promise((done, fail) => {
      const dir = mkdtempSync(join(scratch, "run-"));
      const config = { target: t.target, clientJs: t.clientJs, scenario: s.scenario, mode: s.mode, warmup: Number(args.warmup), calls, base, wire: args.wire };
      const proc = spawn(
        "valgrind",
        [
          "--tool=callgrind",
          "--dump-before=uv_os_getppid",
          `--callgrind-out-file=${join(dir, "cg.out")}`,
          process.execPath,
          // No background threads; no heap sizing, memory reducer or bytecode flushing that depends on the wall clock
          // (under valgrind on a loaded machine those flushed and recompiled code in the measured window).
          "--single-threaded",
          "--predictable-gc-schedule",
          "--no-memory-reducer",
          "--no-flush-bytecode",
          `--interrupt-budget=${args["interrupt-budget"]}`,
          // (A map of the JIT code's addresses to function names, for `--functions`; V8 also writes a log into `cwd`.)
          ...(args.functions === undefined ? [] : ["--perf-basic-prof"]),
          "--hash-seed=1",
          "--random-seed=1",
          SELF,
          "--child",
          JSON.stringify(config),
        ],
        { stdio: ["ignore", "ignore", "pipe"], cwd: dir },
      );
      let stderr = "";
      proc.stderr.on("data", (d) => (stderr += d));
      proc.on("close", (status) => {
        // Dump .1 ends at the first marker (start-up and warm-up), dump .2 at the second (the measured requests).
        const file = join(dir, "cg.out.2");
        const part = readdirSync(dir).includes("cg.out.2") ? readFileSync(file, "utf8") : "";
        const summary = /^summary: (\d+)/m.exec(part)?.[1];
        if (status !== 0 || summary === undefined) {
          rmSync(dir, { recursive: true, force: true });
          fail(new Error(`${t.name} ${s.id}: valgrind failed (${status}): ${stderr.slice(-800)}`));
          return;
        }
        const { compile, gc } = runtimeCosts(file);
        const all = Number(summary);
        const perfMap = `/tmp/perf-${proc.pid}.map`;
        const functions = args.functions === undefined ? undefined : functionCosts(file, perfMap, all, calls);
        rmSync(dir, { recursive: true, force: true });
        rmSync(perfMap, { force: true });
        done({ all: all / calls, compile: compile / calls, gc: gc / calls, withGc: (all - compile) / calls, steady: (all - compile - gc) / calls, functions });
      });
    });

  // Every (repeat, scenario, target) run, the targets of a repeat in a rotated order; `--jobs` of them at a time.
  const runs = [];
  for (let repeat = 0; repeat < Number(args.repeats); repeat++)
    for (const s of scenarios) for (let i = 0; i < targets.length; i++) runs.push({ repeat, s, t: targets[(i + repeat) % targets.length] });
  const samples = Object.fromEntries(scenarios.map((s) => [s.id, Object.fromEntries(targets.map((t) => [t.name, []]))]));
  try {
    let next = 0;
    const worker = async () => {
      while (next < runs.length) {
        const { repeat, s, t } = runs[next++];
        const count = await measure(t, s);
        samples[s.id][t.name][repeat] = count;
        process.stderr.write(
          `repeat ${repeat + 1} ${s.id} ${t.name}: ${fmt.int(count.steady)} instructions per request (+ ${fmt.int(count.gc)} collecting garbage, + ${fmt.int(count.compile)} compiling)\n`,
        );
      }
    };
    await Promise.all(Array.from({ length: Number(args.jobs) }, worker));
  } finally {
    for (const dir of [scratch, ...compiled]) rmSync(dir, { recursive: true, force: true });
    server?.send("exit");
  }

  const spread = (xs) => (Math.max(...xs) - Math.min(...xs)) / median(xs);
  const paired = (a, b) => a.map((x, i) => x / b[i]);
  const ratio = (xs) => `${fmt.ratio(median(xs))} (${fmt.pct(median(xs) - 1)}; range ${fmt.pct(Math.min(...xs) - 1)} … ${fmt.pct(Math.max(...xs) - 1)})`;
  console.log(
    `${args.wire === "http" ? "loopback HTTP" : "stubbed fetch"}; ${fmt.int(calls)} requests counted after ${fmt.int(Number(args.warmup))} uncounted, ${args.repeats} repeats, --interrupt-budget=${args["interrupt-budget"]}; Node ${process.version}`,
  );
  console.log(
    "Instructions per request without the optimizing compiler's and the garbage collector's (steady state); in brackets, with the garbage collector's (whose count is on one of two levels: see the header).\n",
  );
  for (const s of scenarios) {
    const row = samples[s.id];
    const of = (name, key) => row[name].map((c) => c[key]);
    console.log(`${s.id}:`);
    for (const t of targets) {
      console.log(
        `  ${t.name.padEnd(18)} ${fmt.int(median(of(t.name, "steady"))).padStart(9)} per request (spread ${fmt.pct(spread(of(t.name, "steady")))}) [${fmt.int(median(of(t.name, "withGc")))}, spread ${fmt.pct(spread(of(t.name, "withGc")))}]`,
      );
    }
    const pairs = [
      ["untimed", "fetch"],
      ["client", "timed"],
      ["untimed@baseline", "fetch"],
      ["client@baseline", "timed"],
      ["untimed", "untimed@baseline"],
      ["client", "client@baseline"],
    ];
    for (const [a, b] of pairs) {
      if (row[a] && row[b]) console.log(`  ${`${a} ÷ ${b}`.padEnd(34)} ${ratio(paired(of(a, "steady"), of(b, "steady")))} [${ratio(paired(of(a, "withGc"), of(b, "withGc")))}]`);
    }
    if (args.functions !== undefined) {
      for (const [a, b] of pairs.filter(([a, b]) => row[a] && row[b])) {
        console.log(`  ${a} − ${b}, by function (median of the repeats, instructions per request; the ${args.functions} largest differences):`);
        for (const [name, diff] of functionDifferences(of(a, "functions"), of(b, "functions")).slice(0, Number(args.functions))) {
          console.log(`    ${fmt.int(diff).padStart(8)}  ${name.slice(0, 140)}`);
        }
      }
    }
  }
  if (args.json !== undefined) writeFileSync(args.json, `${JSON.stringify({ args, samples }, null, 2)}\n`);
}

/**
 * What a callgrind dump spent compiling and deoptimizing (inclusive costs of V8's runtime entries for them: a one-off
 * cost of JIT tiering that the warm-up does not fully exhaust, not part of a request's steady state) and collecting
 * garbage (the inclusive cost of `Heap::CollectGarbage`: scavenges, and the sweeping of old-space pages they do after
 * a full GC).
 */
function runtimeCosts(file) {
  const { stdout } = spawnSync("callgrind_annotate", ["--inclusive=yes", "--threshold=100", file], { encoding: "utf8", maxBuffer: 64 << 20 });
  let compile = 0;
  let gc = 0;
  for (const line of stdout.split("\n")) {
    const m = /^\s*([\d,]+) .*v8::internal::(Runtime_(?:CompileOptimized|CompileLazy|CompileBaseline|InstallBaselineCode|NotifyDeoptimized|CompileOptimizedOSR|BytecodeBudgetInterrupt\w*)|Heap::CollectGarbage)\(/.exec(line);
    if (!m) continue;
    const count = Number(m[1].replaceAll(",", ""));
    if (m[2] === "Heap::CollectGarbage") gc += count;
    else compile += count;
  }
  return { compile, gc };
}

/**
 * A callgrind dump's exclusive instructions per request by function (`--functions`): native code by the names
 * callgrind gives, JIT code (which callgrind knows only by address) by the name V8's `--perf-basic-prof` map gives
 * the code range holding the address, and V8's optimizing compiler as one entry.
 */
function functionCosts(file, perfMap, all, calls) {
  const ranges = readFileSync(perfMap, "utf8")
    .trim()
    .split("\n")
    .map((line) => {
      const [start, size, ...name] = line.split(" ");
      return { start: parseInt(start, 16), end: parseInt(start, 16) + parseInt(size, 16), name: name.join(" ") };
    })
    .sort((x, y) => x.start - y.start);
  const jitName = (address) => {
    let [lo, hi, found] = [0, ranges.length - 1, undefined];
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (ranges[mid].start <= address) [found, lo] = [ranges[mid], mid + 1];
      else hi = mid - 1;
    }
    return found && address < found.end ? found.name : "(JIT code without a name)";
  };
  const { stdout } = spawnSync("callgrind_annotate", ["--inclusive=no", "--threshold=100", file], { encoding: "utf8", maxBuffer: 256 << 20 });
  const costs = {};
  for (const line of stdout.split("\n")) {
    const m = /^\s*([\d,]+) \([^)]*\)\s+(.*?)(?: \[[^\]]*\])?$/.exec(line);
    if (!m) continue;
    const count = Number(m[1].replaceAll(",", ""));
    // (callgrind_annotate lists every function on the stack at the dump with the dump's total: not an exclusive cost.)
    if (count === all) continue;
    const address = /^\?\?\?:0x([0-9a-f]+)$/.exec(m[2]);
    let name = address ? jitName(parseInt(address[1], 16)) : m[2].replace(/^(?:\?\?\?|\S*?\.\w+):/, "");
    if (name.startsWith("v8::internal::compiler::")) name = "(V8's optimizing compiler)";
    costs[name] = (costs[name] ?? 0) + count / calls;
  }
  return costs;
}

/** Per function, the median over the repeats of `a` − the median of `b`, largest absolute difference first. */
function functionDifferences(a, b) {
  const names = new Set([...a, ...b].flatMap(Object.keys));
  const mid = (runs, name) => median(runs.map((costs) => costs[name] ?? 0));
  return [...names].map((name) => [name, mid(a, name) - mid(b, name)]).sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]));
}
