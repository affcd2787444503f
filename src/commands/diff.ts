import { resolve } from "node:path";
import { toDisplayPath } from "../errors.js";
import type { Paint } from "./output.js";

/** `specforge diff OLD NEW`: the output formats and what `--fail-on` can match (options in diff.command.ts). */
export const DIFF_FORMATS = ["text", "markdown", "json"] as const;
export const FAIL_ON = ["breaking", "client", "server", "any"] as const;

export interface DiffArgs {
  old: string;
  new: string;
  format: (typeof DIFF_FORMATS)[number];
  failOn?: (typeof FAIL_ON)[number];
}

/** Loads both versions, compares them and renders the result; `failed` says whether `--fail-on` matched. */
export async function runDiff(args: DiffArgs, cwd: string, paint: Paint): Promise<{ output: string; failed: boolean }> {
  const [{ loadSpec }, { loadGitSpec, parseGitSpec }, { diffDocuments }, format, { isBreaking }] = await Promise.all([
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
