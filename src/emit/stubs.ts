/**
 * Handler stubs (`specforge stubs`): a folder the user owns, of one TypeScript file per tag (`operations.ts` for the
 * operations without one) whose exports are the router's handlers, and an `index.ts` that assembles them. This
 * module plans a run from the model and the folder's files as they are: which stubs to append (operations no file
 * exports a handler for), what index.ts becomes, and what to report. It never changes a byte of what is there: a
 * stub is appended at the end of a file, an import a new stub needs is inserted after the file's last import, and
 * exports that name no operation any more are reported, never removed (their annotation, `Handlers["name"]`, makes
 * `tsc` point at them).
 */
import type { ApiModel, Operation } from "../ir/model.js";
import { NameRegistry, toIdentifier, words } from "../ir/naming.js";
import { ts } from "../package/deps.js";
import { UserError, formatPosition } from "../errors.js";
import { commentText } from "./literal.js";

/** The file of the operations without a tag (all of them when the spec has no tags). */
export const UNTAGGED_FILE = "operations.ts";
export const INDEX_FILE = "index.ts";

export interface StubsInput {
  /** The handler folder's top-level files, by name (`pets.ts`), as read. */
  files: ReadonlyMap<string, string>;
  /** The module specifier of the generated output's entry point, from the handler folder (`../../generated/index.js`). */
  outputIndex: string;
  /** How messages name the handler folder (`src/handlers`). */
  shown: string;
  /**
   * Formats a file's text, or a stub on its own (`file` says whose settings apply): the project's prettier settings.
   * @default the text as it is (in prettier's default form already)
   */
  format?: (file: string, text: string) => Promise<string>;
}

export interface StubsPlan {
  /** The files to write (new or changed), by name; `appended`: the stubs added at the end of an existing one. */
  writes: Map<string, { content: string; created: boolean; appended: string[] }>;
  /** The stubs added, by file, in spec order. */
  added: { file: string; operation: string }[];
  /** How many operations already had a handler. */
  kept: number;
  /** Exports of a handler file that name no operation of the spec (removed or renamed ones). */
  stale: { file: string; line: number; column: number; name: string; renamedTo?: string }[];
  /** Operations exported by more than one file (the index takes the last file's). */
  duplicates: { operation: string; files: string[] }[];
  /** Set when index.ts was edited by hand and has to be told about new files: their imports, then their spread. */
  indexNeeds?: string[];
}

/** What a handler file declares: its exports (with where they are and the route their doc names) and its imports. */
interface ParsedFile {
  exports: { name: string; line: number; column: number; route?: string }[];
  /** Local names bound by import declarations. */
  imported: Set<string>;
  /** Where a new import goes: the end of the last import declaration (0: the start of the file). */
  afterImports: number;
}

/** The files of the folder that hold handlers: its top-level `.ts` files but index.ts, declarations and tests. */
export function isHandlerFile(name: string): boolean {
  return name.endsWith(".ts") && name !== INDEX_FILE && !/\.d\.ts$|\.(test|spec)\.ts$/.test(name);
}

/** Plans one `specforge stubs` run; throws a UserError (nothing planned) for a handler file TypeScript cannot parse. */
export async function planStubs(model: ApiModel, input: StubsInput): Promise<StubsPlan> {
  const format = input.format ?? (async (_file: string, text: string) => text);
  const parsed = new Map<string, ParsedFile>();
  for (const [name, text] of input.files) if (isHandlerFile(name)) parsed.set(name, parseHandlerFile(`${input.shown}/${name}`, text));
  const operations = new Map(model.operations.map((op) => [op.name, op]));

  const exportedBy = new Map<string, string[]>();
  for (const [file, { exports }] of parsed) {
    for (const { name } of exports) exportedBy.set(name, [...(exportedBy.get(name) ?? []), file]);
  }
  const fileOf = tagFiles(model);
  const missing = model.operations.filter((op) => !exportedBy.has(op.name));
  const byFile = new Map<string, Operation[]>();
  for (const op of missing) {
    const file = fileOf(op);
    byFile.set(file, [...(byFile.get(file) ?? []), op]);
  }

  const writes: StubsPlan["writes"] = new Map();
  const added: StubsPlan["added"] = [];
  for (const [file, ops] of byFile) {
    const existing = input.files.get(file);
    if (existing === undefined) {
      const content = await format(file, `${fileHeader(ops[0]!, input.outputIndex)}\n${ops.map(stubText).join("\n")}`);
      writes.set(file, { content, created: true, appended: [] });
    } else {
      const stubs = await Promise.all(ops.map((op) => format(file, stubText(op))));
      const file_ = parsed.get(file);
      let content = existing;
      const needed = ["HttpError", "Handlers"].filter((name) => !file_?.imported.has(name));
      if (needed.length > 0) {
        // A new import after the last one (before any code: the file's own bytes stay as they are, in order).
        const at = file_?.afterImports ?? 0;
        const line = `${importLine(needed, input.outputIndex)}\n`;
        content = at === 0 ? `${line}${content}` : `${content.slice(0, at)}\n${line.replace(/\n$/, "")}${content.slice(at)}`;
      }
      const separator = content === "" ? "" : content.endsWith("\n\n") ? "" : content.endsWith("\n") ? "\n" : "\n\n";
      writes.set(file, { content: `${content}${separator}${stubs.join("\n")}`, created: false, appended: stubs });
    }
    for (const op of ops) added.push({ file, operation: op.name });
  }

  const stale: StubsPlan["stale"] = [];
  for (const [file, { exports }] of parsed) {
    for (const { name, line, column, route } of exports) {
      if (operations.has(name)) continue;
      // The same method and path (whatever its parameters are called now) under a new name: renamed.
      const renamedTo = route === undefined ? undefined : missing.find((op) => routeKey(`${op.wireMethod} ${op.path}`) === routeKey(route))?.name;
      stale.push({ file, line, column, name, ...(renamedTo ? { renamedTo } : {}) });
    }
  }
  const duplicates = [...exportedBy].filter(([name, files]) => operations.has(name) && files.length > 1).map(([operation, files]) => ({ operation, files }));

  // index.ts: ours to rewrite while it is what `stubs` last wrote (for the files there were); else the user's.
  const before = [...parsed.keys()];
  const after = [...new Set([...before, ...writes.keys()])];
  const index = input.files.get(INDEX_FILE);
  let indexNeeds: string[] | undefined;
  if (index === undefined || (after.length !== before.length && index === (await format(INDEX_FILE, indexText(before))))) {
    const content = await format(INDEX_FILE, indexText(after));
    if (index !== content) writes.set(INDEX_FILE, { content, created: index === undefined, appended: [] });
  } else if (after.length !== before.length) {
    const names = namespaceNames(after);
    const fresh = after.filter((file) => !before.includes(file)).sort();
    indexNeeds = [...fresh.map((file) => `import * as ${names.get(file)} from "./${file.replace(/\.ts$/, ".js")}";`), `...${fresh.map((file) => names.get(file)).join(", ...")}`];
  }
  return { writes, added, kept: model.operations.length - missing.length, stale, duplicates, ...(indexNeeds ? { indexNeeds } : {}) };
}

const routeKey = (route: string) => route.replace(/\{[^}]*\}/g, "{}");

/** The file each operation's stub goes to: its first tag's (`pet-store.ts` for `Pet Store`), else operations.ts. */
function tagFiles(model: ApiModel): (op: Operation) => string {
  const names = new NameRegistry(["index", "operations"]);
  const byTag = new Map<string, string>();
  const tags = [...model.tags.map((tag) => tag.name), ...model.operations.flatMap((op) => op.tags)];
  for (const tag of tags) {
    if (byTag.has(tag)) continue;
    const base = words(tag).join("-").toLowerCase().replace(/[^a-z0-9-]/g, "").slice(0, 60).replace(/-+$/, "") || "tag";
    byTag.set(tag, `${names.claim(base)}.ts`);
  }
  return (op) => (op.tags[0] === undefined ? UNTAGGED_FILE : byTag.get(op.tags[0])!);
}

function importLine(names: string[], outputIndex: string): string {
  const specifiers = names.map((name) => (name === "Handlers" ? "type Handlers" : name));
  return `import { ${specifiers.join(", ")} } from ${JSON.stringify(outputIndex)};`;
}

/** A new handler file: what it is, and the import its stubs need. */
function fileHeader(first: Operation, outputIndex: string): string {
  const tag = first.tags[0];
  const what = tag === undefined ? "the operations without a tag" : `the operations tagged \`${commentText(tag).replace(/`/g, "'")}\``;
  return [
    "/**",
    ` * The handlers of ${what}. \`specforge stubs\` appends a stub for each new`,
    " * operation and never changes what is here; a stub answers 501 until you implement it.",
    " */",
    importLine(["HttpError", "Handlers"], outputIndex),
    "",
  ].join("\n");
}

/** One stub: typed by the operation's member of `Handlers`, answering 501 until it is implemented. */
function stubText(op: Operation): string {
  const route = `${op.wireMethod} ${op.path}`;
  const docs = [...(op.summary ? [commentText(op.summary), ""] : []), `\`${commentText(route).replace(/`/g, "'")}\``, ...(op.deprecated ? ["", "@deprecated"] : [])];
  const statuses = op.responses.map((response) => response.status).join(", ");
  return [
    "/**",
    ...docs.map((line) => (line === "" ? " *" : ` * ${line.replace(/\n/g, "\n * ")}`)),
    " */",
    `export const ${op.name}: NonNullable<Handlers[${JSON.stringify(op.name)}]> = async () => {`,
    `  // TODO: implement ${op.name}${statuses ? ` (responses: ${statuses})` : ""}`,
    `  throw new HttpError(501, "not_implemented", ${JSON.stringify(`${op.name} is not implemented yet`)});`,
    "};",
    "",
  ].join("\n");
}

/** The text of index.ts for these handler files. */
export function indexText(files: readonly string[]): string {
  const sorted = [...files].sort();
  const names = namespaceNames(sorted);
  return [
    "/**",
    " * Every operation's handler, from the files beside this one: `createRouter(handlers, options)`.",
    " * Written by `specforge stubs`, which rewrites it when it adds a file (unless you have edited it).",
    " */",
    ...sorted.map((file) => `import * as ${names.get(file)} from "./${file.replace(/\.ts$/, ".js")}";`),
    ...(sorted.length > 0 ? [""] : []),
    sorted.length === 0 ? "export const handlers = {};" : ["export const handlers = {", ...sorted.map((file) => `  ...${names.get(file)},`), "};"].join("\n"),
    "",
  ].join("\n");
}

/** The namespace import name of each handler file (`pet-store.ts` → `petStore`), distinct and never `handlers`. */
function namespaceNames(files: readonly string[]): Map<string, string> {
  const names = new NameRegistry(["handlers"], (name) => name);
  return new Map([...files].sort().map((file) => [file, names.claim(toIdentifier(file.replace(/\.ts$/, ""), "file"))]));
}

/**
 * The exports and imports of a handler file. A file TypeScript cannot parse stops the run (exit 2, nothing
 * written): a stub appended to it could land anywhere.
 */
function parseHandlerFile(shown: string, text: string): ParsedFile {
  const { diagnostics = [] } = ts.transpileModule(text, { fileName: "handler.ts", reportDiagnostics: true, compilerOptions: { noResolve: true, isolatedModules: false } });
  const source = ts.createSourceFile("handler.ts", text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const syntax = diagnostics.find((d) => d.category === ts.DiagnosticCategory.Error && d.start !== undefined);
  if (syntax) {
    const { line, character } = source.getLineAndCharacterOfPosition(syntax.start!);
    throw new UserError(`this handler file does not parse: ${ts.flattenDiagnosticMessageText(syntax.messageText, " ")}`, {
      location: formatPosition(shown, line + 1, character + 1),
      hint: "fix it (tsc reports the same), then run `specforge stubs` again; nothing was written",
    });
  }
  const exports: ParsedFile["exports"] = [];
  const imported = new Set<string>();
  let afterImports = 0;
  const at = (node: import("ts-morph").ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source));
  const exported = (node: import("ts-morph").ts.Node, statement: import("ts-morph").ts.Statement) => {
    const { line, character } = at(node);
    const route = /`([A-Z]+) (\/[^`\s]*)`/.exec(statement.getFullText(source).slice(0, statement.getStart(source) - statement.getFullStart()))?.slice(1).join(" ");
    exports.push({ name: node.getText(source), line: line + 1, column: character + 1, ...(route ? { route } : {}) });
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      afterImports = statement.getEnd();
      const clause = statement.importClause;
      if (clause?.name) imported.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) imported.add(element.name.text);
      else if (bindings) imported.add(bindings.name.text);
      continue;
    }
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
    const isExported = modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) && !modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    if (isExported && ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) exported(declaration.name, statement);
    } else if (isExported && ts.isFunctionDeclaration(statement) && statement.name) exported(statement.name, statement);
    else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) if (!element.isTypeOnly) exported(element.name, statement);
    }
  }
  return { exports, imported, afterImports };
}
