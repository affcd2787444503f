import type { InterfaceDeclarationStructure, JSDocStructure, OptionalKind, PropertySignatureStructure, StatementStructures } from "ts-morph";
import { tsMorph } from "../package/ts-morph.js";

/**
 * The source text ts-morph's `printStructure` writes for a filled template's statements, without running its writer
 * where the text is known: code-block-writer tracks strings and comments character by character, and the client's
 * and server's interfaces (a member with its JSDoc per operation: ~1.2 MB on GitHub) went through it twice, once per
 * declaration and again as part of the file (~0.19 s of GitHub's main thread). The text is an intermediate form (the
 * printer parses it and prints the file from the syntax tree), but it is kept byte-identical to ts-morph's, so that the
 * file prettier is given when the printer declines is the same too. Anything outside the shapes written here goes to
 * ts-morph.
 */

const OPTIONS = { indentNumberOfSpaces: 2 } as const;

/** One statement's text (`printStructure(statement)` for a structure), not trimmed. */
export function statementText(statement: string | StatementStructures): string {
  if (typeof statement === "string") return statement;
  if (statement.kind === tsMorph.StructureKind.Interface) {
    const text = interfaceText(statement);
    if (text !== undefined) return text;
  }
  return tsMorph.printStructure(statement, OPTIONS);
}

/**
 * `printStructure({ kind: SourceFile, statements })`: ts-morph's writer separates statements with a line break, and
 * with a blank line after one whose last visible character is `}` and before an interface, a function, a class, a
 * module or an enum given as a structure; the file ends with a line break.
 */
export function sourceText(statements: readonly (string | StatementStructures)[]): string {
  // A text with a carriage return goes to ts-morph: its writer turns `\r\n` into `\n`.
  if (statements.some((statement) => typeof statement === "string" && statement.includes("\r"))) {
    return tsMorph.printStructure({ kind: tsMorph.StructureKind.SourceFile, statements: [...statements] }, OPTIONS);
  }
  const parts: string[] = [];
  let tail = ""; // the last two characters written: the writer's look-behind for line breaks
  let closeBrace = false; // whether the last character written that is not white space is `}`
  const write = (part: string) => {
    if (part.length === 0) return;
    parts.push(part);
    tail = (tail + part.slice(-2)).slice(-2);
    const visible = lastVisible(part);
    if (visible !== undefined) closeBrace = visible === "}";
  };
  for (const statement of statements) {
    if (parts.length > 0) {
      if (closeBrace || (typeof statement !== "string" && BLANK_LINE_BEFORE.has(statement.kind))) {
        if (tail !== "\n\n") write(tail.endsWith("\n") ? "\n" : "\n\n");
      } else if (!tail.endsWith("\n")) write("\n");
    }
    const text = statementText(statement);
    if (text.includes("\r")) return tsMorph.printStructure({ kind: tsMorph.StructureKind.SourceFile, statements: [...statements] }, OPTIONS);
    write(text);
  }
  if (parts.length > 0 && !tail.endsWith("\n")) write("\n");
  return parts.join("");
}

/** Statement kinds ts-morph puts a blank line before (StatementStructurePrinter's `ensureBlankLine`). */
const BLANK_LINE_BEFORE = new Set<number>([
  tsMorph.StructureKind.Function,
  tsMorph.StructureKind.Class,
  tsMorph.StructureKind.Interface,
  tsMorph.StructureKind.Module,
  tsMorph.StructureKind.Enum,
]);

/** The last character of `text` that is not white space. */
function lastVisible(text: string): string | undefined {
  for (let i = text.length - 1; i >= 0; i--) if (!WHITE_SPACE.test(text[i]!)) return text[i];
  return undefined;
}
const WHITE_SPACE = /\s/;

/**
 * An interface of property signatures (each a name, a type written as one line of text, `?`, `readonly`, JSDoc
 * descriptions), exported or not, with `extends` names: the text ts-morph writes for it. Undefined for anything else
 * (type parameters, methods, index signatures, writer functions, JSDoc tags, text with a line break, a backslash or
 * a backtick where the writer's string tracking could change the indentation).
 */
export function interfaceText(structure: InterfaceDeclarationStructure): string | undefined {
  const parts = interfaceParts(structure);
  return parts && partsText(parts);
}

/**
 * The text interfaceText writes, in pieces: the printer lays a filled template's interface out from them (printer.ts
 * `printInterfaces`) without parsing its JSDoc.
 */
export interface InterfaceParts {
  /** Its JSDoc comments, each as the text between `/*` and `*\/` that ts-morph writes (at column 0). */
  docs: string[];
  /** What comes before ` {`: `export interface Name<T = U> extends A, B`. */
  head: string;
  /** Its property signatures: each one's JSDoc (as `docs`, at one indent) and its text, `readonly name?: type;`. */
  members: { docs: string[]; text: string }[];
}

/** An interface interfaceText writes, in pieces; undefined where it does not. */
export function interfaceParts(structure: InterfaceDeclarationStructure): InterfaceParts | undefined {
  if (!onlyKeys(structure, INTERFACE_KEYS)) return undefined;
  if (structure.isDefaultExport || structure.hasDeclareKeyword) return undefined;
  const typeParameters = typeParametersText(structure.typeParameters);
  if (typeParameters === undefined) return undefined;
  if (structure.callSignatures?.length || structure.constructSignatures?.length) return undefined;
  if (structure.indexSignatures?.length || structure.methods?.length || structure.getAccessors?.length || structure.setAccessors?.length) return undefined;
  if (structure.leadingTrivia?.length || structure.trailingTrivia?.length) return undefined;
  if (!isPlainText(structure.name)) return undefined;
  const extendsList = structure.extends ?? [];
  if (!Array.isArray(extendsList) || !extendsList.every((name) => typeof name === "string" && isPlainText(name) && name.trim() === name && name !== "")) return undefined;
  const docs = docBodies(structure.docs, "");
  if (docs === undefined) return undefined;
  const head = `${structure.isExported ? "export " : ""}interface ${structure.name}${typeParameters}${extendsList.length > 0 ? ` extends ${extendsList.join(", ")}` : ""}`;
  const members: InterfaceParts["members"] = [];
  for (const property of structure.properties ?? []) {
    const member = propertyParts(property);
    if (member === undefined) return undefined;
    members.push(member);
  }
  return { docs, head, members };
}

/** The text of an interface's parts, as ts-morph writes it. */
export function partsText(parts: InterfaceParts): string {
  let text = `${commentsText(parts.docs, "")}${parts.head} {\n`;
  parts.members.forEach((member, i) => {
    text += `${i === 0 ? "" : "\n"}${commentsText(member.docs, INDENT)}${INDENT}${member.text}`;
  });
  return parts.members.length > 0 ? `${text}\n}` : `${text}}`;
}

/** `<A extends B = C, …>` as TypeParameterDeclarationStructurePrinter writes it ("" for none). */
function typeParametersText(parameters: InterfaceDeclarationStructure["typeParameters"]): string | undefined {
  if (!parameters?.length) return "";
  const texts: string[] = [];
  for (const parameter of parameters) {
    if (typeof parameter === "string") {
      if (!isPlainText(parameter)) return undefined;
      texts.push(parameter);
      continue;
    }
    if (!onlyKeys(parameter, TYPE_PARAMETER_KEYS) || parameter.isConst || parameter.variance || parameter.leadingTrivia?.length || parameter.trailingTrivia?.length) return undefined;
    let text = parameter.name;
    if (!isPlainText(text)) return undefined;
    for (const [keyword, value] of [[" extends ", parameter.constraint], [" = ", parameter.default]] as const) {
      if (value === undefined) continue;
      if (!isPlainText(value)) return undefined;
      if (value.trim() !== "") text += `${keyword}${value}`;
    }
    texts.push(text);
  }
  return `<${texts.join(", ")}>`;
}

const TYPE_PARAMETER_KEYS = new Set(["kind", "name", "isConst", "variance", "constraint", "default", "leadingTrivia", "trailingTrivia"]);

const INTERFACE_KEYS = new Set([
  "kind",
  "name",
  "docs",
  "isExported",
  "isDefaultExport",
  "hasDeclareKeyword",
  "typeParameters",
  "extends",
  "callSignatures",
  "constructSignatures",
  "indexSignatures",
  "methods",
  "properties",
  "getAccessors",
  "setAccessors",
  "leadingTrivia",
  "trailingTrivia",
]);
const PROPERTY_KEYS = new Set(["kind", "name", "type", "hasQuestionToken", "isReadonly", "docs", "leadingTrivia", "trailingTrivia", "initializer"]);

/** A property signature inside the interface's block (indented once): its JSDoc and its text. */
function propertyParts(property: OptionalKind<PropertySignatureStructure>): InterfaceParts["members"][number] | undefined {
  if (!onlyKeys(property, PROPERTY_KEYS) || property.initializer !== undefined) return undefined;
  if (property.leadingTrivia?.length || property.trailingTrivia?.length) return undefined;
  const { name, type } = property;
  if (!isPlainText(name) || name === "" || typeof type !== "string" || type === "" || !isPlainText(type)) return undefined;
  const docs = docBodies(property.docs, INDENT);
  if (docs === undefined) return undefined;
  return { docs, text: `${property.isReadonly ? "readonly " : ""}${name}${property.hasQuestionToken ? "?" : ""}: ${type};` };
}

const INDENT = "  ";

/** JSDocStructurePrinter's comments at `indentation`, each on lines of its own: the text between `/*` and `*\/`. */
function docBodies(docs: readonly (OptionalKind<JSDocStructure> | string)[] | undefined, indentation: string): string[] | undefined {
  const bodies: string[] = [];
  for (const doc of docs ?? []) {
    let description: unknown = doc;
    if (typeof doc !== "string") {
      if (!onlyKeys(doc, DOC_KEYS) || doc.tags?.length || doc.leadingTrivia?.length || doc.trailingTrivia?.length) return undefined;
      description = doc.description ?? "";
    }
    if (typeof description !== "string" || description.includes("\r") || description.includes("*/")) return undefined;
    const lines = description.split("\n");
    const start = lines[0]!.length === 0 ? 1 : 0;
    if (lines.length <= 1) {
      // `/** text */`; the space before `*/` only where the text does not end with one.
      if (description === "") return undefined;
      bodies.push(`* ${description}${description.endsWith(" ") ? "" : " "}`);
      continue;
    }
    let body = "*\n";
    for (let i = start; i < lines.length; i++) body += lines[i]!.length > 0 ? `${indentation} * ${lines[i]}\n` : `${indentation} *\n`;
    bodies.push(`${body}${indentation} `);
  }
  return bodies;
}

/** Comments (their `docBodies`) as ts-morph writes them at `indentation`, each followed by a line break. */
function commentsText(bodies: readonly string[], indentation: string): string {
  let text = "";
  for (const body of bodies) text += `${indentation}/*${body}*/\n`;
  return text;
}

const DOC_KEYS = new Set(["kind", "description", "tags", "leadingTrivia", "trailingTrivia"]);

/** Text the writer copies as it is on one line: no line break, and nothing that starts a string it could track across one. */
function isPlainText(text: unknown): text is string {
  return typeof text === "string" && !/[\n\r\\`]/.test(text);
}

function onlyKeys(object: object, keys: ReadonlySet<string>): boolean {
  for (const key in object) if (!keys.has(key) && (object as Record<string, unknown>)[key] !== undefined) return false;
  return true;
}
