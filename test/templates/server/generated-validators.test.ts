import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FORMAT_NAMES, NUMBER_FORMAT_NAMES } from "../../../templates/server/validate.js";
import { cleanupTempDirs, FIXTURES, ROOT, V1_SPEC } from "../../helpers.js";
import { differential } from "./differential.js";

afterAll(cleanupTempDirs);

const FEATURES = join(FIXTURES, "features");
const specs = [
  { name: "training-api.v1", spec: V1_SPEC },
  { name: "deep-oneof (bench)", spec: join(ROOT, "bench", "runtime", "deep-oneof.yaml") },
  ...readdirSync(FEATURES, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isFile() && /\.ya?ml$/.test(entry.name)) return [{ name: entry.name, spec: join(FEATURES, entry.name) }];
    if (entry.isDirectory() && existsSync(join(FEATURES, entry.name, "openapi.yaml"))) return [{ name: entry.name, spec: join(FEATURES, entry.name, "openapi.yaml") }];
    return [];
  }),
  { name: "router fixture", spec: join(ROOT, "test", "templates", "server", "fixtures", "router.yaml") },
  { name: "2020-12 keywords", spec: join(ROOT, "test", "templates", "server", "fixtures", "keywords-2020.yaml") },
].filter((entry) => existsSync(entry.spec));

describe("generated request validators agree with the closures (differential)", () => {
  it.each(specs)("$name", async ({ spec }) => {
    const result = await differential(spec, { perSchema: 150 });
    expect(result.mismatches).toEqual([]);
    if (result.schemas > 0) expect(result.instances).toBeGreaterThan(result.schemas);
  });

  it("also with a small maxDepth (the depth limit is the router's option)", async () => {
    const result = await differential(V1_SPEC, { perSchema: 150, maxDepth: 3 });
    expect(result.mismatches).toEqual([]);
    expect(result.valid).toBeGreaterThan(0);
    expect(result.valid).toBeLessThan(result.instances);
  });

  it("the v1 spec's instances are both valid and invalid (the test can fail)", async () => {
    const result = await differential(V1_SPEC, { perSchema: 150 });
    expect(result.valid).toBeGreaterThan(20);
    expect(result.instances - result.valid).toBeGreaterThan(200);
  });

  it("knows the closures' formats", async () => {
    const source = await import("node:fs").then((fs) => fs.readFileSync(join(ROOT, "templates", "server", "validate.ts"), "utf8"));
    const block = source.slice(source.indexOf("const FORMATS: Record<string, FormatCheck> = {"));
    const names = [...block.slice(0, block.indexOf("\n};")).matchAll(/^ {2}"?([\w-]+)"?: \{$/gm)].map((m) => m[1]);
    expect(names).toEqual([...FORMAT_NAMES]);
    const numbers = source.slice(source.indexOf("const NUMBER_FORMATS: Record<string, FormatCheck<number>> = {"));
    expect([...numbers.slice(0, numbers.indexOf("\n};")).matchAll(/^ {2}"?([\w-]+)"?: \{$/gm)].map((m) => m[1])).toEqual([...NUMBER_FORMAT_NAMES]);
  });
});

describe("equal schemas share one generated function", () => {
  // Stripe writes the same inline schemas in every operation: each used to become a function (and a key set) of its own.
  const inlineBody = { type: "object", properties: { name: { type: "string", minLength: 1 }, tags: { type: "array", items: { type: "string" } } }, additionalProperties: false };
  const document = { openapi: "3.1.0", components: { schemas: {} } };
  const route = (name: string) => ({ name, method: "POST", path: `/${name}`, params: {}, body: { required: true, content: { "application/json": { schema: structuredClone(inlineBody) } } } });

  it("three operations with the same inline body: one function per schema shape, one key set, three registrations that name it", async () => {
    const { serverValidatorsText } = await import("../../../src/emit/server-validators.js");
    const text = serverValidatorsText(document as never, [route("a"), route("b"), route("c")] as never, []);
    const registered = [...text.matchAll(/out\.push\(\[S\[\d+\], (\w+)\]\);/g)].map((m) => m[1]);
    expect(registered).toHaveLength(3);
    expect(new Set(registered).size).toBe(1);
    expect(text.match(/= new Set\(/g)).toHaveLength(1);
    // The body's object, its string and array properties and the array's items: four functions, not twelve.
    expect(text.match(/^ {2}function \w+\(x, d, f\)/gm)).toHaveLength(4);
  });
});

describe("a schema object at several places of the route table", () => {
  // serverRoutes shares one operation's parameter and body objects between its paths' routes, and a loader may share
  // a schema between operations; the router reads its own copy of the table (JSON), where every place is an object
  // of its own. The generated module is the one that copy gives.
  it("is checked as the router's copy has it: the same text as for a table without shared objects", async () => {
    const { serverValidatorsText } = await import("../../../src/emit/server-validators.js");
    const document = { openapi: "3.1.0", components: { schemas: { Pet: { type: "object", required: ["id"], properties: { id: { type: "integer", minimum: 1 } } } } } };
    const shared = { type: "object", properties: { pet: { $ref: "#/components/schemas/Pet" }, n: { type: "integer", maximum: 9 } }, additionalProperties: false };
    const param = { name: "q", required: false, schema: shared };
    const operation = { name: "a", method: "POST", params: { query: [param] }, body: { required: true, content: { "application/json": { schema: shared } } } };
    const routes = [
      { ...operation, path: "/a" },
      { ...operation, path: "/b" },
      { name: "c", method: "PUT", path: "/c", params: { query: [{ name: "r", required: true, schema: { type: "string", maxLength: 3 } }] } },
    ];
    const text = serverValidatorsText(document as never, routes as never, []);
    expect(text).toBe(serverValidatorsText(document as never, JSON.parse(JSON.stringify(routes)) as never, []));
    expect([...text.matchAll(/out\.push\(\[S\[\d+\], (\w+)\]\);/g)]).toHaveLength(5);
  });
});
