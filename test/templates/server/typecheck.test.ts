/**
 * Runs the TypeScript compiler from vitest so the type tests (including every `@ts-expect-error`, which TS
 * reports as TS2578 when unused) are enforced by `vitest run`, not only by `tsc`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const here = fileURLToPath(new URL(".", import.meta.url));
const runtimeIndex = join(here, "../../../templates/server/index.js");

const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  resolveJsonModule: true,
  verbatimModuleSyntax: true,
  types: ["node"],
};

function diagnosticsOf(files: string[]): { messages: string[]; program: ts.Program } {
  const program = ts.createProgram(files, options);
  const messages = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => !d.file || files.some((f) => d.file!.fileName.endsWith(f.split("/").pop()!)) || d.file.fileName.includes("templates/server"))
    .map((d) => `${d.file?.fileName ?? ""}:${d.start ?? 0} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
  return { messages, program };
}

describe("type tests compile", () => {
  it("handler-types.test.ts and the fixture type-check cleanly (all @ts-expect-error lines are real errors)", () => {
    const { messages } = diagnosticsOf([join(here, "handler-types.test.ts"), join(here, "fixtures/server.ts")]);
    expect(messages).toEqual([]);
  }, 60_000);

  it("a wrong status is really reported (the checker is not vacuous)", () => {
    const dir = mkdtempSync(join(tmpdir(), "specforge-types-"));
    try {
      const file = join(dir, "bad.mts"); // .mts: the temp dir has no package.json saying "module"
      writeFileSync(
        file,
        `import type { paths } from ${JSON.stringify(join(here, "fixtures/schema.js"))};
import type { Handler } from ${JSON.stringify(runtimeIndex)};
export const h: Handler<paths["/v1/health"]["get"]> = () => ({ status: 418, body: { status: "ok" } });
`,
      );
      const { messages } = diagnosticsOf([file]);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatch(/bad\.mts.*'\{ status: number; body: \{ status: string; \}; \}' is not assignable/);
      // The message names the problem, not the properties of `Response` the result lacks.
      expect(messages[0]).toContain("the status is not one the spec declares for this operation");
      expect(messages[0]).not.toMatch(/missing the following properties from type 'Response'/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("stays cheap on a 1,200-operation spec (handlers typed for every operation)", () => {
    const dir = mkdtempSync(join(tmpdir(), "specforge-types-"));
    try {
      const count = 1200;
      const lines: string[] = [`import type { Handler } from ${JSON.stringify(runtimeIndex)};`, "export interface components { schemas: {"];
      for (let i = 0; i < count; i++) lines.push(`  Thing${i}: { id: string; n${i}: number; tags?: string[]; child?: components["schemas"]["Thing${(i + 1) % count}"] };`);
      lines.push("} }", "export interface operations {");
      for (let i = 0; i < count; i++) {
        lines.push(`  op${i}: {
    parameters: { query?: { limit?: number; order?: "asc" | "desc" }; header?: never; path: { id: string }; cookie?: never };
    requestBody: { content: { "application/json": components["schemas"]["Thing${i}"] } };
    responses: {
      200: { headers: { [name: string]: unknown }; content: { "application/json": components["schemas"]["Thing${i}"] } };
      404: { headers: { [name: string]: unknown }; content: { "application/json": { message: string } } };
      204: { headers: { [name: string]: unknown }; content?: never };
      default: { headers: { [name: string]: unknown }; content: { "application/json": { error: string } } };
    };
  };`);
      }
      lines.push("}", "export interface Handlers<Auth = unknown> {");
      for (let i = 0; i < count; i++) lines.push(`  op${i}?: Handler<operations["op${i}"], Auth, "application/json">;`);
      lines.push("}", "export const handlers: Handlers<{ user: string }> = {");
      for (let i = 0; i < count; i++) {
        lines.push(`  op${i}: ({ body, path, query, auth }) => query.limit === 1 ? { status: 404, body: { message: auth.user } } : { status: 200, body: { ...body, id: path.id } },`);
      }
      lines.push("};");
      const file = join(dir, "big.mts");
      writeFileSync(file, lines.join("\n"));
      const started = performance.now();
      const { messages, program } = diagnosticsOf([file]);
      const elapsed = performance.now() - started;
      const instantiations = program.getInstantiationCount();
      console.log(`1,200 typed handlers: ${Math.round(elapsed)} ms, ${instantiations} type instantiations`);
      expect(messages).toEqual([]);
      // Instantiations are the deterministic cost measure (~280 per typed handler; "slow" projects hit millions).
      expect(instantiations).toBeLessThan(600_000);
      // Wall time varies with the machine; this only guards against pathological blow-ups.
      expect(elapsed).toBeLessThan(90_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
