/**
 * Turns generated TypeScript into JavaScript the benchmarks can import, without touching generated/.
 *
 * Each file is transpiled on its own (`ts.transpileModule`): the generated code is type-checked by the test
 * suite already, and the repo's `verbatimModuleSyntax` guarantees every type-only import is marked as such, so
 * per-file transpilation is exact. Output goes to a fresh folder under bench/.out/ (git-ignored).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";
import { OUT, ROOT } from "./paths.mjs";

export { OUT, ROOT };

/** Transpiles every `.ts` file under `sourceDir` into `targetDir` (same layout, `.js`); returns `targetDir`. */
export function transpileTree(sourceDir, targetDir) {
  rmSync(targetDir, { recursive: true, force: true });
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".js")) {
        // Generated as JavaScript already (server-validators.js): copied as it is.
        const out = join(targetDir, relative(sourceDir, path));
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, readFileSync(path));
      } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) {
        const { outputText } = ts.transpileModule(readFileSync(path, "utf8"), {
          fileName: path,
          compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
        });
        const out = join(targetDir, relative(sourceDir, path)).replace(/\.ts$/, ".js");
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, outputText);
      }
    }
  };
  walk(sourceDir);
  writeFileSync(join(targetDir, "package.json"), '{ "type": "module" }\n');
  return targetDir;
}

/**
 * The committed generated/ folder (or another generated folder, e.g. an older version's, to compare) as
 * importable JavaScript.
 */
export function compileGenerated(name = "generated", source = join(ROOT, "generated")) {
  return transpileTree(source, join(OUT, name));
}

/**
 * Generates only the server of `spec` (unformatted, with the built CLI) and transpiles it. Returns the folder of
 * the JavaScript output and the TypeScript source folder.
 */
export function generateServer(spec, name) {
  const source = join(OUT, `${name}-ts`);
  const config = join(OUT, `${name}.config.json`);
  mkdirSync(OUT, { recursive: true });
  writeFileSync(config, JSON.stringify({ spec, out: source, outputs: ["server"], format: false }));
  execFileSync(process.execPath, [join(ROOT, "bin", "specforge.js"), "generate", "--config", config], { cwd: ROOT, stdio: "pipe" });
  return { js: transpileTree(source, join(OUT, name)), ts: source };
}

/**
 * Warns when generated/ is not what the current generator and templates would write (a template optimised
 * but not regenerated would otherwise be benchmarked in its old form).
 */
export function warnIfStale() {
  try {
    execFileSync(process.execPath, [join(ROOT, "bin", "specforge.js"), "check"], { cwd: ROOT, stdio: "pipe" });
  } catch (error) {
    const detail = String(error.stdout ?? "").split("\n").slice(0, 3).join("\n");
    console.warn(`warning: generated/ is not current (run \`npm run build && npm run generate\`); benchmarking it as it is.\n${detail}`);
  }
}

/** The router of the deep-oneOf scenario, generated from bench/runtime/deep-oneof.yaml; returns its JavaScript folder. */
export function compileDeepOneOf() {
  return generateServer(join(ROOT, "bench", "runtime", "deep-oneof.yaml"), "deep-oneof").js;
}
