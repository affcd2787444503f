import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../../src/index.js";
import { cleanupTempDirs, tempDir, writeFiles } from "../helpers.js";

afterAll(cleanupTempDirs);

/** JSON bodies and an ordinary pattern: the router's core alone. */
const PLAIN = `openapi: 3.1.0
info: { title: Plain, version: "1" }
paths:
  /notes:
    post:
      operationId: addNote
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, properties: { slug: { type: string, pattern: "^[a-z0-9-]+$" } } }
      responses: { "204": { description: added } }
`;

/** A multipart upload and a pattern that backtracks catastrophically. */
const FEATURED = `openapi: 3.1.0
info: { title: Featured, version: "1" }
paths:
  /files:
    post:
      operationId: upload
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema: { type: object, properties: { file: { type: string, format: binary }, tag: { type: string, pattern: "^(a+)+$" } } }
      responses: { "204": { description: stored } }
`;

/** A body of any type: the request's own type decides, multipart included. */
const WILDCARD = FEATURED.replace("multipart/form-data", "'*/*'").replace("^(a+)+$", "^a+$");

async function serverRuntime(spec: string, form: "ts" | "js"): Promise<{ modules: string[]; server: string }> {
  const project = tempDir("specforge-server-runtime-");
  writeFiles(project, { "openapi.yaml": spec });
  const { files } = await generate({ cwd: project, spec: "openapi.yaml", format: false, form, outputs: ["server"] });
  const modules = [...files.keys()].filter((path) => path.startsWith("runtime/server/")).map((path) => path.slice("runtime/server/".length));
  return { modules, server: files.get(form === "ts" ? "server.ts" : "server.js")! };
}

describe("the server runtime: only the optional modules the spec uses", () => {
  it.each(["ts", "js"] as const)("%s form: no multipart reader or linear-time matcher for a spec without them", async (form) => {
    const { modules, server } = await serverRuntime(PLAIN, form);
    expect(modules.filter((name) => /^(multipart|pattern)\./.test(name))).toEqual([]);
    expect(modules).toContain(`validate.${form}`);
    expect(server).toMatch(/const features(: RouterFeatures\[\])? = \[\];/);
    expect(server).not.toMatch(/multipartFeature|linearPatternsFeature/);
  });

  it.each(["ts", "js"] as const)("%s form: both, imported and passed to the router, for a spec that has them", async (form) => {
    const { modules, server } = await serverRuntime(FEATURED, form);
    expect(modules).toEqual(expect.arrayContaining([`multipart.${form}`, `pattern.${form}`]));
    expect(server).toMatch(/import \{ multipartFeature \} from "\.\/runtime\/server\/multipart\.js";/);
    expect(server).toMatch(/import \{ linearPatternsFeature \} from "\.\/runtime\/server\/pattern\.js";/);
    expect(server).toMatch(/const features(: RouterFeatures\[\])? = \[multipartFeature, linearPatternsFeature\];/);
  });

  it("a wildcard body brings the multipart reader (a multipart request may come)", async () => {
    const { modules } = await serverRuntime(WILDCARD, "ts");
    expect(modules).toContain("multipart.ts");
    expect(modules).not.toContain("pattern.ts");
  });
});
