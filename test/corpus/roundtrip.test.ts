import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers.js";
import { corpusDocuments } from "./corpus.js";
import { writeReportSection } from "./report.js";
import { roundTrip, type Row } from "./roundtrip/run.js";

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
 * Each operation is sent once per distinct sample (roundtrip/samples.ts `SAMPLES`: arrays of one, several and no
 * items, optional values present and absent, text that needs escaping where it travels), or skipped for a reason
 * docs/client.md lists; the counts per document go to test/corpus/.out/report.md. (test/corpus/roundtrip-broken.test.ts
 * shows that a client broken on purpose fails it.)
 */
/** docs/client.md's section on the round trip, which lists the reasons an operation may be skipped for. */
const LISTED_SKIPS = (() => {
  const page = readFileSync(join(ROOT, "docs", "client.md"), "utf8");
  const start = page.indexOf("### Checked on real specs: the round trip");
  if (start < 0) throw new Error("docs/client.md has no section \"Checked on real specs: the round trip\"");
  const end = page.indexOf("\n## ", start);
  return page.slice(start, end < 0 ? undefined : end);
})();

const rows: Row[] = [];

afterAll(() => {
  const skipReasons = (row: Row) => [...row.skipped].map(([reason, count]) => `${count}: ${reason}`).join("; ") || "—";
  const lines = [
    "## Round trip: generated client → 127.0.0.1 → generated router, judged by express-openapi-validator",
    "",
    "| document | operations | exercised | requests | passed | failed | skipped (reason) | seconds |",
    "|---|---:|---:|---:|---:|---:|---|---:|",
    ...rows.map((r) => {
      const skipped = [...r.skipped.values()].reduce((a, b) => a + b, 0);
      return `| ${r.name} | ${r.operations} | ${r.operations - skipped} | ${r.requests} | ${r.passed} | ${r.failed} | ${skipReasons(r)} | ${(r.ms / 1000).toFixed(1)} |`;
    }),
    "",
    ...rows.flatMap((r) =>
      r.skips.length === 0
        ? []
        : [`### Skipped: ${r.name}`, "", ...r.skips.map((c) => `- \`${c.operation.method.toUpperCase()} ${c.operation.path}\` (${c.operation.name}): ${c.skip}`), ""],
    ),
    ...rows.flatMap((r) =>
      r.judgeDisagreements.length === 0
        ? []
        : [`### The judge's own disagreements: ${r.name}`, "", ...r.judgeDisagreements.slice(0, 40).map((f) => `- \`${f.case.operation.method.toUpperCase()} ${f.case.operation.path}\` (${f.case.operation.name}): ${f.problems.join(" / ").replace(/\n/g, " ")}`), ""],
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

