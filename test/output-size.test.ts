import { cpSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../src/index.js";
import { cleanupTempDirs, FIXTURES, projectWithV1Spec, tempDir } from "./helpers.js";

afterAll(cleanupTempDirs);

/**
 * Budgets of the output's size, in bytes (UTF-8, prettier-formatted, TypeScript form, default outputs): the figure
 * measured when the budget was last set plus a small margin, so that growth is a decision, not an accident. Where
 * the bytes are, spec by spec: `npm run bench:size` (bench/RESULTS.size.md); what would lower them:
 * docs/performance.md.
 */
const BUDGET = {
  /**
   * The v1 spec's whole output (manifest included): 879,316 bytes measured (897,067 before the router's data dropped
   * the schemas' annotations and the webhooks runtime its vendors' schemes that v1 does not use).
   */
  v1: 890_000,
  /** Of which the runtime copied from templates/ (client, server and webhooks): 637,012 bytes measured. */
  v1Runtime: 645_000,
  /** The runtime of a client-only petstore (test/fixtures/templates/stand-in.yaml, `--outputs client`): 106,190 bytes measured. */
  petstoreClientRuntime: 108_000,
};

const bytes = (text: string) => Buffer.byteLength(text);

/** Bytes by group: schema.ts, each output's files, each runtime folder, the manifest. */
function breakdown(files: Map<string, string>): Record<string, number> {
  const groups: Record<string, number> = {};
  for (const [path, content] of files) {
    const group = path.startsWith("runtime/") ? path.split("/").slice(0, 2).join("/") : path.replace(/\.(d\.ts|ts|js|json)$/, "");
    groups[group] = (groups[group] ?? 0) + bytes(content);
  }
  return groups;
}

const total = (groups: Record<string, number>, keep: (group: string) => boolean = () => true) =>
  Object.entries(groups).reduce((sum, [group, size]) => (keep(group) ? sum + size : sum), 0);

describe("output size budgets", () => {
  it("the v1 output stays within its budget, and its runtime within its own", async () => {
    const { files } = await generate({ cwd: projectWithV1Spec() });
    const groups = breakdown(files);
    const where = JSON.stringify(groups, null, 1);
    expect(total(groups), `v1 output by group: ${where}`).toBeLessThanOrEqual(BUDGET.v1);
    expect(total(groups, (group) => group.startsWith("runtime/")), `v1 output by group: ${where}`).toBeLessThanOrEqual(BUDGET.v1Runtime);
    // A margin, not room to grow into: a budget far above the output is one nobody notices being spent.
    expect(total(groups)).toBeGreaterThan(BUDGET.v1 * 0.9);
  });

  it("a client-only petstore copies the client runtime alone, within its budget", async () => {
    const project = tempDir("specforge-size-");
    cpSync(join(FIXTURES, "templates", "stand-in.yaml"), join(project, "openapi.yaml"));
    const { files } = await generate({ cwd: project, spec: "openapi.yaml", outputs: ["client"] });
    const groups = breakdown(files);
    expect(Object.keys(groups).filter((group) => group.startsWith("runtime/"))).toEqual(["runtime/client"]);
    expect(groups["runtime/client"], JSON.stringify(groups, null, 1)).toBeLessThanOrEqual(BUDGET.petstoreClientRuntime);
  });
});
