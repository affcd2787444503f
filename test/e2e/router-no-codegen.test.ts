import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The router must run where code cannot be generated from strings (Cloudflare Workers): its validator compiles
 * schemas into closures, never into source for `eval` / `new Function`. Node's
 * `--disallow-code-generation-from-strings` makes both throw, as Workers do; the committed generated/ router
 * serves validated requests under it.
 */
const ROOT = join(import.meta.dirname, "..", "..");
const work = mkdtempSync(join(tmpdir(), "specforge-no-codegen-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function transpile(sourceDir: string, targetDir: string): void {
  for (const entry of readdirSync(sourceDir, { withFileTypes: true })) {
    const path = join(sourceDir, entry.name);
    if (entry.isDirectory()) transpile(path, join(targetDir, entry.name));
    else if (entry.name.endsWith(".js")) {
      // The runtime and server-validators.js: JavaScript already.
      mkdirSync(targetDir, { recursive: true });
      copyFileSync(path, join(targetDir, entry.name));
    } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) {
      const { outputText } = ts.transpileModule(readFileSync(path, "utf8"), {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
      });
      const out = join(targetDir, entry.name.replace(/\.ts$/, ".js"));
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, outputText);
    }
  }
}

const SCRIPT = `
import { createRouter } from "./generated/server.js";
const outcome = {};
try { eval("1"); outcome.eval = "allowed"; } catch (error) { outcome.eval = error.constructor.name; }
try { new Function("return 1"); outcome.newFunction = "allowed"; } catch (error) { outcome.newFunction = error.constructor.name; }
const router = createRouter(
  { createChatCompletion: ({ body }) => ({ status: 200, body: { id: "c", object: "chat.completion", created: 1, model: body.model ?? "m", choices: [] } }) },
  { authenticate: ({ HTTPBearer }) => (HTTPBearer.token === "t" ? { user: "u" } : null) },
);
const chat = (body) =>
  router.fetch(new Request("http://127.0.0.1/v1/chat/completions", { method: "POST", headers: { authorization: "Bearer t", "content-type": "application/json" }, body: JSON.stringify(body) }));
outcome.valid = (await chat({ model: "m", messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] })).status;
outcome.invalid = (await chat({ model: "m", messages: [{ role: "user", content: [{ type: "image_url", image_url: {} }] }] })).status;
console.log(JSON.stringify(outcome));
`;

describe("the generated router without code generation from strings (as on Workers)", () => {
  it("validates requests while eval and new Function throw", () => {
    transpile(join(ROOT, "generated"), join(work, "generated"));
    writeFileSync(join(work, "package.json"), '{ "type": "module" }\n');
    writeFileSync(join(work, "main.mjs"), SCRIPT);
    const output = execFileSync(process.execPath, ["--disallow-code-generation-from-strings", join(work, "main.mjs")], { cwd: work, encoding: "utf8", timeout: 30_000 });
    expect(JSON.parse(output.trim().split("\n").at(-1)!)).toEqual({ eval: "EvalError", newFunction: "EvalError", valid: 200, invalid: 422 });
  });
});
