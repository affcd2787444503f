import { generate } from "./dist/src/index.js";
const t0 = performance.now();
const { files } = await generate({ spec: process.argv[2], out: "/tmp/nofmt-out", format: false });
console.log("generate (no format)", (performance.now() - t0).toFixed(0), "ms", [...files.values()].reduce((a, b) => a + b.length, 0), "chars", Math.round(process.memoryUsage().rss / 2**20), "MiB rss");
