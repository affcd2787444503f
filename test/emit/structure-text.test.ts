import type { InterfaceDeclarationStructure, OptionalKind, PropertySignatureStructure, StatementStructures } from "ts-morph";
import { describe, expect, it } from "vitest";
import { interfaceText, sourceText, statementText } from "../../src/emit/structure-text.js";
import { tsMorph } from "../../src/package/ts-morph.js";

// The filled templates' statements are written to text without ts-morph's writer where the text is known
// (src/emit/structure-text.ts). That text is what the printer parses and, when it declines, what prettier formats,
// so it must be ts-morph's own, byte for byte.

const { StructureKind } = tsMorph;
const tsMorphText = (structure: StatementStructures) => tsMorph.printStructure(structure, { indentNumberOfSpaces: 2 });
const tsMorphFile = (statements: (string | StatementStructures)[]) =>
  tsMorph.printStructure({ kind: StructureKind.SourceFile, statements }, { indentNumberOfSpaces: 2 });

function anInterface(fields: Partial<InterfaceDeclarationStructure> = {}): InterfaceDeclarationStructure {
  return { kind: StructureKind.Interface, name: "Client", isExported: true, ...fields };
}
const member = (fields: Partial<OptionalKind<PropertySignatureStructure>> = {}): OptionalKind<PropertySignatureStructure> => ({
  name: "listPets",
  type: 'Operation<paths["/pets"]["get"]>',
  ...fields,
});

describe("an interface of property signatures", () => {
  const cases: [string, InterfaceDeclarationStructure][] = [
    ["no members", anInterface({ properties: [] })],
    ["no members, not exported, extends two names", anInterface({ isExported: false, extends: ["A", "B"], properties: [] })],
    ["a one-line JSDoc, type parameters with a constraint and a default", anInterface({ docs: ["One handler per operation."], typeParameters: [{ name: "Auth", default: "unknown" }, { name: "T", constraint: "object" }, "U"] })],
    ["a multi-line JSDoc with blank lines, trailing and leading spaces", anInterface({ docs: ["Title\n\nA line  \n  indented\n"] })],
    ["a JSDoc structure whose description starts with a line break (as getStructure gives)", anInterface({ docs: [{ kind: StructureKind.JSDoc, description: "\nLine one.\nLine two." }] })],
    ["a one-line JSDoc ending in a space", anInterface({ docs: ["ends with a space "] })],
    [
      "members: JSDoc of one and several lines and several comments, `?`, readonly, quoted names, backticks in docs",
      anInterface({
        properties: [
          member({ docs: ["List pets\n\n`GET /pets` (operationId `listPets`)"] }),
          member({ name: '"x-odd-name"', hasQuestionToken: true, isReadonly: true, type: 'Handler<paths["/it\'s"]["get"], Auth, "application/json">', docs: ["one", "two\nlines", "@deprecated"] }),
          member({ name: "plain", type: "string" }),
          member({ name: "quoted", type: '"a // not a comment /* nor this"', docs: ["quotes \" and ' in a comment"] }),
        ],
      }),
    ],
  ];
  for (const [name, structure] of cases) {
    it(`${name}: ts-morph's text`, () => {
      const text = interfaceText(structure);
      expect(text).toBeDefined();
      expect(text).toBe(tsMorphText(structure));
    });
  }

  it("what it does not write itself goes to ts-morph (statementText still gives ts-morph's text)", () => {
    const declined: InterfaceDeclarationStructure[] = [
      anInterface({ properties: [member({ type: (writer) => writer.write("{ a: 1 }") })] }),
      anInterface({ properties: [member({ type: "`template`" })] }),
      anInterface({ properties: [member({ name: '"a\\"b"' })] }),
      anInterface({ properties: [member({ docs: ["ends a comment */ early"] })] }),
      anInterface({ properties: [member({ docs: ["a\r\nwindows line"] })] }),
      anInterface({ docs: [{ kind: StructureKind.JSDoc, description: "tagged", tags: [{ tagName: "deprecated" }] }] }),
      anInterface({ methods: [{ name: "m" }] }),
      anInterface({ indexSignatures: [{ keyName: "key", keyType: "string", returnType: "number" }] }),
      anInterface({ hasDeclareKeyword: true }),
      anInterface({ typeParameters: [{ name: "T", isConst: true }] }),
      anInterface({ docs: [""] }),
    ];
    for (const structure of declined) {
      expect(interfaceText(structure)).toBeUndefined();
      expect(statementText(structure)).toBe(tsMorphText(structure));
    }
  });

  it("agrees with ts-morph on 300 seeded random interfaces", () => {
    let seed = 19;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const pieces = ["a", "Word", " ", "  ", "\n", "\n\n", "`", "'", '"', "*", "/", "//", "/*", "{", "}", "<", ">", "é", "字", "\t", "@param x", "\\"];
    const text = (max: number) => Array.from({ length: Math.floor(random() * max) }, () => pick(pieces)).join("");
    let written = 0;
    for (let i = 0; i < 300; i++) {
      const structure = anInterface({
        isExported: random() < 0.5,
        ...(random() < 0.5 ? { docs: [text(12)] } : {}),
        ...(random() < 0.3 ? { extends: ["Base"] } : {}),
        properties: Array.from({ length: Math.floor(random() * 4) }, () =>
          member({
            name: pick(["a", '"b-c"', "'d'", "e_f"]),
            type: pick(["string", 'X<"y">', 'paths["/a/{b}"]["get"]', "A | B", "'q'"]),
            hasQuestionToken: random() < 0.5,
            isReadonly: random() < 0.2,
            ...(random() < 0.7 ? { docs: Array.from({ length: 1 + Math.floor(random() * 2) }, () => text(10)) } : {}),
          }),
        ),
      });
      const ours = interfaceText(structure);
      if (ours !== undefined) {
        written++;
        expect(ours).toBe(tsMorphText(structure));
      }
    }
    expect(written).toBeGreaterThan(100);
  });
});

describe("a source file of statements", () => {
  const fn: StatementStructures = { kind: StructureKind.Function, name: "f", statements: ["return 1;"] };
  const variable: StatementStructures = { kind: StructureKind.VariableStatement, declarations: [{ name: "x", initializer: "1" }] };
  const iface = anInterface({ properties: [member()] });
  const cases: [string, (string | StatementStructures)[]][] = [
    ["nothing", []],
    ["texts, one ending in `}` (a blank line after it)", ["import { a } from \"./a.js\";", "function g() {\n  return 2;\n}", "const y = 2;", "/** c */\nexport interface A {\n  a: 1;\n}", "x;"]],
    ["a text ending in a line break, an empty text", ["const a = 1;\n", "", "const b = 2;"]],
    ["structures that take a blank line before them, after texts and at the start", [fn, "const a = 1;", iface, variable, fn, "type T = 1;", iface]],
    ["an empty text first", ["", iface, "const z = 3;\n\n"]],
  ];
  for (const [name, statements] of cases) {
    it(`${name}: ts-morph's text`, () => {
      expect(sourceText(statements)).toBe(tsMorphFile(statements));
    });
  }

  it("a text with a carriage return: ts-morph's text (its writer turns CRLF into LF)", () => {
    const statements = ["const a = `x\r\ny`;", iface];
    expect(sourceText(statements)).toBe(tsMorphFile(statements));
  });
});
