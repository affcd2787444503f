import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { parseResourceTable, readResourceTable } from "../../src/load/resource-table.js";
import { cleanupTempDirs, FIXTURES, tempDir } from "../helpers.js";

afterAll(cleanupTempDirs);

/** What a table names: key → dotted name. */
const names = (text: string, file = "stainless.yml") => parseResourceTable(text, file).resources;

/** The UserError a table's text gives: `location: message`. */
function failure(text: string, file = "stainless.yml"): string {
  try {
    parseResourceTable(text, file);
  } catch (error) {
    if (error instanceof UserError) return `${error.location}: ${error.message}`;
    throw error;
  }
  throw new Error("no error");
}

describe("resource table: the names it gives", () => {
  it.each<[string, { given: string; want: Record<string, string> }]>([
    ["a method as a string", { given: "resources:\n  files:\n    methods:\n      list: get /files\n", want: { "GET /files": "files.list" } }],
    [
      "a method as a mapping with `endpoint` (and keys that name nothing)",
      { given: "resources:\n  files:\n    methods:\n      retrieve:\n        type: http\n        endpoint: get /files/{file_id}\n        paginated: false\n", want: { "GET /files/{file_id}": "files.retrieve" } },
    ],
    [
      "nested subresources, snake_case camel-cased as the TypeScript SDKs spell them",
      {
        given: "resources:\n  fine_tuning:\n    subresources:\n      jobs:\n        methods:\n          list_events: get /fine_tuning/jobs/{id}/events\n        subresources:\n          checkpoint_permissions:\n            methods:\n              create: post /fine_tuning/checkpoints/{id}/permissions\n",
        want: { "GET /fine_tuning/jobs/{id}/events": "fineTuning.jobs.listEvents", "POST /fine_tuning/checkpoints/{id}/permissions": "fineTuning.jobs.checkpointPermissions.create" },
      },
    ],
    [
      "`$client` methods on the client; `$shared`, models and non-HTTP methods skipped",
      {
        given: "resources:\n  $shared:\n    models:\n      error: Error\n  $client:\n    methods:\n      health_check: get /health\n  webhooks:\n    models:\n      event: Event\n    methods:\n      unwrap:\n        type: webhook_unwrap\n",
        want: { "GET /health": "healthCheck" },
      },
    ],
    ["members that would change what a resource is get a `_`", { given: "resources:\n  jobs:\n    methods:\n      then: get /jobs/then\n", want: { "GET /jobs/then": "jobs.then_" } }],
    ["JSON too", { given: JSON.stringify({ resources: { chat: { subresources: { completions: { methods: { create: "post /chat/completions" } } } } } }), want: { "POST /chat/completions": "chat.completions.create" } }],
    ["an empty resource or methods entry names nothing", { given: "resources:\n  files:\n  models:\n    methods:\n", want: {} }],
  ])("%s", (_, { given, want }) => {
    expect(names(given, given.startsWith("{") ? "t.json" : "t.yml")).toEqual(want);
  });

  it("the same endpoint named twice: the first name stays, the second is a warning at its line", () => {
    const table = parseResourceTable("resources:\n  models:\n    methods:\n      list: get /models\n    subresources:\n      openai:\n        methods:\n          list: get /models\n", "stainless.yml");
    expect(table.resources).toEqual({ "GET /models": "models.list" });
    expect(table.warnings).toHaveLength(1);
    expect(table.warnings[0]!.location).toBe("stainless.yml:8:11");
    expect(table.warnings[0]!.message).toContain("resources.models.subresources.openai.methods.list");
    expect(table.warnings[0]!.message).toContain("stainless.yml:4:7");
  });

  it("records each method's place for warnings about it", () => {
    const table = parseResourceTable(readFileSync(join(FIXTURES, "resource-table", "stainless.yml"), "utf8"), "stainless.yml");
    expect(table.methods["DELETE /files/{file_id}"]).toEqual({ name: "files.delete", location: "stainless.yml:33:7", path: "resources.files.methods.delete", endpoint: "delete /files/{file_id}" });
    expect(Object.values(table.resources)).toEqual(["healthCheck", "chat.completions.create", "files.list", "files.retrieve", "files.delete", "fineTuning.jobs.listEvents", "images.generate"]);
  });
});

it("a table of 10,000 methods is read in one pass over its text", () => {
  const text = `resources:\n  r:\n    methods:\n${Array.from({ length: 10_000 }, (_, i) => `      m${i}: get /p${i}\n`).join("")}`;
  const started = performance.now();
  const table = parseResourceTable(text, "big.yml");
  expect(Object.keys(table.resources)).toHaveLength(10_000);
  expect(table.methods["GET /p9999"]!.location).toBe("big.yml:10003:7");
  expect(performance.now() - started).toBeLessThan(10_000);
});

describe("resource table: bad input is one error at its line and column", () => {
  it.each<[string, { given: string; want: string }]>([
    ["not YAML", { given: "resources:\n  files:\n    methods: [\n", want: "stainless.yml:4:1: invalid YAML" }],
    ["no `resources:`", { given: "organization:\n  name: x\n", want: "stainless.yml:1:1: resource table: a resource table is a mapping with a `resources:` tree" }],
    ["a malformed endpoint", { given: "resources:\n  files:\n    methods:\n      list: /files\n", want: 'stainless.yml:4:7: resource table: method `resources.files.methods.list`: the endpoint "/files" is not an HTTP method and a path' }],
    ["an unknown HTTP method", { given: "resources:\n  files:\n    methods:\n      list: fetch /files\n", want: 'stainless.yml:4:7: resource table: method `resources.files.methods.list`: the endpoint "fetch /files"' }],
    ["a method without an endpoint", { given: "resources:\n  files:\n    methods:\n      list:\n        paginated: false\n", want: "stainless.yml:4:7: resource table: method `resources.files.methods.list` has no `endpoint`" }],
    ["a method that is a number", { given: "resources:\n  files:\n    methods:\n      list: 3\n", want: "stainless.yml:4:7: resource table: method `resources.files.methods.list` must be an endpoint" }],
    ["a resource that is a list", { given: "resources:\n  files:\n    - get /files\n", want: "stainless.yml:2:3: resource table: resource `resources.files` must be a mapping" }],
    ["methods that are a list", { given: "resources:\n  files:\n    methods:\n      - get /files\n", want: "stainless.yml:3:5: resource table: `resources.files.methods` must map method names to endpoints" }],
  ])("%s", (_, { given, want }) => {
    expect(failure(given)).toContain(want);
  });

  it("a file: missing, a directory, past the size limit", () => {
    const dir = tempDir();
    const message = (file: string, max?: number) => {
      try {
        readResourceTable(file, "t.yml", max);
      } catch (error) {
        return (error as UserError).message;
      }
      return "read";
    };
    expect(message(join(dir, "missing.yml"))).toBe("resource table not found");
    mkdirSync(join(dir, "folder.yml"));
    expect(message(join(dir, "folder.yml"))).toContain("is a directory");
    writeFileSync(join(dir, "big.yml"), `resources:\n${"#".repeat(200)}\n`);
    expect(message(join(dir, "big.yml"), 100)).toContain("more than the limit of 100 bytes");
    expect(message(join(dir, "big.yml"))).toBe("read");
  });
});
