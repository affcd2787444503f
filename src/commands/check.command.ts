import { resolveConfigs } from "../config/resolve.js";
import { hasDrift } from "../write/drift.js";
import { EXIT, defineCommand } from "./command.js";
import { configOption, configSources, formatOption, outOption, outputsOption, projectOption, specOption, verbosityOptions, type ConfigArgs, readingOptions } from "./options.js";
import type { ProjectOutcome } from "./projects.js";
import { printOutcome, worstExitCode } from "./report.js";

interface CheckArgs extends ConfigArgs {
  quiet?: boolean;
  verbose?: boolean;
}

export const checkCommand = defineCommand<CheckArgs>({
  name: "check",
  describe: "verify the output folder is exactly what `generate` would write (exit 1 if not); writes nothing",
  options: (defaults) => ({
    spec: specOption(defaults),
    ...readingOptions,
    out: outOption(defaults),
    outputs: outputsOption,
    format: formatOption,
    config: configOption,
    project: projectOption,
    ...verbosityOptions,
  }),
  examples: [
    ["$0 check", "in CI: exit 1 (with a diff) when someone changed the spec and did not regenerate"],
    ["$0 check --project billing", "only the project named billing of a config with several"],
  ],
  conflicts: [["quiet", "verbose"]],
  async run(args, context) {
    const out = context.output(args);
    const configs = await resolveConfigs(configSources(args, context.io.cwd));
    if (configs.length === 1) {
      const { describeCheck, describeCheckDetails } = await import("./check.js");
      const { runCheck } = await import("../pipeline.js");
      const report = await runCheck(configs[0]!);
      out.detail(describeCheckDetails(report));
      if (!hasDrift(report.drift)) {
        out.info(describeCheck(report, out.paint));
        return EXIT.ok;
      }
      out.error(describeCheck(report, out.errorPaint));
      return EXIT.drift;
    }
    const { runProjects } = await import("./projects.js");
    const outcomes: ProjectOutcome[] = [];
    let printed = 0;
    await runProjects("check", configs, {
      onOutcome: (index, outcome) => {
        outcomes[index] = outcome;
        for (; printed < configs.length && outcomes[printed]; printed++) printOutcome(configs[printed]!, outcomes[printed]!, out);
      },
    });
    return worstExitCode(outcomes);
  },
});
