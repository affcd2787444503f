import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT, cleanupTempDirs, snapshotTree, tempDir } from "../helpers.js";

afterAll(cleanupTempDirs);

/** A running `specforge generate --watch` and everything it printed so far. */
class Watcher {
  readonly child: ChildProcess;
  stdout = "";
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(args: string[], cwd: string) {
    this.child = spawn(process.execPath, [join(ROOT, "bin", "specforge.js"), "generate", "--watch", ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: "1" },
    });
    this.child.stdout!.on("data", (chunk: Buffer) => (this.stdout += chunk.toString()));
    this.child.stderr!.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.on("exit", (code, signal) => resolve({ code, signal })));
  }

  /** Waits until `stream` has `count` lines matching `pattern`; fails with everything printed when it does not. */
  async waitFor(stream: "stdout" | "stderr", pattern: RegExp, count = 1, timeoutMs = 90_000): Promise<string[]> {
    const started = Date.now();
    for (;;) {
      const matches = this[stream].split("\n").filter((line) => pattern.test(line));
      if (matches.length >= count) return matches;
      if (this.child.exitCode !== null) throw new Error(`watch exited (${this.child.exitCode}):\n${this.stdout}\n${this.stderr}`);
      if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${pattern} x${count}:\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const RUN = /^specforge: (.+) changed: generated\/ \d+ written, \d+ unchanged, \d+ removed \(\d+\.\d\ds\)$/;

describe("specforge generate --watch (the real bin, real file changes)", () => {
  it("regenerates on changes to the spec and the files it $refs, survives errors, stops on SIGTERM", async () => {
    const project = tempDir();
    cpSync(join(FIXTURES, "multi-file"), join(project, "api"), { recursive: true });
    const pet = join(project, "api", "schemas", "pet.yaml");
    const schema = () => readFileSync(join(project, "generated", "schema.ts"), "utf8");
    const watch = new Watcher(["--spec", "api/openapi.yaml", "--outputs", "client"], project);
    try {
      await watch.waitFor("stdout", /^specforge: generated\/ \d+ written, 0 unchanged, 0 removed \(\d+\.\d\ds\)$/);
      const referenced = readdirSync(join(project, "api"), { recursive: true }).filter((name) => /\.(ya?ml|json)$/.test(String(name))).length - 1;
      await watch.waitFor("stdout", new RegExp(`^specforge: watching api/openapi\\.yaml and the ${referenced} files it references and the config for changes \\(Ctrl-C stops\\)$`));

      // A change to a $ref'd file: one line naming it, and the new output.
      writeFileSync(pet, readFileSync(pet, "utf8").replace(/\bname\b/g, "nickname"));
      expect(await watch.waitFor("stdout", RUN, 1)).toEqual([expect.stringMatching(/^specforge: api\/schemas\/pet\.yaml changed: /)]);
      expect(schema()).toMatch(/nickname: string/);

      // An editor that saves by writing a new file and renaming it over the old one.
      writeFileSync(`${pet}.swp`, readFileSync(pet, "utf8").replace(/\bnickname\b/g, "petName"));
      renameSync(`${pet}.swp`, pet);
      await watch.waitFor("stdout", RUN, 2);
      expect(schema()).toMatch(/petName: string/);

      // Several quick saves are one run (debounced).
      for (const word of ["a1", "a2", "a3", "a4", "callName"]) writeFileSync(pet, readFileSync(pet, "utf8").replace(/\b(petName|a\d)\b/g, word));
      await watch.waitFor("stdout", RUN, 3);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(watch.stdout.split("\n").filter((line) => RUN.test(line))).toHaveLength(3);
      expect(schema()).toMatch(/callName: string/);

      // A YAML error: printed, the process keeps running, the output stays as it was.
      const before = snapshotTree(join(project, "generated"));
      const good = readFileSync(pet, "utf8");
      writeFileSync(pet, good + "broken: [\n");
      await watch.waitFor("stderr", /^specforge: api\/schemas\/pet\.yaml changed: error: api\/schemas\/pet\.yaml:\d+:\d+: invalid YAML: /);
      await watch.waitFor("stderr", /^specforge: the output was left as it was; waiting for the next change$/);
      expect(watch.child.exitCode).toBeNull();
      expect(snapshotTree(join(project, "generated"))).toEqual(before);

      // Fixed: regenerated (to the same output as before the error).
      writeFileSync(pet, good.replace(/\bcallName\b/g, "fixedName"));
      await watch.waitFor("stdout", RUN, 4);
      expect(schema()).toMatch(/fixedName: string/);

      // A new $ref: the watched set is re-read after each run, so the new file is watched from then on.
      const openapi = join(project, "api", "openapi.yaml");
      writeFileSync(join(project, "api", "schemas", "toy.yaml"), "type: object\nproperties:\n  squeaks:\n    type: boolean\n");
      writeFileSync(openapi, readFileSync(openapi, "utf8") + '    Toy:\n      $ref: "./schemas/toy.yaml"\n');
      await watch.waitFor("stdout", RUN, 5);
      expect(schema()).toMatch(/squeaks\?: boolean/);
      writeFileSync(join(project, "api", "schemas", "toy.yaml"), "type: object\nproperties:\n  rattles:\n    type: boolean\n");
      expect((await watch.waitFor("stdout", RUN, 6)).at(-1)).toMatch(/^specforge: api\/schemas\/toy\.yaml changed: /);
      expect(schema()).toMatch(/rattles\?: boolean/);

      // SIGTERM: stops cleanly, exit 0, with a last line.
      watch.child.kill("SIGTERM");
      expect(await watch.exited).toEqual({ code: 0, signal: null });
      expect(watch.stdout.trimEnd().split("\n").at(-1)).toBe("specforge: stopped watching");
    } finally {
      watch.child.kill("SIGKILL");
    }
  }, 300_000);

  it("starts even when the first run fails, and SIGINT stops it", async () => {
    const project = tempDir();
    const watch = new Watcher(["--spec", "openapi.yaml", "--outputs", "client"], project);
    try {
      await watch.waitFor("stderr", /^specforge: error: openapi\.yaml: file not found/);
      await watch.waitFor("stdout", /^specforge: watching openapi\.yaml and the config for changes/);
      writeFileSync(join(project, "openapi.yaml"), "openapi: 3.1.0\ninfo: {title: x, version: '1'}\npaths: {}\n");
      await watch.waitFor("stdout", /^specforge: openapi\.yaml changed: generated\/ \d+ written/);
      watch.child.kill("SIGINT");
      expect(await watch.exited).toEqual({ code: 0, signal: null });
    } finally {
      watch.child.kill("SIGKILL");
    }
  }, 180_000);
});
