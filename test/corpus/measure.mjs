// Runs the built CLI in this process and reports its exit code, wall time and peak RSS as one JSON line on fd 3.
import { writeSync } from "node:fs";
import { main } from "../../dist/src/cli.js";

const started = performance.now();
const code = await main(process.argv.slice(2));
const report = { code, ms: Math.round(performance.now() - started), maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024) };
writeSync(3, JSON.stringify(report) + "\n");
process.exitCode = code;
