import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The CLI tests run the built `bin/specforge.js`; build once so they test the current source. */
export default function setup(): void {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  execFileSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
}
