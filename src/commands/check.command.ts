import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { resolveConfigs } from "../config/resolve.js";
import { UserError } from "../errors.js";
import { EXIT, defineCommand } from "./command.js";
import { clientResourcesOption, clientStyleOption, configOption, configSources, formatOption, formOption, outOption, outputsOption, projectOption, specOption, verbosityOptions, type ConfigArgs, readingOptions } from "./options.js";
import type { ProjectOutcome } from "./projects.js";
import { SHARED_RUNTIME_LABEL, printOutcome, worstExitCode } from "./report.js";

interface CheckArgs extends ConfigArgs {
  quiet?: boolean;
  verbose?: boolean;
  remote?: boolean;
  markdown?: string;
  diff?: boolean;
}

export const checkCommand = defineCommand<CheckArgs>({
  name: "check",
  describe: "verify the output folder is exactly what `generate` would write (exit 1 if not); writes nothing",
  options: (defaults) => ({
    spec: specOption(defaults),
    ...readingOptions,
    out: outOption(defaults),
    outputs: outputsOption,
    "client-style": clientStyleOption,
    "client-resources": clientResourcesOption,
    format: formatOption,
    form: formOption,
    config: configOption,
    project: projectOption,
    remote: { type: "boolean", describe: "also ask the server whether a spec from a URL changed since it was locked (exit 1 with the API changes if so)" },
    markdown: { type: "string", requiresArg: true, describe: "also write the report as Markdown to this file (for an issue or a comment)" },
    diff: { type: "boolean", describe: "print each stale file's whole diff (by default its first 40 lines, long lines cut)" },
    ...verbosityOptions,
  }),
  examples: [
    ["$0 check", "in CI: exit 1 (with a diff) when someone changed the spec and did not regenerate"],
    ["$0 check --project billing", "only the project named billing of a config with several"],
    ["$0 check --remote --markdown vendor-api.md", "on a schedule: exit 1 when the vendor changed the spec at its URL, with the API changes"],
  ],
  conflicts: [["quiet", "verbose"]],
  async run(args, context) {
    const out = context.output(args);
    if (args.markdown === "") throw new UserError("--markdown needs a file name", { location: "command line" });
    const configs = await resolveConfigs(configSources(args, context.io.cwd, context.env));
    const { checkFailed, checkMarkdown, describeCheck, describeCheckDetails, githubActionsReport, projectCheckMarkdown, workflowCommand } = await import("./check.js");
    const { runCheck } = await import("../pipeline.js");
    const writeMarkdown = (text: string) => {
      if (args.markdown === undefined) return;
      const file = resolve(context.io.cwd, args.markdown);
      try {
        writeFileSync(file, text);
      } catch (error) {
        throw new UserError(`cannot write the Markdown report: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { location: args.markdown });
      }
    };
    if (configs.length === 1) {
      const report = await runCheck(configs[0]!, { remote: args.remote, fullDiff: args.diff });
      // Annotations and the step summary; only stdout reaches the workflow-command parser.
      if (context.env.GITHUB_ACTIONS === "true") for (const line of await githubActionsReport(report, configs[0]!, context.env)) context.io.stdout(line);
      writeMarkdown(checkMarkdown(report) + (report.sharedRuntime ? checkMarkdown(report.sharedRuntime) : ""));
      let exit: number = EXIT.ok;
      for (const each of [report, report.sharedRuntime]) {
        if (!each) continue;
        out.detail(describeCheckDetails(each));
        if (!checkFailed(each)) {
          out.info(describeCheck(each, out.paint));
          continue;
        }
        out.error(describeCheck(each, out.errorPaint));
        exit = EXIT.drift;
      }
      return exit;
    }
    const { runProjects, runSharedRuntime } = await import("./projects.js");
    const outcomes: ProjectOutcome[] = [];
    let printed = 0;
    await runProjects("check", configs, {
      check: { remote: args.remote, fullDiff: args.diff },
      onOutcome: (index, outcome) => {
        outcomes[index] = outcome;
        for (; printed < configs.length && outcomes[printed]; printed++) printOutcome(configs[printed]!, outcomes[printed]!, out);
      },
    });
    const labels = configs.map((config) => config.project);
    const shared = configs[0]!.sharedRuntime;
    if (shared) {
      const outcome = await runSharedRuntime("check", shared, configs, outcomes, { check: { fullDiff: args.diff } });
      printOutcome(SHARED_RUNTIME_LABEL, outcome, out);
      outcomes.push(outcome);
      labels.push(SHARED_RUNTIME_LABEL);
    }
    writeMarkdown(outcomes.map((outcome, index) => (outcome.ok && outcome.command === "check" ? projectCheckMarkdown(outcome.report, labels[index]) : "")).join(""));
    if (context.env.GITHUB_ACTIONS === "true") {
      // Each project's annotations and step summary, its name in every title; a project that could not be checked
      // gets an error annotation of its own (its message is also on stderr).
      for (const [index, outcome] of outcomes.entries()) {
        const config = configs[index] ?? { ...configs[0]!, project: SHARED_RUNTIME_LABEL };
        const lines = outcome.ok
          ? outcome.command === "check"
            ? await githubActionsReport(outcome.report, config, context.env)
            : []
          : [workflowCommand("error", { title: `[${labels[index]}] specforge check` }, outcome.error.user ? `${outcome.error.location ? `${outcome.error.location}: ` : ""}${outcome.error.message}` : `specforge failed (a bug): ${outcome.error.message ?? "a worker failed"}`)];
        for (const line of lines) context.io.stdout(line);
      }
    }
    return worstExitCode(outcomes);
  },
});
