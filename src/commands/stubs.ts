import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { ResolvedConfig } from "../config/resolve.js";
import { UserError, toDisplayPath, type SpecWarning } from "../errors.js";
import { INDEX_FILE, isHandlerFile, planStubs, type StubsPlan } from "../emit/stubs.js";
import { loadModel } from "../pipeline.js";
import { createFormatter } from "../write/format.js";
import { fileSystemUserError } from "../write/disk.js";

export interface StubsReport extends StubsPlan {
  /** The handler folder as messages show it. */
  shown: string;
  /** Problems in the spec that did not stop the run. */
  warnings: SpecWarning[];
}

/**
 * `specforge stubs`: writes a stub for every operation of the spec that no file of the handler folder exports a
 * handler for (src/emit/stubs.ts plans what changes). Everything is read and decided first; a bad spec, a handler
 * file that does not parse or a folder that cannot be one is a UserError with nothing written.
 */
export async function runStubs(config: ResolvedConfig, dir: string): Promise<StubsReport> {
  const shown = toDisplayPath(dir, config.cwd);
  if (!config.outputs.server) {
    throw new UserError("the stubs are typed by the server output's `Handlers`, which `outputs` leaves out", { location: config.configFile, hint: 'add "server" to `outputs`' });
  }
  const out = toDisplayPath(config.out, config.cwd);
  if (dir === config.out || dir.startsWith(config.out + sep)) {
    throw new UserError(`the handler folder ${shown} is inside the output folder ${out}, which specforge replaces on every generate`, { location: shown, hint: "choose a folder of your own with --out (or `stubs` in the config)" });
  }
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UserError("the handler folder is a file", { location: shown, hint: "choose a folder with --out (or `stubs` in the config)" });
  const { model, warnings } = await loadModel(config);
  const files = readHandlerFolder(dir, shown);
  let outputIndex = relative(dir, join(config.out, "index.js")).split(sep).join("/");
  if (!outputIndex.startsWith(".")) outputIndex = `./${outputIndex}`;
  const formatter = config.format ? await createFormatter(dir, [...files.keys(), INDEX_FILE]) : undefined;
  const plan = await planStubs(model, { files, outputIndex, shown, ...(formatter ? { format: (file, text) => formatter.format(file, text) } : {}) });
  writeFiles(dir, shown, plan.writes);
  return { ...plan, shown, warnings };
}

/** index.ts and the handler files of the folder (its top-level `.ts` files); none when it does not exist yet. */
function readHandlerFolder(dir: string, shown: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(dir)) return files;
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!(entry.name === INDEX_FILE || isHandlerFile(entry.name))) continue;
      const path = join(dir, entry.name);
      if (entry.isFile() || (entry.isSymbolicLink() && statSync(path).isFile())) files.set(entry.name, readFileSync(path, "utf8"));
    }
  } catch (error) {
    throw fileSystemUserError(error, shown, "read") ?? error;
  }
  return files;
}

/** Each file replaced by rename (a reader never sees half a file); the folder is created when it is new. */
function writeFiles(dir: string, shown: string, writes: StubsPlan["writes"]): void {
  if (writes.size === 0) return;
  try {
    mkdirSync(dir, { recursive: true });
    for (const [name, { content }] of writes) {
      const target = join(dir, name);
      const temp = join(dir, `.${name}.specforge-${process.pid}-${randomBytes(4).toString("hex")}`);
      try {
        writeFileSync(temp, content);
        renameSync(temp, target);
      } finally {
        rmSync(temp, { force: true });
      }
    }
  } catch (error) {
    const known = fileSystemUserError(error, shown, "write");
    throw known ? new UserError(known.message.replace("the output folder", "the handler folder"), { location: shown, hint: "make the folder writable, or choose another with --out", cause: error }) : error;
  }
}
