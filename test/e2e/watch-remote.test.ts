import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ROOT, V1_SPEC, cleanupTempDirs, tempDir, writeFiles } from "../helpers.js";
import { VendorServer, document } from "./vendor-server.js";

afterAll(cleanupTempDirs);

const V1 = readFileSync(V1_SPEC, "utf8");
const ADD_EVENT_TYPE = (text: string) =>
  text.replace("enum: [training_started, gradient_step, training_ended, training_failed]", "enum: [training_started, gradient_step, training_ended, training_failed, training_paused]");

const running: { child: ChildProcess; server: VendorServer }[] = [];
afterEach(async () => {
  for (const { child, server } of running.splice(0)) {
    if (child.exitCode === null) child.kill("SIGKILL");
    await server.close();
  }
});

/** `specforge generate --watch` as a real process, and what it printed. */
function watch(args: string[], cwd: string) {
  const child = spawn(process.execPath, [join(ROOT, "bin", "specforge.js"), "generate", "--watch", ...args], { cwd, env: { PATH: process.env.PATH, NO_COLOR: "1" } });
  const printed = { stdout: "", stderr: "" };
  child.stdout!.on("data", (chunk: Buffer) => (printed.stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (printed.stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  /** Waits (at most 60 s) for a line of stdout matching `pattern`. */
  const waitFor = async (pattern: RegExp): Promise<string> => {
    const started = Date.now();
    for (;;) {
      const line = printed.stdout.split("\n").find((l) => pattern.test(l));
      if (line !== undefined) return line;
      if (child.exitCode !== null || Date.now() - started > 60_000) throw new Error(`no ${pattern}:\n${printed.stdout}\n${printed.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { child, printed, exited, waitFor };
}

describe("generate --watch on a spec from a URL", () => {
  it("polls with conditional requests at the interval given, and regenerates when the vendor changes the document", async () => {
    let text = V1;
    const server = await VendorServer.start({ "/openapi.yaml": document(() => text) });
    const url = server.url("/openapi.yaml");
    const dir = tempDir();
    writeFiles(dir, { "package.json": "{}\n" });
    const watcher = watch(["--spec", url, "--outputs", "client", "--poll", "0.2"], dir);
    running.push({ child: watcher.child, server });

    await watcher.waitFor(/^specforge: generated\/ \d+ written/);
    expect(await watcher.waitFor(/^specforge: watching/)).toBe(`specforge: watching the config for changes and polling ${url} every 0.2 s (Ctrl-C stops)`);
    // Polls are 304s for the version generated from.
    const started = Date.now();
    while (server.seen("/openapi.yaml").length < 4 && Date.now() - started < 30_000) await new Promise((resolve) => setTimeout(resolve, 50));
    const polls = server.seen("/openapi.yaml").slice(1);
    expect(polls.length).toBeGreaterThanOrEqual(3);
    const etag = JSON.parse(readFileSync(join(dir, "generated", ".specforge-manifest.json"), "utf8")).inputs[url].etag as string;
    for (const poll of polls) expect(poll.headers["if-none-match"]).toBe(etag);

    text = ADD_EVENT_TYPE(V1);
    expect(await watcher.waitFor(/ changed: generated\//)).toMatch(new RegExp(`^specforge: ${url.replace(/[.]/g, "\\.")} changed: generated/ [1-9]\\d* written, \\d+ unchanged, 0 removed \\(\\d+\\.\\d\\ds\\)$`));
    expect(readFileSync(join(dir, "generated", "schema.ts"), "utf8")).toContain('"training_paused"');

    watcher.child.kill("SIGTERM");
    expect(await watcher.exited).toBe(0);
    expect(watcher.printed.stderr).toBe("");
  });

  it("without --poll (or fetch.pollSeconds) the URL is not polled, and watch says so", async () => {
    const server = await VendorServer.start({ "/openapi.yaml": document(() => V1) });
    const url = server.url("/openapi.yaml");
    const dir = tempDir();
    writeFiles(dir, { "package.json": "{}\n" });
    const watcher = watch(["--spec", url, "--outputs", "client"], dir);
    running.push({ child: watcher.child, server });
    expect(await watcher.waitFor(/^specforge: watching/)).toBe(
      `specforge: watching the config for changes (Ctrl-C stops); ${url} is not polled: pass --poll SECONDS or set fetch.pollSeconds`,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(server.seen("/openapi.yaml")).toHaveLength(1);
    watcher.child.kill("SIGTERM");
    expect(await watcher.exited).toBe(0);
  });

  it("a server that fails while polled is reported once, and again when it answers", async () => {
    let up = true;
    const publish = document(() => V1);
    const server = await VendorServer.start({ "/openapi.yaml": (request, response) => (up ? publish(request, response) : void response.writeHead(503).end()) });
    const url = server.url("/openapi.yaml");
    const dir = tempDir();
    writeFiles(dir, { "package.json": "{}\n", "specforge.config.json": JSON.stringify({ spec: url, outputs: ["client"], fetch: { pollSeconds: 0.1 } }) });
    const watcher = watch([], dir);
    running.push({ child: watcher.child, server });
    await watcher.waitFor(/^specforge: watching the config for changes and polling .* every 0\.1 s/);
    up = false;
    const failing = server.seen("/openapi.yaml").length;
    const started = Date.now();
    while (server.seen("/openapi.yaml").length < failing + 5 && Date.now() - started < 30_000) await new Promise((resolve) => setTimeout(resolve, 50));
    up = true;
    await watcher.waitFor(/^specforge: polling: .* answered again$/);
    expect(watcher.printed.stderr).toBe(
      `specforge: warning: polling: ${url}: answered 503 Service Unavailable; trying again every 0.1 s\n  hint: the server could not answer now: try again later, or pass --offline to generate from the copy in the cache\n`,
    );
    watcher.child.kill("SIGTERM");
    expect(await watcher.exited).toBe(0);
  });
});
