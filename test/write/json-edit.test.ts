import { describe, expect, it } from "vitest";
import { JsonShapeError, addScripts } from "../../src/write/json-edit.js";

const SCRIPTS = { "api:generate": "specforge generate", "api:check": "specforge check" };

/** [name, { given, want }]: package.json text before and after adding the two scripts. */
const cases: [string, { given: string; want: string }][] = [
  [
    "2 spaces, existing scripts: appended after the last one",
    {
      given: '{\n  "name": "app",\n  "scripts": {\n    "test": "vitest"\n  },\n  "files": ["dist", "bin"]\n}\n',
      want: '{\n  "name": "app",\n  "scripts": {\n    "test": "vitest",\n    "api:generate": "specforge generate",\n    "api:check": "specforge check"\n  },\n  "files": ["dist", "bin"]\n}\n',
    },
  ],
  [
    "4 spaces, no scripts: a new scripts object at the end",
    {
      given: '{\n    "name": "app",\n    "version": "1.0.0"\n}\n',
      want: '{\n    "name": "app",\n    "version": "1.0.0",\n    "scripts": {\n        "api:generate": "specforge generate",\n        "api:check": "specforge check"\n    }\n}\n',
    },
  ],
  [
    "tabs, no trailing newline",
    {
      given: '{\n\t"name": "app",\n\t"scripts": {\n\t\t"build": "tsc"\n\t}\n}',
      want: '{\n\t"name": "app",\n\t"scripts": {\n\t\t"build": "tsc",\n\t\t"api:generate": "specforge generate",\n\t\t"api:check": "specforge check"\n\t}\n}',
    },
  ],
  [
    "CRLF line endings",
    {
      given: '{\r\n  "name": "app"\r\n}\r\n',
      want: '{\r\n  "name": "app",\r\n  "scripts": {\r\n    "api:generate": "specforge generate",\r\n    "api:check": "specforge check"\r\n  }\r\n}\r\n',
    },
  ],
  [
    "a one-line scripts object stays on one line",
    {
      given: '{\n  "scripts": { "test": "vitest" },\n  "name": "app"\n}\n',
      want: '{\n  "scripts": { "test": "vitest", "api:generate": "specforge generate", "api:check": "specforge check" },\n  "name": "app"\n}\n',
    },
  ],
  [
    "an empty scripts object",
    {
      given: '{\n  "name": "app",\n  "scripts": {},\n  "private": true\n}\n',
      want: '{\n  "name": "app",\n  "scripts": {\n    "api:generate": "specforge generate",\n    "api:check": "specforge check"\n  },\n  "private": true\n}\n',
    },
  ],
  [
    "a minified file stays on one line",
    {
      given: '{"name":"app","version":"1.0.0"}',
      want: '{"name":"app","version":"1.0.0", "scripts":{"api:generate":"specforge generate", "api:check":"specforge check"}}',
    },
  ],
  [
    "an empty object",
    {
      given: "{}\n",
      want: '{\n  "scripts": {\n    "api:generate": "specforge generate",\n    "api:check": "specforge check"\n  }\n}\n',
    },
  ],
  [
    "one script already there: only the other is added",
    {
      given: '{\n  "scripts": {\n    "api:check": "specforge check"\n  }\n}\n',
      want: '{\n  "scripts": {\n    "api:check": "specforge check",\n    "api:generate": "specforge generate"\n  }\n}\n',
    },
  ],
  [
    "strings with escapes, nested objects and numbers before the insertion point",
    {
      given: '{\n  "description": "a \\"quoted\\" } brace",\n  "config": { "port": 8080, "list": [1, -2.5e3, true, null, {"a": []}] }\n}\n',
      want: '{\n  "description": "a \\"quoted\\" } brace",\n  "config": { "port": 8080, "list": [1, -2.5e3, true, null, {"a": []}] },\n  "scripts": {\n    "api:generate": "specforge generate",\n    "api:check": "specforge check"\n  }\n}\n',
    },
  ],
];

describe("addScripts: adds package.json scripts, keeping the file's formatting", () => {
  it.each(cases)("%s", (_name, { given, want }) => {
    const result = addScripts(given, SCRIPTS);
    expect(result.text).toBe(want);
    // Idempotent: a second run finds both and changes nothing.
    const again = addScripts(result.text, SCRIPTS);
    expect(again.text).toBe(result.text);
    expect(again.added).toEqual([]);
    expect(again.present.sort()).toEqual(["api:check", "api:generate"]);
  });

  it("keeps a script of the same name that runs something else, unless forced", () => {
    const given = '{\n  "scripts": {\n    "api:generate": "openapi-ts",\n    "test": "vitest"\n  }\n}\n';
    const kept = addScripts(given, SCRIPTS);
    expect(kept.kept).toEqual([{ name: "api:generate", existing: "openapi-ts" }]);
    expect(kept.added).toEqual(["api:check"]);
    expect(JSON.parse(kept.text).scripts["api:generate"]).toBe("openapi-ts");

    const forced = addScripts(given, SCRIPTS, { force: true });
    expect(forced.replaced).toEqual([{ name: "api:generate", previous: "openapi-ts" }]);
    expect(forced.text).toBe(
      '{\n  "scripts": {\n    "api:generate": "specforge generate",\n    "test": "vitest",\n    "api:check": "specforge check"\n  }\n}\n',
    );
  });

  it("nothing to do: the very same string comes back", () => {
    const given = '{ "scripts": { "api:generate": "specforge generate", "api:check": "specforge check" } }';
    expect(addScripts(given, SCRIPTS).text).toBe(given);
  });

  it("rejects invalid JSON and a package.json whose top level or scripts is not an object", () => {
    expect(() => addScripts('{ "name": "app", }', SCRIPTS)).toThrow(SyntaxError);
    expect(() => addScripts("[]", SCRIPTS)).toThrow(JsonShapeError);
    expect(() => addScripts('{ "scripts": ["build"] }', SCRIPTS)).toThrow(/`scripts` must be an object/);
  });
});
