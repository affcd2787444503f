/**
 * The generated client's own JavaScript per call, without the network: `globalThis.fetch` is replaced by a stub
 * that answers at once with a fixed JSON Response, and the generated client (timeout off, as in bench:client's
 * like-for-like comparison) is timed against a bare `fetch` call sending the same request and parsing the same
 * answer. The difference is what the client adds per request, steadier than bench:client's wall-clock ratios on
 * a busy machine; divide it by a real loopback request's CPU time (bench:client) for the overhead in percent.
 *
 *   node bench/runtime/client-js-cost.mjs [rounds=9] [calls=20000]
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compileGenerated } from "./compile.mjs";
import { fmt, median, table } from "./report.mjs";
import { CHAT_BODY, JOB_ID, TOKEN, USER, chatAnswer, jobAnswer } from "./workload.mjs";

const [rounds = "9", calls = "20000"] = process.argv.slice(2);
const generated = compileGenerated("generated-js-cost");
const { createClient } = await import(pathToFileURL(join(generated, "client.js")).href);
const answers = { chat: JSON.stringify(chatAnswer(CHAT_BODY.model, USER.user)), get: JSON.stringify(jobAnswer(JOB_ID)) };
globalThis.fetch = async (url) => new Response(String(url).endsWith("/completions") ? answers.chat : answers.get, { status: 200, headers: { "content-type": "application/json" } });

const base = "http://127.0.0.1:9";
const client = createClient({ apiKey: TOKEN, baseUrl: base, timeoutMs: 0 });
const targets = {
  "bare fetch": {
    chat: async () => {
      const res = await fetch(`${base}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }, body: JSON.stringify(CHAT_BODY) });
      return res.json();
    },
    get: async () => (await fetch(`${base}/v1/preview/training-jobs/${JOB_ID}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json(),
  },
  client: {
    chat: () => client.createChatCompletion({ body: CHAT_BODY }),
    get: () => client.getTrainingJob({ path: { training_job_id: JOB_ID } }),
  },
};
const names = Object.keys(targets);
const samples = { chat: { "bare fetch": [], client: [] }, get: { "bare fetch": [], client: [] } };
for (let round = 0; round <= Number(rounds); round++) {
  for (const scenario of ["chat", "get"]) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length];
      const call = targets[name][scenario];
      const start = process.hrtime.bigint();
      for (let n = 0; n < Number(calls); n++) await call();
      if (round > 0) samples[scenario][name].push(Number(process.hrtime.bigint() - start) / Number(calls) / 1000);
    }
  }
}
console.log(
  table(
    ["scenario", "bare fetch (stubbed) µs/call", "client (stubbed, timeout off) µs/call", "client's own JavaScript µs/call"],
    ["chat", "get"].map((s) => {
      const bare = median(samples[s]["bare fetch"]);
      const own = median(samples[s].client);
      return [s, fmt.us(bare), fmt.us(own), fmt.us(own - bare)];
    }),
  ),
);
console.log(`\nMedian of ${rounds} rounds of ${fmt.int(Number(calls))} calls per target, after a warm-up round; Node ${process.version}.`);
