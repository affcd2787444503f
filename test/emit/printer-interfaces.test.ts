import * as prettier from "prettier";
import type { InterfaceDeclarationStructure, OptionalKind, PropertySignatureStructure, ts as TS } from "ts-morph";
import { describe, expect, it } from "vitest";
import { memberNode, printInterfaces, printSourceFile, printString } from "../../src/emit/printer.js";
import { interfaceParts, partsText } from "../../src/emit/structure-text.js";
import { ts } from "../../src/package/deps.js";
import { tsMorph } from "../../src/package/ts-morph.js";

// A filled template's interface is printed from structure-text.ts' parts (printInterfaces) instead of parsing
// ts-morph's text for it and printing the tree (printSourceFile): both must give the same text, and the fast path
// must decline whatever the printer declines (that file then goes to prettier). Its members are made with the node
// factory (memberNode), which must make the node the parser makes.

const parse = (text: string) => ts.createSourceFile("/x.ts", text, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone });

/** A node's kind, identifier and literal texts, and children: what the printer reads of it. */
function shape(node: TS.Node): unknown {
  const children: unknown[] = [];
  ts.forEachChild(node, (child) => {
    children.push(shape(child));
  });
  const text = ts.isIdentifier(node) || ts.isStringLiteral(node) ? node.text : undefined;
  return [ts.SyntaxKind[node.kind], text, children];
}

let seed = 13;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Type texts of the forms the emitters write, and of others the factory leaves to the parser. */
function typeText(depth = 0): string {
  const leaf = () =>
    pick([
      "string",
      "undefined",
      "never",
      "Auth",
      "RuntimeClientOptions",
      "ns.Name",
      '"application/json"',
      "'it\"s'",
      '"a // not /* a comment"',
      // Left to the parser:
      "'single'",
      "null",
      "-1",
      "A & B",
      "{ a: 1 }",
      "(A | B)[]",
      '"café"',
      "this",
    ]);
  if (depth > 2) return leaf();
  switch (Math.floor(random() * 6)) {
    case 0:
      return `${pick(["Operation", "Handler", "StreamingOperation", "Credential"])}<${Array.from({ length: 1 + Math.floor(random() * 4) }, () => typeText(depth + 1)).join(", ")}>`;
    case 1:
      return `paths[${pick(['"/pets"', '"/a/very/long/path/{with}/{several}/{parameters}/and/more"', '"/x"'])}][${pick(['"get"', '"post"'])}]`;
    case 2:
      return Array.from({ length: 2 + Math.floor(random() * 3) }, () => typeText(depth + 1)).join(" | ");
    case 3:
      return `${typeText(depth + 1)}[]`;
    default:
      return leaf();
  }
}
const memberText = () => `${random() < 0.1 ? "readonly " : ""}${pick(["listPets", "aMuchLongerOperationNameThatTakesRoom", '"x-odd"', "'q\"uote'", "readonly", '"plain"'])}${random() < 0.5 ? "?" : ""}: ${typeText()};`;

describe("memberNode: a member's text made with the node factory", () => {
  it("makes the node TypeScript's parser makes, or declines (400 seeded random members)", () => {
    let made = 0;
    for (let i = 0; i < 400; i++) {
      const text = memberText();
      const node = memberNode(text);
      const statement = parse(`interface _ {\n  ${text}\n}\n`).statements[0] as TS.InterfaceDeclaration;
      if (node === undefined) continue;
      made++;
      expect(statement.members).toHaveLength(1);
      expect(shape(node)).toEqual(shape(statement.members[0]!));
    }
    expect(made).toBeGreaterThan(100);
  });

  it("declines text it does not read whole", () => {
    for (const text of ["a: string", "a: string; b: number;", "a: B<C;", 'a: "unterminated;', "a: 'x';", "a: A  | B;", "a: (A);", "1: string;"]) {
      expect(memberNode(text)).toBeUndefined();
    }
  });
});

describe("printInterfaces: an interface from its parts, as the printer prints its text", () => {
  const docs = () => pick(["One line.", "ends with a space ", "Title\n\nA line  \n  indented\n", "\nStarts with a line break.\nTwo.", "`GET /pets` (operationId `listPets`)\n\n@deprecated", "Markdown break  \nnext"]);
  const anInterface = (): InterfaceDeclarationStructure => ({
    kind: tsMorph.StructureKind.Interface,
    name: pick(["Client", "ClientOptions", "AVeryLongInterfaceNameThatAlmostFillsTheLineOnItsOwnAndThenSome"]),
    isExported: random() < 0.7,
    ...(random() < 0.3 ? { extends: pick([["RuntimeClientOptions"], ["A", "B"]]) } : {}),
    ...(random() < 0.2 ? { typeParameters: [{ name: "Auth", default: "unknown" }] } : {}),
    ...(random() < 0.5 ? { docs: [docs()] } : {}),
    properties: Array.from({ length: Math.floor(random() * 4) }, (): OptionalKind<PropertySignatureStructure> => {
      const [, readonly, name, question, type] = /^(readonly )?(.+?)(\?)?: (.*);$/.exec(memberText())!;
      return { name: name!, type: type!, isReadonly: readonly !== undefined, hasQuestionToken: question !== undefined, ...(random() < 0.6 ? { docs: Array.from({ length: 1 + Math.floor(random() * 2) }, docs) } : {}) };
    }),
  });

  it("prints what printSourceFile and prettier print, and declines what the printer declines (150 seeded random interfaces, alone and in batches)", async () => {
    let printed = 0;
    for (let round = 0; round < 50; round++) {
      const batch = Array.from({ length: 1 + Math.floor(random() * 3) }, anInterface)
        .map((structure) => interfaceParts(structure))
        .filter((parts) => parts !== undefined);
      const direct = printInterfaces(batch);
      for (const [i, parts] of batch.entries()) {
        const alone = printInterfaces([parts])[0];
        const text = partsText(parts);
        const reference = printSourceFile(parse(text));
        if (alone === undefined && direct[i] === undefined) continue;
        printed++;
        expect(reference).toEqual({ text: alone ?? direct[i] });
        if (alone !== undefined && direct[i] !== undefined) expect(direct[i]).toBe(alone);
        expect(alone ?? direct[i]).toBe(await prettier.format(text, { parser: "typescript" }));
      }
    }
    expect(printed).toBeGreaterThan(40);
  });
});

describe("printString", () => {
  it("prints a string as prettier formats TypeScript's printing of it (200 seeded random strings)", async () => {
    const printer = ts.createPrinter();
    const source = parse("");
    const characters = ["a", "Z", " ", "~", '"', "'", "\\", "`", "$", "é", "字", "\n", "\t", "\u2028", "\u0000", "😀"];
    for (let i = 0; i < 200; i++) {
      const value = Array.from({ length: Math.floor(random() * 8) }, () => pick(characters)).join("");
      const literal = printer.printNode(ts.EmitHint.Unspecified, ts.factory.createLiteralTypeNode(ts.factory.createStringLiteral(value)), source);
      expect(`type T = ${printString(value)};\n`).toBe(await prettier.format(`type T = ${literal};`, { parser: "typescript" }));
    }
  });
});
