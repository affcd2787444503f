import { EXIT, defineCommand } from "./command.js";
import { configFlags, formatOption, formOption, outputsOption, quietOption, type ConfigArgs } from "./options.js";

interface InitArgs extends Omit<ConfigArgs, "config" | "project"> {
  project?: string;
  force?: boolean;
  quiet?: boolean;
}

export const initCommand = defineCommand<InitArgs>({
  name: "init",
  describe: "set up this project: api:generate / api:check scripts in package.json and a specforge.config.json (idempotent)",
  options: () => ({
    spec: {
      type: "string",
      requiresArg: true,
      describe: "your OpenAPI document, written into the config",
      defaultDescription: "the first of openapi.{yaml,yml,json}, spec/openapi.{yaml,yml,json} that exists",
    },
    out: {
      type: "string",
      requiresArg: true,
      describe: "the output folder, written into the config",
      defaultDescription: "src/generated when there is a src/ folder, else generated (…/NAME for a project)",
    },
    outputs: outputsOption,
    format: formatOption,
    form: formOption,
    project: {
      type: "string",
      requiresArg: true,
      describe: "add a project of this name (with --spec) to the config's `projects`: one more spec generated into its own folder",
    },
    force: { type: "boolean", describe: "replace api:generate / api:check scripts that run something else" },
    ...quietOption,
  }),
  examples: [
    ["$0 init", "scripts and a config for the spec found here"],
    ["$0 init --spec api.yaml --out src/api", "the same, for your spec and folder"],
    ["$0 init --project pay --spec pay.yaml", "add a second spec: the config then lists both as projects"],
  ],
  async run(args, context) {
    const out = context.output(args);
    const { describeInit, runInit } = await import("./init.js");
    const report = runInit({ cwd: context.io.cwd, flags: configFlags(args), force: args.force, project: args.project });
    const { lines, warnings } = describeInit(report, context.io.cwd);
    for (const line of lines) out.info(line);
    for (const warning of warnings) out.warn(warning);
    return EXIT.ok;
  },
});
