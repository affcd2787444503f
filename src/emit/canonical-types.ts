import type { Doc } from "prettier";
import { builders, printer } from "prettier/doc";
import type * as TS from "typescript";
import { ts } from "../deps.js";

const { align, group, hardline, ifBreak, indent, join, line, softline, literalline } = builders;

/**
 * Prints openapi-typescript's type declarations exactly as prettier formats them with its default settings, from
 * the syntax tree, without prettier's parse: on a large spec, prettier's pass over `schema.ts` is most of a run
 * (7 of 16 seconds on GitHub's). The documents built here are the ones prettier's TypeScript printer builds for
 * the same syntax, laid out by prettier's own document printer, so line fitting is prettier's. Only the syntax
 * openapi-typescript produces is known here; for anything else the result names it and the file goes through
 * prettier. Parity with prettier is pinned by the corpus tests, which format every printed file with prettier again.
 */
export function printCanonicalTypes(statements: readonly TS.Node[]): { text: string } | { unsupported: string } {
  const parts: string[] = [];
  try {
    for (const statement of statements) {
      if (ts.isInterfaceDeclaration(statement) && statement.members.length > 0 && !ts.getSyntheticLeadingComments(statement)?.length) {
        parts.push(printInterfaceInPieces(statement), "\n");
      } else {
        parts.push(printer.printDocToString([withComments(statement, printStatement(statement)), hardline], PRINT_OPTIONS).formatted);
      }
    }
  } catch (error) {
    if (error instanceof Unsupported) return { unsupported: error.message };
    throw error;
  }
  return { text: parts.join("") };
}

/**
 * An interface printed one member at a time: members are separated by hard line breaks, so each one's layout is
 * independent of the others, and the document of a 1,000-path `paths` never has to exist whole.
 */
function printInterfaceInPieces(node: TS.InterfaceDeclaration): string {
  if (node.typeParameters?.length || node.heritageClauses?.length) unsupported(node);
  const parts = [`${printModifiers(node)}interface ${node.name.text} {`];
  for (const member of node.members) {
    parts.push(printer.printDocToString(indent([hardline, printInterfaceMember(member)]), PRINT_OPTIONS).formatted);
  }
  parts.push("\n}");
  return parts.join("");
}

export const PRINT_OPTIONS = { printWidth: 80, tabWidth: 2, useTabs: false } as Parameters<typeof printer.printDocToString>[1];

/** Thrown for syntax this printer does not know; the caller falls back to prettier. */
class Unsupported extends Error {}
const unsupported = (node: TS.Node, detail = ""): never => {
  const comment = ts.getSyntheticLeadingComments(node)?.length ? " with a comment" : "";
  throw new Unsupported(`${ts.SyntaxKind[node.kind]}${comment}${detail ? ` (${detail})` : ""}`);
};

const SK = ts.SyntaxKind;

function printStatement(node: TS.Node): Doc {
  if (ts.isInterfaceDeclaration(node)) {
    if (node.typeParameters?.length || node.heritageClauses?.length) unsupported(node);
    return [printModifiers(node), "interface ", node.name.text, " ", printInterfaceBody(node.members)];
  }
  if (ts.isTypeAliasDeclaration(node)) {
    // openapi-typescript's one helper type, parsed from a fixed text.
    if (isWithRequiredHelper(node)) return WITH_REQUIRED;
    if (node.typeParameters?.length) unsupported(node, `type ${node.name.text} with type parameters`);
    const statement: Doc = [printModifiers(node), "type ", node.name.text, " = ", printType(node.type, { kind: "alias" }), ";"];
    // Only short aliases: the layout prettier picks for a long right-hand side is not modelled here.
    if (printer.printDocToString(statement, PRINT_OPTIONS).formatted.includes("\n")) {
      unsupported(node, `type ${node.name.text} longer than a line`);
    }
    return statement;
  }
  return unsupported(node);
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

function printModifiers(node: TS.Node): string {
  const modifiers = ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : [];
  return modifiers
    .map((modifier) => {
      if (modifier.kind === SK.ExportKeyword) return "export ";
      if (modifier.kind === SK.DeclareKeyword) return "declare ";
      if (modifier.kind === SK.ReadonlyKeyword) return "readonly ";
      return unsupported(modifier);
    })
    .join("");
}

/** An interface body: one member per line, always. */
function printInterfaceBody(members: readonly TS.TypeElement[]): Doc {
  if (members.length === 0) return "{}";
  return ["{", indent([hardline, join(hardline, members.map(printInterfaceMember))]), hardline, "}"];
}

function printInterfaceMember(member: TS.TypeElement): Doc {
  return withComments(member, [group(printMember(member)), ";"]);
}

/** A type literal: never collapsed onto one line (prettier keeps an object open once it is written open). */
function printTypeLiteral(members: readonly TS.TypeElement[]): Doc {
  if (members.length === 0) return "{}";
  const printed = members.map((member, index) =>
    withComments(member, [group(printMember(member)), index < members.length - 1 ? ";" : ifBreak(";")]),
  );
  return group(["{", indent([line, join(line, printed)]), line, "}"], { shouldBreak: true });
}

function printMember(member: TS.TypeElement): Doc {
  if (ts.isPropertySignature(member)) {
    return [
      printModifiers(member),
      printPropertyName(member.name),
      member.questionToken ? "?" : "",
      member.type ? [": ", printType(member.type, { kind: "annotation" })] : "",
    ];
  }
  if (ts.isIndexSignatureDeclaration(member)) {
    if (member.parameters.length !== 1) unsupported(member);
    const parameter = member.parameters[0]!;
    if (!ts.isIdentifier(parameter.name) || !parameter.type || parameter.questionToken || parameter.dotDotDotToken) unsupported(member);
    const printedParameter = [(parameter.name as TS.Identifier).text, ": ", printType(parameter.type!, { kind: "annotation" })];
    return [
      printModifiers(member),
      "[",
      group([indent([softline, printedParameter]), softline]),
      "]",
      [": ", printType(member.type, { kind: "annotation" })],
    ];
  }
  return unsupported(member);
}

/** Where a type sits, which decides its parentheses and how a union breaks. */
interface Place {
  kind: "annotation" | "alias" | "array" | "typeArgument" | "union" | "intersection" | "indexedObject" | "indexedIndex" | "tuple" | "operator";
  /** Number of members of the enclosing union, intersection or tuple. */
  siblings?: number;
}

function unwrap(node: TS.TypeNode): TS.TypeNode {
  while (ts.isParenthesizedTypeNode(node)) node = node.type;
  return node;
}

/** A type in annotation position (`name: <type>`). */
export function printAnnotationType(node: TS.TypeNode): Doc {
  return printType(node, { kind: "annotation" });
}

function printType(raw: TS.TypeNode, place: Place): Doc {
  const node = unwrap(raw);
  if (node !== raw && ts.getSyntheticLeadingComments(raw)?.length) unsupported(raw);
  if (ts.getSyntheticLeadingComments(node)?.length || ts.getSyntheticTrailingComments(node)?.length) unsupported(node);
  switch (node.kind) {
    case SK.StringKeyword:
      return "string";
    case SK.NumberKeyword:
      return "number";
    case SK.BooleanKeyword:
      return "boolean";
    case SK.UnknownKeyword:
      return "unknown";
    case SK.NeverKeyword:
      return "never";
    case SK.AnyKeyword:
      return "any";
    case SK.NullKeyword:
      return "null";
    case SK.UndefinedKeyword:
      return "undefined";
    case SK.ObjectKeyword:
      return "object";
    case SK.BigIntKeyword:
      return "bigint";
    case SK.VoidKeyword:
      return "void";
    case SK.LiteralType:
      return printLiteral((node as TS.LiteralTypeNode).literal);
    case SK.Identifier:
      return isJsonStringIdentifier(node) ? printRawString(node.text) : unsupported(node);
    case SK.TypeLiteral:
      return printTypeLiteral((node as TS.TypeLiteralNode).members);
    case SK.UnionType:
      return printUnion(node as TS.UnionTypeNode, place);
    case SK.IntersectionType:
      return printIntersection(node as TS.IntersectionTypeNode, place);
    case SK.ArrayType:
      return [printType((node as TS.ArrayTypeNode).elementType, { kind: "array" }), "[]"];
    case SK.IndexedAccessType: {
      const access = node as TS.IndexedAccessTypeNode;
      return [printType(access.objectType, { kind: "indexedObject" }), "[", printType(access.indexType, { kind: "indexedIndex" }), "]"];
    }
    case SK.TypeReference:
      return printTypeReference(node as TS.TypeReferenceNode);
    case SK.TypeOperator: {
      const operator = node as TS.TypeOperatorNode;
      const keyword = operator.operator === SK.ReadonlyKeyword ? "readonly" : operator.operator === SK.KeyOfKeyword ? "keyof" : unsupported(node);
      const printed: Doc = [keyword, " ", printType(operator.type, { kind: "operator" })];
      return needsParentheses(node, place) ? ["(", printed, ")"] : printed;
    }
    case SK.TupleType: {
      const elements = (node as TS.TupleTypeNode).elements;
      if (elements.length === 0) return "[]";
      const printed = elements.map((element): Doc => {
        if (ts.isNamedTupleMember(element)) unsupported(element);
        // `[A?, ...B[]]` (an array with prefixItems, see emit/types.ts): an optional element is parenthesised as
        // an array element would be, `(A | B)?`.
        if (ts.isOptionalTypeNode(element)) return [printType(element.type, { kind: "array" }), "?"];
        if (ts.isRestTypeNode(element)) return ["...", printType(element.type, { kind: "tuple", siblings: elements.length })];
        return printType(element, { kind: "tuple", siblings: elements.length });
      });
      return group(["[", indent([softline, join([",", line], printed)]), ifBreak(","), softline, "]"]);
    }
    default:
      return unsupported(node);
  }
}

function printLiteral(literal: TS.LiteralTypeNode["literal"]): Doc {
  switch (literal.kind) {
    case SK.StringLiteral:
      return printString((literal as TS.StringLiteral).text);
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
      if (prefix.operator === SK.MinusToken && ts.isNumericLiteral(prefix.operand)) return ["-", printNumber(prefix.operand.text)];
      return unsupported(literal);
    }
    default:
      return unsupported(literal);
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

/** Prettier's "simple" types: keywords and type references without type arguments. */
function isSimpleType(node: TS.TypeNode): boolean {
  const inner = unwrap(node);
  if (ts.isTypeReferenceNode(inner)) return !inner.typeArguments?.length;
  return KEYWORD_TYPES.has(inner.kind) || ts.isLiteralTypeNode(inner) || isJsonStringIdentifier(inner);
}

/** openapi-typescript writes string enum members as identifiers holding JSON.stringify's text (a literal type). */
function isJsonStringIdentifier(node: TS.Node): node is TS.Identifier {
  return ts.isIdentifier(node) && node.text.length >= 2 && node.text.startsWith('"') && node.text.endsWith('"');
}
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

function printUnion(node: TS.UnionTypeNode, place: Place): Doc {
  const siblings = node.types.length;
  if (shouldHugUnion(node)) {
    const hugged = join(" | ", node.types.map((type) => printType(type, { kind: "union", siblings })));
    return needsParentheses(node, place) ? ["(", hugged, ")"] : hugged;
  }
  const members = group(
    node.types.map((type, index) => [index === 0 ? ifBreak("| ") : [line, "| "], align(2, printType(type, { kind: "union", siblings }))]),
  );
  if (needsParentheses(node, place)) return ["(", group([indent([softline, members]), softline]), ")"];
  if (place.kind === "tuple" && (place.siblings ?? 0) > 1) {
    return group([indent([ifBreak(["(", softline]), members]), softline, ifBreak(")")]);
  }
  // A union that does not fit moves to the next line whole, and only then breaks one member per line.
  if (place.kind === "typeArgument" || place.kind === "tuple") return members;
  return group(indent([softline, members]));
}

function printIntersection(node: TS.IntersectionTypeNode, place: Place): Doc {
  const siblings = node.types.length;
  const types = node.types.map((type) => printType(type, { kind: "intersection", siblings }));
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

function printTypeReference(node: TS.TypeReferenceNode): Doc {
  const name = printEntityName(node.typeName);
  const args = node.typeArguments;
  if (!args?.length) return name;
  if (args.length === 1 && shouldHugType(args[0]!)) {
    return [name, "<", printType(args[0]!, { kind: "typeArgument" }), ">"];
  }
  const printed = args.map((arg) => printType(arg, { kind: "typeArgument" }));
  return [name, group(["<", indent([softline, join([",", line], printed)]), softline, ">"])];
}

function printEntityName(name: TS.EntityName): string {
  return ts.isIdentifier(name) ? name.text : `${printEntityName(name.left)}.${name.right.text}`;
}

function printPropertyName(name: TS.PropertyName): Doc {
  if (ts.isIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name)) {
    const printed = printString(name.text);
    // prettier's quoteProps "as-needed": a key that reads the same unquoted and is an identifier loses its quotes.
    if (printed.slice(1, -1) === name.text && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name.text)) return name.text;
    return printed;
  }
  if (ts.isNumericLiteral(name)) return printNumber(name.text);
  return unsupported(name);
}

/**
 * A string as prettier prints the literal TypeScript's printer writes for it: TypeScript escapes non-ASCII
 * characters, and prettier then picks the quote that needs fewer escapes and drops escapes that do nothing.
 */
export function printString(value: string): string {
  const escaped = (ts as unknown as { escapeNonAsciiString(text: string, quote: number): string }).escapeNonAsciiString(value, 34);
  return printRawString(`"${escaped}"`);
}

/** A string literal's source text (quotes included) as prettier prints it: the quote needing fewer escapes. */
export function printRawString(literal: string): string {
  const raw = literal.slice(1, -1);
  const quote = count(raw, '"') > count(raw, "'") ? "'" : '"';
  if (literal[0] === quote) return literal;
  const other = quote === '"' ? "'" : '"';
  // prettier: an escaped other quote loses its backslash, a bare enclosing quote gains one; nothing else changes.
  // A hand-written scan: the regex replace prettier uses is slow on the multi-megabyte JSON tables.
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

/** Leading comments (openapi-typescript's JSDoc), each on its own line before the node. */
function withComments(node: TS.Node, printed: Doc): Doc {
  const comments = ts.getSyntheticLeadingComments(node);
  if (ts.getSyntheticTrailingComments(node)?.length) unsupported(node);
  if (!comments?.length) return printed;
  return [...comments.map((comment) => [printComment(comment, node), hardline]), printed];
}

function printComment(comment: TS.SynthesizedComment, node: TS.Node): Doc {
  if (comment.kind !== SK.MultiLineCommentTrivia) return unsupported(node);
  return printBlockComment(comment.text);
}

/** A block comment (`text` is what goes between `/*` and `*\/`) as prettier prints it at any indentation. */
export function printBlockComment(text: string): Doc {
  const lines = text.split("\n");
  // A JSDoc-like block (every line starts with `*`) is re-indented line by line; any other block is kept verbatim.
  const indentable = lines.length > 1 && `*${text}*`.split("\n").every((text) => text.trimStart().startsWith("*"));
  if (!indentable) return ["/*", join(literalline, lines), "*/"];
  return [
    "/*",
    join(
      hardline,
      lines.map((text, index) => (index === 0 ? text.trimEnd() : " " + (index < lines.length - 1 ? text.trim() : text.trimStart()))),
    ),
    "*/",
  ];
}
