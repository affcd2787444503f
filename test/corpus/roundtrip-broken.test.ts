import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Operation } from "../../src/ir/model.js";
import { CORPUS } from "./shared.js";
import { roundTrip } from "./roundtrip/run.js";
import { SAMPLES } from "./roundtrip/samples.js";

/**
 * The round trip catches a client broken on purpose. Its serializers are patched to keep only the first item of
 * every list (query parameters, form and multipart bodies, paths, headers: every `.filter(isPresent)` of the client
 * runtime, and deepObject's indexed lists, which Stripe's `expand[0]=…` travel in) — a bug a round trip sending
 * one-item lists cannot see, and did not: with the first sample alone the broken client passes; with every sample
 * (lists of three items among them) it fails.
 */
function keepFirstItemOnly(out: string): void {
  const folder = join(out, "runtime", "client");
  const broken = (text: string) =>
    text.replaceAll(".filter(isPresent)", ".filter(isPresent).slice(0, 1)").replaceAll("value.forEach((item, i) => isPresent(item)", "value.slice(0, 1).forEach((item, i) => isPresent(item)");
  let patched = 0;
  // (The runtime's modules in either output form: `.js` beside `.d.ts`, or `.ts`.)
  for (const name of readdirSync(folder).filter((file) => /\.[jt]s$/.test(file) && !file.endsWith(".d.ts"))) {
    const text = readFileSync(join(folder, name), "utf8");
    const patchedText = broken(text);
    if (patchedText === text) continue;
    patched += patchedText.split(".slice(0, 1)").length - 1;
    writeFileSync(join(folder, name), patchedText);
  }
  if (patched === 0) throw new Error("the client runtime has no `.filter(isPresent)` left to break: update this test's patch");
}

/** Stripe's operations with a form body or query parameter that holds a list: where the broken serializer shows. */
const withLists = (operation: Operation) =>
  /expand|ids|types|events/.test(JSON.stringify([operation.parameters.map((p) => p.name), Object.keys((operation.requestBody?.content[0]?.schema as { properties?: object } | undefined)?.properties ?? {})])) &&
  operation.method !== "delete";

const DOCUMENTS = [
  { name: "swagger-petstore-3.0.yaml", only: undefined },
  { name: "stripe-spec3-2023-09-3.0.yaml", only: (operation: Operation) => withLists(operation) && operation.path.startsWith("/v1/customers") },
];

describe("corpus: a client that drops list items fails the round trip (and passed it with one-item lists)", () => {
  for (const { name, only } of DOCUMENTS) {
    it(name, async () => {
      const path = join(CORPUS, name);
      const single = await roundTrip(name, path, { samples: [SAMPLES[0]!], only, patch: keepFirstItemOnly, outName: `broken-one-${name}` });
      expect(single.requests).toBeGreaterThan(0);
      expect(single.failures.map((f) => `${f.case.operation.name}: ${f.problems.join(" / ")}`)).toEqual([]);
      const every = await roundTrip(name, path, { only, patch: keepFirstItemOnly, outName: `broken-all-${name}` });
      expect(every.failed).toBeGreaterThan(0);
      // Each failure is a list that arrived shorter than it was given, seen by the handler or the independent validator.
      for (const failure of every.failures) expect(failure.case.id, failure.problems.join(" / ")).toMatch(/-several$/);
      expect(every.failures.map((f) => f.problems.join(" ")).join("\n")).toMatch(/\(b\) (query|body|path|headers)/);
    }, 1_800_000);
  }
});
