/**
 * The router's multipart/form-data parser (templates/server/multipart.ts, as generated/runtime/server/multipart.js)
 * against the web-standard parser it replaced, `Response.formData()` (undici's, in this Node), in process: the minimum
 * of several runs of each on the same bytes, files read to the end (`arrayBuffer()`) so that neither parser is
 * credited for work it defers.
 *
 *   node bench/multipart.mjs [--runs 40]
 *
 * Bodies: 1 MB in 3 parts (a text field, a JSON field, a 1 MB file of random bytes); the same with a file made of
 * near-delimiters (`\r\n--` + the boundary with one byte wrong, repeated): the search's worst cases.
 */
import { randomBytes } from "node:crypto";
import { parseFormData } from "../generated/runtime/server/multipart.js";

const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 40;
const boundary = "----specforgebench0123456789abcdef";
const contentType = `multipart/form-data; boundary=${boundary}`;

function body(file) {
  const head = (name, extra = "") => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n`;
  const parts = [
    Buffer.from(`${head("purpose")}\r\nfine-tune\r\n`),
    Buffer.from(`${head("meta")}Content-Type: application/json\r\n\r\n{"a":[1,2,3],"b":"x"}\r\n`),
    Buffer.from(`${head("file", '; filename="data.bin"')}Content-Type: application/octet-stream\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ];
  return new Uint8Array(Buffer.concat(parts));
}

async function readAll(fields) {
  let bytes = 0;
  for (const key of new Set(fields.keys())) {
    for (const value of fields.getAll(key)) bytes += typeof value === "string" ? value.length : (await value.arrayBuffer()).byteLength;
  }
  return bytes;
}

async function best(fn) {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    min = Math.min(min, Number(process.hrtime.bigint() - start) / 1e6);
  }
  return min;
}

/** A file of one piece repeated to 1 MB. */
const repeated = (piece) => Buffer.concat(Array.from({ length: Math.ceil((1024 * 1024) / piece.length) }, () => piece));
const bodies = {
  "1 MB, 3 parts (random file)": body(randomBytes(1024 * 1024)),
  "1 MB, 3 parts (file of near-delimiters, the last byte wrong)": body(repeated(Buffer.from(`\r\n--${boundary.slice(0, -1)}.`))),
  "1 MB, 3 parts (file of near-delimiters, a middle byte wrong)": body(repeated(Buffer.from(`\r\n--${boundary.slice(0, 20)}.${boundary.slice(21)}`))),
};

console.log(`Node ${process.version}, min of ${runs} runs (ms)\n`);
console.log("| body | router's parser | Response.formData() | ratio |");
console.log("| --- | ---: | ---: | ---: |");
for (const [name, bytes] of Object.entries(bodies)) {
  const ours = await best(async () => {
    const errors = [];
    const fields = parseFormData(bytes, contentType, errors);
    if (errors.length > 0) throw new Error(JSON.stringify(errors));
    await readAll(fields);
  });
  const undici = await best(async () => readAll(await new Response(bytes, { headers: { "content-type": contentType } }).formData()));
  console.log(`| ${name} | ${ours.toFixed(2)} | ${undici.toFixed(2)} | ${(ours / undici).toFixed(2)} |`);
}
