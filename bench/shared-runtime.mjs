/**
 * What a repository with several specs commits, with and without a shared runtime folder (config `runtime`): four
 * specs like a downstream repository has (the v1 spec, the Swagger Petstore 3.0, the Petstore 3.1 with a webhook,
 * Adyen's webhooks) generated as `projects` of one config with their default outputs, once with each project's own
 * `runtime/` and once sharing `src/api/runtime`. Counts every file under src/api (manifests included).
 *
 *   npm run build && node bench/shared-runtime.mjs [--form js]
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./runtime/paths.mjs";
import { fmt, table } from "./runtime/report.mjs";

const CORPUS = join(ROOT, "..", "shared", "corpus");
const SPECS = {
  training: join(ROOT, "spec", "training-api.v1.yaml"),
  petstore: join(CORPUS, "swagger-petstore-3.0.yaml"),
  "petstore-webhooks": join(CORPUS, "swagger-petstore-3.1.yaml"),
  adyen: join(CORPUS, "adyen-bp-config-webhooks-v2-3.1.json"),
};
const formAt = process.argv.indexOf("--form");
const form = formAt < 0 ? "ts" : process.argv[formAt + 1];

/** Files and bytes below `dir`, and those below its `runtime/` folders. */
function measure(dir) {
  const total = { files: 0, bytes: 0, runtimeFiles: 0, runtimeBytes: 0 };
  const walk = (folder, inRuntime) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path, inRuntime || entry.name === "runtime");
      else {
        const bytes = statSync(path).size;
        total.files += 1;
        total.bytes += bytes;
        if (inRuntime) {
          total.runtimeFiles += 1;
          total.runtimeBytes += bytes;
        }
      }
    }
  };
  walk(dir, false);
  return total;
}

function repository(shared) {
  const dir = mkdtempSync(join(tmpdir(), "specforge-bench-shared-"));
  mkdirSync(join(dir, "specs"));
  const projects = Object.entries(SPECS).map(([name, spec]) => {
    const file = `specs/${name}${spec.slice(spec.lastIndexOf("."))}`;
    copyFileSync(spec, join(dir, file));
    return { name, spec: file, out: `src/api/${name}` };
  });
  writeFileSync(join(dir, "specforge.config.json"), JSON.stringify({ form, ...(shared ? { runtime: "src/api/runtime" } : {}), projects }, null, 2));
  const run = spawnSync(process.execPath, [join(ROOT, "bin", "specforge.js"), "generate", "--quiet"], { cwd: dir, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`generate failed (${run.status}): ${run.stderr}`);
  const sizes = measure(join(dir, "src", "api"));
  rmSync(dir, { recursive: true, force: true });
  return sizes;
}

const rows = [
  ["each project's own runtime/", repository(false)],
  ["one shared runtime (`runtime`)", repository(true)],
].map(([label, s]) => [label, fmt.int(s.files), `${fmt.int(s.bytes / 1024)} KB`, fmt.int(s.runtimeFiles), `${fmt.int(s.runtimeBytes / 1024)} KB`]);
console.log(`Four specs (${Object.keys(SPECS).join(", ")}) as projects of one config, form "${form}":\n`);
console.log(table(["layout", "files", "bytes", "runtime files", "runtime bytes"], rows));
