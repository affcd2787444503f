import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CORPUS, ROOT } from "../helpers.js";

/** `specforge mock` as a real process: serves any spec on 127.0.0.1 with answers valid for its schemas. */
async function withMock(spec: string, use: (url: string) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, [join(ROOT, "bin/specforge.js"), "mock", "--port", "0", "--spec", spec], { cwd: ROOT });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /on (http:\/\/127\.0\.0\.1:\d+)(\S*) \(/.exec(out);
        if (match) resolve(match[1]! + match[2]!);
      });
      child.on("exit", (code) => reject(new Error(`mock exited with ${code}`)));
    });
    await use(url);
  } finally {
    child.kill("SIGTERM");
  }
}

describe("specforge mock", () => {
  it("serves the v1 spec: examples, auth still required, validation on", async () => {
    await withMock("spec/training-api.v1.yaml", async (url) => {
      const list = await fetch(`${url}/v1/models`, { headers: { authorization: "Bearer anything" } });
      expect(list.status).toBe(200);
      expect(((await list.json()) as { object: string }).object).toBe("list");
      expect((await fetch(`${url}/v1/models`)).status).toBe(401);
      const invalid = await fetch(`${url}/v1/preview/models/3fa85f64-5717-4562-b3fc-2c963f66afa6/checkpoints?limit=1000`, { headers: { authorization: "Bearer x" } });
      expect(invalid.status).toBe(422);
    });
  });

  it("serves another spec under its server's base path (the Swagger petstore, /api/v3)", async () => {
    await withMock(join(CORPUS, "swagger-petstore-3.0.yaml"), async (url) => {
      const res = await fetch(`${url}/pet/1`, { headers: { authorization: "Bearer x", api_key: "k" } });
      expect([200, 401]).toContain(res.status);
      const inventory = await fetch(`${url}/store/inventory`, { headers: { authorization: "Bearer x" } });
      expect(inventory.status).toBeLessThan(500);
      expect(url).toMatch(/\/api\/v3$/);
    });
  });
});
