/**
 * The client's own work per call as a count of machine instructions, which (unlike time) does not depend on what
 * else the machine runs: each target makes N calls against a stubbed `fetch` (as client-js-cost.mjs) under
 * valgrind's callgrind, once with 1,500 and once with 4,500 calls; the difference ÷ 3,000 is the instructions of one
 * call in the steady state (start-up, module loading and JIT warm-up cancel out).
 *
 *   node bench/runtime/client-instructions.mjs [get|chat] [DIR…]
 *
 * Targets: a bare `fetch` call, then the generated client of each DIR (a generated/ folder; default: this
 * repository's). Needs valgrind; each run takes about a minute on a busy 2-core machine.
 */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  CHAT_BODY,
  JOB_ID,
  TOKEN,
  USER,
  chatAnswer,
  jobAnswer,
} from "./workload.mjs";

const SELF = fileURLToPath(import.meta.url);
const FEW = 1_500;
const MANY = 4_500;

if (process.argv[2] === "--child") {
  // One measured process: `--child <compiled client.js | fetch> <get|chat> <calls>`.
  const [, , , target, scenario, calls] = process.argv;
  const answers = {
    chat: JSON.stringify(chatAnswer(CHAT_BODY.model, USER.user)),
    get: JSON.stringify(jobAnswer(JOB_ID)),
  };
  globalThis.fetch = async (url) =>
    new Response(
      String(url).endsWith("/completions") ? answers.chat : answers.get,
      { status: 200, headers: { "content-type": "application/json" } },
    );
  const base = "http://127.0.0.1:9";
  let call;
  if (target === "fetch") {
    call =
      scenario === "get"
        ? async () =>
            (
              await fetch(`${base}/v1/preview/training-jobs/${JOB_ID}`, {
                headers: { authorization: `Bearer ${TOKEN}` },
              })
            ).json()
        : async () =>
            (
              await fetch(`${base}/v1/chat/completions`, {
                method: "POST",
                headers: {
                  authorization: `Bearer ${TOKEN}`,
                  "content-type": "application/json",
                },
                body: JSON.stringify(CHAT_BODY),
              })
            ).json();
  } else {
    const { createClient } = await import(pathToFileURL(target).href);
    const client = createClient({ apiKey: TOKEN, baseUrl: base, timeoutMs: 0 });
    call =
      scenario === "get"
        ? () => client.getTrainingJob({ path: { training_job_id: JOB_ID } })
        : () => client.createChatCompletion({ body: CHAT_BODY });
  }
  for (let i = 0; i < Number(calls); i++) await call();
} else {
  const { compileGenerated } = await import("./compile.mjs");
  const [scenario = "get", ...dirs] = process.argv.slice(2);
  const targets = [["bare fetch", "fetch"]];
  for (const [i, dir] of (dirs.length
    ? dirs
    : [join(fileURLToPath(new URL("../..", import.meta.url)), "generated")]
  ).entries()) {
    targets.push([
      dir,
      join(compileGenerated(`instructions-${i}`, resolve(dir)), "client.js"),
    ]);
  }
  const instructions = (target, calls) => {
    // (callgrind reports on stderr.)
    const { stderr, status } = spawnSync(
      "valgrind",
      [
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        process.execPath,
        SELF,
        "--child",
        target,
        scenario,
        String(calls),
      ],
      { encoding: "utf8" },
    );
    const collected = /Collected : (\d+)/.exec(stderr)?.[1];
    if (status !== 0 || collected === undefined)
      throw new Error(`valgrind failed (${status}): ${stderr.slice(-500)}`);
    return Number(collected);
  };
  const rows = targets.map(([name, target]) => [
    name,
    (instructions(target, MANY) - instructions(target, FEW)) / (MANY - FEW),
  ]);
  for (const [name, perCall] of rows) {
    console.log(
      `${scenario} ${name}: ${Math.round(perCall).toLocaleString("en")} instructions per call (${Math.round(perCall - rows[0][1]).toLocaleString("en")} over a bare fetch)`,
    );
  }
}
