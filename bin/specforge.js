#!/usr/bin/env node
let cli;
try {
  cli = await import("../dist/src/cli.js");
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("cli.js")) throw error;
  // A clone of the repository before its first build (the published package ships dist/).
  process.stderr.write("specforge: error: this checkout is not built yet (dist/ is missing)\n  hint: run `npm run build` in it first\n");
  process.exit(2);
}
process.exitCode = await cli.main(process.argv.slice(2));
