import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildIsCurrent } from "../src/package/build-inputs.js";

/**
 * The CLI tests run the built `bin/specforge.js`; build once so they test the current source. A dist/ built from the
 * sources as they are (`npm run generate` builds too) is used as it is.
 */
export default function setup(): void {
  if (buildIsCurrent()) return;
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  execFileSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
}
