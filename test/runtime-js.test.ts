/**
 * The runtime templates compiled to what the output ships (src/package/runtime-js.ts): JavaScript that reads like its
 * source (comments and blank lines kept, text inside strings untouched) and the declarations of its exports.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileRuntime } from "../src/package/runtime-js.js";
import { ROOT } from "./helpers.js";

const TEMPLATES = join(ROOT, "templates");

const SOURCE = `/**
 * What this module is.
 */
import type { Other } from "./other.js";

/** Says hello. */
export function hello(name: string): string {
  const greeting = \`hello,

\${name}\`; // a blank line inside a template literal stays as it is

  return greeting;
}

interface Erased {
  x: number;
}

export const answer: number = 42;
`;

describe("compileRuntime", () => {
  const compiled = compileRuntime(new Map([["client/hello.ts", SOURCE], ["client/other.ts", "export interface Other { a: string }\n"]]), TEMPLATES);
  const { js, dts } = compiled.get("client/hello.ts")!;

  it("keeps the module comment, JSDoc and blank lines in the JavaScript, and erases the types", () => {
    expect(js).toBe(`/**
 * What this module is.
 */

/** Says hello. */
export function hello(name) {
    const greeting = \`hello,

\${name}\`; // a blank line inside a template literal stays as it is

    return greeting;
}

export const answer = 42;
`);
  });

  it("declares the exports with their JSDoc", () => {
    expect(dts).toContain("/** Says hello. */\nexport declare function hello(name: string): string;");
    expect(dts).toContain("export declare const answer: number;");
    expect(dts).not.toContain("specforge:blank-line");
  });

  it("is deterministic", () => {
    const again = compileRuntime(new Map([["client/hello.ts", SOURCE], ["client/other.ts", "export interface Other { a: string }\n"]]), TEMPLATES);
    expect(again.get("client/hello.ts")).toEqual({ js, dts });
  });

  it("refuses a template that does not compile", () => {
    expect(() => compileRuntime(new Map([["client/bad.ts", "export const x: number = 'no';\n"]]), TEMPLATES)).toThrow(/do not compile[\s\S]*TS2322/);
  });
});
