/**
 * A listener leak is a bug, in the runtime or in a test's own server: Node only warns about it (and once per
 * emitter), so a test run turns the warning into a failure that names where the listeners were added.
 */
const GUARD = Symbol.for("specforge.test.listener-leak-guard");
const host = process as NodeJS.Process & { [GUARD]?: true };
if (!host[GUARD]) {
  host[GUARD] = true;
  process.on("warning", (warning) => {
    if (warning.name === "MaxListenersExceededWarning") throw warning;
  });
}
