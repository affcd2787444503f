import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { changedLines, dataTables } from "../data-tables.js";
import { commitAll, gitRepo } from "../diff/git-repo.js";
import { cleanupTempDirs, runBin } from "../helpers.js";
import { CORPUS } from "./shared.js";

/**
 * The output is read in pull requests and guarded by `check`: on a real spec (Stripe's, 468 operations), a three-line
 * edit must make a report of a few KB and touch a handful of lines of each data table.
 */

afterAll(cleanupTempDirs);

const SPEC = "spec/stripe.yaml";

/** A new optional query parameter on `DELETE /v1/customers/{customer}`: three lines of the spec. */
function addQueryParameter(text: string): string {
  const path = text.indexOf("  '/v1/customers/{customer}':\n");
  const parameters = text.indexOf("      parameters:\n", path) + "      parameters:\n".length;
  expect(path).toBeGreaterThan(0);
  return `${text.slice(0, parameters)}        - in: query\n          name: probe\n          schema: {type: string, enum: [a, b]}\n${text.slice(parameters)}`;
}

describe("a three-line edit of Stripe's spec", () => {
  it("`check` reports the API change and each stale file in a few KB; each data table changes by a handful of lines", async () => {
    const repo = gitRepo();
    mkdirSync(join(repo, "spec"));
    copyFileSync(join(CORPUS, "stripe-spec3-2023-09-3.0.yaml"), join(repo, SPEC));
    expect((await runBin(["generate", "--spec", SPEC, "--quiet"], repo)).code).toBe(0);
    commitAll(repo, "spec and generated output");
    const before = readTree(join(repo, "generated"));
    writeFileSync(join(repo, SPEC), addQueryParameter(readFileSync(join(repo, SPEC), "utf8")));

    const check = await runBin(["check", "--spec", SPEC], repo);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("DELETE /v1/customers/{customer} query parameter probe: optional query parameter added");
    expect(check.stderr).toMatch(/^stale: {3}generated\/client\.ts \(\+1 -1 lines\)$/m);
    expect(Buffer.byteLength(check.stderr)).toBeLessThan(6_000);

    expect((await runBin(["generate", "--spec", SPEC, "--quiet"], repo)).code).toBe(0);
    const after = readTree(join(repo, "generated"));
    const changed: Record<string, number> = {};
    for (const file of ["client.ts", "server.ts", "server-validators.ts"]) {
      const [old, now] = [dataTables(before.get(file)!), dataTables(after.get(file)!)];
      for (const name of old.keys()) changed[`${file} ${name}`] = changedLines(old.get(name), now.get(name)).lines;
    }
    expect(Object.entries(changed).filter(([, lines]) => lines > 4)).toEqual([]);
    expect(changed["client.ts operations"]).toBe(2);
  }, 600_000);
});

function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isFile()) files.set(entry.name, readFileSync(join(dir, entry.name), "utf8"));
  return files;
}
