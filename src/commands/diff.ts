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

/**
 * Loads both versions, compares them and renders the result; `failed` says whether `--fail-on` matched. A version
 * on an http(s) URL is fetched as `generate` fetches a spec URL (the config's `fetch` settings, the cache), so a
 * vendor's published document can be compared with the one a project was generated from.
 */
export async function runDiff(args: DiffArgs, cwd: string, paint: Paint, env: NodeJS.ProcessEnv = process.env): Promise<{ output: string; failed: boolean }> {
  const [{ loadSpec }, { loadGitSpec, parseGitSpec }, { diffDocuments }, format, { isBreaking }, { isHttpUrl }] = await Promise.all([
    import("../load/index.js"),
    import("../load/git.js"),
    import("../diff/compare.js"),
    import("../diff/format.js"),
    import("../diff/model.js"),
    import("../openapi/url.js"),
  ]);
  const loadUrl = async (url: string) => {
    const [{ resolveUrlSource }, { loadSpecSource }] = await Promise.all([import("../config/resolve.js"), import("../load/remote-documents.js")]);
    return loadSpecSource(await resolveUrlSource({ cwd, env }, url));
  };
  const load = async (arg: string) => (parseGitSpec(arg) ? loadGitSpec(arg, cwd) : isHttpUrl(arg) ? loadUrl(arg) : loadSpec(arg, cwd));
  const label = (arg: string) => (parseGitSpec(arg) || isHttpUrl(arg) ? arg : toDisplayPath(resolve(cwd, arg), cwd));
  // One after the other: an error names the first version that failed, whichever is slower to fetch.
  const before = await load(args.old);
  const after = await load(args.new);
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
