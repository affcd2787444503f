import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { mayShowHelp } from "../../src/cli.js";
import { cleanupTempDirs, ROOT, runBin, tempDir, V1_SPEC, writeFiles } from "../helpers.js";

afterAll(cleanupTempDirs);

/** The modules a run of the built CLI loads (every resolved ESM URL, through a module.register resolve hook). */
async function modulesLoaded(args: string[]): Promise<{ code: number; urls: string[] }> {
  const dir = tempDir();
  writeFiles(dir, {
    "register.mjs": 'import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n',
    "hooks.mjs":
      'import { appendFileSync } from "node:fs";\nexport async function resolve(specifier, context, next) {\n  const result = await next(specifier, context);\n  appendFileSync(process.env.SPECFORGE_TEST_MODULE_LOG, result.url + "\\n");\n  return result;\n}\n',
    "log.txt": "",
  });
  const log = join(dir, "log.txt");
  const result = await runBin(args, ROOT, { NODE_OPTIONS: `--import ${pathToFileURL(join(dir, "register.mjs")).href}`, SPECFORGE_TEST_MODULE_LOG: log });
  return { code: result.code, urls: readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

describe("modules loaded only when a run needs them", () => {
  it("`check` does not load yargs' help layout (cliui, string-width); `check --help` does", async () => {
    const out = join(tempDir(), "out");
    expect((await runBin(["generate", "--spec", V1_SPEC, "--out", out], ROOT)).code).toBe(0);
    const check = await modulesLoaded(["check", "--spec", V1_SPEC, "--out", out]);
    expect(check.code).toBe(0);
    expect(check.urls.some((url) => url.includes("/yargs/"))).toBe(true);
    expect(check.urls.filter((url) => /\/(cliui|string-width)\//.test(url))).toEqual([]);
    const help = await modulesLoaded(["check", "--help"]);
    expect(help.code).toBe(0);
    expect(help.urls.some((url) => url.includes("/string-width/"))).toBe(true);
    expect(help.urls.some((url) => url.includes("/cliui/"))).toBe(true);
  });

  it.each([
    [["check"], false],
    [["check", "--help"], true],
    [["--help=true"], true],
    [["-h"], true],
    [["generate", "-qh"], true],
    [["generate", "--spec", "h.yaml"], false],
    [["generate", "-q"], false],
  ])("mayShowHelp(%j) = %s", (argv, expected) => expect(mayShowHelp(argv)).toBe(expected));
});
