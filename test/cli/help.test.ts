import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS, main } from "../../src/cli.js";
import type { CliCommand } from "../../src/commands/command.js";
import { cleanupTempDirs, projectWithV1Spec, runBin, runCli, snapshotTree, tempDir, writeFiles } from "../helpers.js";

afterAll(cleanupTempDirs);

/** The long option names a help text lists. */
const flagsIn = (help: string) => [...help.matchAll(/^\s+(?:-\w, )?--([\w-]+)/gm)].map((m) => m[1]!).sort();

describe("--help: each command shows its own flags and examples", () => {
  // `--version` is the program's (`specforge --help` lists it); `--verbose` only where there are files and phases to print.
  const own: Record<string, string[]> = {
    init: ["force", "form", "format", "help", "out", "outputs", "project", "quiet", "spec"],
    generate: ["client-resources", "client-style", "config", "form", "format", "help", "max-spec-file-bytes", "offline", "out", "outputs", "poll", "project", "quiet", "ref-root", "spec", "verbose", "watch"],
    check: ["client-resources", "client-style", "config", "diff", "form", "format", "help", "markdown", "max-spec-file-bytes", "out", "outputs", "project", "quiet", "ref-root", "remote", "spec", "verbose"],
    diff: ["fail-on", "format", "help", "quiet"],
    mock: ["config", "help", "max-spec-file-bytes", "port", "project", "quiet", "ref-root", "spec"],
    "webhook test": ["config", "event", "help", "max-spec-file-bytes", "payload", "project", "quiet", "ref-root", "scheme", "secret-env", "secret-file", "spec", "timeout", "token-env", "token-file", "url", "var"],
  };
  it.each(Object.entries(own))("specforge %s --help", async (command, flags) => {
    const result = await runCli([...command.split(" "), "--help"], tempDir());
    expect(result.code).toBe(0);
    expect(flagsIn(result.stdout)).toEqual(flags);
    expect(result.stdout).toMatch(new RegExp(`^Examples:\\n  specforge ${command}`, "m"));
  });

  it("--verbose is refused where it would print nothing more", async () => {
    for (const command of [["diff", "a.yaml", "b.yaml"], ["mock"], ["init"]]) {
      const result = await runCli([...command, "--verbose"], tempDir());
      expect(result.code, command[0]).toBe(2);
      expect(result.stderr, command[0]).toMatch(/^specforge: error: unknown option --verbose for `specforge \w+`\n/);
    }
  });

  /** `specforge …args` with a terminal `columns` wide. */
  const helpAt = async (args: string[], columns?: number, env: NodeJS.ProcessEnv = {}) => {
    let stdout = "";
    const code = await main(args, { cwd: tempDir(), env, columns, stdout: (text) => (stdout += text + "\n"), stderr: () => {} });
    expect(code).toBe(0);
    return stdout;
  };
  const commands = [[], ...Object.keys(own).map((command) => command.split(" ")), ["webhook"]];

  it.each([40, 60, 80, 132])("wraps at the terminal's width (%i), on word boundaries, each flag's text apart from its type", async (columns) => {
    for (const command of commands) {
      const text = await helpAt([...command, "--help"], columns);
      // Only an example's command line (kept whole, to be copied) or a word longer than a line may be wider.
      const wide = text.split("\n").filter((line) => line.length > columns && !/^ {2}specforge /.test(line) && /\S \S/.test(line.trim()));
      expect(wide, command.join(" ")).toEqual([]);
      // No word is cut: every description reads whole once the line breaks are taken out.
      const flat = text.replace(/\s+/g, " ");
      const path = command.length === 0 ? undefined : command.reduce<CliCommand<unknown> | undefined>((found, word) => (found?.subcommands ?? COMMANDS).find((c) => c.name === word), undefined);
      const describes = path ? [path.describe, ...Object.values(path.options({ spec: "", out: "" })).map((spec) => spec.describe ?? "")] : COMMANDS.map((c) => c.describe);
      for (const describe of describes) expect(flat, command.join(" ")).toContain(describe.replace(/\s+/g, " "));
      expect(text).not.toMatch(/\S\[(string|number|boolean|array|required|default|choices)\b/);
    }
  });

  it("80 columns when the width is unknown, $COLUMNS when set", async () => {
    const widest = (text: string) => Math.max(...text.split("\n").filter((line) => !/^ {2}specforge /.test(line)).map((line) => line.length));
    expect(widest(await helpAt(["generate", "--help"]))).toBeLessThanOrEqual(80);
    expect(widest(await helpAt(["generate", "--help"]))).toBeGreaterThan(70);
    expect(widest(await helpAt(["generate", "--help"], undefined, { COLUMNS: "120" }))).toBeGreaterThan(100);
  });

  it("mock --help does not offer --outputs, init --help does not offer --config (which init never reads)", async () => {
    const dir = tempDir();
    expect((await runCli(["mock", "--help"], dir)).stdout).not.toMatch(/--outputs|--out\b|--format/);
    expect((await runCli(["init", "--help"], dir)).stdout).not.toMatch(/--config/);
  });

  it("specforge --help lists the commands and how to get a command's options", async () => {
    const result = await runCli(["--help"], tempDir());
    for (const command of ["init", "generate", "check", "mock", "webhook"]) expect(result.stdout).toMatch(new RegExp(`^  specforge ${command} `, "m"));
    expect(result.stdout).toMatch(/`specforge <command> --help` shows a command's options/);
  });

  it("the default spec is shown only when nothing else names one: with a config, help shows the config's", async () => {
    const bare = await runCli(["generate", "--help"], tempDir());
    expect(bare.stdout).toMatch(/\[default: spec\/training-api\.v1\.yaml\]/);
    const project = tempDir();
    writeFiles(project, { "specforge.config.json": '{ "spec": "api/openapi.yaml", "out": "src/api" }' });
    const configured = await runCli(["generate", "--help"], project);
    const text = configured.stdout.replace(/\s+/g, " ");
    expect(text).toMatch(/\[default: api\/openapi\.yaml \(from specforge\.config\.json\)\]/);
    expect(text).toMatch(/\[default: src\/api \(from specforge\.config\.json\)\]/);
    expect(configured.stdout).not.toMatch(/training-api/);
  });
});

describe("mistakes on the command line: exit 2, one message that says what to do", () => {
  let project: string;
  beforeAll(() => {
    project = projectWithV1Spec();
  });

  const cases: [string, string[], RegExp][] = [
    ["a command without its subcommand", ["webhook"], /^specforge: error: `specforge webhook` needs a subcommand:\n  specforge webhook test: send one signed delivery[^\n]*\n  hint: for example: specforge webhook test --url /],
    ["a misspelt command", ["generat"], /^specforge: error: unknown command `generat`\n  hint: did you mean `specforge generate`\?\n$/],
    ["a misspelt command with the flags of the right one", ["genrate", "--spec", "x"], /^specforge: error: unknown command `genrate`\n  hint: did you mean `specforge generate`\?\n$/],
    ["a misspelt command's help", ["genrate", "--help"], /^specforge: error: unknown command `genrate`\n  hint: did you mean `specforge generate`\?\n$/],
    ["a misspelt subcommand", ["webhook", "tset"], /^specforge: error: unknown command `webhook tset`\n  hint: did you mean `specforge webhook test`\?\n$/],
    ["a misspelt flag", ["generate", "--sepc", "x.yaml"], /^specforge: error: unknown option --sepc for `specforge generate`\n  hint: did you mean --spec\?\n$/],
    ["a misspelt --version", ["--versoin"], /^specforge: error: unknown option --versoin\n  hint: did you mean --version\?\n$/],
    ["-v alone", ["-v"], /^specforge: error: unknown option -v\n  hint: did you mean --version\?\n$/],
    ["-v after a command", ["check", "-v"], /^specforge: error: unknown option -v for `specforge check`\n  hint: did you mean --version or --verbose\?\n$/],
    ["another command's flag", ["mock", "--outputs", "client"], /^specforge: error: unknown option --outputs for `specforge mock`\n  hint: --outputs is an option of `specforge init`, `specforge generate`, `specforge check`\n$/],
    ["a value for a switch", ["generate", "--format=maybe"], /^specforge: error: command line: --format is a switch and takes no value, got "maybe"\n  hint: write --format or --no-format\n$/],
    ["a switch followed by a word", ["generate", "--no-format", "maybe"], /^specforge: error: `specforge generate` takes no argument `maybe`\n  hint: --no-format is a switch and takes no value: write --format or --no-format\n$/],
    ["an empty --outputs", ["generate", "--outputs", ""], /^specforge: error: command line: --outputs needs at least one of: types, client, server, webhooks, queries, msw, schemas\n/],
    ["an empty --spec", ["check", "--spec", ""], /^specforge: error: command line: --spec needs a value, got an empty string\n$/],
    ["a flag without its value", ["generate", "--out"], /^specforge: error: --out needs a value\n/],
    ["a port that is not a number", ["mock", "--port", "abc"], /^specforge: error: command line: --port must be a whole number from 0 to 65535, got "abc"\n$/],
    ["a port out of range", ["mock", "--port", "99999"], /^specforge: error: command line: --port must be a whole number from 0 to 65535, got "99999"\n$/],
    ["a fractional port", ["mock", "--port=80.5"], /--port must be a whole number from 0 to 65535, got "80\.5"/],
    ["a zero timeout", ["webhook", "test", "--url", "http://127.0.0.1:9/", "--timeout", "0"], /^specforge: error: command line: --timeout must be a whole number of at least 1, got "0"\n$/],
    ["a missing required flag", ["webhook", "test"], /^specforge: error: `specforge webhook test` needs --url\n  hint: `specforge webhook test --help` lists its options\n$/],
  ];

  it.each(cases)("%s", async (_name, args, message) => {
    const before = snapshotTree(project);
    const result = await runCli(args, project);
    expect(result.stderr).toMatch(message);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(snapshotTree(project)).toEqual(before);
  });

  it("the real bin: mock --port abc and --port 99999 are user errors (exit 2), not crashes", async () => {
    for (const port of ["abc", "99999"]) {
      const result = await runBin(["mock", "--port", port], project);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^specforge: error: command line: --port must be a whole number from 0 to 65535/);
    }
  });
});

describe("messages name the spec that was really read", () => {
  it("a missing spec named by the config: the config's path and where to fix it, never the default path", async () => {
    const project = tempDir();
    writeFiles(project, { "specforge.config.json": '{ "spec": "api/openapi.yaml" }' });
    for (const command of [["generate"], ["check"], ["mock", "--port", "0"]]) {
      const result = await runCli(command, project);
      expect(result.code, command[0]).toBe(2);
      expect(result.stderr).toBe("specforge: error: api/openapi.yaml: file not found\n  hint: fix `spec` in specforge.config.json, or pass --spec PATH\n");
    }
  });

  it("the default path appears only when it was the one read", async () => {
    const result = await runCli(["generate"], tempDir());
    expect(result.stderr).toMatch(/^specforge: error: spec\/training-api\.v1\.yaml: file not found\n  hint: with no --spec and no `spec` in a config, specforge reads spec\/training-api\.v1\.yaml/);
    const flagged = await runCli(["generate", "--spec", "other.yaml"], tempDir());
    expect(flagged.stderr).toBe("specforge: error: other.yaml: file not found\n  hint: check the path given with --spec\n");
  });

  it("check's fix regenerates exactly what was checked: the same --config, --spec and --out", async () => {
    const project = projectWithV1Spec();
    mkdirSync(join(project, "api"));
    writeFileSync(join(project, "api", "v1.yaml"), "openapi: 3.1.0\ninfo: {title: x, version: '1'}\npaths: {}\n");
    const flags = await runCli(["check", "--spec", "api/v1.yaml", "--out", "my api"], project);
    expect(flags.code).toBe(1);
    expect(flags.stderr).toMatch(/run `npx specforge generate --spec api\/v1\.yaml --out 'my api'`\n$/);
    writeFiles(project, { "conf/specforge.json": '{ "spec": "../api/v1.yaml", "out": "../src/api" }' });
    const viaConfig = await runCli(["check", "--config", "conf/specforge.json"], project);
    expect(viaConfig.stderr).toMatch(/src\/api\/ has not been generated from api\/v1\.yaml yet \(\d+ files to write\); run `npx specforge generate --config conf\/specforge\.json`\n$/);
    expect((await runCli(["generate", "--config", "conf/specforge.json"], project)).code).toBe(0);
    expect((await runCli(["check", "--config", "conf/specforge.json"], project)).code).toBe(0);
  });

  it("check --out on someone else's folder is an error, not a drift report whose fix generate would refuse", async () => {
    const project = projectWithV1Spec();
    writeFiles(project, { "handmade/api.ts": "export const mine = 1;\n" });
    const result = await runCli(["check", "--out", "handmade"], project);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "specforge: error: handmade: not an output folder of specforge (it has no .specforge-manifest.json): `specforge generate` would refuse to write into it\n" +
        "  hint: point --out (or `out` in the config) at the folder specforge generates, or at a new or empty one\n",
    );
    expect(result.stderr).not.toMatch(/run `npx specforge generate/);
  });
});
