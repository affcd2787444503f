import { describe, expect, it } from "vitest";
import { createRouter, document, routes } from "./fixtures/server.js";
import { compileValidator, mockFromSchema, type MockIssue, type Schema, type SchemaDocument } from "../../../templates/server/index.js";

const BASE = "http://mock.test";
const token = { authorization: "Bearer whatever-the-sdk-sends" };

/** A valid request for each fixture route (mock mode still validates input). */
const requests: Record<string, { path: string; body?: unknown; headers?: Record<string, string> }> = {
  createChatCompletion: { path: "/v1/chat/completions", body: { messages: [{ role: "user", content: "hi" }] } },
  listModels: { path: "/v1/models" },
  createModel: { path: "/v1/preview/models", body: { project: "p", name: "m", base_model: "b" } },
  deleteModel: { path: "/v1/preview/models/m1" },
  listModelCheckpoints: { path: "/v1/preview/models/m1/checkpoints?limit=3" },
  logTrajectories: { path: "/v1/preview/models/m1/log", body: { split: "train", trajectory_groups: [] } },
  createSftTrainingJob: { path: "/v1/preview/sft-training-jobs", body: { model_id: "00000000-0000-4000-8000-000000000000", training_data_url: "wandb-artifact:///e/p/n:v0" } },
  listTrainingJobEvents: { path: "/v1/preview/training-jobs/00000000-0000-4000-8000-000000000000/events" },
  healthCheck: { path: "/v1/health" },
  compareRefs: { path: "/v1/repos/a/b/compare/main...dev" },
  getFile: { path: "/v1/files/readme.md" },
  getTree: { path: "/v1/tree" },
  submitFeedback: { path: "/v1/feedback", body: { rating: 5 } },
};

function send(router: { fetch(r: Request): Promise<Response> }, method: string, path: string, body?: unknown, headers: Record<string, string> = token) {
  return router.fetch(
    new Request(`${BASE}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}

describe("mock mode", () => {
  const router = createRouter({}, { mock: true });

  it("every fixture route answers its first 2xx response, valid against the declared schema", async () => {
    for (const route of routes) {
      const request = requests[route.name];
      expect(request, `request for ${route.name}`).toBeDefined();
      const res = await send(router, route.method, route.path.endsWith("/") ? `${request.path}/` : request.path, request.body);
      const status = Object.keys(route.responses).filter((s) => s.startsWith("2")).sort()[0];
      expect(res.status, `${route.name} status`).toBe(Number(status));
      const content = route.responses[status].content;
      if (!content) {
        expect(await res.text()).toBe("");
        continue;
      }
      const [media, spec] = Object.entries(content)[0];
      expect(res.headers.get("content-type")).toContain(media);
      const body = media.includes("json") ? await res.json() : await res.text();
      const issues = compileValidator(spec.schema, document, { direction: "response" })(body, ["response"]);
      expect(issues, `${route.name}: ${JSON.stringify(body)}`).toEqual([]);
    }
  });

  it("prefers declared examples", async () => {
    expect(await (await send(router, "GET", "/v1/health", undefined, {})).json()).toEqual({ status: "ok" });
    const job = await send(router, "POST", "/v1/preview/sft-training-jobs", requests.createSftTrainingJob.body);
    expect(job.status).toBe(201);
    expect(await job.json()).toEqual({ id: "3b241101-e2bb-4255-8caf-4136c566a962" });
    const model = await (await send(router, "POST", "/v1/preview/models", requests.createModel.body)).json();
    expect(model).toMatchObject({ id: "00000000-0000-4000-8000-000000000000", entity: "string", run_id: "string", created_at: "1970-01-01T00:00:00Z" });
  });

  it("is deterministic", async () => {
    const a = await (await send(router, "GET", "/v1/preview/training-jobs/00000000-0000-4000-8000-000000000000/events")).text();
    const b = await (await send(router, "GET", "/v1/preview/training-jobs/00000000-0000-4000-8000-000000000000/events")).text();
    expect(a).toBe(b);
    expect(JSON.parse(a).data[0]).toEqual({ id: "00000000-0000-4000-8000-000000000000", type: "training_started", data: { num_sequences: 0 } });
  });

  it("streams generated events, each valid for the event schema, when the client only accepts text/event-stream", async () => {
    const res = await router.fetch(
      new Request(`${BASE}/v1/chat/completions`, {
        method: "POST",
        headers: { ...token, accept: "text/event-stream", "content-type": "application/json" },
        body: JSON.stringify(requests.createChatCompletion.body),
      }),
    );
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const text = await res.text();
    const events = text.split("\n\n").filter(Boolean);
    expect(events.pop()).toBe("data: [DONE]");
    expect(events.length).toBe(3);
    const schema = routes[0].responses["200"].content!["text/event-stream"].schema;
    for (const event of events) {
      const chunk = JSON.parse(event.slice("data: ".length));
      expect(compileValidator(schema, document, { direction: "response" })(chunk)).toEqual([]);
    }
  });

  it("still validates requests and requires a bearer token (any token) on secured operations", async () => {
    const invalid = await send(router, "POST", "/v1/preview/models", { project: "p" });
    expect(invalid.status).toBe(422);
    const anonymous = await send(router, "GET", "/v1/models", undefined, {});
    expect(anonymous.status).toBe(401);
    expect((await send(router, "GET", "/v1/models")).status).toBe(200);
  });

  it("uses authenticate when given, and real handlers win over mocks", async () => {
    const mixed = createRouter(
      { healthCheck: () => ({ status: 200, body: { status: "degraded" } }) },
      { mock: true, authenticate: ({ HTTPBearer }) => (HTTPBearer.token === "real" ? {} : null) },
    );
    expect(await (await send(mixed, "GET", "/v1/health", undefined, {})).json()).toEqual({ status: "degraded" });
    expect((await send(mixed, "GET", "/v1/models")).status).toBe(401);
    expect((await send(mixed, "GET", "/v1/models", undefined, { authorization: "Bearer real" })).status).toBe(200);
  });

  it("without mock mode the same router answers 501", async () => {
    const res = await send(createRouter({}, { insecureNoAuth: true }), "GET", "/v1/models");
    expect(res.status).toBe(501);
  });
});

describe("mockFromSchema", () => {
  const valid = (schema: Schema, doc: SchemaDocument = {}) => {
    const value = mockFromSchema(schema, doc);
    expect(compileValidator(schema, doc, { direction: "response" })(value), JSON.stringify(value)).toEqual([]);
    return value;
  };

  it("scalars: const, enum, formats, bounds", () => {
    expect(valid({ const: 7 })).toBe(7);
    expect(valid({ type: "string", enum: ["b", "a"] })).toBe("b");
    expect(valid({ type: ["null", "string"], enum: [null, "x"] })).toBe("x");
    expect(valid({ type: "string", format: "uuid" })).toBe("00000000-0000-4000-8000-000000000000");
    expect(valid({ type: "string", format: "date-time" })).toBe("1970-01-01T00:00:00Z");
    expect(valid({ type: "string", format: "date" })).toBe("1970-01-01");
    expect(valid({ type: "string", format: "email" })).toBe("user@example.com");
    expect(valid({ type: "string" })).toBe("string");
    expect(valid({ type: "string", minLength: 10 })).toBe("stringxxxx");
    expect(valid({ type: "string", maxLength: 3 })).toBe("str");
    expect(valid({ type: "string", pattern: "^[0-9]+$" })).toBe("0");
    expect(valid({ type: "integer", minimum: 1, maximum: 100 })).toBe(1);
    expect(valid({ type: "integer", exclusiveMinimum: 5 })).toBe(6);
    expect(valid({ type: "number", minimum: 0, exclusiveMinimum: true, multipleOf: 0.5 })).toBe(0.5);
    expect(valid({ type: "integer", maximum: -3 })).toBe(-3);
    expect(valid({ type: "integer", minimum: 3, multipleOf: 4 })).toBe(4);
    expect(valid({ type: "boolean" })).toBe(false);
    expect(valid({ type: "string", example: "hello" })).toBe("hello");
    expect(valid({ type: "string", examples: ["bad"], enum: ["good"] })).toBe("good");
    expect(valid({ type: "integer", default: 20, minimum: 1 })).toBe(20);
    expect(valid({ type: "integer", example: "not an int" })).toBe(0);
  });

  it("objects and arrays: required + optional properties, minItems, uniqueItems, writeOnly skipped", () => {
    expect(
      valid({
        type: "object",
        required: ["a"],
        properties: { a: { type: "integer" }, b: { type: "string" }, secret: { type: "string", writeOnly: true } },
      }),
    ).toEqual({ a: 0, b: "string" });
    expect(valid({ type: "array", items: { type: "string" } })).toEqual(["string"]);
    expect(valid({ type: "array", items: { type: "integer" }, minItems: 3, uniqueItems: true })).toEqual([0, 1, 2]);
    expect(valid({ type: "array", items: { type: "string", format: "uuid" }, minItems: 2, uniqueItems: true })).toHaveLength(2);
    expect(valid({ type: "array", maxItems: 0 })).toEqual([]);
    expect(valid({ type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false })).toEqual(["string", 0]);
    expect(valid({ type: "object", additionalProperties: { type: "number" }, minProperties: 1 })).toEqual({ property1: 0 });
  });

  it("leaves out of requests the properties readOnly through their $ref or an allOf member (and writeOnly ones out of responses)", () => {
    const doc: SchemaDocument = {
      components: {
        schemas: {
          Connection: { type: "object", properties: { uri: { type: "string" } } },
          Id: { $ref: "#/components/schemas/ReadOnlyId" },
          ReadOnlyId: { type: "integer", readOnly: true },
        },
      },
    };
    const cluster: Schema = {
      type: "object",
      properties: {
        name: { type: "string" },
        id: { $ref: "#/components/schemas/Id" },
        connection: { allOf: [{ $ref: "#/components/schemas/Connection" }, { readOnly: true }] },
        password: { allOf: [{ type: "string" }, { writeOnly: true }] },
      },
    };
    expect(mockFromSchema(cluster, doc, { direction: "request" })).toEqual({ name: "string", password: "string" });
    expect(mockFromSchema(cluster, doc, { direction: "response" })).toEqual({ name: "string", id: 0, connection: { uri: "string" } });
  });

  it("compositions: first working union branch, allOf merged, discriminator tags", () => {
    expect(valid({ anyOf: [{ type: "null" }, { type: "integer", minimum: 2 }] })).toBe(2);
    expect(valid({ oneOf: [{ type: "string", maxLength: 2 }, { type: "integer" }] })).toBe("st");
    expect(valid({ oneOf: [{ type: "object", required: ["a"] }, { type: "object", required: ["b"], properties: { b: { type: "string" } } }] })).toEqual({ a: "string" });
    const doc: SchemaDocument = {
      components: {
        schemas: {
          Base: { type: "object", required: ["id"], properties: { id: { type: "string", format: "uuid" } } },
          Cat: { allOf: [{ $ref: "#/components/schemas/Base" }, { type: "object", required: ["kind"], properties: { kind: { type: "string" }, lives: { type: "integer", minimum: 9 } } }] },
          Dog: { type: "object", required: ["kind"], properties: { kind: { type: "string" } } },
        },
      },
    };
    expect(valid({ $ref: "#/components/schemas/Cat" }, doc)).toEqual({ id: "00000000-0000-4000-8000-000000000000", kind: "string", lives: 9 });
    const pet = {
      oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
      discriminator: { propertyName: "kind", mapping: { cat: "#/components/schemas/Cat", dog: "#/components/schemas/Dog" } },
    };
    // Every Cat is also a Dog (an object with a string `kind`): only a Dog matches exactly one branch, which JSON
    // Schema asks of `oneOf` (the discriminator, OpenAPI says, does not change the outcome).
    expect(valid(pet, doc)).toEqual({ kind: "dog" });
    const implicit = { oneOf: [{ $ref: "#/components/schemas/Dog" }], discriminator: { propertyName: "kind" } };
    expect(valid(implicit, doc)).toEqual({ kind: "Dog" });
  });

  it("`variant` picks other valid values; `strings` are tried first for free text, in turn from the variant", () => {
    const schema: Schema = { type: "object", required: ["kind", "on", "n", "text", "id", "short"], properties: {
      kind: { enum: ["a", "b", "c"] }, on: { type: "boolean" }, n: { type: "integer", minimum: 1, maximum: 5 },
      text: { type: "string" }, id: { type: "string", format: "uuid" }, short: { type: "string", maxLength: 3 },
    } };
    const strings = ["a b&c", "Zoë ✓ 😀"];
    expect(mockFromSchema(schema, {}, { strings })).toEqual({ kind: "a", on: false, n: 1, text: "a b&c", id: "00000000-0000-4000-8000-000000000000", short: "a b" });
    const second = mockFromSchema(schema, {}, { strings, variant: 1 });
    expect(second).toEqual({ kind: "b", on: true, n: 2, text: "Zoë ✓ 😀", id: "00000000-0000-4000-8000-000000000001", short: "Zoë" });
    expect(compileValidator(schema, {}, { direction: "response" })(second)).toEqual([]);
    // A string cut to maxLength keeps whole code points: never half an emoji (a lone surrogate is not UTF-8).
    expect(mockFromSchema({ type: "string", maxLength: 5 }, {}, { strings: ["ab😀😀😀"] })).toBe("ab😀😀😀");
    expect(mockFromSchema({ type: "string", maxLength: 3 }, {}, { strings: ["ab😀😀😀"] })).toBe("ab😀");
    // A string that the schema refuses is passed over.
    expect(mockFromSchema({ type: "string", pattern: "^[a-z]+$" }, {}, { strings })).toBe("string");
  });

  it("uniqueItems: items a pattern makes equal are varied until distinct (Discord's snowflakes)", () => {
    const snowflakes: Schema = { type: "array", uniqueItems: true, minItems: 2, items: { type: "string", pattern: "^(0|[1-9][0-9]*)$" } };
    const value = valid(snowflakes) as string[];
    expect(new Set(value).size).toBe(2);
  });

  it("an optional property no generated value satisfies is left out; a required one stays (the value is then invalid, and reported)", () => {
    const color = { type: "string", pattern: "^#(([0-9a-fA-F]{2}){3}|([0-9a-fA-F]){3})$" };
    const never = { type: "string", pattern: "^(?!a)a$" };
    expect(valid({ type: "object", required: ["text"], properties: { text: { type: "string" }, color, never, action: { type: "string", enum: [] } } })).toEqual({ text: "string", color: "#000000" });
    const issues: MockIssue[] = [];
    expect(mockFromSchema({ type: "object", required: ["never"], properties: { never } }, {}, { onIssue: (issue) => issues.push(issue) })).toEqual({ never: "string" });
    expect(issues).toEqual([{ at: "/never", message: 'no string was found that matches the pattern "^(?!a)a$" within the length bounds' }]);
  });

  it("\"one of these is required\" and \"not both\" (OpenAI's anyOf of required lists beside properties, and not)", () => {
    const ref = {
      type: "object",
      properties: { image_url: { type: "string", format: "uri" }, file_id: { type: "string" } },
      anyOf: [{ required: ["image_url"] }, { required: ["file_id"] }],
      not: { required: ["image_url", "file_id"] },
      additionalProperties: false,
    };
    expect(valid(ref as Schema)).toEqual({ image_url: "https://example.com" });
    const batch = { type: "object", properties: { file_ids: { type: "array", minItems: 1, items: { type: "string" } } }, anyOf: [{ required: ["file_ids"] }] };
    expect(valid(batch as Schema)).toEqual({ file_ids: ["string"] });
  });

  it("`required: true` on a property (Swagger 2.0's spelling) is ignored", () => {
    // (The schema type says `required` is a list: the spec is outside it, as specs often are.)
    const swagger2 = (schema: object) => schema as unknown as Schema;
    expect(valid(swagger2({ type: "object", properties: { a: { type: "string", required: true } } }))).toEqual({ a: "string" });
    expect(valid(swagger2({ allOf: [{ type: "object", required: true, properties: { a: { type: "integer" } } }] }))).toEqual({ a: 0 });
  });

  it("cuts recursion off by dropping optional properties and emptying arrays", () => {
    const tree = valid({ $ref: "#/components/schemas/TreeNode" }, document) as { children: { children: unknown[] }[]; parent: unknown };
    expect(tree.children[0].children).toEqual([]);
    expect(tree.parent).toEqual({ name: "string", children: [] });
    const doc: SchemaDocument = {
      components: { schemas: { Linked: { type: "object", required: ["value"], properties: { value: { type: "integer" }, next: { $ref: "#/components/schemas/Linked" } } } } },
    };
    const list = valid({ $ref: "#/components/schemas/Linked" }, doc);
    expect(list).toEqual({ value: 0, next: { value: 0 } });
  });

  it("the fixture's components all produce valid values", () => {
    for (const name of Object.keys(document.components!.schemas!)) valid({ $ref: `#/components/schemas/${name}` }, document);
  });
});
