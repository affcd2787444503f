/**
 * `--help`: a command's usage, its own options and examples, wrapped at the terminal's width on word boundaries. Laid
 * out here from the command definitions rather than by yargs, whose layout cut words at the width and ran a flag's
 * description into its `[type]` column.
 */
import type { PositionalOptions } from "yargs";
import type { CliCommand, HelpDefaults, OptionSpec } from "./command.js";

export interface HelpText {
  /** The program's one-paragraph description, shown by `specforge --help`. */
  about: string;
  /** The closing paragraph of `specforge --help`. */
  epilog: string;
}

/** `specforge --help` (path empty) or `specforge <command…> --help`. */
export function renderHelp(commands: readonly CliCommand<unknown>[], path: readonly CliCommand<unknown>[], defaults: HelpDefaults, width: number, text: HelpText): string {
  const command = path.at(-1);
  const words = ["specforge", ...path.map((c) => c.name)];
  const blocks: string[] = [];
  if (!command) {
    blocks.push(usageLine("specforge <command> [options]", width), wrap(text.about, width));
    blocks.push(section("Commands:", commands.map((c) => [commandWords(["specforge"], c), c.describe]), width));
    blocks.push(section("Options:", [["    --version", "print the version of specforge"], ["-h, --help", "print this help"]], width));
    blocks.push(wrap(text.epilog, width));
    return blocks.join("\n\n");
  }
  const subcommands = command.subcommands ?? [];
  const positionals = Object.entries(command.positionals ?? {});
  const usage = [...words, ...positionals.map(([name]) => `<${name}>`), ...(subcommands.length > 0 ? ["<command>"] : []), "[options]"].join(" ");
  blocks.push(usageLine(usage, width), wrap(command.describe, width));
  if (subcommands.length > 0) blocks.push(section("Commands:", subcommands.map((c) => [commandWords(words, c), c.describe]), width));
  if (positionals.length > 0) blocks.push(section("Positionals:", positionals.map(([name, spec]) => [name, describeOption(spec)]), width));
  const options = Object.entries(command.options(defaults)).filter(([, spec]) => !spec.hidden);
  const rows = options.map(([name, spec]): [string, string] => [flagText(name, spec), describeOption(spec)]);
  blocks.push(section("Options:", [...rows, ["-h, --help", "print this help"]], width));
  if (command.examples.length > 0) blocks.push(examples(command.examples.map(([line, what]) => [line.replace(/^\$0\b/, "specforge"), what]), width));
  return blocks.join("\n\n");
}

/** `Usage: …`, continued under its first word. */
const usageLine = (usage: string, width: number) => wrapWords(usage, width - 7).map((line, i) => (i === 0 ? `Usage: ${line}` : `       ${line}`)).join("\n");

const commandWords = (words: readonly string[], command: CliCommand<unknown>) =>
  [...words, command.name, ...Object.keys(command.positionals ?? {}).map((name) => `<${name}>`)].join(" ");

/** `-q, --quiet` or `    --spec` (long names line up whether or not there is a short one). */
function flagText(name: string, spec: OptionSpec): string {
  const short = ([] as string[]).concat(spec.alias ?? []).find((alias) => alias.length === 1);
  return `${short ? `-${short}, ` : "    "}--${name}`;
}

/** The description, then what yargs would put in its columns: `[type] [required] [choices: …] [default: …]`. */
function describeOption(spec: OptionSpec | PositionalOptions): string {
  const notes: string[] = [];
  if (spec.choices) notes.push(`[choices: ${([] as unknown[]).concat(spec.choices).map((choice) => JSON.stringify(choice)).join(", ")}]`);
  else if (spec.array) notes.push("[array]");
  else if (spec.type) notes.push(`[${spec.type}]`);
  if (spec.demandOption) notes.push("[required]");
  const shown = ("defaultDescription" in spec ? spec.defaultDescription : undefined) ?? (spec.default === undefined ? undefined : JSON.stringify(spec.default));
  if (shown !== undefined) notes.push(`[default: ${shown}]`);
  return [spec.describe ?? spec.description ?? "", ...notes].filter(Boolean).join(" ");
}

/** A heading and its rows: the first column as wide as its widest entry (up to a third of the width), the second wrapped. */
function section(heading: string, rows: [string, string][], width: number): string {
  const column = Math.min(Math.max(...rows.map(([left]) => left.length)), Math.floor(width / 3));
  const lines = [heading];
  for (const [left, right] of rows) {
    const indent = 2 + column + 2;
    const wrapped = wrapWords(right, width - indent);
    if (left.length > column) {
      // Wider than the column: the description starts on the next line.
      lines.push(`  ${left}`, ...wrapped.map((line) => " ".repeat(indent) + line));
      continue;
    }
    wrapped.forEach((line, i) => lines.push(i === 0 ? `  ${left.padEnd(column)}  ${line}` : " ".repeat(indent) + line));
  }
  return lines.join("\n");
}

/** Examples: each command line whole, with what it does beside it when both fit, else below it. */
function examples(list: [string, string][], width: number): string {
  const column = Math.max(...list.map(([line]) => line.length));
  const beside = 2 + column + 2 + 20 <= width;
  const lines = ["Examples:"];
  for (const [line, what] of list) {
    if (beside) {
      const indent = 2 + column + 2;
      wrapWords(what, width - indent).forEach((text, i) => lines.push(i === 0 ? `  ${line.padEnd(column)}  ${text}` : " ".repeat(indent) + text));
    } else {
      lines.push(`  ${line}`, ...wrapWords(what, width - 6).map((text) => `      ${text}`));
    }
  }
  return lines.join("\n");
}

const wrap = (text: string, width: number) => wrapWords(text, width).join("\n");

/**
 * Words (a `[…]` note is one word) filled into lines of at most `width` columns; a word longer than a line gets a
 * line of its own, whole.
 */
export function wrapWords(text: string, width: number): string[] {
  // A note wider than a line is broken into its words after all.
  const words = (text.match(/\[[^\]]*\]|\S+/g) ?? []).flatMap((word) => (word.length > width ? word.split(" ") : [word]));
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line === "") line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== "" || lines.length === 0) lines.push(line);
  return lines;
}
