import { EXIT, defineCommand } from "./command.js";
import { DIFF_FORMATS, FAIL_ON } from "./diff.js";
import { quietOption } from "./options.js";

interface DiffCommandArgs {
  old: string;
  new: string;
  format: (typeof DIFF_FORMATS)[number];
  "fail-on"?: (typeof FAIL_ON)[number];
  quiet?: boolean;
}

export const diffCommand = defineCommand<DiffCommandArgs>({
  name: "diff",
  describe: "the API changes between two versions of a spec (files, URLs or git:REV:path), classified breaking for clients / servers / compatible",
  positionals: {
    old: { type: "string", demandOption: true, describe: "the old version: a file, an http(s) URL, or git:REV:path (a committed version, e.g. git:HEAD~1:openapi.yaml or git:origin/main:openapi.yaml)" },
    new: { type: "string", demandOption: true, describe: "the new version: a file, an http(s) URL, or git:REV:path" },
  },
  options: () => ({
    format: { choices: DIFF_FORMATS, default: "text", requiresArg: true, describe: "text (coloured on a terminal), markdown (a PR comment, $GITHUB_STEP_SUMMARY) or json" },
    "fail-on": {
      choices: FAIL_ON,
      requiresArg: true,
      describe: "exit 1 when there is a change that is breaking (for clients or servers), breaking for clients, breaking for servers, or any change",
    },
    ...quietOption,
  }),
  examples: [
    ["$0 diff git:HEAD~1:openapi.yaml openapi.yaml", "what changed in the API since the last commit"],
    ["$0 diff old.json new.json --format markdown --fail-on breaking", "a PR comment; exit 1 when something breaks"],
    ["$0 diff openapi.yaml https://api.vendor.com/openapi.yaml", "what the vendor's published version changes against yours"],
  ],
  async run(args, context) {
    const out = context.output(args);
    const { runDiff } = await import("./diff.js");
    const result = await runDiff({ old: args.old, new: args.new, format: args.format, failOn: args["fail-on"] }, context.io.cwd, out.paint, context.env);
    out.info(result.output);
    return result.failed ? EXIT.drift : EXIT.ok;
  },
});
