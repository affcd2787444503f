import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import yaml from "js-yaml";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../../src/api.js";
import { DATA_LINE_WIDTH, dataTableLines } from "../../src/emit/data-layout.js";
import { changedLines, dataTables, longLines } from "../data-tables.js";
import { ROOT, V1_SPEC, cleanupTempDirs, tempDir } from "../helpers.js";

afterAll(cleanupTempDirs);

describe("a data table's layout", () => {
  it("breaks every level above the entries, one member per line, and keeps each entry on its line", () => {
    const document = { components: { schemas: { Pet: { type: "object", properties: { id: { type: "integer" } } }, Empty: {} } } };
    expect(dataTableLines({ value: document, entriesAt: 3 })).toEqual([
      "{",
      '  "components":{',
      '    "schemas":{',
      '      "Pet":{"type":"object","properties":{"id":{"type":"integer"}}},',
      '      "Empty":{}',
      "    }",
      "  }",
      "}",
    ]);
    expect(dataTableLines({ value: [], entriesAt: 1 })).toEqual(["[]"]);
  });

  it("breaks an entry wider than a line one member per line, and so on down, so only a long string makes a longer line", () => {
    const description = "A description from the spec, longer than any line. ".repeat(10);
    const entry = { name: "op", params: Array.from({ length: 20 }, (_, i) => `param_${i}`), body: { description, required: true } };
    const lines = dataTableLines({ value: [entry, ["short"]], entriesAt: 1 });
    expect(lines).toContain('  ["short"]');
    expect(lines).toContain('    "name":"op",');
    // The list fits on its line; the body does not (its description alone is too long), so it is broken.
    expect(lines.some((line) => line.startsWith('    "params":["param_0",'))).toBe(true);
    expect(lines).toContain('    "body":{');
    expect(lines).toContain(`      "description":${JSON.stringify(description)},`);
    expect(lines.filter((line) => line.length > DATA_LINE_WIDTH)).toEqual([`      "description":${JSON.stringify(description)},`]);
    expect(JSON.parse(lines.join("\n"))).toEqual([entry, ["short"]]);
  });

  it("writes what JSON.stringify writes: undefined members left out, undefined in a list as null", () => {
    const value = { a: undefined, b: [undefined, 1], c: { d: "x" } };
    expect(JSON.parse(dataTableLines({ value, entriesAt: 2 }).join("\n"))).toEqual(JSON.parse(JSON.stringify(value)));
  });
});

/** The v1 spec with one operation edited (a query parameter added) or one added, in the middle of the document. */
function editedV1(kind: "param" | "add" | "schema"): string {
  const spec = yaml.load(readFileSync(V1_SPEC, "utf8")) as { paths: Record<string, Record<string, { parameters?: unknown[] }>>; components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };
  const paths = Object.entries(spec.paths);
  const middle = Math.floor(paths.length / 2);
  if (kind === "param") {
    const operation = Object.values(paths[middle]![1]).find((op) => typeof op === "object" && op !== null && "responses" in op)!;
    (operation.parameters ??= []).push({ name: "probe", in: "query", schema: { type: "string", enum: ["a", "b"] } });
  } else if (kind === "add") {
    const added = {
      get: {
        operationId: "getProbe",
        security: [{ HTTPBearer: [] }],
        parameters: [{ name: "probe_id", in: "path", required: true, schema: { type: "integer" } }],
        responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { id: { type: "integer" }, label: { type: "string", maxLength: 17 } } } } } }, "404": { description: "none" } },
      },
    };
    spec.paths = Object.fromEntries([...paths.slice(0, middle), ["/v1/probes/{probe_id}", added], ...paths.slice(middle)]);
  } else {
    const [, schema] = Object.entries(spec.components.schemas).find(([, s]) => s.properties !== undefined)!;
    schema.properties!["probe"] = { type: "string", description: "A property added by the test." };
  }
  const file = join(tempDir(), `v1-${kind}.yaml`);
  writeFileSync(file, yaml.dump(spec));
  return file;
}

describe("the v1 output's data tables", () => {
  const render = async (spec: string) => (await generate({ spec, cwd: ROOT })).files;

  it("have no line of code longer than 400 characters (but a comment or a long string from the spec), and one entry per line", async () => {
    const files = await render(V1_SPEC);
    expect(longLines(files)).toEqual([]);
    const operations = dataTables(files.get("client.js")!).get("operations")!;
    // One line per operation (and `[`, `]`): the v1 rows fit on their lines.
    expect(operations.lines).toHaveLength((operations.value as unknown[]).length + 2);
  });

  it.each(["param", "add", "schema"] as const)("a one-operation edit (%s) changes a handful of short lines in each table", async (kind) => {
    const [before, after] = await Promise.all([render(V1_SPEC), render(editedV1(kind))]);
    const changed: Record<string, { lines: number; characters: number }> = {};
    for (const file of ["client.js", "server.js", "webhooks.js", "server-validators.js"]) {
      const old = dataTables(before.get(file)!);
      const now = dataTables(after.get(file)!);
      expect([...now.keys()]).toEqual([...old.keys()]);
      for (const name of old.keys()) changed[`${file} ${name}`] = changedLines(old.get(name), now.get(name));
    }
    // The validators' table holds where each generated validator goes (`["routes", index, …]`): a route added
    // before others moves theirs.
    if (kind === "add") delete changed["server-validators.js S"];
    // A route is one entry, broken one member per line when it is wider than a line.
    const most = kind === "add" ? 12 : 6;
    expect(Object.entries(changed).filter(([, count]) => count.lines > most || count.characters > 2_000)).toEqual([]);
    expect(Object.values(changed).some((count) => count.lines > 0)).toBe(true);
  });
});
