import { afterAll, describe, expect, it } from "vitest";
import { createRouterRuntime, type RouteSpec } from "../../templates/server/index.js";
import { findPatterns, isSuperLinear } from "../../src/emit/server-patterns.js";
import { loadSpec } from "../../src/load/index.js";
import { corpusDocuments } from "./corpus.js";

/**
 * The target (docs/security.md, "Validation cannot be made to take long"): no request keeps the event loop busy for more than 50 ms with the corpus's patterns. Every
 * distinct `pattern` (and `patternProperties` key) of every corpus document is put in a route the way the generated
 * server.ts puts it (super-linear ones listed, as the generator lists them), then attacked with the largest body
 * the router accepts (1 MiB): one long string, and a thousand strings, of each character and pair of characters
 * the pattern mentions (plus a few usual suspects), each ending in a character that spoils the match — the shape
 * of the classic ReDoS attack strings.
 *
 * Time is the process's CPU time for the whole request (reading, parsing and validating 1 MiB included): what keeps
 * the event loop busy, and unlike the wall clock not inflated by other work on a shared machine.
 */

const BUDGET_MS = 50;
const ONE_STRING = 1_000_000;
const MANY = { count: 1000, length: 1000 };

interface Measured {
  pattern: string;
  input: string;
  ms: number;
  status: number;
}
const slowest: Measured[] = [];

/** Distinct patterns of the corpus, with the documents they come from. */
function corpusPatterns(): Map<string, string> {
  const patterns = new Map<string, string>();
  for (const doc of corpusDocuments()) {
    for (const { pattern } of findPatterns(loadSpec(doc.path).document)) if (!patterns.has(pattern)) patterns.set(pattern, doc.name);
  }
  return patterns;
}

/** Units the attack strings repeat: the pattern's own characters (and pairs of them), and common troublemakers. */
function attackUnits(pattern: string): string[] {
  const own = [...new Set(pattern.replace(/\\[dDwWsSbBpPuxc]\{?[^}]*\}?|\\./g, "").split(""))].filter((c) => c >= " " && c <= "~");
  const usual = ["a", "A", "0", "-", ".", "/", " ", "_", ":", "@", "a-", "a.", "0."];
  const singles = [...new Set([...own, ...usual.filter((u) => u.length === 1)])];
  const pairs: string[] = [];
  for (const a of singles.slice(0, 5)) for (const b of singles.slice(0, 5)) if (a !== b) pairs.push(a + b);
  return [...new Set([...singles, ...pairs, ...usual])];
}

function router(pattern: string) {
  const route: RouteSpec = {
    name: "p",
    method: "POST",
    path: "/p",
    secured: false,
    params: { path: [], query: [], header: [] },
    body: {
      required: true,
      content: { "application/json": { schema: { type: "object", properties: { v: { type: "string", pattern }, vs: { type: "array", items: { type: "string", pattern } } } } } },
    },
    responses: { "200": {} },
    validationErrorStatus: 400,
  };
  return createRouterRuntime({}, [route], { p: () => ({ status: 200 }) }, {}, { superLinearPatterns: isSuperLinear(pattern) ? [pattern] : [] });
}

/** CPU milliseconds of one request; measured up to twice more when over the limit (a GC pause is not the pattern's). */
async function time(app: ReturnType<typeof router>, body: string): Promise<{ ms: number; status: number }> {
  let best = Infinity;
  let status = 0;
  for (let attempt = 0; attempt < 3 && best >= BUDGET_MS; attempt++) {
    const request = new Request("http://x/p", { method: "POST", headers: { "content-type": "application/json" }, body });
    const started = process.cpuUsage();
    const res = await app.fetch(request);
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1000);
    status = res.status;
  }
  return { ms: best, status };
}

afterAll(() => {
  const top = slowest.sort((a, b) => b.ms - a.ms).slice(0, 10);
  console.log(`slowest requests, CPU time (limit ${BUDGET_MS} ms):\n${top.map((m) => `${m.ms.toFixed(1)} ms  ${m.status}  ${JSON.stringify(m.pattern)}  ${m.input}`).join("\n")}`);
});

describe("corpus patterns: no request blocks the event loop for more than 50 ms", () => {
  const patterns = corpusPatterns();

  it("the generator finds the super-linear ones (all in DigitalOcean's spec)", () => {
    expect([...patterns.keys()].filter(isSuperLinear).sort()).toEqual([
      ".+\\.[Jj][Ss][Oo][Nn][Ll]$",
      "^$|^((25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\\.){3}(25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)$",
      "^((xn--)?[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*\\.)+[a-zA-Z]{2,}\\.?$",
      "^.+/.+$",
      "^[a-zA-Z0-9]?[a-z0-9A-Z.\\-]*[a-z0-9A-Z]$",
    ]);
  });

  for (const [pattern, document] of patterns) {
    it(`${JSON.stringify(pattern)} (${document})`, async () => {
      const app = router(pattern);
      let worst: Measured = { pattern, input: "", ms: 0, status: 0 };
      for (const unit of attackUnits(pattern)) {
        const long = unit.repeat(Math.floor(ONE_STRING / unit.length)) + "\u0001";
        const short = unit.repeat(Math.floor(MANY.length / unit.length)) + "\u0001";
        for (const [label, body] of [
          [`"${unit}" x ${ONE_STRING}`, JSON.stringify({ v: long })],
          [`${MANY.count} x "${unit}" x ${MANY.length}`, JSON.stringify({ vs: new Array<string>(MANY.count).fill(short) })],
        ] as const) {
          const { ms, status } = await time(app, body);
          if (ms > worst.ms) worst = { pattern, input: label, ms, status };
        }
      }
      slowest.push(worst);
      expect(worst.ms, `${worst.input}: ${worst.ms.toFixed(1)} ms`).toBeLessThan(BUDGET_MS);
    }, 300_000);
  }
});
