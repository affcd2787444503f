import type {
  ExportDeclarationStructure,
  ExportSpecifierStructure,
  FunctionDeclarationStructure,
  ImportDeclarationStructure,
  ImportSpecifierStructure,
  InterfaceDeclarationStructure,
  JSDocStructure,
  OptionalKind,
  Project,
  ts as TS,
  StatementStructures,
  TypeAliasDeclarationStructure,
  VariableStatementStructure,
} from "ts-morph";
import type { OutputForm } from "../config/resolve.js";
import type { FileTemplateKind, FileTemplateSource, PreparedStatement, PreparedTemplate } from "../package/templates.js";
import { ts } from "../package/deps.js";
import { tsMorph } from "../package/ts-morph.js";
import type { DataTable } from "./data-layout.js";
import type { EmittedFile } from "./file.js";
import { isNextLineEmpty, printInterfaces, printSourceFile, printSourceStatements, printString, sourceWithData } from "./printer.js";
import { interfaceParts, partsText, sourceText, statementText, type InterfaceParts } from "./structure-text.js";

/** A statement of a file being printed: fixed text, a filled structure, or an interface structure in its text's parts. */
type Statement = string | StatementStructures | InterfaceParts;

/** The structure of each kind of declaration a slot can be. */
interface SlotStructures {
  interface: InterfaceDeclarationStructure;
  typeAlias: TypeAliasDeclarationStructure;
  function: FunctionDeclarationStructure;
  variable: VariableStatementStructure;
  import: ImportDeclarationStructure;
  export: ExportDeclarationStructure;
}

/**
 * A file template (templates/files/<kind>.ts) being filled for one generated file. The template is ordinary
 * TypeScript that type-checks and runs in specforge's repository against stand-ins (a small pet store); its
 * statements marked with a `/** @slot … *\/` comment are the places the emitter fills from the spec, everything
 * else is copied as it is.
 *
 * The emitter edits a slot's ts-morph structure (`structure`: the declaration as the template writes it, without
 * its stand-in members), fills a data slot (`fillData`: a `const` whose value is the spec's data) or removes one;
 * `print` then writes the whole file once from the fixed statements and the filled structures (ts-morph's
 * `printStructure`: no edits one by one, no type checking), parses it, and prints it through the one printer
 * (printer.ts). Templates are opened in one in-memory ts-morph project, once (`prepare`).
 */
export class FileTemplate {
  private readonly kind: FileTemplateKind;
  private readonly form: OutputForm;
  private readonly statements: readonly PreparedStatement[];
  private readonly filled = new Map<string, StatementStructures | "data" | "removed" | "kept">();
  private readonly data = new Map<string, DataTable>();

  constructor(source: FileTemplateSource) {
    this.kind = source.kind;
    this.form = source.form ?? "ts";
    this.statements = (source.prepared ?? prepare(source.kind, source.text)).statements;
  }

  /**
   * A copy of slot `name`'s structure, to edit in place (docs, members, parameters…): what `print` writes for it.
   * Its stand-in members are already left out.
   */
  structure<K extends keyof SlotStructures>(name: string, kind: K): SlotStructures[K] {
    const statement = this.unfilled(name);
    const structure = structuredClone(statement.structure) as StatementStructures | undefined;
    if (!structure || structure.kind !== STRUCTURE_KINDS[kind]) throw new Error(`templates/files/${this.kind}.ts: slot ${JSON.stringify(name)} is not a ${kind}`);
    this.filled.set(name, structure);
    return structure as SlotStructures[K];
  }

  /**
   * Fills the data slot `name` (a `const`): it is printed `JSON.parse(String.raw`…`)` of `value`, one entry per line.
   * The entries are the value's members, or (`entriesAt`) the members of its members… at that depth.
   */
  fillData(name: string, value: unknown, entriesAt = 1): void {
    this.unfilled(name);
    this.filled.set(name, "data");
    this.data.set(name, { value, entriesAt });
  }

  /** Leaves slot `name` out of the file (what it declares has no counterpart in this spec). */
  remove(name: string): void {
    this.unfilled(name);
    this.filled.set(name, "removed");
  }

  /** Keeps slot `name` as the template writes it (this spec needs nothing else there). */
  keep(name: string): void {
    this.unfilled(name);
    this.filled.set(name, "kept");
  }

  private unfilled(name: string): PreparedStatement {
    const statement = this.statements.find((s) => s.slot === name);
    if (!statement) throw new Error(`templates/files/${this.kind}.ts has no slot ${JSON.stringify(name)}`);
    if (this.filled.has(name)) throw new Error(`templates/files/${this.kind}.ts: slot ${JSON.stringify(name)} is filled twice`);
    return statement;
  }

  /**
   * The generated file as TypeScript (`<kind>.ts`), whatever the output's form (index.ts, which only re-exports):
   * printed in prettier's form, or (for syntax the printer does not know) left to prettier. In the `ts` form it is
   * marked `// @ts-nocheck`, like every file of that form.
   */
  print(description: string): EmittedFile {
    const kept = this.keptStatements();
    const statements = kept.map((s) => {
      const filled = s.slot === undefined ? undefined : this.filled.get(s.slot);
      return typeof filled === "object" ? filled : s.text;
    });
    return { path: `${this.kind}.ts`, description, ...(this.form === "ts" ? { noCheck: true } : {}), ...this.printStatements(statements, kept, this.data) };
  }

  /**
   * The generated module in the output's form:
   * - `ts`: `<kind>.ts`, the template filled (`print`), marked `// @ts-nocheck` so a project's settings never fail
   *   it; every export has the type the template writes, so a project's compiler infers nothing from the data.
   * - `js`: `<kind>.js` (what runs: the template's code with its types stripped, the data, the imports and re-exports
   *   of values) and `<kind>.d.ts` (the typed surface: interfaces, type aliases, `declare`d exported values and
   *   functions, the imports they name). Both are written from the template's statements and the filled structures,
   *   as `print` writes the `.ts`: no compiler transpiles anything at generate time. Both are marked `// @ts-nocheck`
   *   (tsc only reads the declarations; their types are checked where they are used) and the `.js` names its
   *   declarations for Deno (`@ts-self-types`).
   */
  printModule(description: string): EmittedFile[] {
    if (this.form === "ts") return [this.print(description)];
    const kept = this.keptStatements();
    const js: { statement: string | StatementStructures; from: PreparedStatement }[] = [];
    const dts: { statement: string | StatementStructures; from: PreparedStatement }[] = [];
    for (const s of kept) {
      const filled = s.slot === undefined ? undefined : this.filled.get(s.slot);
      const structure = (typeof filled === "object" ? filled : s.structure) as StatementStructures | undefined;
      if (structure?.kind === tsMorph.StructureKind.ImportDeclaration) {
        const code = importForJs(structure);
        if (code) js.push({ statement: code, from: s });
        dts.push({ statement: structure, from: s });
        continue;
      }
      if (structure?.kind === tsMorph.StructureKind.ExportDeclaration) {
        const code = exportForJs(structure);
        if (code) js.push({ statement: code, from: s });
        dts.push({ statement: structure, from: s });
        continue;
      }
      if (filled === "data" || structure === undefined) {
        // Fixed code and data slots: their forms were made when the template was prepared (the printer puts the
        // spec's data in place of the stand-in by the constant's name).
        if (s.js) js.push({ statement: s.js, from: s });
        if (filled === "data") {
          const declared = structure && declareForm(structure, this.kind);
          if (declared) dts.push({ statement: declared, from: s });
        } else if (s.dts) dts.push({ statement: s.dts, from: s });
        continue;
      }
      const code = codeForm(structure, s.jsBody);
      if (code) js.push({ statement: code, from: s });
      const declared = declareForm(structure, this.kind);
      if (declared) dts.push({ statement: declared, from: s });
    }
    // The declarations import only the names they use (the `.js` imports the values). Every other declaration is
    // printed once, to text, which both finds the names used and goes into the file as it is.
    // (Printed, not serialised: a member's type may be a ts-morph writer function.)
    // An interface is kept in its text's parts, which the printer lays out without parsing its JSDoc.
    const isImport = (statement: string | StatementStructures): statement is ImportDeclarationStructure =>
      typeof statement !== "string" && statement.kind === tsMorph.StructureKind.ImportDeclaration;
    const written = dts.map(({ statement }): Statement => {
      if (typeof statement === "string" || isImport(statement)) return statement;
      return (statement.kind === tsMorph.StructureKind.Interface && interfaceParts(statement)) || statementText(statement).trim();
    });
    const texts = written.map((statement) => (typeof statement === "string" ? statement : "head" in statement ? partsText(statement) : ""));
    const rest = texts.join("\n");
    const used = (name: string) => new RegExp(`\\b${name}\\b`).test(rest);
    const declarations = dts.flatMap((entry, i): { statement: Statement; from: PreparedStatement }[] => {
      if (!isImport(entry.statement)) return [{ statement: written[i]!, from: entry.from }];
      const narrowed = importForDts(entry.statement, used);
      return narrowed ? [{ statement: narrowed, from: entry.from }] : [];
    });
    const selfTypes = `// @ts-self-types="./${this.kind}.d.ts"\n`;
    const code = this.printStatements(
      js.map((entry) => entry.statement),
      js.map((entry) => entry.from),
      this.data,
    );
    const typed = this.printStatements(
      declarations.map((entry) => entry.statement),
      declarations.map((entry) => entry.from),
      new Map(),
    );
    return [
      {
        path: `${this.kind}.js`,
        description,
        noCheck: true,
        content: selfTypes + code.content,
        ...(code.canonical !== undefined ? { canonical: selfTypes + code.canonical } : {}),
        ...(code.notCanonical !== undefined ? { notCanonical: code.notCanonical } : {}),
      },
      { path: `${this.kind}.d.ts`, description: `the types of ${this.kind}.js`, noCheck: true, ...typed },
    ];
  }

  private keptStatements(): PreparedStatement[] {
    const missing = this.statements.filter((s) => s.slot !== undefined && !this.filled.has(s.slot)).map((s) => s.slot);
    if (missing.length > 0) throw new Error(`templates/files/${this.kind}.ts: slots the emitter did not fill: ${missing.join(", ")}`);
    return this.statements.filter((s) => s.slot === undefined || this.filled.get(s.slot) !== "removed");
  }

  private printStatements(statements: Statement[], from: readonly PreparedStatement[], data: ReadonlyMap<string, DataTable>): { content: string; canonical?: string; notCanonical?: string } {
    // Interfaces are printed from their parts (printInterfaces: the client's and the server's, whose JSDoc is most of
    // their declarations); the other statements are parsed and printed, and the texts put back in order.
    const parts = statements.map((statement) =>
      typeof statement === "string" ? undefined : "head" in statement ? statement : statement.kind === tsMorph.StructureKind.Interface ? interfaceParts(statement) : undefined,
    );
    const printedParts = printInterfaces(parts.filter((part) => part !== undefined));
    const direct = parts.map((part) => (part === undefined ? undefined : printedParts.shift()));
    if (direct.some((text) => text !== undefined)) {
      const others = statements.filter((_, i) => direct[i] === undefined);
      const printed = printSourceStatements(this.parse(others.map(toWritable)), data);
      if ("texts" in printed) {
        let text = "";
        statements.forEach((_, i) => {
          if (i > 0 && from[i]!.blankLineBefore) text += "\n";
          text += direct[i] ?? printed.texts.shift();
        });
        return { content: text, canonical: text };
      }
    }
    // The whole file at once: what the printer declines (its message names the statement) goes to prettier.
    const node = this.parse(statements.map(toWritable));
    const printed = printSourceFile(node, { data, blankLinesBefore: from.map((s) => s.blankLineBefore) });
    return "text" in printed ? { content: printed.text, canonical: printed.text } : { content: sourceWithData(node, data), notCanonical: printed.unsupported };
  }

  /**
   * The structures written as ts-morph writes them (structure-text.ts: its writer only where the text is not known
   * without it), parsed: the printer needs only the syntax tree, so no JSDoc nodes, no parents, no wrappers
   * (ts-morph's createSourceFile builds all three: on GitHub's client.ts 0.6 s instead of 0.25 s on a cold process).
   */
  private parse(statements: (string | StatementStructures)[]): TS.SourceFile {
    const node = ts.createSourceFile(`/${this.kind}.ts`, sourceText(statements), { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone });
    if (node.statements.length !== statements.length) throw new Error(`templates/files/${this.kind}.ts: a statement of the template is not one statement`);
    return node;
  }
}

/** A statement as structure-text.ts writes it: an interface's parts as their text. */
function toWritable(statement: Statement): string | StatementStructures {
  return typeof statement !== "string" && "head" in statement ? partsText(statement) : statement;
}

/** An import as the `.js` has it: its value names (none: no import). */
function importForJs(structure: ImportDeclarationStructure): ImportDeclarationStructure | undefined {
  if (structure.isTypeOnly || structure.defaultImport || structure.namespaceImport) return structure.isTypeOnly ? undefined : structure;
  const names = namedImports(structure).filter((specifier) => !specifier.isTypeOnly);
  return names.length > 0 ? { ...structure, namedImports: names } : undefined;
}

/** An `export … from` as the `.js` has it: its value names (none: no export). */
function exportForJs(structure: ExportDeclarationStructure): ExportDeclarationStructure | undefined {
  if (structure.isTypeOnly) return undefined;
  if (structure.namespaceExport !== undefined) return structure;
  const names = namedExports(structure).filter((specifier) => !specifier.isTypeOnly);
  return names.length > 0 ? { ...structure, namedExports: names } : undefined;
}

/** An import as the `.d.ts` has it: the names the declarations use (none: no import). */
function importForDts(structure: ImportDeclarationStructure, used: (name: string) => boolean): ImportDeclarationStructure | undefined {
  if (structure.namespaceImport) return used(structure.namespaceImport) ? { ...structure, isTypeOnly: true } : undefined;
  if (structure.defaultImport) return structure;
  const names = namedImports(structure).filter((specifier) => used(specifier.alias ?? specifier.name));
  if (names.length === 0) return undefined;
  // Declarations import types only: `import type { … }`.
  return { ...structure, isTypeOnly: true, namedImports: names.map((specifier) => ({ ...specifier, isTypeOnly: false })) };
}

/** A declaration's code for the `.js`: a constant without its type, a function without types; a type has none. */
function codeForm(structure: StatementStructures, jsBody: string | undefined): StatementStructures | undefined {
  if (structure.kind === tsMorph.StructureKind.VariableStatement) {
    return { ...structure, declarations: structure.declarations.map((declaration) => ({ ...declaration, type: undefined, hasExclamationToken: false })) };
  }
  if (structure.kind === tsMorph.StructureKind.Function) {
    if (jsBody === undefined) throw new Error(`function ${structure.name ?? ""} of a file template has no JavaScript body`);
    return {
      ...structure,
      typeParameters: [],
      returnType: undefined,
      parameters: (structure.parameters ?? []).map((parameter) => ({ name: parameter.name, initializer: parameter.initializer })),
      statements: [jsBody],
    };
  }
  return undefined;
}

/**
 * A declaration as the `.d.ts` has it: types as they are; an exported constant or function `declare`d with its type
 * (which the template must write: the declarations are not inferred); nothing for what is not exported.
 */
function declareForm(structure: StatementStructures, kind: FileTemplateKind): StatementStructures | undefined {
  switch (structure.kind) {
    case tsMorph.StructureKind.Interface:
    case tsMorph.StructureKind.TypeAlias:
      return structure;
    case tsMorph.StructureKind.VariableStatement: {
      if (!structure.isExported) return undefined;
      for (const declaration of structure.declarations) {
        if (!declaration.type) throw new Error(`templates/files/${kind}.ts: exported constant ${declaration.name} needs a type annotation (its declaration is not inferred)`);
      }
      return { ...structure, hasDeclareKeyword: true, declarations: structure.declarations.map((declaration) => ({ ...declaration, initializer: undefined })) };
    }
    case tsMorph.StructureKind.Function:
      if (!structure.isExported) return undefined;
      if (!structure.returnType) throw new Error(`templates/files/${kind}.ts: exported function ${structure.name ?? ""} needs a return type (its declaration is not inferred)`);
      return {
        ...structure,
        hasDeclareKeyword: true,
        statements: undefined,
        parameters: (structure.parameters ?? []).map((parameter) =>
          parameter.initializer === undefined ? parameter : { ...parameter, initializer: undefined, hasQuestionToken: true },
        ),
      };
    default:
      return undefined;
  }
}

const STRUCTURE_KINDS = {
  interface: tsMorph.StructureKind.Interface,
  typeAlias: tsMorph.StructureKind.TypeAlias,
  function: tsMorph.StructureKind.Function,
  variable: tsMorph.StructureKind.VariableStatement,
  import: tsMorph.StructureKind.ImportDeclaration,
  export: tsMorph.StructureKind.ExportDeclaration,
} as const;

/** `/** @slot … *\/`: marks a slot; the comment is the template's, not the output's. */
const isMarker = (doc: OptionalKind<JSDocStructure> | string) => typeof doc !== "string" && (doc.tags ?? []).some((tag) => tag.tagName === "slot");

/**
 * A template as every generation starts from it: its statements, each with its text (runtime imports pointing into
 * runtime/), and for a slot its name and its structure without the marker and the stand-in members. The build
 * prepares every template (src/package/build.ts); without a build (the tests run from source) it is done once per
 * process.
 */
export function prepare(kind: FileTemplateKind, text: string): PreparedTemplate {
  const key = `${kind}\u0000${text}`;
  const known = preparedCache.get(key);
  if (known) return known;
  const file = templateProject().createSourceFile(`/${kind}.template.ts`, text, { overwrite: true });
  try {
    for (const declaration of [...file.getImportDeclarations(), ...file.getExportDeclarations()]) {
      const specifier = declaration.getModuleSpecifierValue();
      if (specifier?.startsWith("../")) declaration.setModuleSpecifier(`./runtime/${specifier.slice(3)}`);
    }
    const fullText = file.getFullText();
    const statements = file.getStatements().map((statement, index, all): PreparedStatement => {
      const comments = statement.getLeadingCommentRanges();
      if (comments.some((comment) => !comment.getText().startsWith("/**"))) {
        throw new Error(`templates/files/${kind}.ts: only JSDoc comments may stand before a statement (line ${statement.getStartLineNumber()})`);
      }
      const markers = comments.filter((comment) => /^\/\*\*\s*@slot\b/.test(comment.getText()));
      const start = (markers.length > 0 ? comments[comments.indexOf(markers.at(-1)!) + 1]?.getPos() : comments[0]?.getPos()) ?? statement.getStart();
      const text = fullText.slice(start, statement.getEnd());
      const prepared: PreparedStatement = {
        text,
        blankLineBefore: index > 0 && isNextLineEmpty(fullText, all[index - 1]!.getEnd()),
        js: javaScriptOf(text),
        dts: declarationOf(statement, text, kind),
      };
      if (tsMorph.Node.isImportDeclaration(statement) || tsMorph.Node.isExportDeclaration(statement)) prepared.structure = slotStructure(statement);
      if (markers.length === 0) return prepared;
      prepared.slot = slotName(statement);
      prepared.structure = slotStructure(statement);
      if (tsMorph.Node.isFunctionDeclaration(statement)) {
        const body = javaScriptOf(`function body() ${statement.getBodyOrThrow().getText()}`);
        prepared.jsBody = body.slice(body.indexOf("{") + 1, body.lastIndexOf("}")).trim();
      }
      return prepared;
    });
    const template = { statements };
    preparedCache.set(key, template);
    return template;
  } finally {
    templateProject().removeSourceFile(file);
  }
}

const preparedCache = new Map<string, PreparedTemplate>();

/**
 * A statement of a template as JavaScript: its types stripped by TypeScript's `transpileModule` (ts-morph's compiler,
 * already loaded; this runs when templates are prepared, i.e. in specforge's build, never per generation). "" for a
 * statement with no code (a type, a type-only import).
 */
function javaScriptOf(text: string): string {
  const { outputText } = ts.transpileModule(text, {
    compilerOptions: { target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
    reportDiagnostics: false,
  });
  const code = outputText.replace(/^"use strict";\n/, "").trim();
  return code === "export {};" ? "" : code;
}

/**
 * A fixed statement as the `.d.ts` has it (slots and imports are turned into declarations when printed): a type as it
 * is, an exported constant or function `declare`d with its written type, nothing for other code.
 */
function declarationOf(statement: import("ts-morph").Statement, text: string, kind: FileTemplateKind): string {
  if (tsMorph.Node.isInterfaceDeclaration(statement) || tsMorph.Node.isTypeAliasDeclaration(statement)) return text;
  if (!tsMorph.Node.isVariableStatement(statement) && !tsMorph.Node.isFunctionDeclaration(statement)) {
    if (tsMorph.Node.isExportable(statement) && statement.isExported()) {
      throw new Error(`templates/files/${kind}.ts: an exported ${statement.getKindName()} has no declaration written without a compiler (line ${statement.getStartLineNumber()})`);
    }
    return "";
  }
  if (!statement.isExported()) return "";
  const declared = declareForm(statement.getStructure() as StatementStructures, kind);
  return declared ? tsMorph.printStructure(declared, { indentNumberOfSpaces: 2 }).trim() : "";
}

function slotName(statement: import("ts-morph").Statement): string {
  if (tsMorph.Node.isVariableStatement(statement)) return statement.getDeclarations()[0]!.getName();
  // `import ./runtime/client/index.js`, `export ./client.js`: a file may import from a module and re-export from it.
  if (tsMorph.Node.isImportDeclaration(statement)) return `import ${statement.getModuleSpecifierValue()}`;
  if (tsMorph.Node.isExportDeclaration(statement)) return `export ${statement.getModuleSpecifierValue() ?? ""}`;
  if (tsMorph.Node.hasName(statement)) return statement.getName();
  throw new Error(`a @slot marks a ${statement.getKindName()}, which has no name`);
}

/** The structure of a slot's declaration, without its marker and (for an object type) its stand-in members. */
function slotStructure(statement: import("ts-morph").Statement): StatementStructures {
  if (!tsMorph.Node.hasStructure(statement)) throw new Error(`a @slot marks a ${statement.getKindName()}, which has no structure`);
  const structure = statement.getStructure() as StatementStructures;
  if ("docs" in structure && structure.docs) structure.docs = structure.docs.filter((doc) => !isMarker(doc));
  if (structure.kind === tsMorph.StructureKind.Interface) structure.properties = [];
  if (structure.kind === tsMorph.StructureKind.TypeAlias && tsMorph.Node.isTypeAliasDeclaration(statement) && tsMorph.Node.isTypeLiteral(statement.getTypeNode())) {
    structure.type = "{}";
  }
  if (structure.kind === tsMorph.StructureKind.Function && tsMorph.Node.isFunctionDeclaration(statement)) {
    // The body is fixed code: kept as the template writes it.
    const body = statement.getBodyOrThrow();
    structure.statements = [body.getText().slice(1, -1).trim()];
  }
  return structure;
}

let project: Project | undefined;

/** The one in-memory ts-morph project templates are opened in: no disk, no lib files, no type checking. */
function templateProject(): Project {
  project ??= new tsMorph.Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    skipLoadingLibFiles: true,
    skipFileDependencyResolution: true,
    manipulationSettings: { indentationText: tsMorph.IndentationText.TwoSpaces, quoteKind: tsMorph.QuoteKind.Double, useTrailingCommas: true },
  });
  return project;
}

/** The named exports of an `export { … } from` structure, as objects. */
export function namedExports(structure: ExportDeclarationStructure): OptionalKind<ExportSpecifierStructure>[] {
  const list = structure.namedExports;
  if (!Array.isArray(list)) throw new Error("a slot's export has no list of named exports");
  return list.map((specifier) => {
    if (typeof specifier === "function") throw new Error("a slot's export is written by a function");
    return typeof specifier === "string" ? { name: specifier } : specifier;
  });
}

/** The named imports of an import structure, as objects. */
export function namedImports(structure: ImportDeclarationStructure): OptionalKind<ImportSpecifierStructure>[] {
  const list = structure.namedImports;
  if (!Array.isArray(list)) throw new Error("a slot's import has no list of named imports");
  return list.map((specifier) => {
    if (typeof specifier === "function") throw new Error("a slot's import is written by a function");
    return typeof specifier === "string" ? { name: specifier } : specifier;
  });
}

/**
 * Type text for ts-morph structures. Every string from the spec in it is a string literal escaped as TypeScript's
 * printer escapes one (non-ASCII as `\uXXXX`, the form of the same keys in schema.ts), so no spec can change the
 * syntax around it.
 */
export const typeText = {
  /** `Name<A, B>` */
  reference: (name: string, args: readonly string[] = []) => (args.length > 0 ? `${name}<${args.join(", ")}>` : name),
  /** `"value"` */
  string: (value: string) => printString(value),
  /** `root["a"]["b"]`: an indexed access into openapi-typescript's output. */
  indexed: (root: string, ...keys: string[]) => root + keys.map((key) => `[${printString(key)}]`).join(""),
  /** `A | B` */
  union: (members: readonly string[]) => members.join(" | "),
};
