import { describe, expect, it } from "vitest";
import { toMarkdown, toText } from "../../src/diff/format.js";
import type { Change, DiffResult } from "../../src/diff/model.js";

const hostile = "a`b<img src=x onerror=alert(1)>|**bold**\n# heading";

const change = (over: Partial<Change>): Change => ({
  rule: "property-added",
  breaking: { client: false, server: false },
  subject: "Pet.name",
  message: "optional property added",
  direction: "response",
  old: "/components/schemas/Pet",
  new: "/components/schemas/Pet/properties/name",
  operations: ["GET /pets"],
  ...over,
});

describe("Markdown output holds any string a spec has", () => {
  it("names from the spec stay inside code spans, messages are escaped, nothing starts a line of its own", () => {
    const result: DiffResult = {
      versions: { old: "1<b>", new: "2" },
      changes: [change({ subject: `Pet.${hostile}`, message: `enum value ${JSON.stringify(hostile)} added`, breaking: { client: true, server: false }, rule: "enum-values-added" })],
    };
    const markdown = toMarkdown(result, { old: "old.yaml", new: "new.yaml" });
    // Outside code spans (where Markdown shows text as it is) no tag survives.
    const outsideCode = markdown.replace(/(`+)[^`]*?(?:`(?!\1)[^`]*?)*\1/g, "");
    expect(outsideCode).not.toContain("<img");
    expect(markdown).not.toContain("<b>");
    expect(markdown).toContain("(1&lt;b&gt;)");
    // The subject is a code span with a fence longer than any backtick run in it, on one line.
    expect(markdown).toContain("- ``Pet.a`b<img src=x onerror=alert(1)>|**bold** # heading``: ");
    expect(markdown.split("\n").filter((line) => line.startsWith("# heading"))).toEqual([]);
    expect(markdown).toContain("\\*\\*bold\\*\\*");
  });

  it("long lists are cut (a PR comment holds 65,536 characters) and say how to see them all", () => {
    const changes = Array.from({ length: 250 }, (_, i) => change({ subject: `Pet.p${String(i).padStart(3, "0")}`, breaking: { client: true, server: false } }));
    const markdown = toMarkdown({ versions: {}, changes }, { old: "a", new: "b" });
    expect(markdown.match(/^- `Pet\.p\d+`/gm)).toHaveLength(200);
    expect(markdown).toContain("- … and 50 more (`specforge diff --format json` lists them all)");
  });
});

describe("text output", () => {
  it("writes control characters from the spec as escapes, so a name cannot rewrite the terminal", () => {
    const text = toText({ versions: {}, changes: [change({ subject: "Pet.\u001b]0;owned\u0007x\ny" })] }, { old: "a", new: "b" });
    expect(text).toContain("  - Pet.\\u001b]0;owned\\u0007x\\u000ay: optional property added");
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });

  it("lists the operations a shared schema change affects, at most three, and the direction", () => {
    const text = toText({ versions: {}, changes: [change({ operations: ["GET /a", "GET /b", "GET /c", "GET /d"] })] }, { old: "a", new: "b" });
    expect(text).toContain("  - Pet.name: optional property added (in responses)\n      #/components/schemas/Pet → #/components/schemas/Pet/properties/name\n      affects GET /a, GET /b, GET /c and 1 more");
  });
});
