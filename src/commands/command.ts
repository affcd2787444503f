/**
 * What a CLI command is: one file in src/commands/ (`<name>.command.ts`) declares its name, its own options, a
 * few examples and what it runs; src/cli.ts turns the list into yargs commands and owns the errors and exit codes.
 * A command file imports the heavy parts of specforge (emitters, TypeScript) only inside `run`, so `--help` and
 * `check` of an up-to-date folder stay fast.
 */
import type { Options, PositionalOptions } from "yargs";
import type { Output } from "./output.js";

/** The CLI's connection to the world; tests pass their own. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Whether stdout / stderr are terminals (colour is used only there, and never with NO_COLOR). */
  isTTY?: { stdout?: boolean; stderr?: boolean };
  /** Stops long-running commands (`generate --watch`, `mock`); without it, SIGINT and SIGTERM do. */
  signal?: AbortSignal;
  /**
   * Writes to stderr without a newline, for the progress line of a long `generate` on a terminal. Without it there
   * is no progress line.
   */
  stderrWrite?: (chunk: string) => void;
  /** How long a run must take before its progress is shown. @default 1000 */
  progressDelayMs?: number;
  /** The terminal's width, which `--help` wraps at. @default $COLUMNS, else 80 */
  columns?: number;
}

/** A yargs option plus the value checks yargs does not make; a failed check is a user error naming the flag. */
export interface OptionSpec extends Options {
  /** Numbers only: must be a whole number. */
  integer?: boolean;
  /** Numbers only: the smallest and largest value accepted. */
  min?: number;
  max?: number;
}

/** The defaults help shows for --spec and --out: the resolved ones (the config's when there is a config). */
export interface HelpDefaults {
  spec: string;
  out: string;
}

export interface CommandContext {
  io: CliIO;
  env: NodeJS.ProcessEnv;
  /** The output for this run (--quiet / --verbose and colour applied). */
  output(args: { quiet?: boolean; verbose?: boolean }): Output;
  /** Fires on the io's signal or on SIGINT / SIGTERM; `dispose` removes the signal handlers. */
  stopSignal(): { signal: AbortSignal; dispose: () => void };
}

export interface CliCommand<Args = Record<string, unknown>> {
  /** The word that runs it: `generate`; a subcommand's own word (`test` under `webhook`). */
  name: string;
  /** One line for the command list. */
  describe: string;
  /** Positional arguments, in order (`diff <old> <new>`). */
  positionals?: Record<string, PositionalOptions>;
  /** This command's options only (no global ones besides --help and --version). */
  options(defaults: HelpDefaults): Record<string, OptionSpec>;
  /** `[command line, what it does]`, shown by `--help`. */
  examples: [string, string][];
  /** Pairs of options that cannot be given together. */
  conflicts?: [string, string][];
  /** A group (`webhook`) has subcommands and no `run` of its own. */
  subcommands?: CliCommand<unknown>[];
  /** Runs the command and returns its exit code; user errors are thrown as UserError. */
  run?(args: Args, context: CommandContext): Promise<number>;
}

/** Declares a command with typed arguments (the CLI hands `run` what yargs parsed from the options above). */
export function defineCommand<Args>(command: CliCommand<Args>): CliCommand<Args> {
  return command;
}

/** Exit codes: documented in docs/cli.md. */
export const EXIT = { ok: 0, drift: 1, userError: 2, internalError: 3 } as const;
