import yargs from "yargs";
import { resolveConfig, type UserConfig } from "./config/resolve.js";
import { UserError, formatWarning } from "./errors.js";
import { describeCheck, runCheck } from "./commands/check.js";
import { packageVersion } from "./fingerprint.js";
import { hasDrift } from "./write/drift.js";

/** Exit codes: documented in the README. */
export const EXIT = { ok: 0, drift: 1, userError: 2, internalError: 3 } as const;

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

const defaultIO: CliIO = {
  stdout: (text) => process.stdout.write(text + "\n"),
  stderr: (text) => process.stderr.write(text + "\n"),
  cwd: process.cwd(),
};

interface CommonArgs {
  spec?: string;
  out?: string;
  config?: string;
}

/** Runs the CLI and returns the exit code; never calls process.exit (so it can be tested in-process). */
export async function main(argv: string[], io: CliIO = defaultIO): Promise<number> {
  let exitCode: number = EXIT.ok;
  const flagsOf = (args: CommonArgs): UserConfig => ({ spec: args.spec, out: args.out });
  const configOf = (args: CommonArgs) => resolveConfig({ cwd: io.cwd, configFile: args.config, flags: flagsOf(args) });

  const parser = yargs(argv)
    .scriptName("specforge")
    .usage("$0 <command> [options]\n\nGenerate TypeScript types, a typed client, server route stubs and webhook verifiers from an OpenAPI 3.0/3.1 document.")
    .option("spec", { type: "string", describe: "OpenAPI document (YAML or JSON)", defaultDescription: "spec/training-api.v1.yaml", requiresArg: true })
    .option("out", { type: "string", describe: "output folder", defaultDescription: "generated", requiresArg: true })
    .option("config", { type: "string", describe: "config file (specforge.config.json / .mjs / .js)", requiresArg: true })
    .command(
      "generate",
      "generate the output folder from the spec (atomically; unchanged files are not rewritten)",
      () => {},
      async (args) => {
        const { describeGenerate, runGenerate } = await import("./commands/generate.js");
        const report = await runGenerate(await configOf(args));
        for (const warning of report.warnings) io.stderr(`specforge: warning: ${formatWarning(warning)}`);
        io.stdout(describeGenerate(report));
      },
    )
    .command(
      "check",
      "verify the output folder is exactly what `generate` would write (exit 1 if not); writes nothing",
      () => {},
      async (args) => {
        const report = await runCheck(await configOf(args));
        if (hasDrift(report.drift)) {
          io.stderr(describeCheck(report));
          exitCode = EXIT.drift;
        } else {
          io.stdout(describeCheck(report));
        }
      },
    )
    .command(
      "mock",
      "serve the spec on 127.0.0.1 with example or schema-generated answers (until interrupted)",
      (y) => y.option("port", { type: "number", default: 4010, describe: "port (0 picks a free one)" }),
      async (args) => {
        const { startMockServer } = await import("./commands/mock.js");
        const mock = await startMockServer(await configOf(args), args.port);
        for (const warning of mock.warnings) io.stderr(`specforge: warning: ${formatWarning(warning)}`);
        io.stdout(`specforge: mock server for ${args.spec ?? "spec/training-api.v1.yaml"} on ${mock.url}${mock.basePath} (${mock.routes} routes); Ctrl-C stops it`);
        await new Promise<void>((resolve) => {
          const stop = () => void mock.close().then(resolve);
          process.once("SIGINT", stop);
          process.once("SIGTERM", stop);
        });
      },
    )
    .command("webhook <action>", "webhook tools (see `specforge webhook test --help`)", (y) =>
      y
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
        }, io.env ?? process.env);
        (result.ok ? io.stdout : io.stderr)(result.text);
        exitCode = result.ok ? EXIT.ok : EXIT.drift;
      },
    )
    .demandCommand(1, "say which command to run: generate, check or webhook test")
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
    if (error instanceof UserError) {
      io.stderr(`specforge: error: ${error.format()}`);
      return EXIT.userError;
    }
    io.stderr(`specforge: internal error (a bug in specforge; please report it): ${(error as Error)?.stack ?? String(error)}`);
    return EXIT.internalError;
  }
  return exitCode;
}
