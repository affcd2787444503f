import type { Doc } from "prettier";
import { builders, printer } from "prettier/doc";
import type * as TS from "typescript";
import { ts } from "../deps.js";
import { PRINT_OPTIONS, printAnnotationType, printBlockComment, printRawString } from "./canonical-types.js";
import { stringLiteral } from "./literal.js";

const { group, hardline, ifBreak, indent, indentIfBreak, join, line, softline } = builders;

/**
 * Building blocks for emitters that print their file in prettier's form directly (see canonical-types.ts): module
 * statements, JSDoc, interfaces of typed members and JSON tables. What they print is what prettier prints with its
 * default settings; the corpus tests format every such file with prettier again to keep it so.
 */

/** A whole file: statements separated by blank lines (`lines` of a group by single newlines). */
export function renderFile(blocks: Doc[][]): string {
  return printer.printDocToString([join([hardline, hardline], blocks.map((block) => join(hardline, block))), hardline], PRINT_OPTIONS).formatted;
}

/** A JSDoc comment from plain text (already safe for comments: see `commentText`). */
export function jsDoc(text: string): Doc {
  const lines = text.split("\n").map((l) => l.trimEnd());
  if (lines.length === 1) return `/** ${lines[0]} */`;
  return printBlockComment(`*\n${lines.map((l) => (l ? ` * ${l}` : " *")).join("\n")}\n `);
}

/** `import { a, type B } from "x";` / `export { … } from "x";` (one name never breaks; more break one per line). */
export function moduleSpecifiers(keyword: "import" | "import type" | "export" | "export type", names: string[], from: string): Doc {
  const source = printRawString(stringLiteral(from));
  if (names.length === 1) return [keyword, " { ", names[0]!, " } from ", source, ";"];
  return [keyword, " ", group(["{", indent([line, join([",", line], names)]), ifBreak(","), line, "}"]), " from ", source, ";"];
}

export interface Member {
  doc?: string;
  name: string;
  optional?: boolean;
  type: TS.TypeNode;
}

/** `export interface Name<…> extends … { members }` with `head` the text before `{`. */
export function interfaceDeclaration(head: string, members: Member[]): Doc {
  if (members.length === 0) return [head, " {}"];
  const printed = members.map((member) => [
    member.doc ? [jsDoc(member.doc), hardline] : "",
    group([propertyName(member.name), member.optional ? "?" : "", ": ", printAnnotationType(member.type)]),
    ";",
  ]);
  return [head, " {", indent([hardline, join(hardline, printed)]), hardline, "}"];
}

/** `export type Name = { members };` (an empty member list gives `empty` instead). */
export function objectTypeAlias(head: string, members: Member[], empty: string): Doc {
  if (members.length === 0) return [head, " = ", empty, ";"];
  const printed = members.map((member, index) => [
    member.doc ? [jsDoc(member.doc), hardline] : "",
    group([propertyName(member.name), member.optional ? "?" : "", ": ", printAnnotationType(member.type)]),
    index < members.length - 1 ? ";" : ifBreak(";"),
  ]);
  return [head, " = ", group(["{", indent([line, join(line, printed)]), line, "}"], { shouldBreak: true }), ";"];
}

/** A property name as prettier writes it: bare when it is an identifier, else a string. */
function propertyName(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : printRawString(stringLiteral(name));
}

/**
 * `const name: type = JSON.parse('…');`: a data table as a JSON string (quick to load and to type-check), in
 * prettier's assignment layouts: "fluid" (the call stays after `=` when its opening fits, else moves below it),
 * or "break-after-operator" for a short argument.
 */
export function jsonConstant(head: string, value: unknown): Doc {
  const literal = printRawString(stringLiteral(JSON.stringify(value)));
  const call: Doc = ["JSON.parse", group(["(", indent([softline, literal]), ifBreak(","), softline, ")"])];
  // A call whose lone argument is short (a quarter of the print width) is "poorly breakable": prettier then
  // breaks after `=` first.
  if (literal.length <= 20) return group([head, " =", group(indent([line, call])), ";"]);
  const afterOperator = Symbol("assignment");
  return group([head, " =", group(indent(line), { id: afterOperator }), indentIfBreak(call, { groupId: afterOperator }), ";"]);
}

/** Type nodes for member types. */
export const types = {
  reference: (name: string, args: TS.TypeNode[] = []) => ts.factory.createTypeReferenceNode(name, args.length ? args : undefined),
  string: (value: string) => ts.factory.createLiteralTypeNode(ts.factory.createStringLiteral(value)),
  keyword: (kind: "string" | "number" | "boolean" | "unknown" | "undefined") =>
    ts.factory.createKeywordTypeNode(
      {
        string: ts.SyntaxKind.StringKeyword,
        number: ts.SyntaxKind.NumberKeyword,
        boolean: ts.SyntaxKind.BooleanKeyword,
        unknown: ts.SyntaxKind.UnknownKeyword,
        undefined: ts.SyntaxKind.UndefinedKeyword,
      }[kind] as TS.KeywordTypeSyntaxKind,
    ),
  union: (members: TS.TypeNode[]) => ts.factory.createUnionTypeNode(members),
  /** `root["a"]["b"]`: an indexed access into openapi-typescript's output. */
  indexed: (root: string, ...keys: string[]) =>
    keys.reduce<TS.TypeNode>((type, key) => ts.factory.createIndexedAccessTypeNode(type, types.string(key)), types.reference(root)),
};
