import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../../src/index.js";
import { cleanupTempDirs, runCli, tempDir, writeFiles } from "../helpers.js";

afterAll(cleanupTempDirs);

/** A vendor's webhooks description: `webhooks` and no `paths` (as Zoom, Adyen and GitHub publish theirs). */
const WEBHOOKS_ONLY = `openapi: 3.1.0
info: { title: Vendor events, version: "1" }
webhooks:
  meeting.started:
    post:
      requestBody:
        content:
          application/json:
            schema: { type: object, required: [event], properties: { event: { type: string } } }
      responses: { "200": { description: ok } }
`;

/** An API without webhooks. */
const PATHS_ONLY = `openapi: 3.0.3
info: { title: Pets, version: "1" }
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: string } } } } }
`;

/** A document of schemas alone. */
const SCHEMAS_ONLY = `openapi: 3.1.0
info: { title: Shapes, version: "1" }
components: { schemas: { Shape: { type: object, properties: { sides: { type: integer } } } } }
`;

function projectWith(spec: string): string {
  const project = tempDir("specforge-outputs-");
  writeFiles(project, { "openapi.yaml": spec });
  return project;
}

const paths = (files: Map<string, string>) => [...files.keys()].filter((path) => !path.startsWith("runtime/") && !path.startsWith("."));
const runtimeKinds = (files: Map<string, string>) => [...new Set([...files.keys()].flatMap((path) => (path.startsWith("runtime/") ? [path.split("/")[1]] : [])))].sort();

describe("default outputs follow what the spec has", () => {
  it("a spec without paths gets the types and the webhooks: no empty Client, no router, no client or server runtime", async () => {
    const { files, warnings } = await generate({ cwd: projectWith(WEBHOOKS_ONLY), spec: "openapi.yaml", format: false });
    expect(warnings).toEqual([]);
    expect(paths(files).sort()).toEqual(["index.ts", "schema.ts", "webhooks.ts"]);
    expect(runtimeKinds(files)).toEqual(["webhooks"]);
    expect(files.get("index.ts")).not.toMatch(/client|server/i);
  });

  it("a spec without webhooks gets no webhook files", async () => {
    const { files, warnings } = await generate({ cwd: projectWith(PATHS_ONLY), spec: "openapi.yaml", format: false });
    expect(warnings).toEqual([]);
    expect(paths(files).sort()).toEqual(["client.ts", "index.ts", "schema.ts", "server-validators.ts", "server.ts"]);
    expect(runtimeKinds(files)).toEqual(["client", "server"]);
  });

  it("a spec of schemas alone gets its types", async () => {
    const { files } = await generate({ cwd: projectWith(SCHEMAS_ONLY), spec: "openapi.yaml", format: false });
    expect(paths(files).sort()).toEqual(["index.ts", "schema.ts"]);
    expect(runtimeKinds(files)).toEqual([]);
  });

  it("an explicit list wins, with a warning naming where it came from for each output the spec has nothing for", async () => {
    const project = projectWith(WEBHOOKS_ONLY);
    const { files, warnings } = await generate({ cwd: project, spec: "openapi.yaml", format: false, outputs: ["client", "webhooks"] });
    expect(paths(files).sort()).toEqual(["client.ts", "index.ts", "schema.ts", "webhooks.ts"]);
    expect(warnings).toEqual([
      {
        message: "the client output has nothing to generate: the spec has no operations (`paths`); an empty client is written",
        location: "option `outputs`",
        hint: 'leave "client" out of `outputs`, or leave `outputs` out to get what the spec has',
      },
    ]);

    // From a config file: the warning points at its field, and the CLI prints it (the run still succeeds).
    const other = projectWith(PATHS_ONLY);
    writeFiles(other, { "specforge.config.json": JSON.stringify({ spec: "openapi.yaml", outputs: ["client", "webhooks"], format: false }) });
    const result = await runCli(["generate"], other);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/specforge\.config\.json#\/outputs: the webhooks output has nothing to generate: the spec has no `webhooks`; no webhook files are written/);
  });
});
