/** A worker thread of `generate` / `check` over several projects (see projects.ts): runs the jobs it is sent. */
import { parentPort } from "node:worker_threads";
import { runProjectJob, type WorkerReply, type WorkerRequest } from "./projects.js";

const port = parentPort;
if (!port) throw new Error("project-worker.js runs only as a worker thread");

port.on("message", async ({ id, command, config, options }: WorkerRequest) => {
  const reply = (message: WorkerReply) => port.postMessage(message);
  const outcome = await runProjectJob(command, config, options, (phase) => reply({ id, phase }));
  reply({ id, outcome });
});
