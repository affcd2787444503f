import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import type { DataTable } from "../../src/emit/data-layout.js";
import { printSourceFile } from "../../src/emit/printer.js";
import { ts } from "../../src/package/deps.js";

/** Source text parsed as ts-morph's TypeScript parses it. */
const parse = (text: string) => ts.createSourceFile("x.ts", text, ts.ScriptTarget.Latest, true);
const print = (text: string, data?: Map<string, DataTable>) => printSourceFile(parse(text), { data });
const prettierOf = (text: string) => prettier.format(text, { parser: "typescript" });

/**
 * Every case is written the way ts-morph writes it (not formatted) and must print exactly as prettier (default
 * settings) formats the same text.
 */
const CASES: Record<string, string> = {
  "imports and exports, short and broken one per line":
    'import type { paths } from "./schema.js";\nimport { a } from "x";\nimport { createRuntime, type ClientOptions as RuntimeClientOptions, type Operation, type OperationSpec, type ServerSpec } from "./runtime/client/index.js";\nexport { toNodeListener } from "./runtime/server/node.js";\nexport { ApiError, type ApiErrorOf } from "./runtime/client/index.js";\nexport type * from "./schema.js";\n',
  "blank lines are kept, at most one": 'import { a } from "x";\n\n\n\nexport { b } from "y";\nexport { c } from "z";\n',
  "interfaces with extends, type parameters, documented members":
    '/** Options. */\nexport interface ClientOptions extends RuntimeClientOptions {\n    /**\n     * Server variable `base_url`; may also be a whole URL.   \n     * @default "https://api.example.com"\n     */\n    baseUrl?: string;\n    "needs-quotes": Credential<string> | undefined;\n}\nexport interface Handlers<Auth = unknown> {\n    /** One. */\n    aMuchLongerOperationNameThatForcesTheTypeArguments?: Handler<paths["/a/very/long/path/{with}/{params}"]["post"], Auth, "application/json">;\n    short?: Handler<paths["/"]["get"], Auth>;\n}\nexport interface Empty {}\n',
  "members written directly: JSDoc with a blank line after it, two comments, a comment on the member's line, source escapes kept, broken type arguments":
    'export interface Client {\n    /**\n     * List pets\n     *\n     * `GET /pets` (operationId `listPets`)\n     */\n\n    listPets: Operation<paths["/pets"]["get"]>;\n    /** One. */\n    /** Two. */\n    readonly "x-caf\\u00e9"?: Operation<paths["/a/rather/long/path/that/goes/past/the/line"]["get"]>;\n    /** Same line. */ sameLine: Operation<paths["/x"]["get"]>;\n    quoted: Handler<paths[\'/it"s\']["post"], Auth, \'multipart/form-data\', "and a long string argument">;\n    hugged: Promise<string>;\n    tooLongToHugButCannotBreak: Array<components["schemas"]["AVeryLongSchemaNameIndeed"]>;\n}\n',
  "an interface whose members are object types written open":
    'export interface SecurityAlternatives {\n    "a & b": {\n        a: BearerCredentials;\n        b: ApiKeyCredentials;\n    };\n}\nexport type Credentials = SecurityAlternatives[keyof SecurityAlternatives];\n',
  "object type aliases, and short ones":
    'export type WebhookEvents = {\n    /** Doc. */\n    "pet.adopted": WebhookPayloadOf<webhooks["pet.adopted"]>;\n    other: NonNullable<webhooks["a-rather-long-webhook-name"]["post"]["parameters"]["header"]>;\n};\nexport type WebhookEvent = WebhookEventOf<WebhookEvents>;\nexport type None = Record<never, never>;\n',
  "a function whose parameters fit, and one whose do not, with calls that break":
    "/** Creates a client. */\nexport function createClient(options: ClientOptions = {}): Client {\n    const runtime = createRuntime(servers, options, securitySchemes);\n    return Object.fromEntries(operations.map((spec) => [spec.name, runtime.operation(spec)])) as unknown as Client;\n}\nexport function createRouter<Auth = unknown>(handlers: Handlers<Auth>, options: RouterOptions<Auth, Credentials> = {}): Router {\n    return createRouterRuntime<Auth, Credentials>(document, routes, handlers as Record<string, unknown>, options, generated);\n}\n",
  "arrays of names: on one line, one per line when they do not fit, below `=` when their opening does not fit":
    "const features: RuntimeFeatures[] = [authFeature, streamFeature];\nconst features: RuntimeFeatures[] = [authFeature, deviceFlowFeature, stylesFeature, bodiesFeature, streamFeature];\nexport const aVeryLongNameThatAlmostFillsTheWholeLineByItself: SomeType<Other> = [first, second];\nexport const aVeryLongNameThatAlmostFillsTheWholeLineByItself: SomeType<Other> = [first, second, third, fourth, fifth, sixth];\n",
  "constants from calls and property accesses":
    "const tools = createWebhookTools<WebhookEvents, PayloadVariables>(webhookSpec);\n/** Doc. */\nexport const verifyWebhookSignature = tools.verifySignature;\nexport const n = 1.50;\nexport const s = 'it\\'s';\n",
};

describe("the printer on source files (file templates filled with ts-morph)", () => {
  it.each(Object.entries(CASES))("%s: prints what prettier prints", async (_name, text) => {
    const printed = print(text);
    expect(printed).toEqual({ text: await prettierOf(text) });
  });

  const heads = [
    "const a: T",
    "const routes: RouteSpec[]",
    "const securitySchemesOfAnAPIWithALongName: Record<string, SecuritySchemeSpec>",
    "export const WEBHOOK_EVENT_TYPES: readonly (keyof WebhookEvents)[]",
    "export const aVeryLongNameThatAlmostFillsTheWholeLineByItself: SomeType<Other>",
  ];
  const values = [
    [],
    {},
    ["x"],
    ["newPet"],
    ["a-b-c-d-e-f"],
    { k: "it's \"quoted\" \\ and \u2028" },
    Array.from({ length: 40 }, (_, i) => `event_${i}`),
    // Wider or narrower than their length (CJK, emoji, keycaps, combining marks): the layout turns on their width.
    ["日本語のテキスト"],
    ["1\uFE0F\u20E3#\u20E3 👨‍👩‍👧 é"],
    Array.from({ length: 6 }, (_, i) => `${"語".repeat(i)}👍🏽${i}\u20E3`),
    // Wider than a line: laid out with a stand-in (ASCII; wide characters after enough ASCII; wide ones first).
    Array.from({ length: 30 }, (_, i) => `é語👍${i}`),
    { text: "語".repeat(300), then: "ascii ".repeat(40) },
    [{ nested: { deeper: Array.from({ length: 60 }, (_, i) => ({ i })) }, "it's": "x'y'z" }],
  ];
  it.each(heads.flatMap((head) => values.map((value) => [head, value] as const)))("data constant %s = %j: JSON.parse in prettier's layout", async (head, value) => {
    const name = /(\w+):/.exec(head)![1]!;
    const printed = print(`${head} = [{ standIn: true }];\n`, new Map([[name, { value, entriesAt: 1 }]]));
    if (!("text" in printed)) throw new Error(printed.unsupported);
    expect(await prettierOf(printed.text)).toBe(printed.text);
    const literal = printed.text.slice(printed.text.indexOf("JSON.parse(") + "JSON.parse(".length, printed.text.lastIndexOf(")")).trim().replace(/,$/, "");
    expect(JSON.parse(eval(literal))).toEqual(value);
  });

  it.each([
    ["an arrow function argument that does not fit on its line", "const entries = operations.map((spec) => [spec.name, runtime.operation(spec), another.call(spec), yetAnother]);\n", "does not fit"],
    ["an object literal", "const x = { a: 1 };\n", "ObjectLiteralExpression"],
    ["a chain of calls", "const x = a.b().c();\n", "chain of calls"],
    ["a comment after a statement", "const x = a; // why\n", "trailing comment"],
    ["a comment inside an expression", "const x = f(/* why */ a);\n", "comment"],
    ["a class", "class A {}\n", "ClassDeclaration"],
  ])("names what it cannot print (%s) instead of guessing, so the file goes through prettier", (_name, text, reason) => {
    const printed = print(text);
    expect("unsupported" in printed && printed.unsupported).toContain(reason);
  });
});

describe("data tables as string literals, one entry per line", () => {
  // Each longer than a short argument: one line per entry.
  const values = [
    { a: "b", padding: "to be longer than a short argument" },
    ["it's", "it's", "it's", "x", "it's", "it's"],
    { q: 'a\\"b', r: "\\\\'", padding: "to be longer than a short argument" },
    { k: "'\"'", padding: "to be longer than a short argument" },
    "''\"",
    "''''",
    { c: "\u0001\b\f\n\r\t", s: "\u2028\u2029", lone: "\uD83D", padding: "to be longer than a short argument" },
    { back: "\\", both: `\\"'`, padding: "to be longer than a short argument" },
  ];
  it.each(values)("%j: the JSON text in the quotes and escapes prettier gives it, continued from line to line", async (value) => {
    const { dataLiteral } = await import("../../src/emit/printer.js");
    const literal = dataLiteral({ value, entriesAt: 1 });
    // prettier re-quotes a literal written in the other quote than its choice, and drops escapes that do nothing.
    const formatted = await prettierOf(`x = ${literal};\n`);
    expect(formatted.slice(formatted.indexOf("=") + 1).trim().replace(/;$/, "")).toBe(literal);
    expect(literal.split("\n").length).toBe(typeof value === "string" ? 1 : Object.keys(value).length + 2);
    expect(literal.split("\n").slice(0, -1).every((line) => line.endsWith("\\"))).toBe(true);
    expect(JSON.parse(eval(literal) as string)).toEqual(value);
  });
});

describe("a file template the printer cannot print", () => {
  it("goes to prettier whole, with the spec's data written in as JSON.parse('…')", async () => {
    const { readFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { emitClient } = await import("../../src/emit/client.js");
    const { buildModel } = await import("../../src/ir/build.js");
    const { loadSpec } = await import("../../src/load/index.js");
    const { ROOT, V1_SPEC } = await import("../helpers.js");
    const text = readFileSync(join(ROOT, "templates", "files", "client.ts"), "utf8") + "\nclass NotPrintedHere {}\n";
    const model = buildModel(loadSpec(V1_SPEC), "spec");
    const [typescript] = emitClient(model, { kind: "client", text });
    expect(typescript!.path).toBe("client.ts");
    expect(typescript!.notCanonical).toBe("ClassDeclaration");
    expect(await prettier.format(typescript!.content, { parser: "typescript" })).toMatch(/const operations: OperationRow\[\] = JSON\.parse\(\n\s+'\[\["createChatCompletion"/);
    const [code, declarations] = emitClient(model, { kind: "client", text, form: "js" });
    expect(code!.path).toBe("client.js");
    expect(code!.canonical).toBeUndefined();
    expect(code!.notCanonical).toBe("ClassDeclaration");
    const formatted = await prettier.format(code!.content, { parser: "babel" });
    expect(formatted).toContain("class NotPrintedHere {}");
    expect(formatted).toMatch(/const operations = JSON\.parse\(\n {2}'\[\\\n {2}\["createChatCompletion",/);
    expect(formatted).not.toContain("listPets"); // no stand-in is left
    // The declarations have no class (it is not exported) and are printed as they are.
    expect(declarations!.path).toBe("client.d.ts");
    expect(declarations!.canonical).toBe(declarations!.content);
  });
});

describe("strings from the spec in the templates' type text", () => {
  it("are written as schema.ts writes the same keys (non-ASCII as \\uXXXX), so an indexed access reads like its target", async () => {
    const { join } = await import("node:path");
    const { generate } = await import("../../src/index.js");
    const { ROOT, cleanupTempDirs, tempDir, writeFiles } = await import("../helpers.js");
    const dir = tempDir();
    const ok = { "200": { description: "ok", content: { "application/json": { schema: { type: "string" } } } } };
    const spec = { openapi: "3.1.0", info: { title: "t", version: "1" }, servers: [{ url: "https://x.example" }], paths: { "/café/字符": { get: { operationId: "getCafe", responses: ok } } } };
    writeFiles(dir, { "openapi.json": JSON.stringify(spec) });
    try {
      const { files } = await generate({ spec: join(dir, "openapi.json"), out: join(dir, "out"), cwd: ROOT });
      const key = '"/caf\\u00E9/\\u5B57\\u7B26"';
      expect(files.get("schema.ts")).toContain(`${key}: {`);
      expect(files.get("client.ts")).toContain(`Operation<paths[${key}]["get"]>`);
      expect(files.get("server.ts")).toContain(`Handler<paths[${key}]["get"], Auth>`);
    } finally {
      cleanupTempDirs();
    }
  });
});

describe("documents with no layout to choose", () => {
  const { group, hardline, indent, line, softline, ifBreak, literalline, conditionalGroup } = prettier.doc.builders;
  const simple = {
    "text": ["a", "b"],
    "hard breaks and indents, the next line's indent written with the break": ["x {", indent([hardline, "a;", indent([hardline, "b;"])]), hardline, "}"],
    "trailing blanks of a line dropped at its break, blank lines left empty": ["/**", hardline, " * a  \t", hardline, indent([hardline, hardline, "c"]), "  "],
    "groups with no line inside, and one with a hard break": [group(["a", group(["b", "c"])]), group(["d", indent([hardline, "e"])])],
  };
  it.each(Object.entries(simple))("%s: printed as prettier prints it", async (_name, doc) => {
    const { printWithoutChoices } = await import("../../src/emit/printer.js");
    expect(printWithoutChoices(doc)).toBe(prettier.doc.printer.printDocToString(doc, { printWidth: 80, tabWidth: 2, useTabs: false } as never).formatted);
  });
  it.each([
    ["a soft line", group(["a", softline, "b"])],
    ["a line", ["a", line, "b"]],
    ["content for a broken group", ["a", ifBreak(",")]],
    ["a literal line", ["a", literalline, "b"]],
    ["a conditional group", conditionalGroup(["a"])],
  ])("declines %s (prettier lays it out)", async (_name, doc) => {
    const { printWithoutChoices } = await import("../../src/emit/printer.js");
    expect(printWithoutChoices(doc)).toBeUndefined();
  });
});
