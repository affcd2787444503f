/**
 * The loopback server of the client benchmark, in its own process: answers the two benchmarked operations
 * with fixed JSON (reading request bodies in full), the same for every client, and records the last request
 * of each kind so the benchmark can check both clients sent the same thing.
 *
 *   node bench/runtime/echo-server.mjs   (forked by bench/client.mjs; sends { port } once listening)
 */
import { createServer } from "node:http";
import { USER, chatAnswer, jobAnswer } from "./workload.mjs";

const chat = JSON.stringify(chatAnswer("OpenPipe/Qwen3-14B-Instruct", USER.user));
const last = {};

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    const kind = req.method === "POST" ? "chat" : "get";
    last[kind] = { method: req.method, url: req.url, authorization: req.headers.authorization, contentType: req.headers["content-type"], accept: req.headers.accept, body };
    const text = kind === "chat" ? chat : JSON.stringify(jobAnswer(req.url.split("/").pop()));
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.send?.({ port: server.address().port }));
process.on("message", (m) => {
  if (m === "last") process.send?.({ last });
  if (m === "exit") process.exit(0);
});
process.on("disconnect", () => process.exit(0));
