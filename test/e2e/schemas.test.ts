import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { build } from "esbuild";
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import yaml from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT, cleanupTempDirs, runCli, tempDir, typecheck } from "../helpers.js";

/**
 * The `schemas` output of test/fixtures/schemas/keywords.yaml (a component schema per keyword), generated and used as
 * a project uses it: each keyword's valid and invalid values through the generated Standard Schemas, with Ajv 2020 +
 * ajv-formats giving the same verdict on every one; the types a Standard Schema consumer infers; what a bundle of one
 * schema holds; the client's `validateResponses` against a server on 127.0.0.1.
 */

const SPEC = join(FIXTURES, "schemas", "keywords.yaml");
const document = yaml.load(readFileSync(SPEC, "utf8")) as { components: { schemas: Record<string, object> } };

interface StandardResult {
  value?: unknown;
  issues?: { message: string; path?: PropertyKey[] }[];
}
interface Standard {
  "~standard": { version: number; vendor: string; validate(value: unknown): StandardResult };
}
interface SchemasModule {
  components: Record<string, Standard>;
  operations: Record<string, Record<string, Standard> & { responses?: Record<string, Standard> }>;
  validateResponse(operation: string, status: number, body: unknown): unknown;
  ResponseValidationError: new (...args: never[]) => Error & { issues: unknown[]; operation: string; status: number };
}

let project: string;
/** The output in the `js` form (imported here), and in the default `ts` form (type-checked and bundled). */
let out: string;
let outTs: string;
let schemas: SchemasModule;
/** The same with `schemas: { library: "zod" }`. */
let zodSchemas: Record<"components" | "operations", Record<string, ZodLike & Record<string, ZodLike & Record<string, ZodLike>>>>;

interface ZodLike {
  safeParse(value: unknown): { success: boolean; data?: unknown };
  "~standard": Standard["~standard"];
}

/** Generates the fixture into `project/<out>` with these config fields. */
async function generate(out: string, config: Record<string, unknown>): Promise<string> {
  const folder = join(project, out);
  writeFileSync(join(project, "specforge.config.json"), JSON.stringify({ spec: SPEC, out, outputs: ["types", "client", "schemas"], ...config }));
  const result = await runCli(["generate"], project);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return folder;
}

beforeAll(async () => {
  project = tempDir("specforge-schemas-");
  writeFileSync(join(project, "package.json"), '{ "type": "module" }');
  symlinkSync(join(ROOT, "node_modules"), join(project, "node_modules"), "dir");
  out = await generate("out", { form: "js" });
  outTs = await generate("out-ts", {});
  await generate("zod", { form: "js", schemas: { library: "zod" } });
  await generate("zod-ts", { schemas: { library: "zod" } });
  schemas = (await import(pathToFileURL(join(out, "schemas.js")).href)) as SchemasModule;
  zodSchemas = await import(pathToFileURL(join(project, "zod", "schemas.js")).href);
}, 120_000);

afterAll(cleanupTempDirs);

/**
 * The one documented difference from Ajv here: an int64 beyond ±(2^53 − 1) is refused, since JSON numbers that large
 * reach JavaScript rounded (docs/schemas.md); ajv-formats' int64 accepts any integer.
 */
const UNSAFE_INTEGER = true;

/**
 * Component name → values it accepts, and values it refuses with the path of the first issue (and, where Ajv departs
 * from that for a documented reason, Ajv's verdict).
 */
const KEYWORDS: [component: string, valid: unknown[], invalid: [value: unknown, path: PropertyKey[], ajv?: boolean][]][] = [
  ["Text", ["ab", "abcd"], [["a", []], ["abcde", []], ["AB", []], [12, []]]],
  ["DateTime", ["2024-02-29T12:00:00Z", "2024-01-01T00:00:00.5+05:30"], [["2023-02-29T12:00:00Z", []], ["2024-01-01 12:00", []], ["2024-01-01T24:00:00Z", []]]],
  ["Date", ["2024-02-29"], [["2023-02-29", []], ["2024-13-01", []], ["20240101", []]]],
  ["Time", ["12:30:00Z", "23:59:59.123+01:00"], [["25:00:00Z", []], ["12:30", []]]],
  ["Uuid", ["123e4567-e89b-12d3-a456-426614174000"], [["123e4567e89b12d3a456426614174000", []], ["not-a-uuid", []]]],
  ["Email", ["a@example.com"], [["a.example.com", []], ["a@", []]]],
  ["Uri", ["https://example.com/a?b#c", "urn:isbn:0451450523"], [["not a uri", []], ["/relative", []]]],
  ["Range", [0, 10, 2.5], [[-1, []], [10.5, []], [1.2, []], ["1", []]]],
  ["ExclusiveRange", [0.1, 9.9], [[0, []], [10, []]]],
  ["Int32", [0, 2147483647, -2147483648], [[2147483648, []], [1.5, []]]],
  ["Int64", [9007199254740991, -9007199254740991], [[2 ** 53, [], UNSAFE_INTEGER], [1.5, []]]],
  ["Flag", [true, false], [[0, []], ["true", []]]],
  ["Nothing", [null], [[0, []], ["", []]]],
  ["MaybeText", ["a", null], [[1, []]]],
  ["Color", ["red", 2, null], [["blue", []], ["2", []]]],
  ["Fixed", [{ a: [1] }], [[{ a: [2] }, []], [{ a: [1], b: 1 }, []]]],
  ["List", [[1], [1, 2, 3]], [[[], []], [[1, 2, 3, 4], []], [[1, 1], []], [["1"], [0]]]],
  ["Pair", [["a", 1], ["a"]], [[[1, 1], [0]], [["a", 1, 2], [2]]]],
  ["WithEvens", [[1, 2], [2, 4, 5]], [[[1, 3], []], [[2, 4, 6], []]]],
  ["Closed", [{ a: "x" }], [[{}, ["a"]], [{ a: "x", b: 1 }, ["b"]], [{ a: 1 }, ["a"]]]],
  ["Dictionary", [{ a: 1 }, { a: 1, b: 2 }], [[{}, []], [{ a: 1, b: 2, c: 3 }, []], [{ a: "1" }, ["a"]]]],
  ["Patterned", [{ "x-a": "b", y: 1 }], [[{ "x-a": 1 }, ["x-a"]], [{ toolong: 1 }, ["toolong"]]]],
  ["Dependent", [{}, { card: 1, cvc: "123" }], [[{ card: 1 }, ["cvc"]], [{ card: 1, cvc: "12" }, ["cvc"]]]],
  ["Both", [], [[{ a: "x" }, ["b"]], [{ a: "x", b: 1 }, ["b"]]]],
  ["Either", ["a", 1], [[1.5, []], [null, []]]],
  ["ExactlyOne", [2, 3], [[6, []], [5, []]]],
  ["NotString", [1, null, {}], [["a", []]]],
  ["Conditional", [{ kind: "card", number: "1" }, { kind: "bank", iban: "x" }], [[{ kind: "card" }, ["number"]], [{ kind: "bank" }, ["iban"]], [{ iban: "x" }, ["number"]]]],
  ["Pet", [{ kind: "cat", meows: true }, { kind: "dog", barks: false }], [[{ kind: "cat", barks: true }, ["meows"]], [{ kind: "cow" }, []], [{}, []]]],
  ["Sealed", [{ a: 1, b: 2 }, {}], [[{ a: 1, c: 3 }, ["c"]], [{ a: "1" }, ["a"]]]],
  ["SealedList", [[1], []], [[[1, 2], [1]], [["1"], [0]]]],
  ["Tree", [{ value: 1, children: [{ value: 2, children: [] }] }], [[{ value: 1, children: [{ children: [] }] }, ["children", 0, "value"]], [{ value: 1.5 }, ["value"]]]],
  ["odd name-1", ["a"], [["ab", []]]],
];

const exportName = (component: string) => (component === "odd name-1" ? "oddName1" : component);

describe("the schemas output: one Standard Schema per component schema", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats.default(ajv);
  ajv.addSchema({ ...document, $id: "spec" } as object);
  const judge = (component: string) => ajv.getSchema(`spec#/components/schemas/${component.replace(/~/g, "~0").replace(/\//g, "~1").replace(/ /g, "%20")}`)!;

  it("covers every component of the fixture, each a Standard Schema v1 of vendor specforge", () => {
    expect(Object.keys(schemas.components).sort()).toEqual(Object.keys(document.components.schemas).map(exportName).sort());
    for (const schema of Object.values(schemas.components)) {
      expect(schema["~standard"]).toMatchObject({ version: 1, vendor: "specforge" });
    }
  });

  for (const [component, valid, invalid] of KEYWORDS) {
    it(`${component}: the values Ajv accepts are valid, the values it refuses have issues where they are`, () => {
      const schema = schemas.components[exportName(component)]!;
      const ajvSays = judge(component);
      for (const value of valid) {
        expect(schema["~standard"].validate(value), JSON.stringify(value)).toEqual({ value });
        expect(ajvSays(value), `Ajv on ${JSON.stringify(value)}`).toBe(true);
      }
      for (const [value, path, ajvAccepts = false] of invalid) {
        const { issues } = schema["~standard"].validate(value);
        expect(issues?.length, JSON.stringify(value)).toBeGreaterThan(0);
        expect(issues![0]!.path, JSON.stringify(value)).toEqual(path);
        expect(typeof issues![0]!.message).toBe("string");
        expect(ajvSays(value), `Ajv on ${JSON.stringify(value)}`).toBe(ajvAccepts);
      }
    });
  }

  it("a component reads readOnly and writeOnly as JSON Schema does; a request part ignores readOnly properties and fills defaults, a response part ignores writeOnly ones", () => {
    const { Item } = schemas.components;
    const { putItem } = schemas.operations;
    expect(Item!["~standard"].validate({ name: "a", secret: "s" }).issues?.map((issue) => issue.path)).toEqual([["id"]]);
    expect(Item!["~standard"].validate({ id: 1, name: "a" }).issues?.map((issue) => issue.path)).toEqual([["secret"]]);
    expect(putItem!.body!["~standard"].validate({ name: "a", secret: "s" })).toEqual({ value: { name: "a", secret: "s", color: "red" } });
    expect(putItem!.responses!["200"]!["~standard"].validate({ id: 1, name: "a", color: "blue" })).toEqual({ value: { id: 1, name: "a", color: "blue" } });
  });

  it("an operation's parameters by location, body and responses by status", () => {
    const { putItem, getItem } = schemas.operations;
    expect(Object.keys(putItem!).sort()).toEqual(["body", "headers", "path", "query", "responses"]);
    expect(Object.keys(putItem!.responses!).sort()).toEqual(["200", "4XX", "default"]);
    expect(putItem!.path!["~standard"].validate({ itemId: 0 }).issues?.[0]?.path).toEqual(["itemId"]);
    expect(putItem!.query!["~standard"].validate({})).toEqual({ value: {} });
    expect(putItem!.headers!["~standard"].validate({ "X-Request-Id": "nope" }).issues?.[0]?.path).toEqual(["X-Request-Id"]);
    expect(getItem!.path!["~standard"].validate({ itemId: 3 })).toEqual({ value: { itemId: 3 } });
    expect(putItem!.responses!["4XX"]!["~standard"].validate({ status: 1 }).issues?.[0]?.path).toEqual(["title"]);
  });
});

describe("the zod output (schemas.library: zod)", () => {
  it("gives every value of the keyword table the verdict the Standard Schema output gives, through zod's own API and its ~standard", () => {
    let compared = 0;
    for (const [component, valid, invalid] of KEYWORDS) {
      const name = exportName(component);
      const zod = zodSchemas.components[name]!;
      for (const value of [...valid, ...invalid.map(([value]) => value)]) {
        const ours = schemas.components[name]!["~standard"].validate(value).issues === undefined;
        expect(zod.safeParse(value).success, `${component} ${JSON.stringify(value)}`).toBe(ours);
        expect(zod["~standard"].validate(value), `${component} ${JSON.stringify(value)}`).toMatchObject(ours ? { value } : { issues: expect.any(Array) });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it("request parts fill defaults and ignore readOnly properties, response parts ignore writeOnly ones, as the router does", () => {
    const { putItem } = zodSchemas.operations;
    expect(putItem!.body!.safeParse({ name: "a", secret: "s" })).toMatchObject({ success: true, data: { name: "a", secret: "s", color: "red" } });
    expect(putItem!.responses!["200"]!.safeParse({ id: 1, name: "a" }).success).toBe(true);
    expect(putItem!.responses!["200"]!.safeParse({ name: "a" }).success).toBe(false);
    expect(zodSchemas.components.Item!.safeParse({ id: 1, name: "a" }).success).toBe(false);
  });

  it("only the zod output imports zod; specforge's imports nothing but its own modules", () => {
    const imports = (folder: string) =>
      readdirSync(join(project, folder), { recursive: true, encoding: "utf8" })
        .filter((file) => /\.(ts|js)$/.test(file))
        .flatMap((file) => [...readFileSync(join(project, folder, file), "utf8").matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*"([^"\n]+)"/gm)].map((match) => match[1]!))
        .filter((specifier) => !specifier.startsWith("."));
    expect(new Set(imports("out"))).toEqual(new Set());
    expect(new Set(imports("out-ts"))).toEqual(new Set());
    expect(new Set(imports("zod"))).toEqual(new Set(["zod"]));
  });
});

describe("types", () => {
  it.each(["out", "out-ts", "zod", "zod-ts"])("%s: StandardSchemaV1.InferOutput of each schema is the openapi-typescript type, and each is a StandardSchemaV1 of @standard-schema/spec (strict tsc)", async (folder) => {
    const dir = join(project, `types-${folder}`);
    mkdirSync(dir);
    symlinkSync(join(project, folder), join(dir, "out"), "dir");
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    writeFileSync(
      join(dir, "consumer.ts"),
      `import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { components, paths } from "./out/schema.js";
import { schemas } from "./out/index.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(_proof: Equal<A, B>) => {};

same<StandardSchemaV1.InferOutput<typeof schemas.components.Item>, components["schemas"]["Item"]>(true);
same<StandardSchemaV1.InferOutput<typeof schemas.components.Pet>, components["schemas"]["Pet"]>(true);
same<StandardSchemaV1.InferOutput<typeof schemas.components.oddName1>, components["schemas"]["odd name-1"]>(true);
same<StandardSchemaV1.InferOutput<typeof schemas.operations.putItem.body>, paths["/items/{itemId}"]["put"]["requestBody"]["content"]["application/json"]>(true);
same<StandardSchemaV1.InferOutput<typeof schemas.operations.putItem.query>, NonNullable<paths["/items/{itemId}"]["put"]["parameters"]["query"]>>(true);
same<StandardSchemaV1.InferOutput<typeof schemas.operations.putItem.responses["4XX"]>, paths["/items/{itemId}"]["put"]["responses"]["4XX"]["content"]["application/problem+json"]>(true);
same<StandardSchemaV1.InferOutput<typeof schemas.components.Item>, number>(false);

const consumer = <S extends StandardSchemaV1>(schema: S): S => schema;
consumer(schemas.components.Tree);
consumer(schemas.operations.getItem.path);

const result = schemas.components.Item["~standard"].validate({});
if (result instanceof Promise) throw new Error("a generated schema answers synchronously");
if (result.issues === undefined) {
  const name: string = result.value.name;
  console.log(name);
} else {
  const where: readonly (PropertyKey | { key: PropertyKey })[] | undefined = result.issues[0]?.path;
  console.log(where);
}
`,
    );
    const { code, output } = await typecheck(dir);
    expect(output).toBe("");
    expect(code).toBe(0);
  }, 120_000);
});

describe("bundles", () => {
  const bundle = async (source: string) => {
    const result = await build({
      stdin: { contents: source, resolveDir: project, loader: "ts" },
      bundle: true,
      write: false,
      minify: true,
      format: "esm",
      platform: "neutral",
      logLevel: "silent",
    });
    return result.outputFiles[0]!.text;
  };

  it("one schema imported alone ships that schema, the schemas it $refs and the engine; not the other schemas", async () => {
    const code = await bundle(`import { Closed } from "./out-ts/schemas-components.ts"; console.log(Closed["~standard"].validate({ a: "x" }));`);
    expect(code).toContain("#/components/schemas/Closed");
    expect(code).not.toContain("#/components/schemas/Text");
    expect(code).not.toContain("#/components/schemas/Pet");
    const both = await bundle(`import { Both } from "./out-ts/schemas-components.ts"; console.log(Both["~standard"].validate({}));`);
    expect(both).toContain("#/components/schemas/Closed");
    expect(both).not.toContain("#/components/schemas/Tree");
    const operation = await bundle(`import { getItem } from "./out-ts/schemas-operations.ts"; console.log(getItem.path["~standard"].validate({}));`);
    expect(operation).not.toContain("#/components/schemas/Text");
    expect(operation).not.toContain("X-Request-Id");
    expect(operation).toContain("#/components/schemas/Item");
  });

  it("a client without validateResponses bundles no validator, even imported from the index that re-exports the schemas", async () => {
    const code = await bundle(`import { createClient } from "./out-ts/index.ts"; console.log(createClient({ baseUrl: "http://x" }));`);
    expect(code).not.toContain("schemas/");
    expect(code).not.toContain("does not match its schema");
    expect(code).not.toContain("minContains");
  });
});

describe("the client's validateResponses, over HTTP", () => {
  let server: Server;
  let baseUrl: string;
  let reply: { status: number; body: unknown; type?: string } = { status: 200, body: {} };

  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.writeHead(reply.status, { "content-type": reply.type ?? "application/json" });
      response.end(JSON.stringify(reply.body));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  interface ClientModule {
    createClient(options: object): { getItem(input: object): Promise<unknown> };
    ApiError: new (...args: never[]) => Error;
  }

  it("off by default; on, a body that does not match rejects with a ResponseValidationError carrying the issues, success or error", async () => {
    const { createClient, ApiError } = (await import(pathToFileURL(join(out, "client.js")).href)) as ClientModule;
    const plain = createClient({ baseUrl });
    const checked = createClient({ baseUrl, validateResponses: schemas.validateResponse });

    reply = { status: 200, body: { id: 1, name: "a", color: "blue" } };
    await expect(checked.getItem({ path: { itemId: 1 } })).resolves.toEqual({ id: 1, name: "a", color: "blue" });

    reply = { status: 200, body: { id: "1", name: "a" } };
    await expect(plain.getItem({ path: { itemId: 1 } })).resolves.toEqual({ id: "1", name: "a" });
    const failure = await checked.getItem({ path: { itemId: 1 } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(schemas.ResponseValidationError);
    expect(failure).toMatchObject({ operation: "getItem", status: 200, issues: [{ message: "Input should be a valid integer", path: ["id"] }] });

    // getItem declares no error response: an error body is not checked, and the call fails as it always does.
    reply = { status: 404, body: { anything: true } };
    await expect(checked.getItem({ path: { itemId: 1 } })).rejects.toBeInstanceOf(ApiError);
  });
});
