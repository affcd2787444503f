import { basename, isAbsolute, relative } from "node:path";
import yargs, { type Argv } from "yargs";
import { DEFAULT_OUT, DEFAULT_SPEC, findConfigFile, resolveConfigs } from "./config/resolve.js";
import { UserError } from "./errors.js";
import { packageVersion } from "./package/root.js";
import { traceTime } from "./package/memory-trace.js";
import { colors, createOutput, plain, useColor, type Verbosity } from "./commands/output.js";
import { renderHelp } from "./commands/help.js";
import { didYouMean } from "./config/suggest.js";
import { EXIT, type CliCommand, type CliIO, type CommandContext, type HelpDefaults, type OptionSpec } from "./commands/command.js";
import { checkCommand } from "./commands/check.command.js";
import { diffCommand } from "./commands/diff.command.js";
import { generateCommand } from "./commands/generate.command.js";
import { initCommand } from "./commands/init.command.js";
import { mockCommand } from "./commands/mock.command.js";
import { stubsCommand } from "./commands/stubs.command.js";
import { webhookCommand } from "./commands/webhook.command.js";

export { EXIT, type CliIO } from "./commands/command.js";

/** The commands, in the order `--help` lists them. A new command is one file in src/commands/ and one entry here. */
export const COMMANDS: CliCommand<unknown>[] = [initCommand, generateCommand, checkCommand, diffCommand, mockCommand, stubsCommand, webhookCommand] as CliCommand<unknown>[];

const ABOUT = "Generates TypeScript from an OpenAPI 3.0/3.1/3.2 document: types, a typed client, a server router with route stubs, webhook verifiers.";
const EPILOG = "`specforge <command> --help` shows a command's options. Exit codes: 0 ok, 1 check found drift, 2 your input is wrong, 3 a bug in specforge.";

const defaultIO: CliIO = {
  stdout: (text) => process.stdout.write(text + "\n"),
  stderr: (text) => process.stderr.write(text + "\n"),
  stderrWrite: (chunk) => process.stderr.write(chunk),
  cwd: process.cwd(),
  isTTY: { stdout: process.stdout.isTTY, stderr: process.stderr.isTTY },
  ...(process.stdout.isTTY && process.stdout.columns > 0 ? { columns: process.stdout.columns } : {}),
};

/** yargs' message for a group command (`webhook`) given without its subcommand; replaced by a usage of our own. */
const NEEDS_SUBCOMMAND = "\u0000needs a subcommand";
const NO_COMMAND = "\u0000no command";

/** Runs the CLI and returns the exit code; never calls process.exit (so it can be tested in-process). */
export async function main(argv: string[], io: CliIO = defaultIO): Promise<number> {
  traceTime("cli main");
  let exitCode: number = EXIT.ok;
  const env = io.env ?? process.env;
  const streams = {
    stdout: io.stdout,
    stderr: io.stderr,
    stdoutColor: useColor(io.isTTY?.stdout, env),
    stderrColor: useColor(io.isTTY?.stderr, env),
  };
  const context: CommandContext = {
    io,
    env,
    output: (args) => {
      const verbosity: Verbosity = args.quiet ? "quiet" : args.verbose ? "verbose" : "normal";
      return createOutput(streams, verbosity);
    },
    stopSignal: () => stopSignal(io),
  };
  const helpAsked = argv.includes("--help") || argv.includes("-h");
  const help = helpAsked ? await helpDefaults(io.cwd) : { spec: DEFAULT_SPEC, out: DEFAULT_OUT };

  const toYargs = (command: CliCommand<unknown>, path: string[]) => ({
    command: [command.name, ...Object.keys(command.positionals ?? {}).map((name) => `<${name}>`)].join(" "),
    describe: command.describe,
    builder: (y: Argv) => {
      for (const [name, spec] of Object.entries(command.positionals ?? {})) y.positional(name, spec);
      y.options(command.options(help));
      for (const [a, b] of command.conflicts ?? []) y.conflicts(a, b);
      for (const [line, what] of command.examples) y.example(line, what);
      for (const sub of command.subcommands ?? []) y.command(toYargs(sub, [...path, sub.name]));
      if (command.subcommands) y.demandCommand(1, NEEDS_SUBCOMMAND);
      return y;
    },
    handler: async (args: Record<string, unknown>) => {
      if (!command.run) return;
      checkValues(command, help, argv, args);
      exitCode = await command.run(args, context);
    },
  });

  const parser = yargs(argv)
    .scriptName("specforge")
    .demandCommand(1, NO_COMMAND)
    .strict()
    .help(false)
    .version(packageVersion())
    .wrap(null)
    .exitProcess(false)
    .fail((message, error) => {
      // yargs reports its own validation failures as YError (sometimes with no message argument); others are ours.
      if (error && error.name !== "YError") throw error;
      throw explainParseFailure(message ?? error?.message ?? "", argv);
    });
  for (const command of COMMANDS) parser.command(toYargs(command, [command.name]));

  try {
    if (helpAsked) {
      // Help is laid out here (commands/help.ts); yargs only parses. A word that names no command is reported as such.
      const { path, stray } = commandPath(argv);
      if (stray !== undefined) throw explainParseFailure(`Unknown argument: ${stray}`, argv);
      io.stdout(renderHelp(COMMANDS, path, help, helpWidth(io, env), { about: ABOUT, epilog: EPILOG }));
      return EXIT.ok;
    }
    let printed = "";
    await parser.parseAsync(argv, {}, (_error, _args, output) => {
      printed = output;
    });
    if (printed) io.stdout(printed);
  } catch (error) {
    const { red } = streams.stderrColor ? colors : plain;
    if (error instanceof UserError) {
      io.stderr(`specforge: ${red("error:")} ${error.format()}`);
      return EXIT.userError;
    }
    io.stderr(`specforge: ${red("internal error")} (a bug in specforge; please report it): ${(error as Error)?.stack ?? String(error)}`);
    return EXIT.internalError;
  }
  return exitCode;
}

/** The width `--help` wraps at: the terminal's, else $COLUMNS, else 80; never so narrow that nothing fits. */
function helpWidth(io: CliIO, env: NodeJS.ProcessEnv): number {
  const columns = io.columns ?? Number(env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? Math.max(columns, 40) : 80;
}

/** An AbortSignal that fires on the io's signal, or on SIGINT / SIGTERM of this process. */
function stopSignal(io: CliIO): { signal: AbortSignal; dispose: () => void } {
  if (io.signal) return { signal: io.signal, dispose: () => {} };
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    },
  };
}

/**
 * The --spec / --out defaults help shows: the config's when there is one (never the built-in default then), so
 * `--help` describes this project. Help must work in a broken project too: any error falls back to a description.
 */
async function helpDefaults(cwd: string): Promise<HelpDefaults> {
  try {
    const configs = await resolveConfigs({ cwd });
    const file = configs[0]!.configFile;
    if (file === undefined) return { spec: DEFAULT_SPEC, out: DEFAULT_OUT };
    const from = basename(file) === "package.json" ? "package.json#/specforge" : basename(file);
    if (configs.length > 1 || configs[0]!.project !== undefined) return { spec: `each project's, from ${from}`, out: `each project's, from ${from}` };
    const rel = (path: string) => {
      const shown = relative(cwd, path);
      return (shown && !shown.startsWith("..") && !isAbsolute(shown) ? shown : path).split("\\").join("/");
    };
    return { spec: `${rel(configs[0]!.spec)} (from ${from})`, out: `${rel(configs[0]!.out)} (from ${from})` };
  } catch {
    const found = (() => {
      try {
        return findConfigFile(cwd);
      } catch {
        return "a config file";
      }
    })();
    return found ? { spec: "from the config", out: "from the config" } : { spec: DEFAULT_SPEC, out: DEFAULT_OUT };
  }
}

/**
 * The commands named in argv, outermost first, and the first word that names none where a command was expected (at
 * the start, or after a group command such as `webhook`).
 */
function commandPath(argv: string[]): { path: CliCommand<unknown>[]; stray?: string } {
  const path: CliCommand<unknown>[] = [];
  let list: readonly CliCommand<unknown>[] = COMMANDS;
  for (const token of argv) {
    if (token === "--" || token.startsWith("-")) break;
    const next = list.find((c) => c.name === token);
    if (!next) return path.length === 0 || path.at(-1)!.subcommands ? { path, stray: token } : { path };
    path.push(next);
    list = next.subcommands ?? [];
  }
  return { path };
}

/** The command (and subcommand) named in argv, if any: the first words that are command names. */
function commandIn(argv: string[]): { command?: CliCommand<unknown>; words: string[] } {
  let list: CliCommand<unknown>[] = COMMANDS;
  let command: CliCommand<unknown> | undefined;
  const words: string[] = [];
  for (const token of argv) {
    if (token === "--") break;
    if (token.startsWith("-")) continue;
    const next = list.find((c) => c.name === token);
    if (!next) break;
    command = next;
    words.push(token);
    list = next.subcommands ?? [];
  }
  return { command, words };
}

/** Every flag spelling a command accepts: its options and their aliases, and --help / --version. */
function flagsOf(command: CliCommand<unknown> | undefined, help: HelpDefaults): Map<string, string> {
  const names = new Map<string, string>([
    ["help", "help"],
    ["h", "help"],
    ["version", "version"],
  ]);
  for (const [name, spec] of Object.entries(command?.options(help) ?? {})) {
    names.set(name, name);
    for (const alias of ([] as string[]).concat(spec.alias ?? [])) names.set(alias, name);
  }
  return names;
}

const flag = (name: string) => (name.length === 1 ? `-${name}` : `--${name}`);

/**
 * Turns yargs' parse failures into one clear message: an unknown command or flag with the closest real one, a
 * group command without its subcommand with its usage, a missing required flag by its name.
 */
function explainParseFailure(message: string, argv: string[]): UserError {
  const { command, words } = commandIn(argv);
  const usage = words.length ? `specforge ${words.join(" ")}` : "specforge";
  const helpHint = `\`${usage} --help\` lists ${command ? "its options" : "the commands"}`;
  if (message === NO_COMMAND) {
    // `specforge --versoin`: the misspelt flag is the problem, not the missing command.
    const stray = argv.find((a) => a.startsWith("-") && !["--help", "-h", "--version"].includes(a));
    if (stray) return explainParseFailure(`Unknown argument: ${stray.replace(/^--?/, "").replace(/=.*$/, "")}`, argv);
    return new UserError(`say which command to run: ${COMMANDS.map((c) => c.name).join(", ")}`, {
      hint: "`specforge --help` describes them; start with `npx specforge init` in your project",
    });
  }
  if (message === NEEDS_SUBCOMMAND && command?.subcommands) {
    const lines = command.subcommands.map((sub) => `  specforge ${command.name} ${sub.name}: ${sub.describe}`);
    return new UserError(`\`${usage}\` needs a subcommand:\n${lines.join("\n")}`, {
      hint: `for example: ${command.examples[0]![0].replace("$0", "specforge")}; \`specforge ${command.name} ${command.subcommands[0]!.name} --help\` lists its options`,
    });
  }
  const unknown = /^Unknown arguments?: (.+)$/.exec(message);
  if (unknown) {
    // A misspelt command first (`specforge genrate --spec x`): its flags are unknown only because the command is.
    const token = commandPath(argv).stray ?? unknown[1]!.split(", ")[0]!;
    const own = flagsOf(command, { spec: DEFAULT_SPEC, out: DEFAULT_OUT });
    const asFlag = argv.find((a) => a === `--${token}` || a.startsWith(`--${token}=`) || a === `-${token}` || a === `--no-${token}`);
    if (!asFlag) {
      const siblings = command ? (command.subcommands ?? []) : COMMANDS;
      if (command?.subcommands || !command) {
        return new UserError(`unknown command \`${[...words, token].join(" ")}\``, {
          hint: didYouMean(token, siblings.map((c) => c.name), (name) => `\`specforge ${[...words, name].join(" ")}\``) ?? helpHint,
        });
      }
      const before = argv[argv.indexOf(token) - 1];
      const booleanBefore = before?.startsWith("--") && command.options({ spec: "", out: "" })[before.replace(/^--(no-)?/, "")]?.type === "boolean";
      return new UserError(`\`${usage}\` takes no argument \`${token}\``, {
        hint: booleanBefore ? `${before} is a switch and takes no value: write ${before.replace(/^--(no-)?/, "--")} or ${before.replace(/^--(no-)?/, "--no-")}` : helpHint,
      });
    }
    const elsewhere = COMMANDS.flatMap((c) => [c, ...(c.subcommands ?? []).map((s) => ({ ...s, name: `${c.name} ${s.name}` }))]).filter(
      (c) => c !== command && flagsOf(c, { spec: "", out: "" }).has(token) && !["help", "h", "version"].includes(token),
    );
    const suggestion =
      token.length === 1
        ? [...own.keys()].filter((name) => name.length > 1 && name.startsWith(token)).map((name) => flag(name))
        : [];
    const hint =
      (suggestion.length > 0 ? `did you mean ${suggestion.join(" or ")}?` : didYouMean(token, [...own.keys()].filter((n) => n.length > 1), flag)) ??
      (elsewhere.length > 0 ? `${flag(token)} is an option of ${elsewhere.map((c) => `\`specforge ${c.name}\``).join(", ")}` : helpHint);
    return new UserError(`unknown option ${flag(token)}${command ? ` for \`${usage}\`` : ""}`, { hint });
  }
  const missing = /^Missing required arguments?: (.+)$/.exec(message);
  if (missing) {
    const names = missing[1]!.split(", ").map(flag);
    return new UserError(`\`${usage}\` needs ${names.join(" and ")}`, { hint: helpHint });
  }
  const conflict = /^Arguments (\S+) and (\S+) are mutually exclusive$/.exec(message);
  if (conflict) return new UserError(`${flag(conflict[1]!)} and ${flag(conflict[2]!)} cannot be used together`);
  const noValue = /^Not enough arguments following: (\S+)$/.exec(message);
  if (noValue) return new UserError(`${flag(noValue[1]!)} needs a value`, { hint: helpHint });
  return new UserError(message, { hint: helpHint });
}

/**
 * The value checks yargs does not make: a switch written `--format=maybe` (yargs reads it as false), a number that
 * is not one or out of range (`--port abc`, `--port 99999`), an empty path (`--spec ""`).
 */
function checkValues(command: CliCommand<unknown>, help: HelpDefaults, argv: string[], args: Record<string, unknown>): void {
  const options = command.options(help);
  const end = argv.indexOf("--") === -1 ? argv.length : argv.indexOf("--");
  const raw = (name: string): string | undefined => {
    for (let i = 0; i < end; i++) {
      const token = argv[i]!;
      if (token.startsWith(`--${name}=`)) return token.slice(name.length + 3);
      if (token === `--${name}`) return argv[i + 1];
    }
    return undefined;
  };
  for (const [name, spec] of Object.entries(options)) {
    if (spec.type === "boolean") {
      for (const token of argv.slice(0, end)) {
        const written = new RegExp(`^--(?:no-)?${name}=(.*)$`).exec(token);
        if (written && !["true", "false"].includes(written[1]!)) {
          throw new UserError(`--${name} is a switch and takes no value, got ${JSON.stringify(written[1])}`, {
            location: "command line",
            hint: `write --${name} or --no-${name}`,
          });
        }
      }
    }
    const value = args[name];
    if (value === undefined) continue;
    if (spec.type === "number") {
      const given = raw(name) ?? String(value);
      const number = value as number;
      const bounds = spec.min !== undefined && spec.max !== undefined ? ` from ${spec.min} to ${spec.max}` : spec.min !== undefined ? ` of at least ${spec.min}` : "";
      if (typeof value !== "number" || !Number.isFinite(number) || (spec.integer && !Number.isInteger(number)) || (spec.min !== undefined && number < spec.min) || (spec.max !== undefined && number > spec.max)) {
        throw new UserError(`--${name} must be ${spec.integer ? "a whole number" : "a number"}${bounds}, got ${JSON.stringify(given)}`, { location: "command line" });
      }
    }
    if (spec.type === "string" && !spec.array && typeof value === "string" && value.trim() === "" && name !== "outputs") {
      throw new UserError(`--${name} needs a value, got an empty string`, { location: "command line" });
    }
  }
}
