/** How `generate` and `check` over several projects report each one: the usual lines, prefixed with its name. */
import type { ResolvedConfig } from "../config/resolve.js";
import { formatWarning, type UserError } from "../errors.js";
import type { Output } from "./output.js";
import { checkFailed, describeCheck, describeCheckDetails } from "./check.js";
import { EXIT } from "./command.js";
import { describeGenerateDetails, summarizeGenerate } from "./generate.js";
import { deserializeError, type ProjectOutcome } from "./projects.js";

/** A project's name, or its spec for a config without projects. */
export function projectLabel(config: ResolvedConfig): string {
  return config.project ?? config.spec;
}

function exitCodeOf(outcome: ProjectOutcome): number {
  if (!outcome.ok) return outcome.error.user ? EXIT.userError : EXIT.internalError;
  if (outcome.command === "check" && checkFailed(outcome.report)) return EXIT.drift;
  return EXIT.ok;
}

/** The exit code of the worst outcome: a bug (3) over a user error (2) over drift (1) over success (0). */
export function worstExitCode(outcomes: readonly ProjectOutcome[]): number {
  return outcomes.reduce((worst, outcome) => Math.max(worst, exitCodeOf(outcome)), EXIT.ok as number);
}

/** The label of the runtime folder a config's projects share (config `runtime`) in the lines of several projects. */
export const SHARED_RUNTIME_LABEL = "runtime";

/**
 * Prints one project's outcome (or the shared runtime folder's, by its label): its warnings and details, then one
 * line (a drift report before it, for check).
 */
export function printOutcome(config: ResolvedConfig | string, outcome: ProjectOutcome, out: Output): void {
  const tag = `[${typeof config === "string" ? config : projectLabel(config)}]`;
  const tagged = (text: string) => text.replace(/^specforge: /gm, `specforge: ${tag} `);
  if (!outcome.ok) {
    const error = deserializeError(outcome.error);
    const red = out.errorPaint.red;
    if (outcome.error.user) out.error(`specforge: ${tag} ${red("error:")} ${(error as UserError).format()}`);
    else out.error(`specforge: ${tag} ${red("internal error")} (a bug in specforge; please report it): ${error.stack}`);
    return;
  }
  if (outcome.command === "generate") {
    for (const warning of outcome.report.warnings) out.warn(`${tag} ${formatWarning(warning)}`);
    for (const line of describeGenerateDetails(outcome.report, out.paint)) out.detail(line);
    out.info(`specforge: ${tag} ${summarizeGenerate(outcome.report, out.paint)}`);
    return;
  }
  out.detail(describeCheckDetails(outcome.report));
  if (checkFailed(outcome.report)) out.error(tagged(describeCheck(outcome.report, out.errorPaint)));
  else out.info(tagged(describeCheck(outcome.report, out.paint)));
}
