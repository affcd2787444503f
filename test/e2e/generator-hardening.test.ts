import { execFile, execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runGenerate } from "../../src/pipeline.js";
import { resolveConfig } from "../../src/config/resolve.js";
import { MAX_NESTING } from "../../src/load/parse.js";
import { cleanupTempDirs, ROOT, runBin, runCli, snapshotTree, tempDir, typecheck, writeFiles, type CliResult } from "../helpers.js";

/**
 * The generator against hostile input: a spec that `$ref`s files it has no business reading, YAML that expands
 * without end, schemas nested past any stack, and an output folder it cannot write. Each ends in exit 2 with one
 * message naming the file and the place, quickly, with nothing written; none reads what it refuses.
 */
afterAll(cleanupTempDirs);

const HEAD = "openapi: 3.1.0\ninfo: {title: hostile, version: '1'}\n";

/** A spec whose one operation answers with `schema` (YAML flow text). */
function specAnswering(schema: string): string {
  return `${HEAD}paths:\n  /x:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: ${schema}\n`;
}

async function generateIn(project: string, args: string[] = []): Promise<CliResult & { written: boolean }> {
  const result = await runCli(["generate", "--spec", "api/openapi.yaml", "--out", "out", ...args], project);
  return { ...result, written: existsSync(join(project, "out")) };
}

describe("$ref reads only files inside the spec's folder", () => {
  const cases: [string, string, RegExp][] = [
    ["a path that climbs out", "'../../../../../../etc/hostname'", /\$ref leaves the spec's folder: \/etc\/hostname is outside api/],
    ["an absolute path", "'/etc/passwd'", /\$ref leaves the spec's folder: \/etc\/passwd is outside api/],
    ["a file: URL", "'file:///etc/passwd'", /\$ref leaves the spec's folder: \/etc\/passwd is outside api/],
    ["a device", "'/dev/zero'", /\$ref leaves the spec's folder: \/dev\/zero is outside api/],
  ];
  it.each(cases)("%s: exit 2 naming the referring pointer, nothing written", async (_name, ref, message) => {
    const project = tempDir();
    writeFiles(project, { "api/openapi.yaml": specAnswering(`{$ref: ${ref}}`) });
    const result = await generateIn(project);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain("referenced by api/openapi.yaml#/paths/~1x/get/responses/200/content/application~1json/schema/$ref");
    expect(result.stderr).toMatch(/hint: .*refRoots.*--ref-root/);
    expect(result.written).toBe(false);
  });

  it("a symlink inside the folder that leads out of it is refused; one that stays inside is followed", async () => {
    const project = tempDir();
    writeFiles(project, {
      "api/openapi.yaml": specAnswering("{$ref: './leak.yaml'}"),
      "api/inside.yaml": specAnswering("{$ref: './link-to-pet.yaml'}"),
      "api/schemas/pet.yaml": "type: object\nproperties: {name: {type: string}}\n",
      "secret/token.yaml": "type: string\ndescription: the secret is 42\n",
    });
    symlinkSync(join(project, "secret", "token.yaml"), join(project, "api", "leak.yaml"));
    symlinkSync(join(project, "api", "schemas", "pet.yaml"), join(project, "api", "link-to-pet.yaml"));
    const refused = await generateIn(project);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/\$ref follows a symlink out of the spec's folder: api\/leak\.yaml is \/.*\/secret\/token\.yaml, referenced by api\/openapi\.yaml#\/paths/);
    expect(refused.written).toBe(false);
    const followed = await runCli(["generate", "--spec", "api/inside.yaml", "--out", "out"], project);
    expect(followed.stderr).toBe("");
    expect(followed.code).toBe(0);
  });

  it("refRoots (config) and --ref-root (flag) allow another folder, and only that one", async () => {
    const project = tempDir();
    writeFiles(project, {
      "api/openapi.yaml": specAnswering("{$ref: '../common/pet.yaml'}"),
      "common/pet.yaml": "type: object\nproperties: {name: {type: string}}\n",
    });
    expect((await generateIn(project)).stderr).toMatch(/\$ref leaves the spec's folder: common\/pet\.yaml is outside api/);
    const flag = await generateIn(project, ["--ref-root", "common"]);
    expect(flag.stderr).toBe("");
    expect(flag.code).toBe(0);
    writeFileSync(join(project, "specforge.config.json"), JSON.stringify({ refRoots: ["common"] }));
    expect((await generateIn(project)).code).toBe(0);
    writeFileSync(join(project, "specforge.config.json"), JSON.stringify({ refRoots: ["elsewhere"] }));
    expect((await generateIn(project)).stderr).toMatch(/outside api, elsewhere/);
  });

  it("only regular files are read: a FIFO, a directory and a device (even in an allowed root) are refused at once", async () => {
    const project = tempDir();
    writeFiles(project, {
      "api/openapi.yaml": specAnswering("{$ref: './pipe.yaml'}"),
      "api/dir.yaml": specAnswering("{$ref: './folder'}"),
      "api/device.yaml": specAnswering("{$ref: '/dev/zero'}"),
    });
    execFileSync("mkfifo", [join(project, "api", "pipe.yaml")]);
    mkdirSync(join(project, "api", "folder"));
    const started = performance.now();
    const fifo = await generateIn(project);
    expect(performance.now() - started).toBeLessThan(10_000); // no writer ever opens the FIFO: reading it would block
    expect(fifo.code).toBe(2);
    expect(fifo.stderr).toMatch(/api\/pipe\.yaml is not a regular file \(a device, pipe or socket\)[^]*referenced by api\/openapi\.yaml#/);
    const dir = await runCli(["generate", "--spec", "api/dir.yaml", "--out", "out"], project);
    expect(dir.stderr).toMatch(/referenced file api\/folder is a directory, not a file, referenced by api\/dir\.yaml#/);
    const device = await runCli(["generate", "--spec", "api/device.yaml", "--out", "out", "--ref-root", "/dev"], project);
    expect(device.code).toBe(2);
    expect(device.stderr).toMatch(/\/dev\/zero is not a regular file/);
    expect(existsSync(join(project, "out"))).toBe(false);
  });

  it("every file has a size cap (maxSpecFileBytes / --max-spec-file-bytes), the spec itself too", async () => {
    const project = tempDir();
    writeFiles(project, {
      "api/openapi.yaml": specAnswering("{$ref: './big.yaml'}"),
      "api/big.yaml": `type: string\ndescription: "${"x".repeat(5000)}"\n`,
    });
    const capped = await generateIn(project, ["--max-spec-file-bytes", "2000"]);
    expect(capped.code).toBe(2);
    expect(capped.stderr).toMatch(/api\/big\.yaml is 50\d\d bytes, more than the limit of 2000 bytes, referenced by api\/openapi\.yaml#\/paths/);
    expect(capped.stderr).toMatch(/hint: raise `maxSpecFileBytes`/);
    const entry = await generateIn(project, ["--max-spec-file-bytes", "100"]);
    expect(entry.stderr).toMatch(/api\/openapi\.yaml: the spec is \d+ bytes, more than the limit of 100 bytes/);
    expect((await generateIn(project)).code).toBe(0); // the default (128 MiB) reads it
    expect((await generateIn(project, ["--max-spec-file-bytes", "0"])).stderr).toMatch(/--max-spec-file-bytes must be a whole number of at least 1, got "?0"?/);
  });
});

describe("YAML aliases", () => {
  /** Nine levels of nine aliases: 824 bytes that expand to 9^9 (387 million) strings. */
  const bomb = (indent: string) =>
    ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]", ..."bcdefghi".split("").map((l, i) => `${l}: &${l} [${Array(9).fill(`*${"abcdefghi"[i]}`).join(", ")}]`)]
      .map((line) => indent + line)
      .join("\n");

  it("a bomb in an unused x- key: exit 2 at once, naming where the expansion crossed the limit", async () => {
    const project = tempDir();
    const text = `${HEAD}paths: {}\nx-bomb:\n${bomb("  ")}\n`;
    writeFiles(project, { "api/openapi.yaml": text });
    expect(Buffer.byteLength(text)).toBeLessThan(900);
    const started = performance.now();
    const result = await generateIn(project);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^specforge: error: api\/openapi\.yaml#\/x-bomb\/[a-i](\/\d+)*: YAML aliases expand to more than 1,000,000 values \(an alias bomb\?\)/);
    expect(result.written).toBe(false);
  });

  it("a bomb in a schema example is refused the same way; a few ordinary aliases still work", async () => {
    const project = tempDir();
    writeFiles(project, {
      "api/openapi.yaml": `${specAnswering("{$ref: '#/components/schemas/Lols'}")}components:\n  schemas:\n    Lols:\n      type: object\n      example:\n${bomb("        ")}\n`,
      "api/ok.yaml": `${HEAD}paths:\n  /x:\n    get:\n      responses:\n        '200': &ok {description: ok, content: {application/json: {schema: &pet {type: object, properties: {name: {type: string}}}}}}\n        '201': *ok\n  /y:\n    get:\n      responses: {'200': {description: ok, content: {application/json: {schema: *pet}}}}\n`,
    });
    const result = await generateIn(project);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^specforge: error: api\/openapi\.yaml#\/components\/schemas\/Lols\/example\/[a-i](\/\d+)*: YAML aliases expand/);
    const ok = await runCli(["generate", "--spec", "api/ok.yaml", "--out", "out"], project);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
  });
});

describe("$refs copied without end", () => {
  it("ten callbacks per file, each $ref'ing the next file's path item, six files deep: exit 2 at the cap, not a million copies", async () => {
    const project = tempDir();
    const callbacks = (next: number) =>
      Array.from({ length: 10 }, (_, i) => `    c${i}:\n      "{$request.body#/url}":\n        $ref: "./level${next}.yaml"`).join("\n");
    const files: Record<string, string> = { "api/openapi.yaml": `${HEAD}paths:\n  /x:\n    $ref: "./level1.yaml"\n` };
    for (let level = 1; level <= 7; level++) {
      files[`api/level${level}.yaml`] = `post:\n  responses: {"200": {description: ok}}\n${level < 7 ? `  callbacks:\n${callbacks(level + 1)}\n` : ""}`;
    }
    writeFiles(project, files);
    const started = performance.now();
    const result = await generateIn(project);
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^specforge: error: api\/level\d\.yaml#\/post\/callbacks\/c\d\/\{\$request\.body#~1url\}\/\$ref: \$refs to other files expand to more than 250,000 inlined copies \(a \$ref bomb\?\)/);
    expect(result.written).toBe(false);
  });
});

describe("nesting depth", () => {
  /** `{type: object, properties: {a: …}}` nested `levels` times around a string, as JSON. */
  const nested = (levels: number) => {
    let schema: unknown = { type: "string" };
    for (let i = 0; i < levels; i++) schema = { type: "object", properties: { a: schema } };
    return schema;
  };
  const document = (schema: unknown) =>
    JSON.stringify({
      openapi: "3.1.0",
      info: { title: "deep", version: "1" },
      paths: { "/x": { get: { responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Deep" } } } } } } } },
      components: { schemas: { Deep: schema } },
    });

  it("a schema 2,000 levels deep (JSON): exit 2 naming the pointer where it passes the limit, not a stack overflow", async () => {
    const project = tempDir();
    writeFiles(project, { "api/openapi.json": document(nested(2000)) });
    const result = await runCli(["generate", "--spec", "api/openapi.json", "--out", "out"], project);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^specforge: error: api/openapi\\.json#/components/schemas/Deep(/properties/a)+(/properties)?: nested more than ${MAX_NESTING} levels deep`));
    expect(result.stderr).toMatch(/hint: move nested schemas to components and \$ref them/);
    expect(result.stderr).not.toMatch(/internal error|RangeError/);
    expect(existsSync(join(project, "out"))).toBe(false);
  });

  it("YAML too deep for the YAML parser itself: exit 2 with the line", async () => {
    const project = tempDir();
    writeFiles(project, { "api/openapi.yaml": `${HEAD}paths: {}\nx-deep: ${"[".repeat(20_000)}${"]".repeat(20_000)}\n` });
    const result = await generateIn(project);
    expect(result.code).toBe(2);
    // js-yaml overflows its stack first (a line), or, given a larger stack, our own check stops at the limit (a pointer).
    expect(result.stderr).toMatch(/^specforge: error: api\/openapi\.yaml(:4:1|#\/x-deep(\/0)+): nested more than 256 levels deep/);
  });

  it("a schema nested 120 levels (240 of JSON, five times any real spec's) generates and compiles", async () => {
    const project = tempDir();
    writeFiles(project, { "api/openapi.json": document(nested(120)) });
    const result = await runCli(["generate", "--spec", "api/openapi.json", "--out", "out", "--outputs", "client"], project);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(readFileSync(join(project, "out", "schema.ts"), "utf8").split("a?: {").length - 1).toBe(119); // and the innermost `a?: string`
    const tsc = await typecheck(join(project, "out"));
    expect(tsc.output).toBe("");
  }, 120_000);
});

const AS_ROOT = process.getuid?.() === 0;
/**
 * Root ignores file permissions, so as root the bin runs as `nobody` — which needs to read this checkout. A clone
 * inside a private folder (`mktemp -d` makes one) is not readable by it: there the permission test cannot run.
 */
const UNPRIVILEGED_CAN_RUN =
  !AS_ROOT || spawnSync(process.execPath, [join(ROOT, "bin", "specforge.js"), "--version"], { uid: 65534, gid: 65534, env: { ...process.env, SPECFORGE_CODE_CACHE: "0" } }).status === 0;

/** Runs the built bin as an unprivileged user when the tests run as root (root ignores file permissions). */
function runBinUnprivileged(args: string[], cwd: string): Promise<CliResult> {
  const asRoot = AS_ROOT;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, "bin", "specforge.js"), ...args],
      { cwd, env: { ...process.env, SPECFORGE_CODE_CACHE: "0" }, ...(asRoot ? { uid: 65534, gid: 65534 } : {}) },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe("the output folder", () => {
  it.skipIf(!UNPRIVILEGED_CAN_RUN)("a read-only folder: exit 2 with a message (not an internal error), nothing written", async () => {
    const project = tempDir();
    chmodSync(project, 0o755);
    writeFiles(project, { "api/openapi.yaml": specAnswering("{type: string}") });
    mkdirSync(join(project, "locked"));
    chmodSync(join(project, "locked"), 0o555);
    const result = await runBinUnprivileged(["generate", "--spec", "api/openapi.yaml", "--out", "locked/out"], project);
    expect(result.stderr).toMatch(/^specforge: error: locked\/out: cannot write the output folder: permission denied \(EACCES\) in \/.*\/locked\n {2}hint: make the folder/);
    expect(result.code).toBe(2);
    expect(readdirSync(join(project, "locked"))).toEqual([]);
  });

  it("leftovers of earlier runs are removed; a running process's temporary folder is left alone", async () => {
    const project = tempDir();
    writeFiles(project, { "api/openapi.yaml": specAnswering("{type: string}") });
    const gone = execFileSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }); // exited
    writeFiles(project, {
      [`.out.specforge-old-${gone}-0123abcd/schema.ts`]: "// the output of a run whose cleanup failed\n",
      [`.out.specforge-new-${gone}-89abcdef/schema.ts`]: "// a run killed half-way\n",
      [`.out.specforge-new-${process.pid}-00000000/schema.ts`]: "// this test process is alive: its folder stays\n",
      [`.other.specforge-old-${gone}-0123abcd/schema.ts`]: "// another output folder's: not ours to judge\n",
    });
    // In a process of its own: this test's process is then "another generate, still running".
    const result = await runBin(["generate", "--spec", "api/openapi.yaml", "--out", "out"], project);
    expect(result.code).toBe(0);
    expect(readdirSync(project).sort()).toEqual([`.other.specforge-old-${gone}-0123abcd`, `.out.specforge-new-${process.pid}-00000000`, "api", "out"]);
  });

  it("a failed cleanup of the previous output does not fail the run, and the next run removes it", async () => {
    const project = tempDir();
    writeFiles(project, { "api/openapi.yaml": specAnswering("{type: string}") });
    const config = await resolveConfig({ cwd: project, flags: { spec: "api/openapi.yaml", out: "out" } });
    await runGenerate(config);
    writeFiles(project, { "api/openapi.yaml": specAnswering("{type: integer}") });
    const report = await runGenerate(config, {
      removeOldOutput: () => {
        throw Object.assign(new Error("EBUSY: resource busy or locked"), { code: "EBUSY" });
      },
    });
    expect(report.written).toContain("schema.ts");
    expect(readFileSync(join(project, "out", "schema.ts"), "utf8")).toMatch(/"application\/json": number;/);
    const leftover = readdirSync(project).filter((name) => name.startsWith(".out.specforge-old-"));
    expect(leftover).toHaveLength(1);
    // The next run (here with nothing to write) removes it: the process that left it is this one, and it is done.
    await runGenerate(config);
    expect(readdirSync(project).sort()).toEqual(["api", "out"]);
    expect([...snapshotTree(join(project, "out")).keys()]).toContain("schema.ts");
  });
});
