import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { cleanupTempDirs, projectWithV1Spec, runBin, writeFiles, type CliResult } from "../helpers.js";

afterAll(cleanupTempDirs);

const CLEAR = "\r\u001b[2K";

interface TerminalRun extends CliResult {
  /** What went to stderr without a newline: the progress line's drawing and erasing. */
  progress: string[];
}

/** Runs the CLI in-process as if stderr were a terminal (or not), capturing the progress line's writes. */
async function run(args: string[], cwd: string, options: { tty?: boolean; env?: NodeJS.ProcessEnv; delayMs?: number } = {}): Promise<TerminalRun> {
  let stdout = "";
  let stderr = "";
  const progress: string[] = [];
  const code = await main(args, {
    cwd,
    env: options.env ?? {},
    isTTY: { stdout: false, stderr: options.tty ?? true },
    stdout: (text) => (stdout += text + "\n"),
    stderr: (text) => (stderr += text + "\n"),
    stderrWrite: (chunk) => progress.push(chunk),
    progressDelayMs: options.delayMs ?? 0,
  });
  return { code, stdout, stderr, progress };
}

/** What a terminal shows after these writes: each \r + erase-line starts the line over. */
const screen = (chunks: string[]) => chunks.join("").split(CLEAR).at(-1);

describe("progress of a long generate, on a terminal only", () => {
  let project: string;
  beforeAll(() => {
    project = projectWithV1Spec();
  });

  it("names each phase on one line of stderr, redrawn in place, and erases it when done", async () => {
    const result = await run(["generate"], project);
    expect(result.code).toBe(0);
    const drawn = result.progress.filter((chunk) => chunk !== CLEAR);
    expect(drawn.length).toBeGreaterThan(0);
    for (const chunk of drawn) expect(chunk).toMatch(/^\r\u001b\[2Kspecforge: [A-Za-z ]+ \(\d+\.\ds\)$/);
    const phases = [...new Set(drawn.map((chunk) => /specforge: ([A-Za-z ]+) \(/.exec(chunk)![1]))];
    expect(phases).toEqual(["reading the spec", "building the model", "emitting TypeScript", "formatting", "writing the output folder"]);
    expect(screen(result.progress)).toBe(""); // erased: the terminal is left as it was
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^specforge: generated\/ \d+ written/);
  });

  it("waits before showing anything: a run shorter than the delay leaves no trace", async () => {
    const result = await run(["generate"], project, { delayMs: 60_000 });
    expect(result.code).toBe(0);
    expect(result.progress).toEqual([]);
  });

  it.each([
    ["stderr is a pipe", { tty: false }],
    ["CI is set (a CI log that looks like a terminal)", { env: { CI: "true" } }],
    ["a dumb terminal", { env: { TERM: "dumb" } }],
  ])("never when %s", async (_name, options) => {
    const result = await run(["generate"], project, options);
    expect(result.code).toBe(0);
    expect(result.progress).toEqual([]);
  });

  it("never with --quiet", async () => {
    expect((await run(["generate", "--quiet"], project)).progress).toEqual([]);
  });

  it("with several projects, says how many are done and what the running ones do", async () => {
    const multi = projectWithV1Spec();
    writeFiles(multi, {
      "specforge.config.json": JSON.stringify({
        projects: [
          { name: "one", spec: "spec/training-api.v1.yaml", out: "gen/one" },
          { name: "two", spec: "spec/training-api.v1.yaml", out: "gen/two", outputs: ["client"] },
        ],
      }),
    });
    const result = await run(["generate"], multi);
    expect(result.code).toBe(0);
    const drawn = result.progress.filter((chunk) => chunk !== CLEAR).map((chunk) => chunk.slice(CLEAR.length));
    expect(drawn).toContainEqual(expect.stringMatching(/^specforge: 0 of 2 projects done; (one|two): [A-Za-z ]+/));
    expect(drawn).toContainEqual(expect.stringMatching(/^specforge: 1 of 2 projects done/));
    expect(screen(result.progress)).toBe("");
    expect(result.stdout).toMatch(/^specforge: \[one\] gen\/one\/ \d+ written[^]*\n^specforge: \[two\] gen\/two\/ \d+ written/m);
  });

  it("the real bin in a pipe writes no escape codes at all", async () => {
    const result = await runBin(["generate"], project);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).not.toMatch(/\u001b/);
  });
});
