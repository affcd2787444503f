import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, runCli, tempDir, writeFiles } from "../helpers.js";

/**
 * Specs that would generate code failing at run time, or that say two things at once: refused (exit 2, the JSON
 * pointer, nothing written) or warned about at the line and column of the file.
 */
afterAll(cleanupTempDirs);

const HEAD = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\n";
const PATHS = "paths:\n  /x:\n    get:\n      security: [{key: []}]\n      responses: {'200': {description: ok}}\n";

describe("an apiKey scheme's header or cookie name must be an HTTP token", () => {
  it.each([
    ["a space", "header", "'X API Key'"],
    ["a colon", "header", "'X-Key:'"],
    ["a line break (header injection)", "header", '"X-Key\\r\\nX-Injected: 1"'],
    ["a non-ASCII letter", "header", "'X-Clé'"],
    ["a cookie name with a semicolon", "cookie", "'sid;admin'"],
  ])("%s: exit 2 at the scheme's name, nothing written", async (_what, where, name) => {
    const project = tempDir();
    writeFiles(project, { "api/openapi.yaml": `${HEAD}${PATHS}components:\n  securitySchemes:\n    key: {type: apiKey, in: ${where}, name: ${name}}\n` });
    const result = await runCli(["generate", "--spec", "api/openapi.yaml", "--out", "out"], project);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^specforge: error: api/openapi\\.yaml#/components/securitySchemes/key/name: the ${where} name .* of apiKey security scheme "key" is not an HTTP token`));
    expect(result.stderr).toMatch(/\n {2}hint: a (header|cookie) name is letters, digits and/);
    expect(existsSync(join(project, "out"))).toBe(false);
  });

  it("a query name may be anything (it is percent-encoded), and a token header name generates", async () => {
    const project = tempDir();
    writeFiles(project, {
      "query.yaml": `${HEAD}${PATHS}components:\n  securitySchemes:\n    key: {type: apiKey, in: query, name: 'api key'}\n`,
      "header.yaml": `${HEAD}${PATHS}components:\n  securitySchemes:\n    key: {type: apiKey, in: header, name: PRIVATE-TOKEN}\n`,
    });
    for (const spec of ["query.yaml", "header.yaml"]) {
      const result = await runCli(["generate", "--spec", spec, "--out", spec.replace(".yaml", "")], project);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
    }
  }, 300_000);
});

describe("a key repeated in a YAML mapping", () => {
  it("is a warning at the repeated key's line and column; generation goes on with the later value", async () => {
    const project = tempDir();
    const spec = [
      "openapi: 3.1.0",
      "info: {title: t, version: '1'}",
      "paths:",
      "  /x:",
      "    get:",
      "      operationId: first",
      "      responses: {'200': {description: ok}}",
      "  /y:",
      "    get:",
      "      responses: {'200': {description: ok}}",
      "  /x:",
      "    post:",
      "      operationId: second",
      "      responses: {'201': {description: created}}",
      "",
    ].join("\n");
    writeFiles(project, { "api/openapi.yaml": spec });
    const result = await runCli(["generate", "--spec", "api/openapi.yaml", "--out", "out"], project);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('specforge: warning: api/openapi.yaml:11:3: the key "/x" is repeated in its mapping: the later value is used and the earlier one is lost');
    expect(result.stderr).toMatch(/hint: remove or rename one of the two/);
  });

  it("a spec without repeated keys gets no such warning", async () => {
    const project = tempDir();
    writeFiles(project, { "api/openapi.yaml": `${HEAD}paths:\n  /x:\n    get:\n      responses: {'200': {description: ok}}\n` });
    const result = await runCli(["generate", "--spec", "api/openapi.yaml", "--out", "out"], project);
    expect(result.stderr).toBe("");
  });
});
