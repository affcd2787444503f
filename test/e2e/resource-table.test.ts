import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, FIXTURES, runCli, tempDir, typecheck } from "../helpers.js";

/**
 * A resource table imported from a stainless.yml-like file (test/fixtures/resource-table/): the resource-style client
 * it names, calling a plain Node server on 127.0.0.1 that records what arrives; what the table does not name keeps
 * the names read from the spec. Bad tables stop the run with one message at their line and column, writing nothing.
 */
const FIXTURE = join(FIXTURES, "resource-table");
const SPEC = join(FIXTURE, "openapi.yaml");

/** A project folder with the fixture's table (or `table` as its text) and a config that imports it. */
function project(table?: string): string {
  const dir = tempDir("specforge-table-");
  if (table === undefined) copyFileSync(join(FIXTURE, "stainless.yml"), join(dir, "stainless.yml"));
  else writeFileSync(join(dir, "stainless.yml"), table);
  writeFileSync(join(dir, "specforge.config.json"), JSON.stringify({ spec: SPEC, out: "out", outputs: ["client"], client: { style: "resources", resources: "./stainless.yml" } }));
  return dir;
}

afterAll(cleanupTempDirs);

describe("resource-style client named by a resource table (over the wire)", () => {
  let dir: string;
  let server: Server;
  let base = "";
  let stderr = "";
  /** Requests as they arrived, last first. */
  const seen: { method: string; url: string; body: unknown }[] = [];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the module is generated at run time
  let generated: any;

  beforeAll(async () => {
    dir = project();
    const result = await runCli(["generate"], dir);
    expect(result.code, result.stderr).toBe(0);
    stderr = result.stderr;
    generated = await import(pathToFileURL(join(dir, "out", "index.ts")).href);
    const answers: Record<string, unknown> = {
      "GET /health": { status: "ok" },
      "POST /chat/completions": { id: "c1", content: "hi" },
      "GET /files": { data: [{ id: "file-1", filename: "a.txt" }] },
      "GET /files/file-1": { id: "file-1", filename: "a.txt" },
      "GET /fine_tuning/jobs/ftjob-1/events?limit=2": { data: [{ id: "e1" }, { id: "e2" }] },
      "POST /images/generations": { url: "https://img.example/1.png" },
      "GET /models": { data: ["m1"] },
    };
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        seen.unshift({ method: request.method!, url: request.url!, body: text ? JSON.parse(text) : undefined });
        const answer = answers[`${request.method} ${request.url}`];
        response.writeHead(answer ? 200 : 404, { "content-type": "application/json" });
        response.end(JSON.stringify(answer ?? { error: "no route" }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  const client = () => generated.createClient({ baseUrl: base, maxRetries: 0 });

  it("each method of the table is its endpoint's name; the rest keep the spec's", async () => {
    const c = client();
    expect(await c.healthCheck()).toEqual({ status: "ok" });
    expect(seen[0]).toMatchObject({ method: "GET", url: "/health" });

    const messages = [{ role: "user", content: "hello" }];
    expect(await c.chat.completions.create({ model: "m", messages })).toEqual({ id: "c1", content: "hi" });
    expect(seen[0]).toEqual({ method: "POST", url: "/chat/completions", body: { model: "m", messages } });

    expect(await c.files.list()).toEqual({ data: [{ id: "file-1", filename: "a.txt" }] });
    // The table writes `{file_id}`, the spec `{id}`: the same endpoint, its parameter positional.
    expect(await c.files.retrieve("file-1")).toEqual({ id: "file-1", filename: "a.txt" });
    expect(seen[0]).toMatchObject({ method: "GET", url: "/files/file-1" });

    expect(await c.fineTuning.jobs.listEvents("ftjob-1", { limit: 2 })).toEqual({ data: [{ id: "e1" }, { id: "e2" }] });
    expect(seen[0]).toMatchObject({ method: "GET", url: "/fine_tuning/jobs/ftjob-1/events?limit=2" });

    const { data, response } = await c.images.generate({ prompt: "a fox" }).withResponse();
    expect([data, response.status]).toEqual([{ url: "https://img.example/1.png" }, 200]);
    expect(seen[0]).toEqual({ method: "POST", url: "/images/generations", body: { prompt: "a fox" } });

    // Not in the table: the name read from the path.
    expect(await c.models.list()).toEqual({ data: ["m1"] });
    // The derived names the table replaced are gone, and so is the method whose endpoint the spec lacks.
    expect(c.images.generations).toBeUndefined();
    expect(c.fineTuning.jobs.events).toBeUndefined();
    expect(c.files.delete).toBeUndefined();
  });

  it("an endpoint the spec does not have is a warning at its line, with its path in the table", () => {
    expect(stderr).toContain("stainless.yml:33:7: resource table: `resources.files.methods.delete` names the endpoint `delete /files/{file_id}`, which the spec does not have");
    expect(stderr.match(/resource table/g)).toHaveLength(1);
  });

  it("its types: the table's names, strict", async () => {
    writeFileSync(
      join(dir, "out-usage.ts"),
      [
        'import { createClient } from "./out/index.js";',
        'const c = createClient({ baseUrl: "http://127.0.0.1:1" });',
        'export const events: Promise<{ data: { id: string }[] }> = c.fineTuning.jobs.listEvents("ftjob-1", { limit: 2 });',
        'export const image: Promise<{ url: string }> = c.images.generate({ prompt: "p" });',
        'export const health: Promise<{ status: string }> = c.healthCheck();',
        "// @ts-expect-error the spec has no DELETE /files/{id}",
        'c.files.delete("file-1");',
        "// @ts-expect-error the table's name replaces the path's",
        "c.images.generations.create({ prompt: \"p\" });",
        "",
      ].join("\n"),
    );
    const result = await typecheck(dir);
    expect(result.output).toBe("");
    expect(result.code).toBe(0);
  });

  it("`check` sees an edit of the table, and generate rewrites what it renames", async () => {
    expect((await runCli(["check"], dir)).code).toBe(0);
    const table = join(dir, "stainless.yml");
    writeFileSync(table, readFileSync(table, "utf8").replace("generate: post /images/generations", "create_image: post /images/generations"));
    const drift = await runCli(["check"], dir);
    expect(drift.code, drift.stdout + drift.stderr).toBe(1);
    expect((await runCli(["generate"], dir)).code).toBe(0);
    expect(readFileSync(join(dir, "out", "resources.ts"), "utf8")).toContain("createImage");
    expect((await runCli(["check"], dir)).code).toBe(0);
  });
});

describe("resource table: bad input stops the run, nothing written", () => {
  it.each<[string, string | undefined, string]>([
    ["missing", "", "stainless.yml: resource table not found"],
    ["not YAML", "resources:\n  files:\n    methods: [\n", "stainless.yml:4:1: invalid YAML"],
    ["a malformed endpoint", "resources:\n  files:\n    methods:\n      list: get files\n", 'stainless.yml:4:7: resource table: method `resources.files.methods.list`: the endpoint "get files" is not an HTTP method and a path'],
  ])("%s", async (_, table, want) => {
    const dir = project(table);
    if (table === "") writeFileSync(join(dir, "specforge.config.json"), readFileSync(join(dir, "specforge.config.json"), "utf8").replace("./stainless.yml", "./missing/stainless.yml"));
    const result = await runCli(["generate"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(table === "" ? "missing/stainless.yml: resource table not found" : want);
    expect(existsSync(join(dir, "out"))).toBe(false);
  });

  it("--client-resources names the table from the command line, relative to the working folder; with a flat client it is an error", async () => {
    const dir = tempDir("specforge-table-flag-");
    copyFileSync(join(FIXTURE, "stainless.yml"), join(dir, "stainless.yml"));
    const flat = await runCli(["generate", "--spec", SPEC, "--out", "flat", "--client-resources", "stainless.yml"], dir);
    expect(flat.code).toBe(2);
    expect(flat.stderr).toContain("--client-resources names the methods of the resource-style client, and the client is flat");
    expect(existsSync(join(dir, "flat"))).toBe(false);
    const result = await runCli(["generate", "--spec", SPEC, "--out", "cli", "--outputs", "client", "--client-style", "resources", "--client-resources", "stainless.yml"], dir);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(dir, "cli", "resources.ts"), "utf8")).toContain("listEvents");
  });
});
