import { createRequire } from "node:module";
import { join } from "node:path";
import { surfaceRoots, trimDeclarations } from "./declared-surface.js";

/**
 * The `typescript` package (a dependency of specforge, at a pinned version), not ts-morph's bundled copy: declaration
 * emit needs the standard library's declarations, which only the package has on disk. Required on first use: a
 * generation from a build never compiles the runtime, and loading this second 9 MB compiler cost ~0.13 s per run.
 */
let typescriptPackage: typeof import("typescript") | undefined;
const loadTypeScript = () => (typescriptPackage ??= createRequire(import.meta.url)("typescript") as typeof import("typescript"));

/**
 * The runtime is written in TypeScript (templates/<kind>/*.ts, type-checked under `strict` in specforge's CI) and
 * shipped into every output as JavaScript plus declarations, the form npm packages take: `retry.js` (the code, types
 * erased, comments and blank lines kept) and `retry.d.ts` (its exported API with its JSDoc). A downstream `tsc`
 * reads only the declarations, a fifth of the lines, and checks none of the runtime's bodies (docs/performance.md,
 * "What your compiler pays"). Compiled by the build (src/package/build.ts) with the TypeScript specforge ships, so the output is
 * the same on every machine.
 */
export interface CompiledRuntimeFile {
  /** The module's code: ES2022, `import`/`export` with the templates' `.js` specifiers. */
  js: string;
  /** Its declarations. */
  dts: string;
}

/** Stands for a blank line of the source while TypeScript emits (its emitter keeps comments, not blank lines). */
const BLANK = "/*@specforge:blank-line*/";

/**
 * Compiles runtime templates, keyed by their path below templates/ (`client/retry.ts`); the result has the same keys.
 * All are compiled in one program (the files of a folder import each other). With `fileTemplates` (the texts of
 * templates/files/*.ts), each folder's declarations are trimmed to the typed surface those reach
 * (src/package/declared-surface.ts); without, every export is declared.
 */
export function compileRuntime(sources: ReadonlyMap<string, string>, templatesDir: string, fileTemplates?: readonly string[]): Map<string, CompiledRuntimeFile> {
  const ts = loadTypeScript();
  const options: import("typescript").CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: ["node"],
    typeRoots: [join(templatesDir, "..", "node_modules", "@types")],
    strict: true,
    // The rules the `ts` form's users compile the runtime under (it is copied into their projects as it is): any
    // module system and transpiler (type-only imports marked, nothing that is not erased), and no export whose type
    // their compiler would have to infer from a body.
    verbatimModuleSyntax: true,
    isolatedModules: true,
    erasableSyntaxOnly: true,
    isolatedDeclarations: true,
    declaration: true,
    skipLibCheck: true,
    removeComments: false,
    newLine: ts.NewLineKind.LineFeed,
    rootDir: templatesDir,
    outDir: join(templatesDir, "..", ".specforge-runtime-out"),
    noEmitOnError: false,
  };
  const host = ts.createCompilerHost(options);
  const byFile = new Map<string, string>();
  for (const [path, text] of sources) {
    if (text.includes(BLANK)) throw new Error(`specforge: templates/${path} contains ${BLANK}`);
    byFile.set(normalize(join(templatesDir, path)), text);
  }
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const text = byFile.get(normalize(fileName));
    if (text === undefined) return getSourceFile(fileName, languageVersion, ...rest);
    return ts.createSourceFile(fileName, markBlankLines(fileName, text), languageVersion, true);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => byFile.has(normalize(fileName)) || fileExists(fileName);
  const readFile = host.readFile.bind(host);
  host.readFile = (fileName) => byFile.get(normalize(fileName)) ?? readFile(fileName);

  const program = ts.createProgram([...byFile.keys()], options, host);
  const problems = ts.getPreEmitDiagnostics(program);
  if (problems.length > 0) {
    const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => templatesDir, getNewLine: () => "\n" };
    throw new Error(`specforge: the runtime templates do not compile:\n${ts.formatDiagnostics(problems, host)}`);
  }
  const outputs = new Map<string, string>();
  program.emit(undefined, (fileName, text) => outputs.set(normalize(fileName), text));
  const outDir = normalize(options.outDir!);
  const emitted = new Map<string, { js: string; dts: string }>();
  for (const path of sources.keys()) {
    const base = `${outDir}/${path.replace(/\.ts$/, "")}`;
    const js = outputs.get(`${base}.js`);
    const dts = outputs.get(`${base}.d.ts`);
    if (js === undefined || dts === undefined) throw new Error(`specforge: compiling templates/${path} gave no ${js === undefined ? ".js" : ".d.ts"}`);
    emitted.set(path, { js, dts });
  }
  if (fileTemplates) {
    for (const kind of new Set([...sources.keys()].map((path) => path.split("/")[0]!))) {
      const folder = [...emitted].filter(([path]) => path.startsWith(`${kind}/`));
      const moduleName = (path: string) => path.slice(kind.length + 1).replace(/\.ts$/, "");
      const trimmed = trimDeclarations(ts, new Map(folder.map(([path, { dts }]) => [moduleName(path), dts])), surfaceRoots(ts, kind, fileTemplates));
      for (const [path, files] of folder) files.dts = trimmed.get(moduleName(path))!;
    }
  }
  const result = new Map<string, CompiledRuntimeFile>();
  for (const [path, text] of sources) {
    const { js, dts } = emitted.get(path)!;
    const header = fileComment(text);
    result.set(path, { js: withHeader(unmark(js), header), dts: withHeader(unmark(dts), header) });
  }
  return result;
}

const normalize = (path: string) => path.replace(/\\/g, "/");

/**
 * The source with each blank line between statements, members or properties replaced by a marker comment, which
 * TypeScript's emitter carries over as the next node's leading comment (and drops with a node it erases).
 */
function markBlankLines(fileName: string, text: string): string {
  const ts = loadTypeScript();
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lines = new Set<number>(); // start offsets of blank lines to mark
  const visit = (node: import("typescript").Node): void => {
    const fullStart = node.getFullStart();
    const start = node.getStart(source);
    if (start > fullStart) {
      // Blank lines in the leading trivia, outside its comments.
      const comments = ts.getLeadingCommentRanges(text, fullStart) ?? [];
      const gaps: [number, number][] = [];
      let from = fullStart;
      for (const comment of comments) {
        gaps.push([from, comment.pos]);
        from = comment.end;
      }
      gaps.push([from, start]);
      for (const [gapStart, gapEnd] of gaps) {
        const gap = text.slice(gapStart, gapEnd);
        const blank = /\n([ \t]*)\r?\n/.exec(gap);
        if (blank) lines.add(gapStart + blank.index + 1);
      }
    }
    ts.forEachChild(node, visit);
  };
  for (const statement of source.statements) visit(statement);
  let marked = text;
  for (const offset of [...lines].sort((a, b) => b - a)) marked = `${marked.slice(0, offset)}${BLANK}${marked.slice(offset)}`;
  return marked;
}

/** The emitted text with each marker back to a blank line (a marker left inside a line is dropped). */
function unmark(text: string): string {
  return text.replace(/^[ \t]*\/\*@specforge:blank-line\*\/[ \t]*(\r?\n|$)/gm, "\n").replaceAll(`${BLANK} `, "").replaceAll(BLANK, "");
}

/**
 * The comment that opens a template (what the module is), when a blank line or a statement TypeScript may erase
 * (an `import type`) follows it: the emitter attaches it to that first statement and loses it with it.
 */
function fileComment(text: string): string | undefined {
  const match = /^\/\*\*[\s\S]*?\*\/\n/.exec(text);
  return match?.[0];
}

function withHeader(emitted: string, header: string | undefined): string {
  if (header === undefined || emitted.startsWith(header)) return emitted;
  return `${header}\n${emitted.replace(/^\n+/, "")}`;
}
