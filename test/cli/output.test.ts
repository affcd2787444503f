import { cpSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { useColor } from "../../src/commands/output.js";
import { FIXTURES, cleanupTempDirs, projectWithV1Spec, runBin, runCli, tempDir, type CliResult } from "../helpers.js";

afterAll(cleanupTempDirs);

const ESC = "\u001b[";
const SUMMARY = /^specforge: generated\/ \d+ written, \d+ unchanged, \d+ removed \(\d+\.\d\ds\)$/;

/** Runs the CLI in-process as if stdout and stderr were terminals, with the given environment. */
async function runOnTerminal(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    cwd,
    env,
    isTTY: { stdout: true, stderr: true },
    stdout: (text) => (stdout += text + "\n"),
    stderr: (text) => (stderr += text + "\n"),
  });
  return { code, stdout, stderr };
}

describe("output", () => {
  let project: string;
  beforeAll(async () => {
    project = projectWithV1Spec();
    expect((await runCli(["generate"], project)).code).toBe(0);
  });

  it("generate prints exactly one summary line: written, unchanged, removed, time", async () => {
    // The server's runtime modules the spec needs (only those were written).
    const serverRuntime = readdirSync(join(project, "generated", "runtime", "server")).length;
    const result = await runCli(["generate", "--outputs", "client,webhooks"], project);
    expect(result.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stdout.trimEnd()).toMatch(SUMMARY);
    expect(result.stdout).toMatch(new RegExp(` \\d+ written, \\d+ unchanged, ${serverRuntime + 2} removed `)); // server.ts, server-validators.ts and the runtime (a .ts per module)
  });

  it("--quiet prints nothing but errors and warnings", async () => {
    expect(await runCli(["generate", "--quiet"], project)).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await runCli(["check", "-q"], project)).toEqual({ code: 0, stdout: "", stderr: "" });
    const drift = await runCli(["check", "--quiet", "--outputs", "client"], project);
    expect(drift.code).toBe(1);
    expect(drift.stdout).toBe("");
    expect(drift.stderr).toMatch(/extra:\s+generated\/server\.ts/);
    const error = await runCli(["generate", "--quiet", "--spec", "nope.yaml"], project);
    expect(error.code).toBe(2);
    expect(error.stderr).toMatch(/^specforge: error: nope\.yaml: file not found/);
  });

  it("--verbose adds one line per file and the time of each phase", async () => {
    const result = await runCli(["generate", "--verbose"], project);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toContain("  unchanged generated/client.ts");
    expect(lines).toContain("  unchanged generated/runtime/server/routing.ts");
    const files = readdirSync(join(project, "generated"), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
    expect(lines.filter((l) => /^  (written|unchanged|removed) +generated\//.test(l))).toHaveLength(files);
    expect(lines).toContainEqual(expect.stringMatching(/^  phases: load \d+ms, model \d+ms, emit \d+ms, format \d+ms, write \d+ms$/));
    expect(lines.at(-1)).toMatch(SUMMARY);
    const check = await runCli(["check", "--verbose"], project);
    expect(check.stdout).toMatch(/^  the manifest proves the output current \(no regeneration\); \d+ms\nspecforge: generated\/ is up to date/);
  });

  it("--quiet and --verbose together are a user error", async () => {
    const result = await runCli(["generate", "--quiet", "--verbose"], project);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("specforge: error: --quiet and --verbose cannot be used together\n");
  });

  it("colour only on a terminal, never with NO_COLOR", async () => {
    const args = ["check", "--outputs", "client"];
    const tty = await runOnTerminal(args, project, {});
    expect(tty.code).toBe(1);
    expect(tty.stderr).toContain(`${ESC}33mextra:${ESC}39m`);
    expect(tty.stderr).toMatch(new RegExp(`\\u001b\\[31m-.*} from "\\./server\\.js";`)); // index.ts no longer re-exports the server

    const noColor = await runOnTerminal(args, project, { NO_COLOR: "1" });
    expect(noColor.code).toBe(1);
    expect(noColor.stderr).not.toContain(ESC);
    expect(noColor.stderr).toBe(tty.stderr.replace(/\u001b\[\d+m/g, ""));

    const error = await runOnTerminal(["generate", "--spec", "nope.yaml"], project, {});
    expect(error.stderr).toMatch(/^specforge: \u001b\[31merror:\u001b\[39m nope\.yaml: file not found/);
    expect((await runOnTerminal(["generate", "--spec", "nope.yaml"], project, { NO_COLOR: "1" })).stderr).toMatch(/^specforge: error: nope\.yaml/);

    // Not a terminal: no colour (the tests' runCli, like a pipe).
    expect((await runCli(args, project)).stderr).not.toContain(ESC);
  });

  it("the real bin: plain in a pipe, coloured with FORCE_COLOR, plain again with NO_COLOR", async () => {
    const project = tempDir();
    cpSync(join(FIXTURES, "multi-file"), project, { recursive: true });
    expect((await runCli(["generate", "--spec", "openapi.yaml"], project)).code).toBe(0);
    writeFileSync(join(project, "generated", "notes.md"), "hand-written\n");
    const piped = await runBin(["check", "--spec", "openapi.yaml"], project, { NO_COLOR: "", FORCE_COLOR: "" });
    expect(piped.code).toBe(1);
    expect(piped.stderr).toMatch(/^extra:   generated\/notes\.md/m);
    expect(piped.stderr).not.toContain(ESC);
    const forced = await runBin(["check", "--spec", "openapi.yaml"], project, { NO_COLOR: "", FORCE_COLOR: "1" });
    expect(forced.stderr).toContain(`${ESC}33mextra:${ESC}39m   generated/notes.md`);
    const both = await runBin(["check", "--spec", "openapi.yaml"], project, { NO_COLOR: "1", FORCE_COLOR: "1" });
    expect(both.stderr).toBe(piped.stderr);
   }, 240_000); // three processes that each load the generator

  it("useColor: NO_COLOR wins, FORCE_COLOR=0 disables, otherwise the terminal decides", () => {
    expect(useColor(true, {})).toBe(true);
    expect(useColor(false, {})).toBe(false);
    expect(useColor(true, { NO_COLOR: "1" })).toBe(false);
    expect(useColor(true, { NO_COLOR: "" })).toBe(true); // "when present and not an empty string"
    expect(useColor(false, { FORCE_COLOR: "1" })).toBe(true);
    expect(useColor(true, { FORCE_COLOR: "0" })).toBe(false);
    expect(useColor(false, { FORCE_COLOR: "1", NO_COLOR: "1" })).toBe(false);
  });
});

describe("--verbose details", () => {
  it("name a file prettier formatted because the printer does not know its syntax, and why", async () => {
    const { describeGenerateDetails } = await import("../../src/commands/generate.js");
    const lines = describeGenerateDetails({
      out: "gen",
      written: ["schema.ts"],
      unchanged: [],
      removed: [],
      warnings: [],
      formattedByPrettier: [["schema.ts", "ConditionalType"]],
      remoteDocuments: [],
      milliseconds: 1,
      timings: { load: 1 },
    });
    expect(lines).toContain("  gen/schema.ts was formatted by prettier: the printer does not know ConditionalType");
  });
});
