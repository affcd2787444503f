import { resolveConfig } from "../config/resolve.js";
import { formatPosition, formatWarning } from "../errors.js";
import { EXIT, defineCommand } from "./command.js";
import { configOption, configSources, projectOption, readingOptions, specOption, verbosityOptions, type ConfigArgs } from "./options.js";

interface StubsArgs extends Pick<ConfigArgs, "spec" | "config" | "project" | "ref-root" | "max-spec-file-bytes"> {
  out?: string;
  quiet?: boolean;
  verbose?: boolean;
}

export const stubsCommand = defineCommand<StubsArgs>({
  name: "stubs",
  describe: "write a typed handler stub for every operation that has none yet (never changes what you wrote)",
  options: (defaults) => ({
    out: { type: "string", requiresArg: true, describe: "the folder of your handlers: one file per tag, and index.ts", defaultDescription: "`stubs` of the config, else src/handlers" },
    spec: specOption(defaults),
    ...readingOptions,
    config: configOption,
    project: { ...projectOption, defaultDescription: undefined, describe: "with a config listing several `projects`: the one to write stubs for" },
    ...verbosityOptions,
  }),
  examples: [
    ["$0 stubs", "a stub for each operation without a handler in src/handlers (or the config's `stubs`)"],
    ["$0 stubs --out server/handlers", "the same, in another folder"],
  ],
  conflicts: [["quiet", "verbose"]],
  async run(args, context) {
    const out = context.output(args);
    const sources = configSources({ ...args, out: undefined }, context.io.cwd, context.env);
    const config = await resolveConfig({ ...sources, flags: { ...sources.flags, stubs: args.out } });
    const { runStubs } = await import("./stubs.js");
    const report = await runStubs(config, config.stubs!);
    for (const warning of report.warnings) out.warn(formatWarning(warning));
    const at = (file: string, line: number, column: number) => formatPosition(`${report.shown}/${file}`, line, column);
    for (const { file, line, column, name, renamedTo } of report.stale) {
      const now = renamedTo ? `; its route is now \`${renamedTo}\`, whose stub was added` : "";
      out.warn(`${at(file, line, column)}: ${name} is not an operation of the spec any more (removed or renamed${now}); kept, and tsc reports it until you remove it`);
    }
    for (const { operation, files } of report.duplicates) out.warn(`${report.shown}: ${operation} is exported by ${files.join(" and ")}; index.ts takes ${files.at(-1)}'s`);
    if (report.indexNeeds) {
      const spread = report.indexNeeds.at(-1)!;
      out.warn(`${report.shown}/index.ts was edited, so it was not rewritten; add the new files to it:\n  ${report.indexNeeds.slice(0, -1).join("\n  ")}\n  and \`${spread}\` in \`handlers\``);
    }
    for (const { file, operation } of report.added) out.detail(`  ${report.shown}/${file}: ${operation}`);
    const byFile = new Map<string, string[]>();
    for (const { file, operation } of report.added) byFile.set(file, [...(byFile.get(file) ?? []), operation]);
    const added = [...byFile].map(([file, names]) => `${file}: ${names.join(", ")}`).join("; ");
    out.info(
      report.added.length === 0
        ? `specforge: ${report.shown}: every operation has a handler (${report.kept})`
        : `specforge: ${report.shown}: ${report.added.length} stub${report.added.length === 1 ? "" : "s"} added (${added}), ${report.kept} handler${report.kept === 1 ? "" : "s"} kept`,
    );
    return EXIT.ok;
  },
});
