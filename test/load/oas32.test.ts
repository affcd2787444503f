import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../../src/index.js";
import { loadSpec } from "../../src/load/index.js";
import { derefIn, itemView, sequenceFormat } from "../../src/load/sequential.js";
import { serverUrlOption } from "../../src/ir/naming.js";
import { cleanupTempDirs, runCli, tempDir, writeFiles } from "../helpers.js";

/**
 * How OpenAPI 3.2 is read: one item of a sequential body (sequential.ts), `$self`, what `additionalOperations`,
 * `querystring` and nested tags allow, and what has no effect yet (always a warning with its pointer).
 */
afterAll(cleanupTempDirs);

const doc = (paths: string, components = "") => `openapi: 3.2.0\ninfo: {title: t, version: '1'}\npaths:\n${paths}${components ? `\ncomponents:\n${components}` : ""}\n`;

/** Generates `spec` in memory; returns the warnings as the CLI prints them and the files. */
async function read(spec: string, extra: Record<string, string> = {}) {
  const dir = tempDir();
  writeFiles(dir, { "openapi.yaml": spec, ...extra });
  const { files, warnings } = await generate({ cwd: dir, spec: "openapi.yaml" });
  return { files, warnings: warnings.map((w) => `${w.location}: ${w.message}`) };
}

describe("the item of a sequential media type", () => {
  const deref = derefIn({ components: { schemas: { Tick: { type: "object" }, Event: { type: "object", required: ["data"], properties: { data: { type: "string" }, event: { type: "string" } } } } } });
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

  it.each([
    ["text/event-stream", "sse"],
    ["text/event-stream; charset=utf-8", "sse"],
    ["application/jsonl", "jsonl"],
    ["application/x-ndjson", "jsonl"],
    ["application/json-seq", "json-seq"],
    ["application/geo+json-seq", "json-seq"],
    ["application/json", undefined],
    ["multipart/mixed", undefined],
  ])("%s is framed as %s", (type, format) => {
    expect(sequenceFormat(type)).toBe(format);
  });

  it("JSON Lines: the itemSchema, else the items of an array schema (3.2's whole content), else the schema (3.1 practice)", () => {
    expect(itemView({ itemSchema: ref("Tick") }, "jsonl", deref).schema).toEqual(ref("Tick"));
    expect(itemView({ schema: { type: "array", items: ref("Tick"), maxItems: 100 } }, "jsonl", deref).schema).toEqual(ref("Tick"));
    expect(itemView({ schema: ref("Tick") }, "json-seq", deref).schema).toEqual(ref("Tick"));
    expect(itemView({ schema: { type: "string", format: "binary" } }, "jsonl", deref).schema).toBeUndefined();
  });

  it("an event stream's schema (3.1) or an itemSchema without `data`: an item is each event's data, JSON unless the schema is text", () => {
    expect(itemView({ schema: ref("Tick") }, "sse", deref)).toEqual({ format: "sse", schema: ref("Tick"), sse: { events: false, json: true } });
    expect(itemView({ itemSchema: ref("Tick") }, "sse", deref).sse).toEqual({ events: false, json: true });
    expect(itemView({ itemSchema: { type: "string" } }, "sse", deref).sse).toEqual({ events: false, json: false });
  });

  it("an itemSchema with `data` (3.2): an item is the event, its data decoded by contentMediaType, per event name", () => {
    const view = itemView(
      {
        itemSchema: {
          allOf: [ref("Event")],
          required: ["event"],
          oneOf: [
            { properties: { event: { const: "tick" }, data: { contentMediaType: "application/json", contentSchema: ref("Tick") } } },
            { properties: { event: { enum: ["note", "warn"] } } },
          ],
        },
      },
      "sse",
      deref,
    );
    expect(view.sse).toEqual({ events: true, json: { byEvent: { tick: true, note: false, warn: false }, otherwise: false } });
    const [tick, note] = (view.schema as { anyOf: { properties: Record<string, unknown>; required: string[] }[] }).anyOf;
    expect(tick!.properties.data).toEqual(ref("Tick"));
    expect(tick!.required).toEqual(["data", "event"]);
    expect(note!.properties.data).toEqual({ type: "string" });
  });

  it("`data: {type: object}` (the learn site's example) cannot be text: it is JSON", () => {
    expect(itemView({ itemSchema: { type: "object", properties: { id: { type: "string" }, data: { type: "object" } } } }, "sse", deref).sse).toEqual({ events: true, json: true });
  });
});

describe("$self", () => {
  it("is the base of relative $refs, and a $ref to the document's own $self URI is the document", async () => {
    const { files, warnings } = await read(
      doc(
        "  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: 'https://example.com/api/openapi.yaml#/components/schemas/A'}",
        "  schemas:\n    A: {$ref: 'schemas/a.yaml'}",
      ).replace("openapi: 3.2.0\n", "openapi: 3.2.0\n$self: https://example.com/api/openapi.yaml\n"),
      { "schemas/a.yaml": "type: object\nproperties: {b: {$ref: b.yaml}}\n", "schemas/b.yaml": "type: integer\n" },
    );
    expect(warnings).toEqual([]);
    expect(files.get("schema.ts")).toMatch(/A: \{\s*b\?: components\["schemas"\]\["b"\];\s*\};\s*b: number;/);
    expect(files.get("schema.ts")).toContain('"application/json": components["schemas"]["A"];');
  });

  it("a relative $self is resolved against the file first", () => {
    const dir = tempDir();
    writeFiles(dir, {
      "api/openapi.yaml": doc("  {}", "  schemas:\n    A: {$ref: 'a.yaml'}").replace("openapi: 3.2.0\n", "openapi: 3.2.0\n$self: v2/openapi\n"),
      "api/a.yaml": "type: string\n",
    });
    const spec = loadSpec(join(dir, "api/openapi.yaml"));
    // `a.yaml` is beside the document's own URI (.../api/v2/openapi): the file beside it.
    expect((spec.document.components as { schemas: Record<string, unknown> }).schemas.A).toEqual({ type: "string" });
  });
});

describe("operations, parameters and tags of 3.2", () => {
  it("additionalOperations: a fixed method's entry is read as it when free and skipped when taken; a key that is no method is skipped; all said", async () => {
    const ok = "responses: {'204': {description: ok}}";
    const { warnings, files } = await read(
      doc(`  /a:\n    post: {operationId: create, ${ok}}\n    additionalOperations:\n      POST: {operationId: dup, ${ok}}\n      Get: {operationId: fetchA, ${ok}}\n      'NOT A METHOD': {${ok}}\n      PURGE: {operationId: purge, ${ok}}`),
    );
    expect(warnings).toEqual([
      "openapi.yaml#/paths/~1a/additionalOperations/POST: additionalOperations.POST repeats the path item's `post` operation and is ignored",
      "openapi.yaml#/paths/~1a/additionalOperations/Get: additionalOperations.Get is read as the path item's `get` operation",
      "openapi.yaml#/paths/~1a/additionalOperations/NOT A METHOD: additionalOperations key \"NOT A METHOD\" is not an HTTP method (a token of letters, digits and !#$%&'*+.^_`|~-) and is ignored",
    ]);
    const client = files.get("client.ts")!;
    expect(client).toContain('create: Operation<paths["/a"]["post"]>');
    expect(client).toContain('fetchA: Operation<paths["/a"]["get"]>');
    expect(client).toContain('purge: Operation<paths["/a"]["PURGE"]>');
    expect(client).not.toContain("dup");
    expect(files.get("schema.ts")).toMatch(/PURGE: operations\["purge"\];/);
  });

  it("QUERY in a path item that is a $ref: the path is typed inline, so paths[p].query exists", async () => {
    const { files } = await read(doc("  /q: {$ref: '#/components/pathItems/Q'}", "  pathItems:\n    Q:\n      query: {operationId: q, responses: {'200': {description: ok, content: {application/json: {schema: {type: string}}}}}}"));
    expect(files.get("schema.ts")).toMatch(/"\/q": \{[^]*query: operations\["q"\];\s*\};/);
    expect(files.get("client.ts")).toContain('q: Operation<paths["/q"]["query"]>');
  });

  it.each([
    ["a querystring parameter described by a schema", "parameters: [{name: q, in: querystring, schema: {type: object}}]", /`in: querystring` parameter is described by `content`/],
    ["query parameters beside a querystring parameter", "parameters: [{name: q, in: querystring, content: {application/json: {schema: {}}}}, {name: x, in: query, schema: {type: string}}]", /cannot also have the query parameter "x"/],
    ["two querystring parameters", "parameters: [{name: q, in: querystring, content: {application/json: {}}}, {name: r, in: querystring, content: {text/plain: {}}}]", /at most one `in: querystring` parameter/],
  ])("%s is an error naming it (exit 2, nothing written)", async (_name, parameters, message) => {
    const dir = tempDir();
    writeFiles(dir, { "openapi.yaml": doc(`  /a:\n    get:\n      ${parameters}\n      responses: {'204': {description: ok}}`) });
    const result = await runCli(["generate", "--spec", "openapi.yaml", "--out", "out"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain("openapi.yaml#/paths/~1a/get/parameters/");
    expect(existsSync(join(dir, "out"))).toBe(false);
  });

  it("tags: a parent that is not declared, and parents that loop, are warnings; the tag then stands at the top", async () => {
    const { warnings } = await read(
      doc("  {}").replace(
        "paths:",
        "tags:\n  - {name: a, parent: nowhere}\n  - {name: b, parent: c}\n  - {name: c, parent: b}\n  - {name: b}\npaths:",
      ),
    );
    expect(warnings).toEqual([
      "openapi.yaml#/paths: nothing to generate yet: the document declares no operations, webhooks or component schemas",
      'openapi.yaml#/tags/3/name: tag "b" is declared twice (tag names are unique); the first declaration is used',
      'openapi.yaml#/tags/0/parent: tag "a" names the parent "nowhere", which `tags` does not declare: it is read as a top-level tag',
      'openapi.yaml#/tags/1/parent: tag "b" is nested in itself (its parents loop back to it): it is read as a top-level tag',
    ]);
  });

  it("what has no effect yet is a warning with its pointer (style cookie is no longer one): multipart itemSchema, streamed request bodies, positional encodings of responses, webhooks with other methods", async () => {
    const { warnings } = await read(
      doc(
        [
          "  /upload:",
          "    post:",
          "      requestBody:",
          "        content:",
          "          multipart/mixed:",
          "            itemSchema: {type: string, format: binary}",
          "          application/jsonl:",
          "            itemSchema: {type: object}",
          "      parameters: [{name: c, in: cookie, style: cookie, schema: {type: string}}]",
          "      responses:",
          "        '200':",
          "          description: ok",
          "          content:",
          "            multipart/mixed: {schema: {type: array}, itemEncoding: {contentType: image/png}}",
          "            application/json: {schema: {}, prefixEncoding: [{contentType: text/plain}]}",
        ].join("\n"),
      ).replace("paths:", "webhooks:\n  hook:\n    query: {responses: {'200': {description: ok}}}\npaths:"),
    );
    expect(warnings).toEqual([
      "openapi.yaml#/paths/~1upload/post/requestBody/content/multipart~1mixed/itemSchema: itemSchema of multipart/mixed has no effect yet: specforge streams text/event-stream, JSON Lines and application/json-seq; this body is read whole (as a Blob)",
      "openapi.yaml#/paths/~1upload/post/responses/200/content/multipart~1mixed/itemEncoding: itemEncoding has no effect yet in a response: a multipart response is read as a Blob",
      "openapi.yaml#/paths/~1upload/post/responses/200/content/application~1json/prefixEncoding: prefixEncoding has no effect: it applies to multipart media types only",
      "openapi.yaml#/paths/~1upload/post/requestBody/content/application~1jsonl: a request body of the sequential media type application/jsonl is sent and read whole (the client takes its bytes or text, the router hands the handler its bytes): streaming request items is not supported yet",
      "openapi.yaml#/webhooks/hook/query: a webhook delivered with QUERY has no effect yet: webhook receivers and types cover get, put, post, delete, options, head, patch and trace",
    ]);
  });

  it("a named server's URL option is named after its name (the first server's stays baseUrl)", () => {
    expect(serverUrlOption("https://eu.api.example.com", "The European region", 1, [], "eu-central")).toBe("euCentralUrl");
    expect(serverUrlOption("https://api.example.com", undefined, 0, [], "production")).toBe("baseUrl");
  });
});

describe("path templates of QUERY operations", () => {
  it("a {variable} no parameter declares is assumed and warned about, as for the other methods", async () => {
    const { files, warnings } = await read(doc(`  /items/{id}:\n    query:\n      operationId: findItems\n      responses: {'200': {description: ok}}`));
    expect(warnings).toEqual([
      expect.stringMatching(/^openapi\.yaml#\/paths\/~1items~1\{id\}: the path has \{id\}, which no path parameter declares/),
    ]);
    // The router's route table (JSON in a string literal) has the assumed parameter.
    expect(files.get("server.ts")).toMatch(/\\?"path\\?":\[\{\\?"name\\?":\\?"id\\?",\\?"required\\?":true/);
  });
});
