import { resolveConfig, resolveConfigs, validateConfig } from "../config/resolve.js";
import { UserError, formatWarning } from "../errors.js";
import type { Output } from "./output.js";
import { EXIT, defineCommand, type CommandContext } from "./command.js";
import { clientResourcesOption, clientStyleOption, configFlags, configOption, configSources, formatOption, formOption, outOption, outputsOption, projectOption, specOption, verbosityOptions, type ConfigArgs, readingOptions } from "./options.js";
import { createProgress, type Progress } from "./progress.js";
import { SHARED_RUNTIME_LABEL, printOutcome, projectLabel, worstExitCode } from "./report.js";

interface GenerateArgs extends ConfigArgs {
  watch?: boolean;
  offline?: boolean;
  poll?: number;
  quiet?: boolean;
  verbose?: boolean;
}

/** What the progress line says during each phase. */
export const PHASE_TEXT = {
  load: "reading the spec",
  model: "building the model",
  emit: "emitting TypeScript",
  format: "formatting",
  write: "writing the output folder",
} as const;

export const generateCommand = defineCommand<GenerateArgs>({
  name: "generate",
  describe: "generate the output folder from the spec (atomically; unchanged files are not rewritten)",
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
    watch: { type: "boolean", alias: "w", describe: "regenerate whenever the spec, a file it $refs or the config changes" },
    poll: { type: "number", requiresArg: true, min: 0, describe: "with --watch and a spec from a URL: ask the server every this many seconds whether it changed (0: never)", defaultDescription: "fetch.pollSeconds, else 0" },
    offline: { type: "boolean", describe: "documents from URLs come from the cache (the locked version first), not the network" },
    ...verbosityOptions,
  }),
  examples: [
    ["$0 generate", "generate what the config says (or spec/ → generated/ without one)"],
    ["$0 generate --spec api.yaml --outputs client", "the typed client alone, from api.yaml"],
    ["$0 generate --spec https://api.example.com/openapi.json", "from the vendor's published document (locked in the manifest, kept in the cache)"],
    ["$0 generate --watch", "regenerate on every save of the spec"],
  ],
  conflicts: [["quiet", "verbose"]],
  async run(args, context) {
    const out = context.output(args);
    if (args.poll !== undefined && !args.watch) throw new UserError("--poll applies to --watch", { location: "command line", hint: "generate --watch --poll 300" });
    if (args.watch) return watch(args, context, out);
    const configs = await resolveConfigs(configSources(args, context.io.cwd, context.env));
    const progress = createProgress(context.io, context.env, { quiet: args.quiet, columns: process.stderr.columns });
    try {
      if (configs.length === 1) {
        const { describeGenerate, describeGenerateDetails } = await import("./generate.js");
        const { runGenerate } = await import("../pipeline.js");
        const report = await runGenerate(configs[0]!, { onPhase: (phase) => progress.update(PHASE_TEXT[phase]), ...(args.offline ? { remote: "offline" as const } : {}) });
        progress.done();
        for (const warning of report.warnings) out.warn(formatWarning(warning));
        for (const line of describeGenerateDetails(report, out.paint)) out.detail(line);
        out.info(describeGenerate(report, out.paint));
        if (report.sharedRuntime) {
          for (const line of describeGenerateDetails(report.sharedRuntime, out.paint)) out.detail(line);
          out.info(describeGenerate(report.sharedRuntime, out.paint));
        }
        return EXIT.ok;
      }
      return await runSeveral(configs, out, progress, args.offline === true);
    } finally {
      progress.done();
    }
  },
});

/** Several projects: in parallel, one line each (in the config's order), the worst exit code. */
async function runSeveral(configs: Awaited<ReturnType<typeof resolveConfigs>>, out: Output, progress: Progress, offline: boolean): Promise<number> {
  const { runProjects } = await import("./projects.js");
  const shared = configs[0]!.sharedRuntime;
  if (shared) (await import("../shared-runtime.js")).assertSharedRuntimeWritable(shared, configs[0]!.cwd);
  const outcomes: Parameters<typeof printOutcome>[1][] = [];
  const phases = new Map<number, string>();
  let printed = 0;
  const showProgress = () => {
    const running = [...phases].map(([index, phase]) => `${configs[index]!.project}: ${phase}`);
    progress.update(`${outcomes.filter(Boolean).length} of ${configs.length} projects done${running.length ? `; ${running.join(", ")}` : ""}`);
  };
  await runProjects("generate", configs, {
    offline,
    onPhase: (index, phase) => {
      phases.set(index, PHASE_TEXT[phase]);
      showProgress();
    },
    onOutcome: (index, outcome) => {
      outcomes[index] = outcome;
      phases.delete(index);
      // Lines come in the config's order, each as soon as it and every project before it are done.
      progress.around(() => {
        for (; printed < configs.length && outcomes[printed]; printed++) printOutcome(configs[printed]!, outcomes[printed]!, out);
      });
      showProgress();
    },
  });
  if (shared) {
    const { runSharedRuntime } = await import("./projects.js");
    const outcome = await runSharedRuntime("generate", shared, configs, outcomes);
    progress.around(() => printOutcome(SHARED_RUNTIME_LABEL, outcome, out));
    outcomes.push(outcome);
  }
  return worstExitCode(outcomes);
}

async function watch(args: GenerateArgs, context: CommandContext, out: Output): Promise<number> {
  validateConfig(configFlags(args), "command line"); // a bad flag is final; other errors are retried on each change
  const sources = configSources(args, context.io.cwd, context.env);
  // One watcher follows one spec: a config with several projects needs --project.
  const first = await resolveConfigs(sources).catch(() => undefined);
  if (first && first.length > 1) {
    throw new UserError(`--watch follows one project, and the config lists ${first.length} (${first.map(projectLabel).join(", ")})`, {
      location: first[0]!.configFile,
      hint: "pick one with --project NAME (run one watcher per project)",
    });
  }
  const { runWatch } = await import("./watch.js");
  const stop = context.stopSignal();
  try {
    await runWatch({
      cwd: context.io.cwd,
      resolveConfig: () => resolveConfig(sources),
      configFile: args.config,
      out,
      signal: stop.signal,
      ...(args.poll !== undefined ? { pollSeconds: args.poll } : {}),
      ...(args.offline ? { offline: true } : {}),
    });
  } finally {
    stop.dispose();
  }
  return EXIT.ok;
}
