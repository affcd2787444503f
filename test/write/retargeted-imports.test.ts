import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { importSharedRuntime } from "../../src/emit/runtime.js";
import { layOutRetargetedImports } from "../../src/write/format.js";

const format = (text: string) => prettier.format(text, { filepath: "client.ts" });

/** A file's canonical text (prettier's form) as an emitter printed it, importing its own runtime/. */
const CANONICAL = await format(
  [
    'import { aaaaaaaaaa, bbbbbbbbbb, cccccccccc, ddd } from "./runtime/client/x.js";', // 80 columns: one line
    'import { aaaaaaaaaaaa, bbbbbbbbbb } from "./runtime/client/xyz.js";', // 67 columns
    'import { aaaaaaaaaaaa, bbbbbbbbbb, cccccccccc, dddddddddd } from "./runtime/x.js";', // 82 columns: broken
    'import type { A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q } from "./runtime/client/types.js";',
    'export { Stream } from "./runtime/client/sse.js";',
    "export const client = { a: 1 };",
  ].join("\n"),
);

describe("a shared runtime folder's specifier in canonical text (imports laid out as prettier would)", () => {
  it.each([
    ["longer: a one-line import that no longer fits is broken", "../runtime"],
    ["much longer: every import past the width is broken", "../../../common/generated/runtime"],
    ["shorter: a broken import that now fits is joined", "../rt"],
  ])("%s", async (_, base) => {
    const [file] = importSharedRuntime([{ path: "client.ts", content: CANONICAL, canonical: CANONICAL, description: "" }], base).files;
    expect(file!.retargeted).toBe(base);
    const laidOut = await layOutRetargetedImports(file!.canonical!, base, format);
    expect(laidOut).toBe(await format(file!.content));
    expect(laidOut).not.toContain('"./runtime/');
  });

  it("runtime modules are set apart; a file without runtime imports is left as it is", () => {
    const own = { path: "schema.ts", content: "export type X = 1;\n", description: "" };
    const module = { path: "runtime/client/x.ts", content: 'import "./y.js";\n', description: "" };
    expect(importSharedRuntime([own, module], "../runtime")).toEqual({ files: [own], runtime: [module] });
  });
});
