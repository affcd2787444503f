import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { hashTree, sha256 } from "./hash.js";
import { PACKAGE_ROOT } from "./root.js";

/** The files `npm run build` compiles or reads: when none changed, dist/ is what a new build would write. */
const INPUT_FOLDERS = ["src", "templates", "bin"];
const INPUT_FILES = ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json"];

/** Hash of everything the build reads (the sources, the templates, the manifest and lockfile, the compiler settings). */
export function buildInputsHash(root: string = PACKAGE_ROOT): string {
  const folders = INPUT_FOLDERS.map((folder) => `${folder}\n${hashTree(join(root, folder))}`);
  const files = INPUT_FILES.map((file) => {
    const path = join(root, file);
    return `${file}\n${existsSync(path) ? sha256(readFileSync(path)) : "-"}`;
  });
  return sha256([...folders, ...files].join("\n"));
}

/** Whether dist/ was built from the inputs as they are now, so that the tests need not build it again. */
export function buildIsCurrent(root: string = PACKAGE_ROOT): boolean {
  const info = join(root, "dist", "build-info.json");
  try {
    return existsSync(info) && (JSON.parse(readFileSync(info, "utf8")) as { inputsHash?: unknown }).inputsHash === buildInputsHash(root);
  } catch {
    return false;
  }
}
