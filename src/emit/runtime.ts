import type { RuntimeKind } from "../package/fingerprint.js";
import type { RuntimeFolder, RuntimeTemplate } from "../package/templates.js";
import type { EmittedFile } from "./file.js";

/**
 * The hand-written runtime of one output kind, in the output's form:
 * - `ts`: each module of `templates/<kind>/` as it is, `runtime/<kind>/<name>.ts`, for the project's own compiler
 *   or bundler to build like the rest of its code (any module system, any target);
 * - `js`: as npm packages ship code, `runtime/<kind>/<name>.js` (compiled by specforge's build, comments kept) and
 *   `<name>.d.ts` (its declarations), so a downstream `tsc` reads declarations only. The `.js` names its
 *   declarations for Deno (`@ts-self-types`).
 *
 * With `importers` (the generated files that import this runtime), only the modules they need are copied: in the
 * `ts` form every module their imports reach; in the `js` form a module's `.js` when code imports it (the import
 * closure of the `.js` files, whose type-only imports are gone), its `.d.ts` when a declaration does (a type the
 * typed surface names, such as `Stream`, needs no code). Without, all of them.
 */
export function emitRuntime(kind: RuntimeKind, folder: RuntimeFolder, importers?: readonly EmittedFile[]): EmittedFile[] {
  const templates = folder.modules;
  if (folder.form === "ts") {
    const needed = importers && closure(templates, typeScriptRoots(kind, importers), (template) => template.ts);
    return templates
      .filter((template) => !needed || needed.has(template.name))
      .map((template) => ({
        path: `runtime/${kind}/${template.name}.ts`,
        content: template.ts,
        description: `${kind} runtime, copied from specforge's templates/${kind}/${template.name}.ts`,
        canonical: template.formatted?.ts,
        noCheck: true,
      }));
  }
  const needed = importers && javaScriptClosure(kind, templates, importers);
  return templates.flatMap((template): EmittedFile[] => {
    const description = `${kind} runtime, compiled from specforge's templates/${kind}/${template.name}.ts (type-checked there)`;
    const selfTypes = `// @ts-self-types="./${template.name}.d.ts"\n`;
    const files: EmittedFile[] = [];
    if (!needed || needed.dts.has(template.name)) {
      files.push({
        path: `runtime/${kind}/${template.name}.d.ts`,
        content: template.dts,
        description: `${description}: its declarations`,
        canonical: template.formatted?.dts,
        noCheck: true,
      });
    }
    if (!needed || needed.js.has(template.name)) {
      files.push({
        path: `runtime/${kind}/${template.name}.js`,
        content: selfTypes + template.js,
        description,
        canonical: template.formatted && selfTypes + template.formatted.js,
        noCheck: true,
      });
    }
    return files;
  });
}

/** `from "./x.js"` / `import "./x.js"` / `import("./x.js")`: the sibling modules a file names. */
const SIBLING = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']\.\/([\w-]+)\.js["']/g;

/** `from "./runtime/<kind>/x.js"` (and the other forms of SIBLING) in a generated file. */
const runtimeImport = (kind: RuntimeKind) => new RegExp(`(?:\\bfrom\\s*|\\bimport\\s*\\(?\\s*)["']\\./runtime/${kind}/([\\w-]+)\\.js["']`, "g");

/** The modules of `runtime/<kind>/` a TypeScript importer names, by any import or re-export. */
function typeScriptRoots(kind: RuntimeKind, importers: readonly EmittedFile[]): string[] {
  return importers.flatMap((file) => [...file.content.matchAll(runtimeImport(kind))].map(([, name]) => name!));
}

/** The modules `start` names and every module those import (by `text`), transitively. */
function closure(templates: readonly RuntimeTemplate[], start: readonly string[], text: (template: RuntimeTemplate) => string): Set<string> {
  const byName = new Map(templates.map((template) => [template.name, template]));
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const name = queue.pop()!;
    const template = byName.get(name);
    if (seen.has(name) || !template) continue;
    seen.add(name);
    for (const [, next] of text(template).matchAll(SIBLING)) queue.push(next!);
  }
  return seen;
}

/**
 * The modules of `runtime/<kind>/` the importers reach in the `js` form: by code (`.js`, from the imports the
 * importers do not mark `import type`/`export type` and then the `.js` files' own imports) and by types (`.d.ts`,
 * every import).
 */
function javaScriptClosure(kind: RuntimeKind, templates: readonly RuntimeTemplate[], importers: readonly EmittedFile[]): { js: Set<string>; dts: Set<string> } {
  const roots = { js: [] as string[], dts: [] as string[] };
  for (const file of importers) {
    for (const statement of file.content.split(/;\s*\n/)) {
      for (const [, name] of statement.matchAll(runtimeImport(kind))) {
        roots.dts.push(name!);
        // (A declaration file, `import type …` and `export type …` bring no code; a statement with a value name does.)
        if (!file.path.endsWith(".d.ts") && !/^\s*(?:\/\*\*[\s\S]*?\*\/\s*)?(?:import|export)\s+type\b/.test(statement)) roots.js.push(name!);
      }
    }
  }
  const js = closure(templates, roots.js, (template) => template.js);
  const dts = closure(templates, [...roots.dts, ...js], (template) => template.dts);
  return { js, dts };
}

/** Where the generated files of an output folder import the runtime from: `./runtime/<kind>/<module>.js`. */
const OWN_RUNTIME = /(["'])\.\/runtime\//g;

/**
 * An output whose runtime lives in a folder shared with other projects (config `runtime`): its runtime modules set
 * apart (written once, into the shared folder, by the caller), and its other files importing them from `base`, the
 * shared folder relative to the output folder (`../runtime`), instead of `./runtime`. Both texts of a file change,
 * its content and its canonical form; `retargeted` tells the formatter that the canonical form's import statements
 * may need laying out again (a longer or shorter specifier can cross prettier's line width).
 */
export function importSharedRuntime(files: readonly EmittedFile[], base: string): { files: EmittedFile[]; runtime: EmittedFile[] } {
  const retarget = (text: string) => text.replace(OWN_RUNTIME, `$1${base}/`);
  const own: EmittedFile[] = [];
  const runtime: EmittedFile[] = [];
  for (const file of files) {
    if (file.path.startsWith("runtime/")) {
      runtime.push(file);
      continue;
    }
    const content = retarget(file.content);
    if (content === file.content) own.push(file);
    else own.push({ ...file, content, ...(file.canonical !== undefined ? { canonical: retarget(file.canonical), retargeted: base } : {}) });
  }
  return { files: own, runtime };
}
