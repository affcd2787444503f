import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, STRICT_NODE_COMPILER_OPTIONS, cleanupTempDirs, runCli, snapshotTree, tempDir, writeFiles } from "../helpers.js";

/**
 * `specforge stubs`: a stub per operation without a handler, per tag; rerun after the spec changes, it appends the
 * new operations' stubs, leaves every byte the user wrote as it was, and reports what the spec no longer has, which
 * `tsc` then points at through the `Handlers` type, with exactly the errors of the changed contract.
 */

afterAll(cleanupTempDirs);

const SPEC_V1 = `openapi: 3.1.0
info: { title: Pets, version: 1.0.0 }
tags: [{ name: pets }, { name: Store Front }]
paths:
  /pets:
    get:
      operationId: listPets
      summary: List the pets
      tags: [pets]
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Pet" } } } } }
    post:
      operationId: createPet
      tags: [pets]
      requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Pet" } } } }
      responses:
        "201": { description: created, content: { application/json: { schema: { $ref: "#/components/schemas/Pet" } } } }
  /pets/{petId}:
    parameters: [{ name: petId, in: path, required: true, schema: { type: integer } }]
    get:
      operationId: getPet
      tags: [pets]
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Pet" } } } }
    delete:
      operationId: deletePet
      tags: [pets]
      responses:
        "204": { description: gone }
  /orders:
    get:
      operationId: listOrders
      tags: [Store Front]
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: string } } } } }
  /health:
    get:
      operationId: health
      responses:
        "200": { description: ok }
components:
  schemas:
    Pet: { type: object, required: [id, name], properties: { id: { type: integer }, name: { type: string } } }
`;

/** v2: an operation added, the path parameter renamed, a response added, and deletePet renamed removePet. */
const SPEC_V2 = SPEC_V1.replace("{petId}:\n    parameters: [{ name: petId,", "{id}:\n    parameters: [{ name: id,")
  .replace('"201": { description: created, content: { application/json: { schema: { $ref: "#/components/schemas/Pet" } } } }', '"201": { description: created, content: { application/json: { schema: { $ref: "#/components/schemas/Pet" } } } }\n        "409": { description: taken }')
  .replace("operationId: deletePet", "operationId: removePet")
  .replace("  /orders:\n", "  /pets/{id}/photo:\n    put:\n      operationId: putPhoto\n      tags: [pets]\n      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]\n      responses:\n        \"204\": { description: stored }\n  /orders:\n");

const STRICT = { ...STRICT_NODE_COMPILER_OPTIONS, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noUnusedLocals: true, noUnusedParameters: true, noImplicitReturns: true };

/** tsc's errors for the project (`tsgo`: TypeScript 7 instead of 5.9). */
function tsc(dir: string, compilerOptions: Record<string, unknown> = STRICT, compiler: "typescript" | "typescript7" = "typescript"): Promise<string[]> {
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["src/**/*.ts"] }));
  return new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, "node_modules", compiler, "bin", "tsc"), "-p", dir], { cwd: dir }, (_error, stdout) => {
      // `file(line,col): error TSxxxx: message`, the message's first line.
      resolve(stdout.split("\n").filter((line) => / error TS\d+/.test(line)));
    });
  });
}

/** The user's implementation of getPet and deletePet, written over their stubs. */
function implement(text: string): string {
  return text
    .replace(/export const getPet[\s\S]*?\n};\n/, 'export const getPet: NonNullable<Handlers["getPet"]> = async ({ path }) => {\n  // my code\n  return { status: 200, body: { id: path.petId, name: "Rex" } };\n};\n')
    .replace(/export const deletePet[\s\S]*?\n};\n/, 'export const deletePet: NonNullable<Handlers["deletePet"]> = async () => ({ status: 204 });\n');
}

describe("specforge stubs", () => {
  let dir = "";
  let first = { code: 0, stdout: "", stderr: "" };
  const handlers = () => join(dir, "src", "handlers");
  const read = (file: string) => readFileSync(join(handlers(), file), "utf8");

  beforeAll(async () => {
    dir = tempDir("specforge-stubs-");
    writeFiles(dir, {
      "package.json": JSON.stringify({ name: "app", private: true, type: "module" }),
      "api.yaml": SPEC_V1,
      "specforge.config.json": JSON.stringify({ spec: "api.yaml", out: "src/generated" }),
    });
    expect((await runCli(["generate"], dir)).code).toBe(0);
    first = await runCli(["stubs"], dir);
  }, 120_000);

  it("writes one file per tag (untagged operations in operations.ts) and index.ts, and the project compiles", async () => {
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toBe("specforge: src/handlers: 6 stubs added (pets.ts: listPets, createPet, getPet, deletePet; store-front.ts: listOrders; operations.ts: health), 0 handlers kept\n");
    expect([...snapshotTree(handlers()).keys()].sort()).toEqual(["index.ts", "operations.ts", "pets.ts", "store-front.ts"]);
    expect(read("index.ts")).toContain('import * as storeFront from "./store-front.js";');
    expect(read("pets.ts")).toContain('import { HttpError, type Handlers } from "../generated/index.js";');
    expect(await tsc(dir)).toEqual([]);
    // The same files in a CommonJS package, with TypeScript 7.
    const manifest = join(dir, "package.json");
    writeFileSync(manifest, JSON.stringify({ name: "app", private: true, type: "commonjs" }));
    try {
      expect(await tsc(dir, STRICT, "typescript7")).toEqual([]);
    } finally {
      writeFileSync(manifest, JSON.stringify({ name: "app", private: true, type: "module" }));
    }
  });

  it("the stubs answer 501 in the spec's error shape until they are implemented", async () => {
    const { createRouter } = (await import(join(dir, "src", "generated", "index.ts"))) as { createRouter: (h: unknown, o: unknown) => { fetch(r: Request): Promise<Response> } };
    const { handlers: all } = (await import(join(handlers(), "index.ts"))) as { handlers: Record<string, unknown> };
    expect(Object.keys(all).sort()).toEqual(["createPet", "deletePet", "getPet", "health", "listOrders", "listPets"]);
    const response = await createRouter(all, {}).fetch(new Request("http://x/pets"));
    expect(response.status).toBe(501);
    expect(await response.json()).toMatchObject({ status: 501, detail: "listPets is not implemented yet" });
  });

  it("rerun after a spec change: new stubs appended, the user's bytes intact, the removed operation reported, tsc names exactly the changed contract", async () => {
    const implemented = implement(read("pets.ts"));
    expect(implemented).toContain("// my code");
    writeFileSync(join(handlers(), "pets.ts"), implemented);
    expect(await tsc(dir)).toEqual([]);
    const before = snapshotTree(handlers());

    writeFileSync(join(dir, "api.yaml"), SPEC_V2);
    expect((await runCli(["generate"], dir)).code).toBe(0);
    const rerun = await runCli(["stubs"], dir);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout).toBe("specforge: src/handlers: 2 stubs added (pets.ts: removePet, putPhoto), 5 handlers kept\n");
    const stale = "deletePet is not an operation of the spec any more (removed or renamed; its route is now `removePet`, whose stub was added)";
    expect(rerun.stderr).toMatch(new RegExp(`^specforge: warning: src/handlers/pets\\.ts:\\d+:14: ${stale.replace(/[()`]/g, "\\$&")}; kept, and tsc reports it until you remove it\\n$`));

    // What the user wrote is there byte for byte: pets.ts grew at its end only, the other files are untouched.
    const after = snapshotTree(handlers());
    const pets = read("pets.ts");
    expect(pets.startsWith(implemented)).toBe(true);
    expect(pets.slice(implemented.length)).toMatch(/^\n\/\*\*\n \* `DELETE \/pets\/\{id\}`\n \*\/\nexport const removePet[\s\S]*export const putPhoto[\s\S]*\n};\n$/);
    for (const file of ["index.ts", "operations.ts", "store-front.ts"]) expect(after.get(file)).toEqual(before.get(file));

    // tsc: the renamed parameter where the user's code reads it, and the operation the spec no longer has.
    const errors = await tsc(dir);
    const at = (lineText: string, word: string) => {
      const lines = pets.split("\n");
      const line = lines.findIndex((text) => text.includes(lineText));
      return `${line + 1},${lines[line]!.indexOf(word) + 1}`;
    };
    expect(errors.map((error) => error.replace(/: error (TS\d+): (.*)$/, " $1 $2").replace(/ on type .*$/, ""))).toEqual([
      `src/handlers/pets.ts(${at("id: path.petId", "petId")}) TS2339 Property 'petId' does not exist`,
      `src/handlers/pets.ts(${at("export const deletePet", '"deletePet"')}) TS2339 Property 'deletePet' does not exist`,
    ]);
  });

  it("a third run changes nothing", async () => {
    const before = snapshotTree(handlers());
    const again = await runCli(["stubs"], dir);
    expect(again.stdout).toBe("specforge: src/handlers: every operation has a handler (7)\n");
    expect(snapshotTree(handlers())).toEqual(before);
  });

  it("a new stub in a file without the imports it needs gets them, inserted after the file's own imports", async () => {
    const project = tempDir("specforge-stubs-imports-");
    writeFiles(project, {
      "package.json": JSON.stringify({ name: "app", private: true, type: "module" }),
      "api.yaml": SPEC_V1,
      "specforge.config.json": JSON.stringify({ spec: "api.yaml", out: "generated", stubs: "handlers" }),
      "handlers/pets.ts": 'import { strict } from "node:assert";\n\nexport const listPets = async () => (strict.ok(true), { status: 200 as const, body: [] });\n',
    });
    expect((await runCli(["generate"], project)).code).toBe(0);
    const result = await runCli(["stubs", "--quiet"], project);
    expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
    const pets = readFileSync(join(project, "handlers", "pets.ts"), "utf8");
    expect(pets.startsWith('import { strict } from "node:assert";\nimport { HttpError, type Handlers } from "../generated/index.js";\n\nexport const listPets = async ')).toBe(true);
    expect(pets).toContain("export const createPet: NonNullable<Handlers[\"createPet\"]>");
  });

  it("an index.ts the user edited is left alone; the lines it needs are reported", async () => {
    const project = tempDir("specforge-stubs-index-");
    writeFiles(project, {
      "package.json": JSON.stringify({ name: "app", private: true, type: "module" }),
      "api.yaml": SPEC_V1,
      "specforge.config.json": JSON.stringify({ spec: "api.yaml", out: "generated" }),
      "src/handlers/index.ts": "// mine\nexport const handlers = {};\n",
      "src/handlers/pets.ts": "export const listPets = async () => ({ status: 200 as const, body: [] });\n",
    });
    expect((await runCli(["generate"], project)).code).toBe(0);
    const result = await runCli(["stubs"], project);
    expect(result.code).toBe(0);
    expect(readFileSync(join(project, "src", "handlers", "index.ts"), "utf8")).toBe("// mine\nexport const handlers = {};\n");
    expect(result.stderr).toContain('src/handlers/index.ts was edited, so it was not rewritten; add the new files to it:\n  import * as operations from "./operations.js";\n  import * as storeFront from "./store-front.js";\n  and `...operations, ...storeFront` in `handlers`\n');
  });

  it("bad input exits 2 and writes nothing", async () => {
    const project = tempDir("specforge-stubs-bad-");
    writeFiles(project, {
      "package.json": JSON.stringify({ name: "app", private: true, type: "module" }),
      "api.yaml": SPEC_V1,
      "specforge.config.json": JSON.stringify({ spec: "api.yaml", out: "generated" }),
      "src/handlers/pets.ts": "export const listPets = async () => {\n  return { status: 200,\n};\n",
    });
    const cases: [string[], RegExp][] = [
      [["stubs"], /^specforge: error: src\/handlers\/pets\.ts:4:1: this handler file does not parse: '}' expected\.\n  hint: fix it/],
      [["stubs", "--out", "generated/handlers"], /is inside the output folder generated, which specforge replaces/],
      [["stubs", "--out", "api.yaml"], /api\.yaml: the handler folder is a file/],
      [["stubs", "--spec", "missing.yaml"], /missing\.yaml: file not found/],
      [["stubs", "--out", ""], /--out needs a value/],
    ];
    for (const [args, message] of cases) {
      const before = snapshotTree(project);
      const result = await runCli(args, project);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toMatch(message);
      expect(snapshotTree(project)).toEqual(before);
    }
    writeFileSync(join(project, "bad.yaml"), "openapi: 3.1.0\ninfo: { title: x, version: 1 }\npaths:\n  /x:\n    get: [\n");
    const before = snapshotTree(project);
    const result = await runCli(["stubs", "--spec", "bad.yaml", "--out", "other"], project);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/bad\.yaml:\d+:\d+/);
    expect(snapshotTree(project)).toEqual(before);
  });
});
