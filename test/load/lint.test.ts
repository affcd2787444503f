import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, runCli, tempDir, writeFiles } from "../helpers.js";

/**
 * What a spec leaves out or misspells is not accepted silently: each gets a warning naming where (generation goes
 * on when the output is still right), and a document with nothing in it to generate from is an error.
 */
afterAll(cleanupTempDirs);

async function generate(spec: string): Promise<{ code: number; stdout: string; stderr: string; out: string }> {
  const project = tempDir();
  writeFiles(project, { "openapi.yaml": spec });
  const result = await runCli(["generate", "--spec", "openapi.yaml", "--out", "out"], project);
  return { ...result, out: join(project, "out") };
}

const PING = "paths:\n  /ping:\n    get:\n      operationId: ping\n      responses: {'204': {description: pong}}\n";

describe("spec lint", () => {
  it("a file holding only `openapi: 3.0.0`: exit 2, nothing to generate, nothing written", async () => {
    const result = await generate("openapi: 3.0.0\n");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^specforge: error: openapi\.yaml#: nothing to generate: the document has no `paths`, `webhooks` or `components`\n {2}hint: is this the right file\?/);
    expect(existsSync(result.out)).toBe(false);
  });

  it("a complete document prints nothing on stderr", async () => {
    const result = await generate(`openapi: 3.1.0\ninfo: {title: Ping, version: '1'}\n${PING}`);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });

  it("no `info`: a warning at the root; the output names the API `API` 0.0.0", async () => {
    const result = await generate(`openapi: 3.1.0\n${PING}`);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'specforge: warning: openapi.yaml#: the document has no `info` (it is required): the output names the API "API", version 0.0.0\n  hint: add `info: { title: …, version: … }`\n',
    );
    expect(readFileSync(join(result.out, "client.ts"), "utf8")).toContain("One method per operation of API 0.0.0.");
  });

  it("`info` without a version", async () => {
    const result = await generate(`openapi: 3.1.0\ninfo: {title: Ping}\n${PING}`);
    expect(result.stderr).toBe("specforge: warning: openapi.yaml#/info: `info` has no `version` (required)\n");
  });

  it("a 3.0 document without `paths` (components only): a warning, and the component types are still generated", async () => {
    const result = await generate("openapi: 3.0.3\ninfo: {title: x, version: '1'}\ncomponents:\n  schemas:\n    Pet: {type: object, properties: {name: {type: string}}}\n");
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^specforge: warning: openapi\.yaml#: an OpenAPI 3\.0 document requires `paths`: none are generated\n {2}hint: add `paths: \{\}`/);
    expect(readFileSync(join(result.out, "schema.ts"), "utf8")).toMatch(/Pet: \{\n\s+name\?: string;/);
  });

  it("3.1 documents may have only webhooks or only components", async () => {
    const webhooks = await generate(
      "openapi: 3.1.0\ninfo: {title: x, version: '1'}\nwebhooks:\n  ping:\n    post:\n      requestBody: {content: {application/json: {schema: {type: object}}}}\n      responses: {'200': {description: ok}}\n",
    );
    expect(webhooks.stderr).toBe("");
    const components = await generate("openapi: 3.1.0\ninfo: {title: x, version: '1'}\ncomponents:\n  schemas:\n    Pet: {type: string}\n");
    expect(components.stderr).toBe("");
  });

  it("unknown top-level fields: a warning each, with the field it probably meant", async () => {
    const result = await generate(`openapi: 3.1.0\ninfo: {title: x, version: '1'}\n${PING}compnents: {}\ndefinitions: {Pet: {type: object}}\nx-vendor: fine\n`);
    expect(result.code).toBe(0);
    expect(result.stderr.split("specforge: warning: ").filter(Boolean)).toEqual([
      "openapi.yaml#/compnents: unknown top-level field `compnents` is ignored\n  hint: did you mean `components`?\n",
      "openapi.yaml#/definitions: unknown top-level field `definitions` is ignored\n  hint: an OpenAPI document has openapi, info, jsonSchemaDialect, servers, paths, webhooks, components, security, tags, externalDocs and x- extensions\n",
    ]);
  });

  it("an operation with no responses: a warning at the operation (3.0 requires them), and the rest generates", async () => {
    const result = await generate(
      "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /pets/{id}:\n    delete:\n      operationId: deletePet\n      parameters: [{name: id, in: path, required: true, schema: {type: string}}]\n",
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      "specforge: warning: openapi.yaml#/paths/~1pets~1{id}/delete: the operation declares no responses (OpenAPI 3.0 requires at least one): its result is typed `never` (there is nothing to return)\n  hint: declare what it answers, e.g. `responses: { '200': { description: OK } }`\n",
    );
    expect(readFileSync(join(result.out, "client.ts"), "utf8")).toContain("deletePet: Operation<");
  });

  it("operations of a path item $ref'd from components.pathItems are checked where they are written", async () => {
    const result = await generate(
      "openapi: 3.1.0\ninfo: {title: x, version: '1'}\npaths:\n  /x: {$ref: '#/components/pathItems/X'}\ncomponents:\n  pathItems:\n    X:\n      get: {operationId: getX}\n",
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^specforge: warning: openapi\.yaml#\/components\/pathItems\/X\/get: the operation declares no responses/);
    expect(result.stderr).not.toMatch(/nothing to generate/);
  });

  it("a valid document that declares nothing yet (`paths: {}`): a warning, not an error", async () => {
    const result = await generate("openapi: 3.1.0\ninfo: {title: New API, version: '0.1'}\npaths: {}\n");
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("specforge: warning: openapi.yaml#/paths: nothing to generate yet: the document declares no operations, webhooks or component schemas\n");
  });
});
