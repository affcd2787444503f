/**
 * yargs without its help layout's modules when no help is shown. yargs' ESM entry (`yargs/index.mjs`) builds the
 * parser from a "platform shim" that imports cliui, string-width (which compiles its emoji regex on import),
 * wrap-ansi, strip-ansi and get-east-asian-width: about 20 modules used only to lay out `--help` text, and measured
 * as half of yargs' import on `specforge check` (bench/NOTES.md, session 5). Here the same factory gets the same shim,
 * with those two loaded only for a run that may show help. In every other run the layout is a stand-in that lays
 * out nothing: yargs still builds the help text of the command it runs (usage.cacheHelpMessage, in case the command
 * then asks for it), which specforge never shows without `--help` (its failures are its own messages, see cli.ts).
 *
 * yargs is pinned (package.json: 18.2.0); this mirrors its lib/platform-shims/esm.mjs, and test/cli tests both help
 * and parsing.
 */
import { notStrictEqual, strictEqual } from "node:assert";
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, extname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import type { Argv } from "yargs";

type YargsFactory = (shim: unknown) => (argv: string[]) => Argv;

/** yargs' parser factory, with cliui and string-width only when `help` (the run shows help text). */
export async function loadYargs(help: boolean): Promise<(argv: string[]) => Argv> {
  const entry = import.meta.resolve("yargs"); // …/yargs/index.mjs
  const here = (path: string) => new URL(path, entry).href;
  const [{ YargsFactory }, { getProcessArgvBin }, { default: Parser }, { default: escalade }, { default: getCallerFile }, { default: y18n }, layout] = await Promise.all([
    import(here("./build/lib/yargs-factory.js")) as Promise<{ YargsFactory: YargsFactory }>,
    import(here("./build/lib/utils/process-argv.js")) as Promise<{ getProcessArgvBin: () => string }>,
    import("yargs-parser"),
    import("escalade/sync" as string) as Promise<{ default: unknown }>,
    import("get-caller-file" as string) as Promise<{ default: (position: number) => string }>,
    import("y18n" as string) as Promise<{ default: (options: object) => unknown }>,
    help ? Promise.all([import("cliui" as string), import("string-width" as string)]) : undefined,
  ]);
  // cliui's interface as yargs' usage.js uses it (div, span, toString), laying out nothing.
  const noLayout = () => ({ div: () => {}, span: () => {}, toString: () => "" });
  const yargsDir = fileURLToPath(new URL(".", entry));
  const mainFilename = yargsDir.substring(0, yargsDir.lastIndexOf("node_modules"));
  const shim = {
    assert: { notStrictEqual, strictEqual },
    cliui: layout ? (layout[0] as { default: unknown }).default : noLayout,
    findUp: escalade,
    getEnv: (key: string) => process.env[key],
    inspect,
    getProcessArgvBin,
    mainFilename: mainFilename || process.cwd(),
    Parser,
    path: { basename, dirname, extname, relative, resolve, join },
    process: {
      argv: () => process.argv,
      cwd: process.cwd,
      emitWarning: (warning: string, type: string) => process.emitWarning(warning, type),
      execPath: () => process.execPath,
      exit: (code: number) => process.exit(code),
      nextTick: process.nextTick,
      stdColumns: typeof process.stdout.columns !== "undefined" ? process.stdout.columns : null,
    },
    readFileSync,
    readdirSync,
    require: createRequire(entry),
    getCallerFile: () => {
      const callerFile = getCallerFile(3);
      return callerFile.match(/^file:\/\//) ? fileURLToPath(callerFile) : callerFile;
    },
    stringWidth: layout ? (layout[1] as { default: unknown }).default : (text: string) => text.length,
    y18n: y18n({ directory: join(yargsDir, "locales"), updateFiles: false }),
  };
  return YargsFactory(shim);
}
