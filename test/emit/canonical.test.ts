import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { interfaceDeclaration, jsDoc, jsonConstant, moduleSpecifiers, objectTypeAlias, renderFile, types } from "../../src/emit/canonical.js";

/** Every case is printed by specforge and must come out of prettier (default settings) unchanged. */
async function expectPrettierStable(text: string): Promise<void> {
  expect(await prettier.format(text, { parser: "typescript" })).toBe(text);
}

describe("canonical building blocks print what prettier prints", () => {
  const heads = ["const a: T", "const routes: RouteSpec[]", "export const WEBHOOK_EVENT_TYPES: readonly (keyof WebhookEvents)[]", "export const aVeryLongNameThatAlmostFillsTheWholeLineByItself: SomeType<Other>"];
  const values = [[], ["x"], ["newPet"], ["a-b-c-d-e-f"], { k: "it's \"quoted\" \\ and \u2028" }, Array.from({ length: 40 }, (_, i) => `event_${i}`)];
  it.each(heads.flatMap((head) => values.map((value) => [head, value] as const)))("jsonConstant(%j, %j)", async (head, value) => {
    const text = renderFile([[jsonConstant(head, value)]]);
    await expectPrettierStable(text);
    expect(JSON.parse(eval(text.slice(text.indexOf("JSON.parse(") + "JSON.parse(".length, text.lastIndexOf(")")).trim().replace(/,$/, "")))).toEqual(value);
  });

  it.each([
    [["one"]],
    [["a", "b"]],
    [["createClient", "type ClientOptions as RuntimeClientOptions", "type Operation", "type OperationSpec"]],
  ])("moduleSpecifiers(%j)", async (names) => {
    await expectPrettierStable(renderFile([[moduleSpecifiers("import", names, "./runtime/client/index.js"), moduleSpecifiers("export", names, "./x.js")]]));
  });

  it("interfaces and object type aliases with documented members, short and long types", async () => {
    const members = [
      { name: "short", type: types.reference("Operation", [types.indexed("paths", "/", "get")]), doc: "One line." },
      {
        name: "aMuchLongerOperationNameThatForcesTheTypeArguments",
        optional: true,
        type: types.reference("Operation", [types.indexed("paths", "/a/very/long/path/{with}/{params}", "post"), types.string("multipart/form-data")]),
        doc: "Summary\n\nA longer description with `code`, trailing spaces   \n\n@deprecated",
      },
      { name: "needs-quotes", type: types.keyword("string") },
      { name: "__proto__", type: types.keyword("unknown") },
    ];
    await expectPrettierStable(
      renderFile([
        [jsDoc("An interface."), interfaceDeclaration("export interface Client", members)],
        [jsDoc("A type."), objectTypeAlias("export type Events", members, "Record<never, never>")],
        [objectTypeAlias("export type Empty", [], "Record<never, never>")],
        [interfaceDeclaration("export interface Nothing", [])],
      ]),
    );
  });
});
