import { spawn } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "../helpers.js";

/** `specforge mock` as a real process: serves any spec on 127.0.0.1 with answers valid for its schemas. */
export async function withMock(spec: string, use: (url: string) => Promise<void>, output: string[] = []): Promise<void> {
  const child = spawn(process.execPath, [join(ROOT, "bin/specforge.js"), "mock", "--port", "0", "--spec", spec], { cwd: ROOT });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        output.push(chunk.toString());
        const match = /on (http:\/\/127\.0\.0\.1:\d+)(\S*) \(/.exec(out);
        if (match) resolve(match[1]! + match[2]!);
      });
      child.stderr.on("data", (chunk: Buffer) => {
        err += chunk.toString();
        output.push(chunk.toString());
      });
      child.on("exit", (code) => reject(new Error(`mock exited with ${code}: ${err}`)));
      setTimeout(() => reject(new Error(`mock did not start within 30 s: ${out}${err}`)), 30_000).unref();
    });
    await use(url);
  } finally {
    child.kill("SIGTERM");
  }
}
