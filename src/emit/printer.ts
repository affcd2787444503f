import type { Doc } from "prettier";
import { builders, printer, utils } from "prettier/doc";
import type { ts as TS } from "ts-morph";
import { isIdentifierName } from "../ir/naming.js";
import { ts } from "../package/deps.js";
import { dataTableLines, type DataTable } from "./data-layout.js";
import type { InterfaceParts } from "./structure-text.js";

const { align, conditionalGroup, group, hardline, ifBreak, indent, indentIfBreak, join, line, literalline, markAsRoot, softline } = builders;

/**
 * The one printer of generated TypeScript: it prints a syntax tree — openapi-typescript's (schema.ts, built with
 * TypeScript's node factory) or a file template filled with ts-morph (client.ts, server.ts, webhooks.ts, index.ts)
 * — exactly as prettier 3 formats it with its default settings, without prettier's parse. It builds the documents
 * prettier's TypeScript printer builds for the same syntax and lays them out with prettier's own document printer
 * (`prettier/doc`), so line fitting is prettier's.
 *
 * Only the syntax specforge emits is known here. Anything else — a statement kind, an expression whose broken
 * layout is not modelled, a comment where comments are not expected — makes the result name it (`unsupported`),
 * and the file goes through prettier instead: slower, never wrong. Parity is pinned by tests that format the
 * printed files with prettier again (the feature fixtures in `npm test`, every public spec in `npm run test:corpus`).
 *
 * Why not prettier itself: on a large spec its pass over schema.ts was most of a run (7 of 16 seconds on GitHub's).
 */

export type PrintResult = { text: string } | { unsupported: string };

/** prettier's defaults: the only settings this printer produces. */
const PRINT_OPTIONS = { printWidth: 80, tabWidth: 2, useTabs: false } as Parameters<typeof printer.printDocToString>[1];

/**
 * Prints statements made with TypeScript's node factory (openapi-typescript's), with their synthetic comments:
 * one after the other, no blank lines (as TypeScript's printer writes them, and prettier then keeps them).
 */
export function printNodes(statements: readonly TS.Node[]): PrintResult {
  return new Printer(undefined, new Map(), undefined).file(statements);
}

/**
 * Members of an object type at `depth` indents, as printNodes prints them inside an interface: lets emit/types.ts
 * transform and print schema.ts's largest part (`components`) a slice of schemas at a time.
 */
export function printMembers(members: readonly TS.TypeElement[], depth: number): PrintResult {
  return new Printer(undefined, new Map(), undefined).membersAt(members, depth);
}

export interface SourcePrintOptions {
  /**
   * `const` declarations whose value is this JSON data: printed `const name: Type = JSON.parse('…')`, one entry per
   * line (quick to load, free for the type checker, reviewable line by line), whatever their initializer in the
   * source (a template's stand-in).
   */
  data?: ReadonlyMap<string, DataTable>;
  /** Whether a blank line comes before each top-level statement; without it, the source's blank lines are kept. */
  blankLinesBefore?: readonly boolean[];
}

/** Prints a source file (a file template filled with ts-morph): statements, comments and blank lines as written. */
export function printSourceFile(file: TS.SourceFile, options: SourcePrintOptions = {}): PrintResult {
  return new Printer(file, options.data ?? new Map(), options.blankLinesBefore).file(file.statements);
}

/**
 * Interfaces of a filled template (structure-text.ts' parts of ts-morph's text for them) as printSourceFile prints
 * that text, each with its line break after `}`; undefined for one it leaves to printSourceFile. Their JSDoc (most of
 * the client's and the server's declarations) is laid out from the parts, not parsed; the members are made with the
 * node factory (memberNode), or else their text alone is parsed, once for all, and the direct writer writes them as
 * Printer.directSourceMember does.
 */
export function printInterfaces(interfaces: readonly InterfaceParts[]): (string | undefined)[] {
  const texts = interfaces.flatMap((parts) => parts.members.map((member) => member.text));
  const members = factoryMembers(texts) ?? parsedMembers(texts);
  let next = 0;
  return interfaces.map((parts) => {
    const own = members?.slice(next, (next += parts.members.length));
    // The head stays on its line (Printer.interfaceHead's groups flat): the only layout modelled here.
    const head = `${parts.head}${parts.members.length > 0 ? " {" : " {}"}`;
    if (!own || fitsFlat(head, 0, 0) !== true) return undefined;
    let text = `${jsDocText(parts.docs, "")}${head}`;
    for (let i = 0; i < own.length; i++) {
      const member = own[i]!;
      const type = (member.node as TS.PropertySignature).type;
      if (!type || hasObjectLiteral(type)) return undefined;
      directSource = member.source;
      try {
        const printed = memberText(member.node, 2);
        if (printed === undefined) return undefined;
        text += `\n  ${jsDocText(parts.members[i]!.docs, "  ")}${printed}`;
      } finally {
        directSource = undefined;
      }
    }
    return parts.members.length > 0 ? `${text}\n}\n` : `${text}\n`;
  });
}

/** Property signatures' texts made with the node factory (memberNode), or undefined when one is not in its forms. */
function factoryMembers(texts: readonly string[]): { node: TS.TypeElement; source: undefined }[] | undefined {
  const members: { node: TS.TypeElement; source: undefined }[] = [];
  for (const text of texts) {
    const node = memberNode(text);
    if (node === undefined) return undefined;
    members.push({ node, source: undefined });
  }
  return members;
}

/**
 * Property signatures' texts parsed as the members of one interface, one member per text, or undefined when they
 * are not exactly that (a text holding two members or none, a syntax error, a comment: the printer would print
 * them differently from their place in the whole file).
 */
function parsedMembers(texts: readonly string[]): { node: TS.TypeElement; source: TS.SourceFile }[] | undefined {
  if (texts.length === 0) return [];
  const prefix = "interface _ {\n";
  const source = ts.createSourceFile("/members.ts", `${prefix}${texts.join("\n")}\n}\n`, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone });
  const [statement] = source.statements;
  if (source.statements.length !== 1 || !statement || !ts.isInterfaceDeclaration(statement) || statement.members.length !== texts.length) return undefined;
  if ((source as unknown as { parseDiagnostics: readonly unknown[] }).parseDiagnostics.length > 0 || countComments(source.text) > 0) return undefined;
  let end = prefix.length - 1;
  const parsed: { node: TS.TypeElement; source: TS.SourceFile }[] = [];
  for (let i = 0; i < texts.length; i++) {
    end += 1 + texts[i]!.length;
    const node = statement.members[i]!;
    if (node.end !== end || !ts.isPropertySignature(node)) return undefined;
    parsed.push({ node, source });
  }
  return parsed;
}

/**
 * A filled template's property signature from its text (`readonly name?: type;`, as structure-text.ts writes it),
 * made with TypeScript's node factory instead of its parser: the node the parser would make, for the few forms the
 * emitters write (keywords, references with type arguments, indexed accesses, arrays, unions, string literals in the
 * form printString gives them). The parser, cold in a generate run, cost more than the rest of printing the client's
 * and the server's interfaces; the factory is warm from openapi-typescript's transform. Undefined for any other text,
 * which the caller parses.
 */
export function memberNode(text: string): TS.PropertySignature | undefined {
  const reader = new TypeTextReader(text);
  const readonly = reader.readonlyModifier();
  const name = reader.propertyName();
  if (name === undefined) return undefined;
  const question = reader.eat("?");
  if (!reader.eat(": ")) return undefined;
  const type = reader.type();
  if (type === undefined || !reader.eat(";") || !reader.atEnd()) return undefined;
  const { factory } = ts;
  return factory.createPropertySignature(
    readonly ? [factory.createModifier(ts.SyntaxKind.ReadonlyKeyword)] : undefined,
    name,
    question ? factory.createToken(ts.SyntaxKind.QuestionToken) : undefined,
    type,
  );
}

const IDENTIFIER_AT = /[A-Za-z_$][A-Za-z0-9_$]*/y;

/** The keyword types, by their text; any other reserved word in a type is left to the parser. */
const KEYWORD_KINDS = new Map<string, TS.KeywordTypeSyntaxKind>([
  ["string", ts.SyntaxKind.StringKeyword],
  ["number", ts.SyntaxKind.NumberKeyword],
  ["boolean", ts.SyntaxKind.BooleanKeyword],
  ["unknown", ts.SyntaxKind.UnknownKeyword],
  ["never", ts.SyntaxKind.NeverKeyword],
  ["any", ts.SyntaxKind.AnyKeyword],
  ["undefined", ts.SyntaxKind.UndefinedKeyword],
  ["object", ts.SyntaxKind.ObjectKeyword],
  ["bigint", ts.SyntaxKind.BigIntKeyword],
  ["void", ts.SyntaxKind.VoidKeyword],
]);
/** Words that are not type names where the parser reads a type (literals, operators, `this`…). */
const NOT_A_TYPE_NAME = new Set(["null", "true", "false", "this", "typeof", "keyof", "unique", "readonly", "infer", "asserts", "is", "import", "new", "symbol", "intrinsic"]);

/** A reader of one member's text, left to right; each method returns undefined where the text is not its form. */
class TypeTextReader {
  private at = 0;

  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.at === this.text.length;
  }

  eat(token: string): boolean {
    if (!this.text.startsWith(token, this.at)) return false;
    this.at += token.length;
    return true;
  }

  /** `readonly ` before a name (not a member named `readonly`). */
  readonlyModifier(): boolean {
    if (!this.text.startsWith("readonly ", this.at)) return false;
    const next = this.text[this.at + "readonly ".length];
    if (next === undefined || !/[A-Za-z_$"']/.test(next)) return false;
    this.at += "readonly ".length;
    return true;
  }

  propertyName(): TS.Identifier | TS.StringLiteral | undefined {
    const word = this.identifier();
    if (word !== undefined) return ts.factory.createIdentifier(word);
    const value = this.string();
    return value === undefined ? undefined : ts.factory.createStringLiteral(value);
  }

  /** `A | B | …` */
  type(): TS.TypeNode | undefined {
    const types: TS.TypeNode[] = [];
    do {
      const type = this.postfixType();
      if (type === undefined) return undefined;
      types.push(type);
    } while (this.eat(" | "));
    return types.length === 1 ? types[0] : ts.factory.createUnionTypeNode(types);
  }

  /** A type followed by `[index]`s and `[]`s. */
  private postfixType(): TS.TypeNode | undefined {
    let type = this.primaryType();
    while (type !== undefined && this.eat("[")) {
      if (this.eat("]")) {
        type = ts.factory.createArrayTypeNode(type);
        continue;
      }
      const index = this.type();
      type = index !== undefined && this.eat("]") ? ts.factory.createIndexedAccessTypeNode(type, index) : undefined;
    }
    return type;
  }

  /** A keyword, a string literal, or `Name.Name<A, B>`. */
  private primaryType(): TS.TypeNode | undefined {
    const { factory } = ts;
    if (this.text[this.at] === '"' || this.text[this.at] === "'") {
      const value = this.string();
      return value === undefined ? undefined : factory.createLiteralTypeNode(factory.createStringLiteral(value));
    }
    const word = this.identifier();
    if (word === undefined || NOT_A_TYPE_NAME.has(word)) return undefined;
    const keyword = KEYWORD_KINDS.get(word);
    if (keyword !== undefined) return factory.createKeywordTypeNode(keyword);
    let name: TS.EntityName = factory.createIdentifier(word);
    while (this.eat(".")) {
      const right = this.identifier();
      if (right === undefined) return undefined;
      name = factory.createQualifiedName(name, right);
    }
    if (!this.eat("<")) return factory.createTypeReferenceNode(name);
    const args: TS.TypeNode[] = [];
    do {
      const arg = this.type();
      if (arg === undefined) return undefined;
      args.push(arg);
    } while (this.eat(", "));
    return this.eat(">") ? factory.createTypeReferenceNode(name, args) : undefined;
  }

  private identifier(): string | undefined {
    IDENTIFIER_AT.lastIndex = this.at;
    const match = IDENTIFIER_AT.exec(this.text);
    if (!match) return undefined;
    this.at += match[0].length;
    return match[0];
  }

  /**
   * A string literal in the form printString writes it, which is the form both printers give it, whatever quote the
   * source used: its value is the text between the quotes (structure-text.ts lets no backslash through).
   */
  private string(): string | undefined {
    const quote = this.text[this.at];
    if (quote !== '"' && quote !== "'") return undefined;
    const end = this.text.indexOf(quote, this.at + 1);
    if (end < 0) return undefined;
    const literal = this.text.slice(this.at, end + 1);
    const value = literal.slice(1, -1);
    if (value.includes("\\") || printString(value) !== literal) return undefined;
    this.at = end + 1;
    return value;
  }
}

/** JSDoc comments (the text between `/*` and `*\/` of each) as withComments prints them at `indentation`. */
function jsDocText(bodies: readonly string[], indentation: string): string {
  let text = "";
  for (const body of bodies) text += `${blockCommentText(body, indentation)}\n${indentation}`;
  return text;
}

/**
 * Each statement of a source file (a filled template's) printed as printSourceFile prints it, with its line break
 * after it; the caller puts the blank lines between them.
 */
export function printSourceStatements(file: TS.SourceFile, data: ReadonlyMap<string, DataTable>): { texts: string[] } | { unsupported: string } {
  return new Printer(file, data, undefined).statementTexts(file.statements);
}

/** The source text of a file with every data declaration's initializer replaced by `JSON.parse('…')` (see printSourceFile). */
export function sourceWithData(file: TS.SourceFile, data: ReadonlyMap<string, DataTable>): string {
  const edits: [number, number, string][] = [];
  for (const statement of file.statements) {
    const declaration = dataDeclaration(statement, data);
    if (declaration?.initializer) edits.push([declaration.initializer.getStart(file), declaration.initializer.end, `JSON.parse(${dataLiteral(data.get(declaration.name.getText(file))!)})`]);
  }
  let text = file.text;
  for (const [start, end, replacement] of edits.reverse()) text = text.slice(0, start) + replacement + text.slice(end);
  return text;
}

/** Thrown for syntax this printer does not know; the caller falls back to prettier. */
class Unsupported extends Error {}

/** Printed where a layout is not modelled; its presence in the output means "ask prettier" (see `flatOnly`). */
const LAYOUT_NOT_MODELLED = "\u0000specforge: layout not modelled\u0000";

const SK = ts.SyntaxKind;

function describe(node: TS.Node, detail = ""): string {
  const comment = ts.getSyntheticLeadingComments(node)?.length ? " with a comment" : "";
  return `${SK[node.kind]}${comment}${detail ? ` (${detail})` : ""}`;
}

/**
 * A data table as the string literal of its JSON text, one entry per line (data-layout.ts), each line but the last
 * ending in a line continuation (`\` before the line break, which the string's value leaves out), in the quotes
 * prettier gives it: the quote that occurs less often in the text (a table has more `"` than `'`), `"` when as often.
 * Only `\`, that quote and U+2028/U+2029 (line ends to older parsers) are escaped: the JSON text has no control
 * characters or lone surrogates left to escape, and prettier keeps every escape written so.
 */
export function dataLiteral(table: DataTable): string {
  const json = JSON.stringify(table.value);
  // Layout adds no quotes: the choice made on the JSON text is the choice for every layout of it.
  const quote = count(json, '"') > count(json, "'") ? "'" : '"';
  const escape = (text: string) => text.replaceAll("\\", "\\\\").replaceAll(quote, `\\${quote}`).replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
  // A table whose literal on one line is a short argument stays on one line (prettier would put a short literal that
  // spans lines below `=`, and its call's argument below that).
  const flat = quote + escape(json) + quote;
  if (flat.length <= SHORT_ARGUMENT) return flat;
  const width = (text: string) => text.length + count(text, "\\") + count(text, quote) + 5 * (count(text, "\u2028") + count(text, "\u2029"));
  return quote + dataTableLines(table, width).map(escape).join("\\\n") + quote;
}

function dataDeclaration(statement: TS.Statement, data: ReadonlyMap<string, DataTable>): TS.VariableDeclaration | undefined {
  if (!ts.isVariableStatement(statement) || statement.declarationList.declarations.length !== 1) return undefined;
  const declaration = statement.declarationList.declarations[0]!;
  return ts.isIdentifier(declaration.name) && data.has(declaration.name.text) ? declaration : undefined;
}

/** Where a type sits, which decides its parentheses and how a union breaks. */
interface Place {
  kind: "annotation" | "alias" | "array" | "typeArgument" | "union" | "intersection" | "indexedObject" | "indexedIndex" | "tuple" | "operator";
  /** Number of members of the enclosing union, intersection or tuple. */
  siblings?: number;
}

class Printer {
  /** Comments of the source printed so far; all of them must be, or the file is not printed here. */
  private printedComments = 0;
  /** Comments inside the stand-in values of data declarations, which are not printed. */
  private skippedComments = 0;

  constructor(
    private readonly source: TS.SourceFile | undefined,
    private readonly data: ReadonlyMap<string, DataTable>,
    private readonly blankLinesBefore: readonly boolean[] | undefined,
  ) {}

  file(statements: readonly TS.Node[]): PrintResult {
    const printed = this.statementTexts(statements);
    if (!("texts" in printed)) return printed;
    let text = "";
    printed.texts.forEach((statement, index) => {
      const blankLine = this.blankLinesBefore ? this.blankLinesBefore[index] : this.source && index > 0 && isNextLineEmpty(this.source.text, statements[index - 1]!.end);
      text += index > 0 && blankLine ? `\n${statement}` : statement;
    });
    return { text };
  }

  /** Each statement printed, with its line break after it (no blank lines between them). */
  statementTexts(statements: readonly TS.Node[]): { texts: string[] } | { unsupported: string } {
    const texts: string[] = [];
    try {
      for (const statement of statements) {
        if (ts.isInterfaceDeclaration(statement) && statement.members.length > 0) {
          const parts: string[] = [];
          this.interfaceInPieces(statement, parts);
          parts.push("\n");
          texts.push(parts.join(""));
        } else {
          texts.push(this.layout([this.withComments(statement, this.statement(statement as TS.Statement)), hardline]));
        }
      }
      if (this.source) this.checkEveryCommentPrinted(this.source);
    } catch (error) {
      if (error instanceof Unsupported) return { unsupported: error.message };
      throw error;
    }
    return { texts };
  }

  membersAt(members: readonly TS.TypeElement[], depth: number): PrintResult {
    const parts: string[] = [];
    try {
      for (const member of members) this.memberInPieces(member, depth, parts);
    } catch (error) {
      if (error instanceof Unsupported) return { unsupported: error.message };
      throw error;
    }
    return { text: parts.join("") };
  }

  /** Lays a document out; a layout this printer does not model (see flatOnly) makes the file unsupported. */
  private layout(doc: Doc): string {
    const simple = printWithoutChoices(doc);
    if (simple !== undefined) return simple;
    const text = printer.printDocToString(doc, PRINT_OPTIONS).formatted;
    if (text.includes(LAYOUT_NOT_MODELLED)) throw new Unsupported("a construct that does not fit on its line");
    return text;
  }

  /**
   * A document prettier prints flat when it fits on its line, and in a way not modelled here when it does not
   * (arrow functions and literals as call arguments, chains of calls): flat, or "not modelled".
   */
  private flatOnly(doc: Doc, node: TS.Node): Doc {
    if (utils.willBreak(doc)) this.unsupported(node, "spans lines");
    return conditionalGroup([doc, LAYOUT_NOT_MODELLED]);
  }

  private unsupported(node: TS.Node, detail = ""): never {
    throw new Unsupported(describe(node, detail));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Comments
  // ---------------------------------------------------------------------------------------------------------------

  private sourceComments(node: TS.Node): TS.CommentRange[] {
    if (!this.source || node.pos < 0) return [];
    return ts.getLeadingCommentRanges(this.source.text, node.pos) ?? [];
  }

  private hasComments(node: TS.Node): boolean {
    return (ts.getSyntheticLeadingComments(node)?.length ?? 0) > 0 || this.sourceComments(node).length > 0;
  }

  /** Leading comments (JSDoc), each on its own line before the node, as prettier keeps them. */
  private withComments(node: TS.Node, printed: Doc): Doc {
    if (ts.getSyntheticTrailingComments(node)?.length) this.unsupported(node, "a trailing comment");
    const synthetic = ts.getSyntheticLeadingComments(node);
    if (synthetic?.length) {
      return [
        ...synthetic.map((comment) => {
          if (comment.kind !== SK.MultiLineCommentTrivia) this.unsupported(node, "a line comment");
          return [printBlockComment(comment.text), hardline];
        }),
        printed,
      ];
    }
    if (!this.source) return printed;
    const text = this.source.text;
    if (ts.getTrailingCommentRanges(text, node.end)?.length) this.unsupported(node, "a trailing comment");
    const comments = this.sourceComments(node);
    if (comments.length === 0) return printed;
    const parts: Doc[] = [];
    for (const comment of comments) {
      this.printedComments++;
      const body = text.slice(comment.pos + 2, comment.kind === SK.MultiLineCommentTrivia ? comment.end - 2 : comment.end);
      parts.push(comment.kind === SK.MultiLineCommentTrivia ? printBlockComment(body) : ["//", body.trimEnd()]);
      // prettier: a block comment on the node's line stays on it; a blank line after a comment is kept.
      const sameLine = comment.kind === SK.MultiLineCommentTrivia && !comment.hasTrailingNewLine;
      parts.push(sameLine ? " " : hardline);
      if (!sameLine && isNextLineEmpty(text, comment.end)) parts.push(hardline);
    }
    return [...parts, printed];
  }

  /** Every comment of the source must have been printed: a comment this printer does not place is not dropped. */
  private checkEveryCommentPrinted(file: TS.SourceFile): void {
    const total = countComments(file.text);
    if (total !== this.printedComments + this.skippedComments) {
      throw new Unsupported(`a comment where this printer does not place comments (${total - this.printedComments - this.skippedComments} of ${total})`);
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Statements
  // ---------------------------------------------------------------------------------------------------------------

  private statement(node: TS.Statement): Doc {
    switch (node.kind) {
      case SK.InterfaceDeclaration:
        return this.interfaceDeclaration(node as TS.InterfaceDeclaration);
      case SK.TypeAliasDeclaration:
        return this.typeAlias(node as TS.TypeAliasDeclaration);
      case SK.ImportDeclaration:
        return this.importDeclaration(node as TS.ImportDeclaration);
      case SK.ExportDeclaration:
        return this.exportDeclaration(node as TS.ExportDeclaration);
      case SK.VariableStatement:
        return this.variableStatement(node as TS.VariableStatement);
      case SK.FunctionDeclaration:
        return this.functionDeclaration(node as TS.FunctionDeclaration);
      case SK.ReturnStatement: {
        const { expression } = node as TS.ReturnStatement;
        if (!expression) return "return;";
        // prettier wraps a binary expression in parentheses when it breaks: not modelled.
        if (ts.isBinaryExpression(expression)) this.unsupported(node, "returns a binary expression");
        return ["return ", this.expression(expression), ";"];
      }
      case SK.ExpressionStatement:
        return [this.flatOnly(this.expression((node as TS.ExpressionStatement).expression), node), ";"];
      default:
        return this.unsupported(node);
    }
  }

  private modifiers(node: TS.Node): string {
    const modifiers = ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : [];
    return modifiers
      .map((modifier) => {
        if (modifier.kind === SK.ExportKeyword) return "export ";
        if (modifier.kind === SK.DeclareKeyword) return "declare ";
        if (modifier.kind === SK.ReadonlyKeyword) return "readonly ";
        return this.unsupported(modifier);
      })
      .join("");
  }

  private interfaceHead(node: TS.InterfaceDeclaration): Doc {
    const name: Doc = [this.modifiers(node), "interface ", node.name.text, this.typeParameters(node.typeParameters)];
    const heritage = node.heritageClauses ?? [];
    if (heritage.length === 0) return name;
    if (heritage.length > 1 || heritage[0]!.token !== SK.ExtendsKeyword) this.unsupported(node, "heritage");
    const types = heritage[0]!.types.map((type) => {
      if (type.typeArguments?.length || !ts.isIdentifier(type.expression)) this.unsupported(type);
      return (type.expression as TS.Identifier).text;
    });
    // prettier indents `extends` onto the next line when the head does not fit; with type parameters it does more.
    if (node.typeParameters?.length) return this.flatOnly([name, " extends ", join(", ", types)], node);
    return group(indent([name, line, "extends ", types.length === 1 ? types[0]! : indent(join([",", line], types))]));
  }

  private interfaceDeclaration(node: TS.InterfaceDeclaration): Doc {
    const head = this.interfaceHead(node);
    if (node.members.length === 0) return [head, " {}"];
    return [head, " {", indent([hardline, this.members(node.members, (member) => [group(this.member(member)), ";"])]), hardline, "}"];
  }

  /**
   * An interface printed one member at a time: members are separated by hard line breaks, so each one's layout is
   * independent of the others, and the document of a 1,000-path `paths` never has to exist whole.
   */
  private interfaceInPieces(node: TS.InterfaceDeclaration, parts: string[]): void {
    parts.push(this.layout(this.withComments(node, [this.interfaceHead(node), " {"])));
    node.members.forEach((member, index) => {
      if (index > 0 && this.source && isNextLineEmpty(this.source.text, node.members[index - 1]!.end)) parts.push("\n");
      if (this.source) parts.push(this.directSourceMember(member, this.source) ?? this.layout(indent([hardline, this.withComments(member, [group(this.member(member)), ";"])])));
      else this.memberInPieces(member, 1, parts);
    });
    parts.push("\n}");
  }

  /**
   * A member of a filled template's interface (one per operation in the client's and the server's) written by the
   * direct writer, as schema.ts' members are, with its JSDoc from the source text; undefined where the document path
   * decides. Only members without an object literal: the comments counted here are then all the member has (any other
   * comment in it is left unprinted, and checkEveryCommentPrinted sends the file to prettier).
   */
  private directSourceMember(member: TS.TypeElement, source: TS.SourceFile): string | undefined {
    const type = (member as TS.PropertySignature | TS.IndexSignatureDeclaration).type;
    if (!type || hasObjectLiteral(type)) return undefined;
    directSource = source;
    try {
      const text = directMember(member, 1);
      if (text !== undefined) this.printedComments += this.sourceComments(member).length;
      return text;
    } finally {
      directSource = undefined;
    }
  }

  /**
   * A member at `depth` indents, laid out on its own. One typed with an object literal (`components`' `schemas: { … }`,
   * a schema's object-typed property) has its members laid out one at a time too, at any depth: the literal always
   * breaks (typeLiteral), so each of its members is on lines of its own and its layout does not depend on the others.
   * The documents of all of a big spec's schemas never exist at once, and most pieces are simple enough for
   * printWithoutChoices. The pieces are pushed onto the file's one list, not joined level by level (that copied a
   * deep schema's text once per level of nesting).
   */
  private memberInPieces(member: TS.TypeElement, depth: number, parts: string[]): void {
    const literal = openTypeLiteral(member);
    if (!literal) {
      parts.push(directMember(member, depth) ?? this.layout(indented(depth, [hardline, this.withComments(member, [group(this.member(member)), ";"])])));
      return;
    }
    const property = member as TS.PropertySignature;
    parts.push(directLiteralHead(property, depth) ?? this.layout(indented(depth, [hardline, this.withComments(member, this.literalHead(property))])));
    for (const inner of literal.members) this.memberInPieces(inner, depth + 1, parts);
    parts.push(`\n${"  ".repeat(depth)}};`);
  }

  /** `name: {` of a member typed with an open object literal (memberInPieces). */
  private literalHead(property: TS.PropertySignature): Doc {
    return [this.modifiers(property), this.propertyName(property.name), property.questionToken ? "?" : "", ": {"];
  }

  /** Members one per line, with their comments, and the blank lines the source has between them. */
  private members(members: readonly TS.TypeElement[], print: (member: TS.TypeElement, index: number) => Doc): Doc {
    return members.map((member, index) => [
      index === 0 ? "" : this.source && isNextLineEmpty(this.source.text, members[index - 1]!.end) ? [hardline, hardline] : hardline,
      this.withComments(member, print(member, index)),
    ]);
  }

  private typeAlias(node: TS.TypeAliasDeclaration): Doc {
    // openapi-typescript's one helper type, parsed from a fixed text.
    if (isWithRequiredHelper(node)) return WITH_REQUIRED;
    if (node.typeParameters?.length) this.unsupported(node, `type ${node.name.text} with type parameters`);
    const head = [this.modifiers(node), "type ", node.name.text, " = "];
    const type = node.type;
    if (ts.isTypeLiteralNode(type) && type.members.length > 0) return [head, this.typeLiteral(type), ";"];
    const statement: Doc = [head, this.type(type, { kind: "alias" }), ";"];
    // Only short aliases: the layout prettier picks for a long right-hand side is not modelled here.
    if (printer.printDocToString(statement, PRINT_OPTIONS).formatted.includes("\n")) this.unsupported(node, `type ${node.name.text} longer than a line`);
    return statement;
  }

  private importDeclaration(node: TS.ImportDeclaration): Doc {
    const clause = node.importClause;
    if (!clause || clause.name || !clause.namedBindings || node.attributes) this.unsupported(node);
    const keyword = clause.isTypeOnly ? "import type " : "import ";
    const from = [" from ", this.stringLiteral(node.moduleSpecifier as TS.StringLiteral), ";"];
    // `import * as name from "…"`: never broken.
    if (ts.isNamespaceImport(clause.namedBindings)) return [keyword, "* as ", clause.namedBindings.name.text, ...from];
    const names = clause.namedBindings.elements.map((element) => this.specifier(element));
    return [keyword, this.specifierList(names), ...from];
  }

  private exportDeclaration(node: TS.ExportDeclaration): Doc {
    if (!node.moduleSpecifier || node.attributes || this.modifiers(node)) this.unsupported(node);
    const from = [" from ", this.stringLiteral(node.moduleSpecifier as TS.StringLiteral), ";"];
    const keyword = node.isTypeOnly ? "export type " : "export ";
    if (!node.exportClause) return [keyword, "*", from];
    // `export * as name from "…"`: never broken.
    if (ts.isNamespaceExport(node.exportClause)) return [keyword, "* as ", this.specifierName(node.exportClause.name), from];
    return [keyword, this.specifierList(node.exportClause.elements.map((element) => this.specifier(element))), ...from];
  }

  private specifier(node: TS.ImportSpecifier | TS.ExportSpecifier): string {
    if (this.hasComments(node)) this.unsupported(node, "a comment");
    return `${node.isTypeOnly ? "type " : ""}${node.propertyName ? `${this.specifierName(node.propertyName)} as ` : ""}${this.specifierName(node.name)}`;
  }

  private specifierName(identifier: TS.ModuleExportName): string {
    return ts.isIdentifier(identifier) ? identifier.text : this.unsupported(identifier);
  }

  /** `{ a }` (one name never breaks) or `{ a, b }` broken one per line when it does not fit. */
  private specifierList(names: string[]): Doc {
    if (names.length === 1) return ["{ ", names[0]!, " }"];
    return group(["{", indent([line, join([",", line], names)]), ifBreak(","), line, "}"]);
  }

  private variableStatement(node: TS.VariableStatement): Doc {
    const list = node.declarationList;
    if (list.declarations.length !== 1) this.unsupported(node, "several declarations");
    const keyword = list.flags & ts.NodeFlags.Const ? "const " : list.flags & ts.NodeFlags.Let ? "let " : "var ";
    const declaration = list.declarations[0]!;
    if (!ts.isIdentifier(declaration.name) || declaration.exclamationToken) this.unsupported(declaration);
    const name = (declaration.name as TS.Identifier).text;
    const head: Doc = [this.modifiers(node), keyword, name, declaration.type ? [": ", this.type(declaration.type, { kind: "annotation" })] : ""];
    const table = this.data.get(name);
    if (table) {
      if (declaration.initializer) this.skippedComments += countComments(declaration.initializer.getFullText(this.source));
      return layoutJsonConstant(head, table);
    }
    if (!declaration.initializer) return [head, ";"];
    // An array of names (the client's runtime features) is prettier's "fluid" assignment of an array that breaks
    // one name per line; other initializers are printed only where they fit.
    const initializer = declaration.initializer;
    if (ts.isArrayLiteralExpression(initializer) && initializer.elements.length > 0 && initializer.elements.every((element) => ts.isIdentifier(element))) {
      return fluidAssignment(head, this.expression(initializer));
    }
    return this.flatOnly([head, " = ", this.expression(initializer), ";"], node);
  }

  private functionDeclaration(node: TS.FunctionDeclaration): Doc {
    if (!node.name || node.asteriskToken) this.unsupported(node);
    // prettier hugs a lone parameter typed with an object literal type: not modelled.
    if (node.parameters.length === 1 && node.parameters[0]!.type && ts.isTypeLiteralNode(node.parameters[0]!.type)) this.unsupported(node, "a lone object-typed parameter");
    const parameters = node.parameters.map((parameter) => this.parameter(parameter));
    const printedParameters: Doc =
      parameters.length === 0 ? "()" : ["(", indent([softline, join([",", line], parameters)]), ifBreak(","), softline, ")"];
    const returnType: Doc = node.type ? [": ", this.type(node.type, { kind: "annotation" })] : "";
    return [this.modifiers(node), "function ", node.name!.text, this.typeParameters(node.typeParameters), group([printedParameters, returnType]), node.body ? [" ", this.block(node.body)] : ";"];
  }

  private parameter(node: TS.ParameterDeclaration): Doc {
    if (!ts.isIdentifier(node.name) || node.dotDotDotToken || this.modifiers(node) || this.hasComments(node)) this.unsupported(node);
    return [
      (node.name as TS.Identifier).text,
      node.questionToken ? "?" : "",
      node.type ? [": ", this.type(node.type, { kind: "annotation" })] : "",
      node.initializer ? [" = ", this.expression(node.initializer)] : "",
    ];
  }

  private typeParameters(parameters: TS.NodeArray<TS.TypeParameterDeclaration> | undefined): Doc {
    if (!parameters?.length) return "";
    const printed = parameters.map((parameter) => [
      parameter.name.text,
      parameter.constraint ? [" extends ", this.type(parameter.constraint, { kind: "typeArgument" })] : "",
      parameter.default ? [" = ", this.type(parameter.default, { kind: "typeArgument" })] : "",
    ]);
    return group(["<", indent([softline, join([",", line], printed)]), ifBreak(","), softline, ">"]);
  }

  private block(node: TS.Block): Doc {
    if (node.statements.length === 0) {
      if (this.source && ts.getLeadingCommentRanges(this.source.text, node.statements.pos)?.length) this.unsupported(node, "a comment");
      return "{}";
    }
    const statements = node.statements.map((statement, index) => [
      index === 0 ? "" : this.source && isNextLineEmpty(this.source.text, node.statements[index - 1]!.end) ? [hardline, hardline] : hardline,
      this.withComments(statement, this.statement(statement)),
    ]);
    return ["{", indent([hardline, statements]), hardline, "}"];
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Expressions
  // ---------------------------------------------------------------------------------------------------------------

  private expression(node: TS.Expression): Doc {
    switch (node.kind) {
      case SK.Identifier:
        return (node as TS.Identifier).text;
      case SK.StringLiteral:
        return this.stringLiteral(node as TS.StringLiteral);
      case SK.NumericLiteral:
        return printNumber(this.source ? node.getText(this.source) : (node as TS.NumericLiteral).text);
      case SK.TrueKeyword:
        return "true";
      case SK.FalseKeyword:
        return "false";
      case SK.NullKeyword:
        return "null";
      case SK.PropertyAccessExpression: {
        const access = node as TS.PropertyAccessExpression;
        if (access.questionDotToken || !ts.isIdentifier(access.name)) this.unsupported(node);
        return [this.expression(access.expression), ".", access.name.text];
      }
      case SK.AsExpression: {
        const as = node as TS.AsExpression;
        return [this.expression(as.expression), " as ", this.type(as.type, { kind: "annotation" })];
      }
      case SK.CallExpression:
        return this.call(node as TS.CallExpression);
      case SK.ArrowFunction:
        return this.arrowFunction(node as TS.ArrowFunction);
      case SK.ArrayLiteralExpression: {
        const elements = (node as TS.ArrayLiteralExpression).elements;
        if (elements.length === 0) return "[]";
        return group(["[", indent([softline, join([",", line], elements.map((element) => this.expression(element)))]), ifBreak(","), softline, "]"]);
      }
      case SK.ObjectLiteralExpression:
        // Only `{}`: prettier keeps an object literal expanded when the source has a line break after `{`.
        if ((node as TS.ObjectLiteralExpression).properties.length === 0) return "{}";
        return this.unsupported(node);
      default:
        return this.unsupported(node);
    }
  }

  /**
   * A call. A member call chain of at most two groups (`runtime.operation(spec)`, `Object.fromEntries(…)`) is printed
   * on one line by prettier's member-chain rules whatever the width; longer chains are not modelled.
   */
  private call(node: TS.CallExpression): Doc {
    if (node.questionDotToken) this.unsupported(node);
    let callee: Doc;
    if (ts.isIdentifier(node.expression)) callee = node.expression.text;
    else if (ts.isPropertyAccessExpression(node.expression) && !memberChainHasCall(node.expression)) callee = this.expression(node.expression);
    else return this.unsupported(node, "a chain of calls");
    const typeArguments = node.typeArguments?.length ? this.typeArguments(node.typeArguments) : "";
    return [callee, typeArguments, this.callArguments(node)];
  }

  private callArguments(node: TS.CallExpression): Doc {
    const args = node.arguments;
    if (args.length === 0) return "()";
    const printed = args.map((arg) => this.expression(arg));
    const contents: Doc = group(["(", indent([softline, join([",", line], printed)]), ifBreak(","), softline, ")"]);
    // prettier hugs a last argument that can expand (a function, an object, an array) or breaks them all: that
    // choice is not modelled, only the layout where everything fits.
    return args.some(couldExpand) ? this.flatOnly(contents, node) : contents;
  }

  private arrowFunction(node: TS.ArrowFunction): Doc {
    if (node.typeParameters?.length || node.type || this.modifiers(node) || ts.isBlock(node.body)) this.unsupported(node);
    const parameters = node.parameters.map((parameter) => this.parameter(parameter));
    return ["(", join(", ", parameters), ") => ", this.expression(node.body as TS.Expression)];
  }

  private stringLiteral(node: TS.StringLiteral): string {
    // The source's own escapes are kept (prettier only changes the quotes); a factory-made string is escaped as
    // TypeScript's printer would write it.
    return this.source && node.pos >= 0 ? printRawString(node.getText(this.source)) : printString(node.text);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Types
  // ---------------------------------------------------------------------------------------------------------------

  private member(member: TS.TypeElement): Doc {
    if (ts.isPropertySignature(member)) {
      return [
        this.modifiers(member),
        this.propertyName(member.name),
        member.questionToken ? "?" : "",
        member.type ? [": ", this.type(member.type, { kind: "annotation" })] : "",
      ];
    }
    if (ts.isIndexSignatureDeclaration(member)) {
      if (member.parameters.length !== 1) this.unsupported(member);
      const parameter = member.parameters[0]!;
      if (!ts.isIdentifier(parameter.name) || !parameter.type || parameter.questionToken || parameter.dotDotDotToken) this.unsupported(member);
      const printedParameter = [(parameter.name as TS.Identifier).text, ": ", this.type(parameter.type!, { kind: "annotation" })];
      return [this.modifiers(member), "[", group([indent([softline, printedParameter]), softline]), "]", [": ", this.type(member.type, { kind: "annotation" })]];
    }
    return this.unsupported(member);
  }

  /**
   * A type literal: never collapsed onto one line. prettier keeps an object open once it is written open, and
   * TypeScript's printer (openapi-typescript) and ts-morph write them open; one written on one line is not modelled.
   */
  private typeLiteral(node: TS.TypeLiteralNode): Doc {
    const members = node.members;
    if (members.length === 0) return "{}";
    if (this.source && node.pos >= 0 && !/\n/.test(this.source.text.slice(node.getStart(this.source), members[0]!.getStart(this.source)))) {
      this.unsupported(node, "written on one line");
    }
    const printed = this.members(members, (member, index) => [group(this.member(member)), index < members.length - 1 ? ";" : ifBreak(";")]);
    return group(["{", indent([line, printed]), line, "}"], { shouldBreak: true });
  }

  private propertyName(name: TS.PropertyName): Doc {
    if (ts.isIdentifier(name)) return name.text;
    if (ts.isStringLiteral(name)) {
      const printed = this.stringLiteral(name);
      // prettier's quoteProps "as-needed": a key that reads the same unquoted and is an identifier loses its quotes.
      if (printed.slice(1, -1) === name.text && isIdentifierName(name.text)) return name.text;
      return printed;
    }
    if (ts.isNumericLiteral(name)) return printNumber(name.text);
    return this.unsupported(name);
  }

  private typeArguments(args: readonly TS.TypeNode[]): Doc {
    if (args.length === 1 && shouldHugType(args[0]!)) return ["<", this.type(args[0]!, { kind: "typeArgument" }), ">"];
    const printed = args.map((arg) => this.type(arg, { kind: "typeArgument" }));
    return group(["<", indent([softline, join([",", line], printed)]), softline, ">"]);
  }

  private type(raw: TS.TypeNode, place: Place): Doc {
    const node = unwrap(raw);
    if (node !== raw && ts.getSyntheticLeadingComments(raw)?.length) this.unsupported(raw);
    if (ts.getSyntheticLeadingComments(node)?.length || ts.getSyntheticTrailingComments(node)?.length) this.unsupported(node);
    const keyword = KEYWORD_TEXT.get(node.kind);
    if (keyword !== undefined) return keyword;
    switch (node.kind) {
      case SK.LiteralType:
        return this.literal((node as TS.LiteralTypeNode).literal);
      case SK.Identifier:
        return isJsonStringIdentifier(node) ? printRawString(node.text) : this.unsupported(node);
      case SK.TypeLiteral:
        return this.typeLiteral(node as TS.TypeLiteralNode);
      case SK.UnionType:
        return this.union(node as TS.UnionTypeNode, place);
      case SK.IntersectionType:
        return this.intersection(node as TS.IntersectionTypeNode, place);
      case SK.ArrayType:
        return [this.type((node as TS.ArrayTypeNode).elementType, { kind: "array" }), "[]"];
      case SK.IndexedAccessType: {
        const access = node as TS.IndexedAccessTypeNode;
        return [this.type(access.objectType, { kind: "indexedObject" }), "[", this.type(access.indexType, { kind: "indexedIndex" }), "]"];
      }
      case SK.TypeReference: {
        const reference = node as TS.TypeReferenceNode;
        const name = printEntityName(reference.typeName);
        if (!reference.typeArguments?.length) return name;
        return [name, this.typeArguments(reference.typeArguments)];
      }
      case SK.TypeOperator: {
        const operator = node as TS.TypeOperatorNode;
        const keyword = operator.operator === SK.ReadonlyKeyword ? "readonly" : operator.operator === SK.KeyOfKeyword ? "keyof" : this.unsupported(node);
        const printed: Doc = [keyword, " ", this.type(operator.type, { kind: "operator" })];
        return needsParentheses(node, place) ? ["(", printed, ")"] : printed;
      }
      case SK.TupleType: {
        const elements = (node as TS.TupleTypeNode).elements;
        if (elements.length === 0) return "[]";
        const printed = elements.map((element): Doc => {
          // `name: T` (a labelled element, the resource client's path parameters); `...name` and `name?` are left to prettier.
          if (ts.isNamedTupleMember(element)) {
            if (element.dotDotDotToken || element.questionToken) this.unsupported(element);
            return [element.name.text, ": ", this.type(element.type, { kind: "tuple", siblings: elements.length })];
          }
          // `[A?, ...B[]]` (an array with prefixItems, see emit/types.ts): an optional element is parenthesised as
          // an array element would be, `(A | B)?`.
          if (ts.isOptionalTypeNode(element)) return [this.type(element.type, { kind: "array" }), "?"];
          if (ts.isRestTypeNode(element)) return ["...", this.type(element.type, { kind: "tuple", siblings: elements.length })];
          return this.type(element, { kind: "tuple", siblings: elements.length });
        });
        return group(["[", indent([softline, join([",", line], printed)]), ifBreak(","), softline, "]"]);
      }
      default:
        return this.unsupported(node);
    }
  }

  private literal(literal: TS.LiteralTypeNode["literal"]): Doc {
    return literalText(literal, (node) => this.stringLiteral(node)) ?? this.unsupported(literal);
  }

  private union(node: TS.UnionTypeNode, place: Place): Doc {
    const siblings = node.types.length;
    if (shouldHugUnion(node)) {
      const hugged = join(" | ", node.types.map((type) => this.type(type, { kind: "union", siblings })));
      return needsParentheses(node, place) ? ["(", hugged, ")"] : hugged;
    }
    const members = group(
      node.types.map((type, index) => [index === 0 ? ifBreak("| ") : [line, "| "], align(2, this.type(type, { kind: "union", siblings }))]),
    );
    if (needsParentheses(node, place)) return ["(", group([indent([softline, members]), softline]), ")"];
    if (place.kind === "tuple" && (place.siblings ?? 0) > 1) {
      return group([indent([ifBreak(["(", softline]), members]), softline, ifBreak(")")]);
    }
    // A union that does not fit moves to the next line whole, and only then breaks one member per line.
    if (place.kind === "typeArgument" || place.kind === "tuple") return members;
    return group(indent([softline, members]));
  }

  private intersection(node: TS.IntersectionTypeNode, place: Place): Doc {
    const siblings = node.types.length;
    const types = node.types.map((type) => this.type(type, { kind: "intersection", siblings }));
    const result: Doc[] = [];
    let wasIndented = false;
    for (let i = 0; i < node.types.length; i++) {
      const type = node.types[i]!;
      if (i === 0) {
        result.push(types[i]!);
      } else if (!isObjectType(node.types[i - 1]!) && !isObjectType(type)) {
        result.push(indent([" &", line, types[i]!]));
      } else if (isObjectType(node.types[i - 1]!) && isObjectType(type)) {
        result.push([" & ", wasIndented ? indent(types[i]!) : types[i]!]);
      } else {
        if (i > 1) wasIndented = true;
        result.push(" & ", i > 1 ? indent(types[i]!) : types[i]!);
      }
    }
    const printed = group(result);
    return needsParentheses(node, place) ? ["(", printed, ")"] : printed;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The direct writer: members of schema.ts written as text, without prettier's documents
// ---------------------------------------------------------------------------------------------------------------

/** prettier's default print width (PRINT_OPTIONS). */
const PRINT_WIDTH = 80;

/**
 * A member of openapi-typescript's types at `depth` indents (a line break, its JSDoc, the member and `;`) written as
 * text, without prettier's documents, where memberText knows its layout; undefined where the document path decides.
 */
function directMember(member: TS.TypeElement, depth: number): string | undefined {
  const text = memberText(member, 2 * depth);
  return text === undefined ? undefined : `\n${"  ".repeat(depth)}${text}`;
}

/**
 * A member starting at column `column` (its indentation), with its JSDoc before it and `;` after it, as prettier
 * prints `group(member)` there. prettier prints a group flat when all of it, up to the next place the enclosing
 * layout may break (here the end of the line, after `;`), fits in the print width; then every group inside is flat
 * too. A member with no place to break at all (no union, no type arguments…: flatBreakable) is flat at any width.
 * Otherwise the group breaks, and the type is laid out by brokenType. Undefined where this writer is not sure.
 */
function memberText(member: TS.TypeElement, column: number): string | undefined {
  const indentation = " ".repeat(column);
  const comments = directComments(member, indentation);
  if (comments === undefined) return undefined;
  flatBreakable = false;
  const flat = flatMember(member);
  if (flat !== undefined) {
    const fits = !flatBreakable || fitsFlat(flat, column, 1);
    if (fits === undefined) return undefined;
    if (fits) return `${comments}${flat};`;
  }
  // Broken: a property whose type has an object literal in it or does not fit on its line.
  const modifiers = flatModifiers(member);
  if (modifiers === undefined) return undefined;
  let head: string;
  if (ts.isPropertySignature(member) && member.type) {
    const name = flatPropertyName(member.name);
    if (name === undefined) return undefined;
    head = `${modifiers}${name}${member.questionToken ? "?" : ""}`;
  } else if (ts.isIndexSignatureDeclaration(member) && member.parameters.length === 1) {
    // The key (`key: string`) sits in a group of its own that stays flat when it fits up to the first break of the
    // value's layout: checked below on the whole first line.
    const parameter = member.parameters[0]!;
    if (!ts.isIdentifier(parameter.name) || !parameter.type || parameter.questionToken || parameter.dotDotDotToken) return undefined;
    flatBreakable = false;
    const key = flatType(parameter.type, ANNOTATION);
    if (key === undefined || flatBreakable) return undefined;
    head = `${modifiers}[${parameter.name.text}: ${key}]`;
  } else return undefined;
  const type = brokenType((member as TS.PropertySignature | TS.IndexSignatureDeclaration).type!, ANNOTATION, column, column + head.length + 2, 1);
  if (type === undefined) return undefined;
  // A line break right after `name: ` drops the space, as prettier trims a line's trailing blanks.
  const text = type.startsWith("\n") ? `${head}:${type};` : `${head}: ${type};`;
  if (ts.isIndexSignatureDeclaration(member)) {
    // The key's group is measured up to the first line break of the value's layout (before `: ` loses its space).
    const firstBreak = type.indexOf("\n");
    if (firstBreak < 0 || fitsFlat(`${head}: ${type.slice(0, firstBreak)}`, column, 0) !== true) return undefined;
  }
  return `${comments}${text}`;
}

/**
 * Whether `text` (one line) starting at `column`, followed by `trail` columns of text before the next possible break,
 * fits; undefined when that is not known here: prettier measures printable ASCII by its length, anything else by
 * display width (getStringWidth: wide, combining, emoji), which this writer leaves to the document path.
 */
function fitsFlat(text: string, column: number, trail: number): boolean | undefined {
  if (NOT_PRINTABLE_ASCII.test(text)) return undefined;
  return column + text.length + trail <= PRINT_WIDTH;
}

/**
 * A type, in a group that is broken (it holds an object literal, which always breaks, or it did not fit), as prettier
 * lays out the document Printer.type makes for it. `indentation` is the column of the enclosing lines, `column` where
 * the type starts, `trail` the columns of text after it before the next place the layout breaks. The parts without
 * an object literal are flat when they fit (or cannot break); the shapes below are the ones openapi-typescript
 * writes around object literals and long unions. Undefined for any other shape, or a part that would break in a way
 * not modelled here: the caller then leaves the whole member to the document path.
 */
function brokenType(raw: TS.TypeNode, place: Place, indentation: number, column: number, trail: number): string | undefined {
  const node = unwrap(raw);
  const withObject = hasObjectLiteral(node);
  if (!withObject) {
    flatBreakable = false;
    const flat = flatType(node, place);
    if (flat === undefined) return undefined;
    const fits = !flatBreakable || fitsFlat(flat, column, trail);
    if (fits === undefined) return undefined;
    if (fits) return flat;
  }
  if (node !== raw && ts.getSyntheticLeadingComments(raw)?.length) return undefined;
  if (ts.getSyntheticLeadingComments(node)?.length || ts.getSyntheticTrailingComments(node)?.length) return undefined;
  switch (node.kind) {
    case SK.TypeLiteral: {
      const inner = indentation + 2;
      let text = "{";
      for (const member of (node as TS.TypeLiteralNode).members) {
        const printed = memberText(member, inner);
        if (printed === undefined) return undefined;
        text += `\n${" ".repeat(inner)}${printed}`;
      }
      return `${text}\n${" ".repeat(indentation)}}`;
    }
    case SK.ArrayType: {
      const element = brokenType((node as TS.ArrayTypeNode).elementType, IN_ARRAY, indentation, column, trail + 2);
      return element === undefined ? undefined : `${element}[]`;
    }
    case SK.UnionType:
      // A hugged union (`{ … } | null`) has no layout of its own: only its object literal breaks.
      if (shouldHugUnion(node as TS.UnionTypeNode)) return withObject ? huggedUnion(node as TS.UnionTypeNode, place, indentation, column) : undefined;
      return brokenUnion(node as TS.UnionTypeNode, place, indentation, trail);
    case SK.IntersectionType:
      return brokenIntersection(node as TS.IntersectionTypeNode, place, indentation, column);
    case SK.TypeReference:
      return brokenTypeArguments(node as TS.TypeReferenceNode, place, indentation);
    default:
      return undefined;
  }
}

/**
 * `Name<A, B>` that does not fit, as a member's type (`listPets: Operation<paths["/pets"]["get"]>` past 80 columns):
 * Printer.typeArguments' group broken, one argument per line, indented, `>` on a line of its own. Only arguments that
 * cannot break themselves, and not the hugged single argument (which has no line to break).
 */
function brokenTypeArguments(node: TS.TypeReferenceNode, place: Place, indentation: number): string | undefined {
  const args = node.typeArguments;
  if (place.kind !== "annotation" || !args?.length || (args.length === 1 && shouldHugType(args[0]!))) return undefined;
  const inner = " ".repeat(indentation + 2);
  let text = `${printEntityName(node.typeName)}<`;
  for (let i = 0; i < args.length; i++) {
    const printed = unbreakable(args[i]!, IN_TYPE_ARGUMENTS);
    if (printed === undefined) return undefined;
    text += `${i === 0 ? "" : ","}\n${inner}${printed}`;
  }
  return `${text}\n${" ".repeat(indentation)}>`;
}

/** `{ … } | null`: the object literal broken, the rest (null, void) on its lines, no union layout of its own. */
function huggedUnion(node: TS.UnionTypeNode, place: Place, indentation: number, column: number): string | undefined {
  const parenthesised = needsParentheses(node, place);
  let text = parenthesised ? "(" : "";
  for (const [index, type] of node.types.entries()) {
    if (index > 0) text += " | ";
    // The object literal breaks; the other members (null, void) cannot.
    const printed = hasObjectLiteral(type) ? brokenType(type, IN_UNION, indentation, columnAfter(column, text), 0) : unbreakable(type, IN_UNION);
    if (printed === undefined) return undefined;
    text += printed;
  }
  return parenthesised ? `${text})` : text;
}

/**
 * A union that breaks: one member per line after `| `, each member aligned two columns further. In an annotation
 * it moves to the next line first (and may fit there whole); in parentheses (an array's element) the members go on
 * lines of their own between `(` and `)`. Other places (tuples, type arguments) are not modelled.
 */
function brokenUnion(node: TS.UnionTypeNode, place: Place, indentation: number, trail: number): string | undefined {
  const parenthesised = needsParentheses(node, place);
  if (!parenthesised && place.kind !== "annotation" && place.kind !== "alias") return undefined;
  const inner = indentation + 2;
  // What follows the members' group before a break: nothing in parentheses (a soft line comes first), else the trail.
  const membersTrail = parenthesised ? 0 : trail;
  let members: string | undefined;
  if (!hasObjectLiteral(node)) {
    flatBreakable = false;
    const flat = flatType(node, IN_TYPE_ARGUMENTS); // the members without parentheses
    const fits = flat === undefined ? false : fitsFlat(flat, inner, membersTrail);
    if (fits === undefined) return undefined;
    if (fits) members = flat;
  }
  if (members === undefined) {
    members = "";
    const types = node.types;
    for (let index = 0; index < types.length; index++) {
      const last = index === types.length - 1;
      const printed = brokenType(types[index]!, IN_UNION, inner + 2, inner + 2, last ? membersTrail : 0);
      if (printed === undefined || printed.startsWith("\n")) return undefined;
      members += `${index === 0 ? "" : `\n${" ".repeat(inner)}`}| ${printed}`;
    }
  }
  return parenthesised ? `(\n${" ".repeat(inner)}${members}\n${" ".repeat(indentation)})` : `\n${" ".repeat(inner)}${members}`;
}

/**
 * `A & { … }`, `{ … } & { … }`: with an object on either side of every `&`, an intersection has no line to break,
 * and the object literals break as always (indented further after a mixed pair beyond the first, as Printer.intersection
 * does). Two non-objects side by side (`A & B`, a line that may break) and intersections in parentheses: not modelled.
 */
function brokenIntersection(node: TS.IntersectionTypeNode, place: Place, indentation: number, column: number): string | undefined {
  if (needsParentheses(node, place)) return undefined;
  const types = node.types;
  let text = "";
  let wasIndented = false;
  for (let i = 0; i < types.length; i++) {
    const type = types[i]!;
    let extra = 0;
    if (i > 0) {
      const objects = Number(isObjectType(types[i - 1]!)) + Number(isObjectType(type));
      if (objects === 0) return undefined;
      if (objects === 2) extra = wasIndented ? 2 : 0;
      else {
        if (i > 1) wasIndented = true;
        extra = i > 1 ? 2 : 0;
      }
      text += " & ";
    }
    // An object literal breaks; anything else here must be unable to (what follows it is not measured).
    const printed = isObjectType(type) ? brokenType(type, IN_INTERSECTION, indentation + extra, columnAfter(column, text), 0) : unbreakable(type, IN_INTERSECTION);
    if (printed === undefined) return undefined;
    text += printed;
  }
  return text;
}

/** The column after `text` written from `column` (its lines after the first start with their indentation). */
function columnAfter(column: number, text: string): number {
  const lineStart = text.lastIndexOf("\n");
  return lineStart < 0 ? column + text.length : text.length - lineStart - 1;
}

/** A type's flat text when it has no place to break at all (then it is printed so at any width). */
function unbreakable(node: TS.TypeNode, place: Place): string | undefined {
  flatBreakable = false;
  const flat = flatType(node, place);
  return flatBreakable ? undefined : flat;
}

/** Whether a type literal with members is somewhere in a type (then the groups around it always break). */
function hasObjectLiteral(node: TS.Node): boolean {
  if (ts.isTypeLiteralNode(node)) return node.members.length > 0;
  return ts.forEachChild(node, (child) => (ts.isTypeNode(child) && hasObjectLiteral(child)) || undefined) ?? false;
}

/**
 * Printer.literalHead's piece (a line break, the JSDoc, `name: {`) as text: it is text only, so no width is measured.
 * Undefined where the document path decides (a modifier, name or comment it does not know).
 */
function directLiteralHead(property: TS.PropertySignature, depth: number): string | undefined {
  const modifiers = flatModifiers(property);
  const name = modifiers === undefined ? undefined : flatPropertyName(property.name);
  if (name === undefined) return undefined;
  const indentation = "  ".repeat(depth);
  const comments = directComments(property, indentation);
  return comments === undefined ? undefined : `\n${indentation}${comments}${modifiers}${name}${property.questionToken ? "?" : ""}: {`;
}

/**
 * A node's leading JSDoc comments as withComments prints them at `indentation` (each followed by its line break and
 * the indentation of the next line); undefined where withComments would refuse (a line or trailing comment).
 */
function directComments(node: TS.Node, indentation: string): string | undefined {
  if (directSource) return directSourceComments(node, directSource, indentation);
  if (ts.getSyntheticTrailingComments(node)?.length) return undefined;
  const comments = ts.getSyntheticLeadingComments(node);
  if (!comments?.length) return "";
  let text = "";
  for (const comment of comments) {
    if (comment.kind !== SK.MultiLineCommentTrivia) return undefined;
    text += `${blockCommentText(comment.text, indentation)}\n${indentation}`;
  }
  return text;
}

/**
 * Printer.withComments' text for a parsed node's leading comments at `indentation`: block comments each on lines of
 * their own, and a blank line kept after one; undefined for a line comment, a comment on the node's line or one after
 * the node.
 */
function directSourceComments(node: TS.Node, source: TS.SourceFile, indentation: string): string | undefined {
  const text = source.text;
  if (ts.getSyntheticLeadingComments(node)?.length || ts.getSyntheticTrailingComments(node)?.length) return undefined;
  if (ts.getTrailingCommentRanges(text, node.end)?.length) return undefined;
  const comments = node.pos < 0 ? undefined : ts.getLeadingCommentRanges(text, node.pos);
  if (!comments?.length) return "";
  let printed = "";
  for (const comment of comments) {
    if (comment.kind !== SK.MultiLineCommentTrivia || !comment.hasTrailingNewLine) return undefined;
    printed += `${blockCommentText(text.slice(comment.pos + 2, comment.end - 2), indentation)}\n${isNextLineEmpty(text, comment.end) ? "\n" : ""}${indentation}`;
  }
  return printed;
}

/**
 * The parsed source whose members the direct writer is writing (Printer.directSourceMember): its string literals keep
 * the source's escapes and its comments are read from the text. Undefined for openapi-typescript's factory nodes.
 */
let directSource: TS.SourceFile | undefined;

/** A string literal as the direct writer prints it: Printer.stringLiteral's text. */
function directString(node: TS.StringLiteral): string {
  return directSource && node.pos >= 0 ? printRawString(node.getText(directSource)) : printString(node.text);
}

/** printBlockComment's text at `indentation`: the same lines, re-indented when they are JSDoc-like. */
function blockCommentText(text: string, indentation: string): string {
  const lines = text.split("\n");
  // Re-indented when every line after the first starts with `*` (the last may be blank): printBlockComment's test on
  // `*${text}*`, made while the lines are written.
  const last = lines.length > 1 ? lines[lines.length - 1]!.trimStart() : "";
  // Not re-indented: prettier's literal lines start at column 0 and keep the text as it is.
  if (lines.length < 2 || (last !== "" && last[0] !== "*")) return `/*${text}*/`;
  const isJsDoc = text[0] === "*" && text[1] !== "*";
  let printed = `/*${lines[0]!.trimEnd()}`;
  for (let index = 1; index < lines.length - 1; index++) {
    const line = lines[index]!.trimStart();
    if (line[0] !== "*") return `/*${text}*/`;
    const trimmed = line.trimEnd();
    // A Markdown line break (two trailing spaces) is kept: a literal line, which does not trim the line it ends.
    printed += isJsDoc && trimmed !== "*" && line.endsWith("  ") ? `\n${indentation} ${trimmed}  ` : `\n${indentation} ${trimmed}`;
  }
  return `${printed}\n${indentation} ${last}*/`;
}

/**
 * Set by flatType and flatMember when the text they made has a place where its layout could break (a union's
 * members, type arguments, a tuple's elements, an index signature's key, two intersected types): such text is flat
 * only when it fits. Reset by their callers.
 */
let flatBreakable = false;

/** A member on one line (every group flat), or undefined where it cannot be flat or is not known here. */
function flatMember(member: TS.TypeElement): string | undefined {
  const modifiers = flatModifiers(member);
  if (modifiers === undefined) return undefined;
  if (ts.isPropertySignature(member)) {
    const name = flatPropertyName(member.name);
    if (name === undefined) return undefined;
    const head = member.questionToken ? `${modifiers}${name}?` : `${modifiers}${name}`;
    if (!member.type) return head;
    const type = flatType(member.type, ANNOTATION);
    return type === undefined ? undefined : `${head}: ${type}`;
  }
  if (ts.isIndexSignatureDeclaration(member)) {
    if (member.parameters.length !== 1) return undefined;
    const parameter = member.parameters[0]!;
    if (!ts.isIdentifier(parameter.name) || !parameter.type || parameter.questionToken || parameter.dotDotDotToken) return undefined;
    flatBreakable = true;
    const key = flatType(parameter.type, ANNOTATION);
    const type = flatType(member.type, ANNOTATION);
    return key === undefined || type === undefined ? undefined : `${modifiers}[${parameter.name.text}: ${key}]: ${type}`;
  }
  return undefined;
}

function flatModifiers(node: TS.Node): string | undefined {
  const modifiers = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  if (!modifiers?.length) return "";
  let text = "";
  for (const modifier of modifiers) {
    if (modifier.kind === SK.ExportKeyword) text += "export ";
    else if (modifier.kind === SK.DeclareKeyword) text += "declare ";
    else if (modifier.kind === SK.ReadonlyKeyword) text += "readonly ";
    else return undefined;
  }
  return text;
}

/** propertyName's text for a factory-made name (no source). */
function flatPropertyName(name: TS.PropertyName): string | undefined {
  if (ts.isIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name)) {
    if (directSource) {
      // Printer.propertyName: the source's literal, unquoted when it reads the same unquoted and is an identifier.
      const printed = directString(name);
      return printed.slice(1, -1) === name.text && isIdentifierName(name.text) ? name.text : printed;
    }
    // An ASCII identifier needs no escape, so prettier unquotes it (quoteProps "as-needed"), without printString.
    // Any other key keeps its quotes: printString's text differs from the key or is not an identifier.
    return isIdentifierName(name.text) ? name.text : printString(name.text);
  }
  if (ts.isNumericLiteral(name)) return printNumber(name.text);
  return undefined;
}

const ANNOTATION: Place = { kind: "annotation" };
const IN_ARRAY: Place = { kind: "array" };
const IN_TYPE_ARGUMENTS: Place = { kind: "typeArgument" };
const IN_UNION: Place = { kind: "union" };
const IN_INTERSECTION: Place = { kind: "intersection" };
const INDEXED_OBJECT: Place = { kind: "indexedObject" };
const INDEXED_INDEX: Place = { kind: "indexedIndex" };
const IN_TUPLE: Place = { kind: "tuple" };
const UNDER_OPERATOR: Place = { kind: "operator" };

/**
 * Printer.type's document printed flat (every soft line empty, every line a space, every ifBreak its flat part);
 * undefined for a type literal with members (it always breaks) and for anything Printer.type refuses. Flat, the
 * number of siblings in a place changes nothing, so the places here have none.
 */
function flatType(raw: TS.TypeNode, place: Place): string | undefined {
  const node = unwrap(raw);
  if (node !== raw && ts.getSyntheticLeadingComments(raw)?.length) return undefined;
  if (ts.getSyntheticLeadingComments(node)?.length || ts.getSyntheticTrailingComments(node)?.length) return undefined;
  const keyword = KEYWORD_TEXT.get(node.kind);
  if (keyword !== undefined) return keyword;
  switch (node.kind) {
    case SK.LiteralType:
      return literalText((node as TS.LiteralTypeNode).literal, directString);
    case SK.Identifier:
      return isJsonStringIdentifier(node) ? printRawString(node.text) : undefined;
    case SK.TypeLiteral:
      return (node as TS.TypeLiteralNode).members.length === 0 ? "{}" : undefined;
    case SK.UnionType:
    case SK.IntersectionType: {
      const { types } = node as TS.UnionTypeNode | TS.IntersectionTypeNode;
      const isUnion = node.kind === SK.UnionType;
      if (isUnion ? !shouldHugUnion(node as TS.UnionTypeNode) : types.some((type, i) => i > 0 && !isObjectType(types[i - 1]!) && !isObjectType(type))) flatBreakable = true;
      let text = "";
      for (let i = 0; i < types.length; i++) {
        const type = flatType(types[i]!, isUnion ? IN_UNION : IN_INTERSECTION);
        if (type === undefined) return undefined;
        text += i === 0 ? type : isUnion ? ` | ${type}` : ` & ${type}`;
      }
      return needsParentheses(node, place) ? `(${text})` : text;
    }
    case SK.ArrayType: {
      const element = flatType((node as TS.ArrayTypeNode).elementType, IN_ARRAY);
      return element === undefined ? undefined : `${element}[]`;
    }
    case SK.IndexedAccessType: {
      const access = node as TS.IndexedAccessTypeNode;
      const object = flatType(access.objectType, INDEXED_OBJECT);
      const index = object === undefined ? undefined : flatType(access.indexType, INDEXED_INDEX);
      return index === undefined ? undefined : `${object}[${index}]`;
    }
    case SK.TypeReference: {
      const reference = node as TS.TypeReferenceNode;
      const name = printEntityName(reference.typeName);
      if (!reference.typeArguments?.length) return name;
      if (reference.typeArguments.length > 1 || !shouldHugType(reference.typeArguments[0]!)) flatBreakable = true;
      const args = flatList(reference.typeArguments, IN_TYPE_ARGUMENTS);
      return args === undefined ? undefined : `${name}<${args}>`;
    }
    case SK.TypeOperator: {
      const operator = node as TS.TypeOperatorNode;
      const keyword = operator.operator === SK.ReadonlyKeyword ? "readonly" : operator.operator === SK.KeyOfKeyword ? "keyof" : undefined;
      const type = keyword === undefined ? undefined : flatType(operator.type, UNDER_OPERATOR);
      if (type === undefined) return undefined;
      return needsParentheses(node, place) ? `(${keyword} ${type})` : `${keyword} ${type}`;
    }
    case SK.TupleType: {
      const elements = (node as TS.TupleTypeNode).elements;
      if (elements.length > 0) flatBreakable = true;
      let text = "";
      for (let i = 0; i < elements.length; i++) {
        const element = elements[i]!;
        if (ts.isNamedTupleMember(element)) {
          if (element.dotDotDotToken || element.questionToken) return undefined;
          const printed = flatType(element.type, IN_TUPLE);
          if (printed === undefined) return undefined;
          text += `${i === 0 ? "" : ", "}${element.name.text}: ${printed}`;
          continue;
        }
        // As Printer.type: `A?` parenthesised as an array element, `...A` as a tuple element.
        const optional = ts.isOptionalTypeNode(element);
        const rest = ts.isRestTypeNode(element);
        const printed = flatType(optional || rest ? element.type : element, optional ? IN_ARRAY : IN_TUPLE);
        if (printed === undefined) return undefined;
        text += `${i === 0 ? "" : ", "}${rest ? "..." : ""}${printed}${optional ? "?" : ""}`;
      }
      return `[${text}]`;
    }
    default:
      return undefined;
  }
}

function flatList(types: readonly TS.TypeNode[], place: Place): string | undefined {
  let text = "";
  for (let i = 0; i < types.length; i++) {
    const type = flatType(types[i]!, place);
    if (type === undefined) return undefined;
    text += i === 0 ? type : `, ${type}`;
  }
  return text;
}

/**
 * A literal type's text as prettier prints it, or undefined for a kind the printer does not know; `string` prints a
 * string literal (the document path keeps a parsed source's own escapes, the direct writer prints factory strings).
 */
function literalText(literal: TS.LiteralTypeNode["literal"], string: (node: TS.StringLiteral) => string): string | undefined {
  switch (literal.kind) {
    case SK.StringLiteral:
      return string(literal as TS.StringLiteral);
    case SK.NumericLiteral:
      return printNumber((literal as TS.NumericLiteral).text);
    case SK.TrueKeyword:
      return "true";
    case SK.FalseKeyword:
      return "false";
    case SK.NullKeyword:
      return "null";
    case SK.PrefixUnaryExpression: {
      const prefix = literal as TS.PrefixUnaryExpression;
      return prefix.operator === SK.MinusToken && ts.isNumericLiteral(prefix.operand) ? `-${printNumber(prefix.operand.text)}` : undefined;
    }
    default:
      return undefined;
  }
}

/** `a.b.c`: true when a call is somewhere in it (then it is a chain of calls). */
function memberChainHasCall(node: TS.Expression): boolean {
  for (let at: TS.Expression = node; ; ) {
    if (ts.isCallExpression(at)) return true;
    if (ts.isPropertyAccessExpression(at)) at = at.expression;
    else return false;
  }
}

/** prettier's `couldExpandArg`: arguments it may hug instead of breaking the argument list. */
function couldExpand(node: TS.Expression): boolean {
  if (ts.isAsExpression(node)) return couldExpand(node.expression);
  return (
    (ts.isObjectLiteralExpression(node) && node.properties.length > 0) ||
    (ts.isArrayLiteralExpression(node) && node.elements.length > 0) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

/** `head = JSON.parse('…');` of a data table, in prettier's form (a generated JavaScript module's data). */
export function printJsonConstant(head: string, table: DataTable): string {
  return layoutJsonConstant(head, table);
}

/**
 * `head = JSON.parse('…');` laid out at column 0 (a top-level statement). prettier prints a string literal that spans
 * lines with hard breaks, which break every group around it: the call's argument goes on a line of its own, and the
 * call after `=` when `head = JSON.parse(` fits ("fluid": its argument is not short). Only the first line decides, so
 * the layout is made with the rest of the table stood in for, and prettier's printer does not measure or copy the
 * multi-megabyte text.
 */
function layoutJsonConstant(head: Doc, table: DataTable): string {
  const literal = dataLiteral(table);
  const newline = literal.indexOf("\n");
  if (newline === -1) {
    const call: Doc = ["JSON.parse", group(["(", indent([softline, literal]), ifBreak(","), softline, ")"])];
    // A literal of a quarter of the print width or less is a short argument: prettier's "break-after-operator".
    return printer.printDocToString(literal.length <= SHORT_ARGUMENT ? group([head, " =", group(indent([line, call])), ";"]) : fluidAssignment(head, call), PRINT_OPTIONS).formatted;
  }
  const call: Doc = ["JSON.parse", group(["(", indent([softline, literal.slice(0, newline), literalline, TABLE_REST]), ifBreak(","), softline, ")"])];
  const laidOut = printer.printDocToString(fluidAssignment(head, call), PRINT_OPTIONS).formatted;
  const at = laidOut.lastIndexOf(TABLE_REST);
  return laidOut.slice(0, at) + literal.slice(newline + 1) + laidOut.slice(at + TABLE_REST.length);
}

/** prettier's bound of a short call argument (a quarter of the print width). */
const SHORT_ARGUMENT = 20;

/** Stands in for a table's lines after its first while prettier's printer lays the statement out. */
const TABLE_REST = "\u0000specforge: the rest of the table\u0000";

/** prettier's "fluid" assignment: the right side stays after `=` when its opening fits, else moves below it. */
function fluidAssignment(head: Doc, right: Doc): Doc {
  const afterOperator = Symbol("assignment");
  return group([head, " =", group(indent(line), { id: afterOperator }), indentIfBreak(right, { groupId: afterOperator }), ";"]);
}

/** What prettier's getStringWidth measures the slow way. */
const NOT_PRINTABLE_ASCII = /[^\x20-\x7F]/;

/** `doc` inside `depth` indents. */
function indented(depth: number, doc: Doc): Doc {
  for (let i = 0; i < depth; i++) doc = indent(doc);
  return doc;
}

/**
 * What prettier's printDocToString prints for a document in which no layout is chosen: text, hard line breaks,
 * indents, and groups with no other kind of line inside (a group prints its contents the same flat or broken when
 * they hold no line it could break, and one holding a hard break is broken). As prettier does, a line's trailing
 * spaces and tabs are dropped at each break, and the indent of the next line is written with it. Undefined for any
 * other document (soft lines, conditional content, alignment, literal lines…), which prettier lays out: this saves
 * its measuring and break propagation on the many pieces of schema.ts that have nothing to decide.
 */
export function printWithoutChoices(doc: Doc): string | undefined {
  let done = "";
  let line = ""; // the current line, trimmed when it ends
  const docs: Doc[] = [doc];
  const indents: string[] = [""];
  while (docs.length > 0) {
    const next = docs.pop()!;
    const at = indents.pop()!;
    if (typeof next === "string") {
      line += next;
    } else if (Array.isArray(next)) {
      for (let i = next.length - 1; i >= 0; i--) {
        docs.push(next[i]!);
        indents.push(at);
      }
    } else {
      switch (next.type) {
        case "indent":
          docs.push(next.contents);
          indents.push(`${at}  `);
          break;
        case "group":
          if (next.expandedStates) return undefined;
          docs.push(next.contents);
          indents.push(at);
          break;
        case "break-parent":
          break;
        case "line":
          if (!next.hard || next.literal) return undefined;
          done += line.replace(TRAILING_BLANKS, "") + "\n";
          line = at;
          break;
        default:
          return undefined;
      }
    }
  }
  return done + line;
}
const TRAILING_BLANKS = /[ \t]+$/;

/** The object literal type of a property signature printed as typeLiteral prints it (open), when it is one. */
function openTypeLiteral(member: TS.TypeElement): TS.TypeLiteralNode | undefined {
  if (!ts.isPropertySignature(member) || !member.type || !ts.isTypeLiteralNode(member.type) || member.type.members.length === 0) return undefined;
  if (ts.getSyntheticLeadingComments(member.type)?.length || ts.getSyntheticTrailingComments(member.type)?.length) return undefined;
  return member.type;
}

/** As TypeScript's printer writes it (the mapped type open) and prettier then keeps it. */
const WITH_REQUIRED = "type WithRequired<T, K extends keyof T> = T & {\n  [P in K]-?: T[P];\n};";
function isWithRequiredHelper(node: TS.TypeAliasDeclaration): boolean {
  return (
    node.name.text === "WithRequired" &&
    node.typeParameters?.map((parameter) => parameter.name.text).join() === "T,K" &&
    !ts.getModifiers(node)?.length &&
    ts.isIntersectionTypeNode(node.type) &&
    node.type.types.length === 2 &&
    ts.isMappedTypeNode(node.type.types[1]!)
  );
}

/**
 * The type inside parentheses, and inside a union or intersection of one type (openapi-typescript makes one of a
 * `oneOf` whose members are the same type): TypeScript's printer writes that as the type alone, parenthesised where a
 * union would be (`A & (number)`), and prettier prints it as the type alone.
 */
function unwrap(node: TS.TypeNode): TS.TypeNode {
  // (Most nodes are none of the three: no type guards called for them.)
  if (node.kind !== SK.ParenthesizedType && node.kind !== SK.UnionType && node.kind !== SK.IntersectionType) return node;
  for (;;) {
    if (ts.isParenthesizedTypeNode(node)) node = node.type;
    else if ((ts.isUnionTypeNode(node) || ts.isIntersectionTypeNode(node)) && node.types.length === 1) node = node.types[0]!;
    else return node;
  }
}

function isObjectType(node: TS.TypeNode): boolean {
  const inner = unwrap(node);
  return ts.isTypeLiteralNode(inner) || ts.isMappedTypeNode(inner);
}

function isNullOrVoid(node: TS.TypeNode): boolean {
  const inner = unwrap(node);
  return inner.kind === SK.NullKeyword || inner.kind === SK.VoidKeyword || (ts.isLiteralTypeNode(inner) && inner.literal.kind === SK.NullKeyword);
}

/** prettier's "simple" types: keywords and type references without type arguments. */
function isSimpleType(node: TS.TypeNode): boolean {
  const inner = unwrap(node);
  if (ts.isTypeReferenceNode(inner)) return !inner.typeArguments?.length;
  return KEYWORD_TYPES.has(inner.kind) || ts.isLiteralTypeNode(inner) || isJsonStringIdentifier(inner);
}

/** openapi-typescript writes string enum members as identifiers holding JSON.stringify's text (a literal type). */
function isJsonStringIdentifier(node: TS.Node): node is TS.Identifier {
  return ts.isIdentifier(node) && node.text.length >= 2 && node.text.startsWith('"') && node.text.endsWith('"');
}
/** The keyword types both printers write, as their text (Printer.type, flatType). */
const KEYWORD_TEXT = new Map<TS.SyntaxKind, string>([
  [SK.StringKeyword, "string"],
  [SK.NumberKeyword, "number"],
  [SK.BooleanKeyword, "boolean"],
  [SK.UnknownKeyword, "unknown"],
  [SK.NeverKeyword, "never"],
  [SK.AnyKeyword, "any"],
  [SK.NullKeyword, "null"],
  [SK.UndefinedKeyword, "undefined"],
  [SK.ObjectKeyword, "object"],
  [SK.BigIntKeyword, "bigint"],
  [SK.VoidKeyword, "void"],
]);
/** prettier's simple types: keywords (also `symbol`, `this`), which a union or type argument hugs. */
const KEYWORD_TYPES = new Set<TS.SyntaxKind>([
  SK.AnyKeyword,
  SK.NumberKeyword,
  SK.VoidKeyword,
  SK.BooleanKeyword,
  SK.BigIntKeyword,
  SK.SymbolKeyword,
  SK.StringKeyword,
  SK.NeverKeyword,
  SK.UndefinedKeyword,
  SK.UnknownKeyword,
  SK.NullKeyword,
  SK.ObjectKeyword,
  SK.ThisType,
]);

/** `{ … } | null` (or `Foo<…> | null`) stays glued to its object instead of becoming a one-per-line union. */
function shouldHugUnion(node: TS.UnionTypeNode): boolean {
  const objectLike = node.types.filter((type) => isObjectType(type) || ts.isTypeReferenceNode(unwrap(type)));
  return objectLike.length === 1 && node.types.every((type) => type === objectLike[0] || isNullOrVoid(type));
}

function shouldHugType(node: TS.TypeNode): boolean {
  if (isSimpleType(node) || isObjectType(node)) return true;
  const inner = unwrap(node);
  return ts.isUnionTypeNode(inner) && shouldHugUnion(inner);
}

function needsParentheses(node: TS.TypeNode, place: Place): boolean {
  const inner = unwrap(node);
  const isUnionLike = ts.isUnionTypeNode(inner) || ts.isIntersectionTypeNode(inner);
  if (isUnionLike && (place.kind === "union" || place.kind === "intersection")) return true;
  if (isUnionLike || ts.isTypeOperatorNode(inner)) {
    return place.kind === "array" || place.kind === "indexedObject" || place.kind === "operator";
  }
  return false;
}

function printEntityName(name: TS.EntityName): string {
  return ts.isIdentifier(name) ? name.text : `${printEntityName(name.left)}.${name.right.text}`;
}

/**
 * prettier's `isNextLineEmpty`: after `end`, past spaces and comments on the same line and one line break, is the
 * next line blank? (That is where prettier keeps one blank line of the source.)
 */
export function isNextLineEmpty(text: string, end: number): boolean {
  let i = end;
  for (;;) {
    while (text[i] === " " || text[i] === "\t") i++;
    if (text.startsWith("/*", i)) {
      const close = text.indexOf("*/", i + 2);
      if (close < 0 || text.slice(i, close).includes("\n")) return false;
      i = close + 2;
    } else if (text.startsWith("//", i)) {
      while (i < text.length && text[i] !== "\n" && text[i] !== "\r") i++;
    } else break;
  }
  if (text[i] === "\r" && text[i + 1] === "\n") i += 2;
  else if (text[i] === "\n" || text[i] === "\r") i++;
  else return false;
  while (text[i] === " " || text[i] === "\t") i++;
  return text[i] === "\n" || text[i] === "\r";
}

/** The number of comments in TypeScript source text (scanned, so `//` inside a string is not one). */
function countComments(text: string): number {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  let count = 0;
  for (let token = scanner.scan(); token !== SK.EndOfFileToken; token = scanner.scan()) {
    if (token === SK.SingleLineCommentTrivia || token === SK.MultiLineCommentTrivia) count++;
  }
  return count;
}

/**
 * A string as prettier prints the literal TypeScript's printer writes for it: TypeScript escapes non-ASCII
 * characters, and prettier then picks the quote that needs fewer escapes and drops escapes that do nothing.
 */
export function printString(value: string): string {
  // Printable ASCII without `"` or `\\` needs no escape, and double quotes are prettier's choice for it.
  if (PLAIN_STRING.test(value)) return `"${value}"`;
  const escaped = (ts as unknown as { escapeNonAsciiString(text: string, quote: number): string }).escapeNonAsciiString(value, 34);
  return printRawString(`"${escaped}"`);
}

const PLAIN_STRING = /^[\x20\x21\x23-\x5B\x5D-\x7E]*$/;

/** A string literal's source text (quotes included) as prettier prints it: the quote needing fewer escapes. */
function printRawString(literal: string): string {
  const raw = literal.slice(1, -1);
  const quote = count(raw, '"') > count(raw, "'") ? "'" : '"';
  if (literal[0] === quote) return literal;
  const other = quote === '"' ? "'" : '"';
  // prettier: an escaped other quote loses its backslash, a bare enclosing quote gains one; nothing else changes.
  // A hand-written scan: the regex replace prettier uses is slow on long literals.
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 92 /* \ */) {
      if (raw[i + 1] === other) {
        out.push(raw.slice(start, i));
        start = i + 1;
      }
      i++;
    } else if (raw[i] === quote) {
      out.push(raw.slice(start, i), "\\");
      start = i;
    }
  }
  out.push(raw.slice(start));
  return quote + out.join("") + quote;
}

function count(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) n++;
  return n;
}

/** prettier's number normalisation (lower case, no redundant exponent sign, zeros or trailing dot). */
export function printNumber(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/^([+-]?[\d.]+e)(?:\+|(-))?0*(\d)/, "$1$2$3")
    .replace(/^([+-]?[\d.]+)e[+-]?0+$/, "$1")
    .replace(/^([+-])?\./, "$10.")
    .replace(/(\.\d+?)0+(?=e|$)/, "$1")
    .replace(/\.(?=e|$)/, "");
}

/** A block comment (`text` is what goes between `/*` and `*\/`) as prettier prints it at any indentation. */
function printBlockComment(text: string): Doc {
  const lines = text.split("\n");
  // A JSDoc-like block (every line starts with `*`) is re-indented line by line; any other block is kept verbatim.
  const indentable = lines.length > 1 && `*${text}*`.split("\n").every((text) => text.trimStart().startsWith("*"));
  if (!indentable) return ["/*", join(literalline, lines), "*/"];
  // In a JSDoc comment (`/**`), a line ending in two spaces (a Markdown line break) keeps them.
  const isJsDoc = text[0] === "*" && text[1] !== "*";
  return [
    "/*",
    lines.map((raw, index): Doc => {
      const line = index === 0 ? raw : raw.trimStart();
      if (index === 0) return [line.trimEnd(), hardline];
      if (index === lines.length - 1) return [" ", line];
      const trimmed = line.trimEnd();
      return isJsDoc && trimmed !== "*" && line.endsWith("  ") ? [" ", trimmed, "  ", markAsRoot(literalline)] : [" ", trimmed, hardline];
    }),
    "*/",
  ];
}
