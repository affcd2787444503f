import yargs from "yargs";
import { resolveConfig, validateConfig, type UserConfig } from "./config/resolve.js";
import { UserError, formatWarning } from "./errors.js";
import { describeCheck, describeCheckDetails, githubActionsReport, runCheck } from "./commands/check.js";
import { DIFF_COMMAND, DIFF_DESCRIPTION, diffOptions } from "./commands/diff.js";
import { packageVersion } from "./fingerprint.js";
import { colors, createOutput, plain, useColor, type Output, type Verbosity } from "./output.js";
import { hasDrift } from "./write/drift.js";

/** Exit codes: documented in the README. */
export const EXIT = { ok: 0, drift: 1, userError: 2, internalError: 3 } as const;

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Whether stdout / stderr are terminals (colour is used only there, and never with NO_COLOR). */
  isTTY?: { stdout?: boolean; stderr?: boolean };
  /** Stops long-running commands (`generate --watch`, `mock`); without it, SIGINT and SIGTERM do. */
  signal?: AbortSignal;
}

const defaultIO: CliIO = {
  stdout: (text) => process.stdout.write(text + "\n"),
  stderr: (text) => process.stderr.write(text + "\n"),
  cwd: process.cwd(),
  isTTY: { stdout: process.stdout.isTTY, stderr: process.stderr.isTTY },
};

interface CommonArgs {
  spec?: string;
  out?: string;
  config?: string;
  outputs?: string | string[];
  format?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

/** `--format` / `--no-format` of the commands that generate code. */
const PRETTIER_FLAG = { type: "boolean", describe: "format with prettier (--no-format: don't)", defaultDescription: "true" } as const;

/** `--outputs client,server` (or repeated) → ["client", "server"]; the names are checked with the config's rules. */
function parseOutputs(value: string | string[] | undefined): UserConfig["outputs"] {
  if (value === undefined) return undefined;
  return ([] as string[])
    .concat(value)
    .flatMap((v) => String(v).split(","))
    .map((v) => v.trim())
    .filter(Boolean) as UserConfig["outputs"];
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

/** Runs the CLI and returns the exit code; never calls process.exit (so it can be tested in-process). */
export async function main(argv: string[], io: CliIO = defaultIO): Promise<number> {
  let exitCode: number = EXIT.ok;
  const env = io.env ?? process.env;
  const streams = {
    stdout: io.stdout,
    stderr: io.stderr,
    stdoutColor: useColor(io.isTTY?.stdout, env),
    stderrColor: useColor(io.isTTY?.stderr, env),
  };
  const outputOf = (args: CommonArgs): Output => {
    const verbosity: Verbosity = args.quiet ? "quiet" : args.verbose ? "verbose" : "normal";
    return createOutput(streams, verbosity);
  };
  const flagsOf = (args: CommonArgs): UserConfig => ({
    spec: args.spec,
    out: args.out,
    outputs: parseOutputs(args.outputs),
    format: args.format,
  });
  const configOf = (args: CommonArgs) => resolveConfig({ cwd: io.cwd, configFile: args.config, flags: flagsOf(args) });

  const parser = yargs(argv)
    .scriptName("specforge")
    .usage("$0 <command> [options]\n\nGenerate TypeScript types, a typed client, server route stubs and webhook verifiers from an OpenAPI 3.0/3.1 document.")
    .option("spec", { type: "string", describe: "OpenAPI document (YAML or JSON)", defaultDescription: "spec/training-api.v1.yaml", requiresArg: true })
    .option("out", { type: "string", describe: "output folder", defaultDescription: "generated", requiresArg: true })
    .option("outputs", { type: "string", describe: "outputs to emit, comma-separated: types, client, server, webhooks", defaultDescription: "all", requiresArg: true })
    // Not global: `diff` has a --format of its own (text, markdown, json); the commands that write code declare this one.
    .option("format", { ...PRETTIER_FLAG, global: false })
    .option("config", { type: "string", describe: "config file (specforge.config.json / .ts / .mjs / .js)", requiresArg: true })
    .option("quiet", { type: "boolean", alias: "q", describe: "print only errors and warnings" })
    .option("verbose", { type: "boolean", describe: "also print every file and the time of each phase" })
    .conflicts("quiet", "verbose")
    .command(
      "init",
      "add api:generate / api:check scripts to ./package.json and write specforge.config.json (idempotent)",
      (y) => y.option("format", PRETTIER_FLAG).option("force", { type: "boolean", default: false, describe: "replace api:generate / api:check scripts that run something else" }),
      async (args) => {
        const out = outputOf(args);
        if (args.config !== undefined) {
          throw new UserError("init always writes ./specforge.config.json; --config is for the other commands", {
            hint: "run `npx specforge init` without --config (and move the file afterwards if you want)",
          });
        }
        const { describeInit, runInit } = await import("./commands/init.js");
        const report = runInit({ cwd: io.cwd, flags: flagsOf(args), force: args.force });
        const { lines, warnings } = describeInit(report, io.cwd);
        for (const line of lines) out.info(line);
        for (const warning of warnings) out.warn(warning);
      },
    )
    .command(
      "generate",
      "generate the output folder from the spec (atomically; unchanged files are not rewritten)",
      (y) => y.option("format", PRETTIER_FLAG).option("watch", { type: "boolean", alias: "w", default: false, describe: "regenerate whenever the spec, a file it $refs or the config changes" }),
      async (args) => {
        const out = outputOf(args);
        if (args.watch) {
          validateConfig(flagsOf(args), "command line"); // a bad flag is final; other errors are retried on each change
          const { runWatch } = await import("./commands/watch.js");
          const stop = stopSignal(io);
          try {
            await runWatch({ cwd: io.cwd, resolveConfig: () => configOf(args), configFile: args.config, out, signal: stop.signal });
          } finally {
            stop.dispose();
          }
          return;
        }
        const { describeGenerate, describeGenerateDetails, runGenerate } = await import("./commands/generate.js");
        const report = await runGenerate(await configOf(args));
        for (const warning of report.warnings) out.warn(formatWarning(warning));
        for (const line of describeGenerateDetails(report, out.paint)) out.detail(line);
        out.info(describeGenerate(report, out.paint));
      },
    )
    .command(
      "check",
      "verify the output folder is exactly what `generate` would write (exit 1 if not); writes nothing",
      (y) => y.option("format", PRETTIER_FLAG),
      async (args) => {
        const out = outputOf(args);
        const config = await configOf(args);
        const report = await runCheck(config);
        out.detail(describeCheckDetails(report));
        if (env.GITHUB_ACTIONS === "true") for (const line of await githubActionsReport(report, config, env)) io.stdout(line);
        if (hasDrift(report.drift)) {
          out.error(describeCheck(report, out.errorPaint));
          exitCode = EXIT.drift;
        } else {
          out.info(describeCheck(report, out.paint));
        }
      },
    )
    .command(DIFF_COMMAND, DIFF_DESCRIPTION, diffOptions, async (args) => {
      const out = outputOf({ quiet: args.quiet === true, verbose: args.verbose === true });
      const { runDiff } = await import("./commands/diff.js");
      const result = await runDiff({ old: args.old, new: args.new, format: args.format, failOn: args["fail-on"] }, io.cwd, out.paint);
      out.info(result.output);
      if (result.failed) exitCode = EXIT.drift;
    })
    .command(
      "mock",
      "serve the spec on 127.0.0.1 with example or schema-generated answers (until interrupted)",
      (y) => y.option("format", PRETTIER_FLAG).option("port", { type: "number", default: 4010, describe: "port (0 picks a free one)" }),
      async (args) => {
        const out = outputOf(args);
        const { startMockServer } = await import("./commands/mock.js");
        const mock = await startMockServer(await configOf(args), args.port);
        for (const warning of mock.warnings) out.warn(formatWarning(warning));
        out.info(`specforge: mock server for ${args.spec ?? "spec/training-api.v1.yaml"} on ${mock.url}${mock.basePath} (${mock.routes} routes); Ctrl-C stops it`);
        const stop = stopSignal(io);
        try {
          await new Promise<void>((resolve) => (stop.signal.aborted ? resolve() : stop.signal.addEventListener("abort", () => resolve(), { once: true })));
          await mock.close();
        } finally {
          stop.dispose();
        }
      },
    )
    .command("webhook <action>", "webhook tools (see `specforge webhook test --help`)", (y) =>
      y
        .option("format", PRETTIER_FLAG)
        .positional("action", { choices: ["test"] as const, describe: "what to do" })
        .option("url", { type: "string", demandOption: true, requiresArg: true, describe: "receiver URL (http or https)" })
        .option("event", { type: "string", requiresArg: true, describe: "event type to send (default: the first webhook)" })
        .option("payload", { type: "string", requiresArg: true, describe: "payload template file to send instead of the event's" })
        .option("var", { type: "string", array: true, requiresArg: true, describe: "payload variable: key=value (repeatable)" })
        .option("secret-env", { type: "string", requiresArg: true, describe: "environment variable holding the signing secret" })
        .option("secret-file", { type: "string", requiresArg: true, describe: "file holding the signing secret" })
        .option("token-env", { type: "string", requiresArg: true, describe: "environment variable holding the access token" })
        .option("token-file", { type: "string", requiresArg: true, describe: "file holding the access token" })
        .option("timeout", { type: "number", default: 10_000, describe: "milliseconds to wait for the reply" })
        .conflicts("event", "payload")
        .conflicts("secret-env", "secret-file")
        .conflicts("token-env", "token-file"),
      async (args) => {
        const out = outputOf(args);
        const { runWebhookTest } = await import("./commands/webhook-test.js");
        const result = await runWebhookTest(await configOf(args), {
          url: args.url,
          event: args.event,
          payload: args.payload,
          vars: (args.var ?? []).map(String),
          secretEnv: args["secret-env"],
          secretFile: args["secret-file"],
          tokenEnv: args["token-env"],
          tokenFile: args["token-file"],
          timeoutMs: args.timeout,
        }, env);
        (result.ok ? out.info : out.error)(result.text);
        exitCode = result.ok ? EXIT.ok : EXIT.drift;
      },
    )
    .demandCommand(1, "say which command to run: init, generate, check, diff, mock or webhook test")
    .strict()
    .help()
    .alias("h", "help")
    .version(packageVersion())
    .wrap(100)
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new UserError(message);
    });

  try {
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
