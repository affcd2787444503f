import { resolve } from "node:path";
import type { Argv } from "yargs";
import type { Paint } from "../output.js";

/** `specforge diff OLD NEW`: its arguments and options (declared here; cli.ts only registers the command). */
export const DIFF_COMMAND = "diff <old> <new>";
export const DIFF_DESCRIPTION = "the API changes between two versions of a spec (files or git:REV:path), classified breaking for clients / servers / compatible";
export const DIFF_FORMATS = ["text", "markdown", "json"] as const;
export const FAIL_ON = ["breaking", "client", "server", "any"] as const;

export function diffOptions<T>(y: Argv<T>) {
  return y
    .positional("old", { type: "string", demandOption: true, describe: "the old version: a file, or git:REV:path (a committed version, e.g. git:HEAD~1:openapi.yaml or git:origin/main:openapi.yaml)" })
    .positional("new", { type: "string", demandOption: true, describe: "the new version: a file, or git:REV:path" })
    .option("format", { choices: DIFF_FORMATS, default: "text" as (typeof DIFF_FORMATS)[number], describe: "text (coloured on a terminal), markdown (a PR comment, $GITHUB_STEP_SUMMARY) or json" })
    .option("fail-on", {
      choices: FAIL_ON,
      describe: "exit 1 when there is a change that is breaking (for clients or servers), breaking for clients, breaking for servers, or any change",
    });
}

export interface DiffArgs {
  old: string;
  new: string;
  format: (typeof DIFF_FORMATS)[number];
  failOn?: (typeof FAIL_ON)[number];
}

/** Loads both versions, compares them and renders the result; `failed` says whether `--fail-on` matched. */
export async function runDiff(args: DiffArgs, cwd: string, paint: Paint): Promise<{ output: string; failed: boolean }> {
  const [{ loadSpec, toDisplayPath }, { loadGitSpec, parseGitSpec }, { diffDocuments }, format, { isBreaking }] = await Promise.all([
    import("../load/index.js"),
    import("../load/git.js"),
    import("../diff/compare.js"),
    import("../diff/format.js"),
    import("../diff/model.js"),
  ]);
  const load = (arg: string) => (parseGitSpec(arg) ? loadGitSpec(arg, cwd) : loadSpec(arg, cwd));
  const label = (arg: string) => (parseGitSpec(arg) ? arg : toDisplayPath(resolve(cwd, arg), cwd));
  const before = load(args.old);
  const after = load(args.new);
  const result = diffDocuments(before.document, after.document);
  const labels = { old: label(args.old), new: label(args.new) };
  const output =
    args.format === "json"
      ? JSON.stringify(format.toJson(result, labels), null, 2)
      : args.format === "markdown"
        ? format.toMarkdown(result, labels).trimEnd()
        : format.toText(result, labels, { paint });
  const matches = {
    breaking: result.changes.some(isBreaking),
    client: result.changes.some((c) => c.breaking.client),
    server: result.changes.some((c) => c.breaking.server),
    any: result.changes.length > 0,
  };
  return { output, failed: args.failOn !== undefined && matches[args.failOn] };
}
