import { describe, expect, it } from "vitest";
import { createRouterRuntime, type RouteSpec } from "../../../templates/server/index.js";

/**
 * JSON request bodies are validated before their objects lose their prototypes (V8 reads absent properties of
 * ordinary objects faster), then every object of the body, defaults included, is made to inherit nothing. These
 * pin what a handler sees, whatever the order inside the router.
 */
const BASE = "http://api.test";

const document = {
  components: {
    schemas: {
      Shape: {
        oneOf: [{ $ref: "#/components/schemas/Circle" }, { $ref: "#/components/schemas/Square" }],
        discriminator: { propertyName: "constructor" },
      },
      Circle: { type: "object", required: ["constructor"], properties: { constructor: { type: "string", const: "circle" }, r: { type: "number" } } },
      Square: { type: "object", required: ["constructor"], properties: { constructor: { type: "string", const: "square" }, side: { type: "number" } } },
    },
  },
};

function router() {
  const spec: RouteSpec = {
    name: "create",
    method: "POST",
    path: "/things",
    secured: false,
    params: { path: [], query: [], header: [], cookie: [] },
    body: {
      required: true,
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: {
              options: { type: "object", properties: { level: { type: "integer" } }, default: { level: 1 } },
              ["__proto__"]: { type: "object", default: { admin: false } },
              shape: { $ref: "#/components/schemas/Shape" },
              nested: { type: "array", items: { type: "object" } },
            },
          },
        },
      },
    },
    responses: { "200": { content: { "application/json": { schema: {} } } } },
    validationErrorStatus: 422,
  };
  const inheritsNothing = (value: object) => !("toString" in value) && !("constructor" in value) && !("hasOwnProperty" in value);
  /** Every object and array element of a value, also where no schema describes it, checked the same way. */
  const everyObjectInheritsNothing = (value: unknown): boolean =>
    value === null || typeof value !== "object"
      ? true
      : Array.isArray(value)
        ? value.every(everyObjectInheritsNothing)
        : inheritsNothing(value) && Object.values(value).every(everyObjectInheritsNothing);
  return createRouterRuntime(
    document,
    [spec],
    {
      create: ({ body }: { body: Record<string, Record<string, unknown>[] & Record<string, unknown>> }) => ({
        status: 200,
        body: {
          keys: Object.keys(body),
          ownProto: Object.hasOwn(body, "__proto__") ? body["__proto__"] : "absent",
          inheritsNothing: {
            body: inheritsNothing(body),
            defaultedOptions: inheritsNothing(body.options!),
            defaultedProtoKey: inheritsNothing(Object.getOwnPropertyDescriptor(body, "__proto__")!.value as object),
            nested: (body.nested ?? []).map((item) => inheritsNothing(item)),
            everyObject: everyObjectInheritsNothing(body),
          },
        },
      }),
    },
    {},
  );
}

const post = (body: string) => router().fetch(new Request(`${BASE}/things`, { method: "POST", headers: { "content-type": "application/json" }, body }));

describe("JSON request bodies", () => {
  it("fill defaults that inherit nothing, like the rest of the body, and keep a defaulted __proto__ as a key", async () => {
    const res = await post('{"nested":[{"a":1},{"b":2}]}');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      keys: ["nested", "options", "__proto__"],
      ownProto: { admin: false },
      inheritsNothing: { body: true, defaultedOptions: true, defaultedProtoKey: true, nested: [true, true], everyObject: true },
    });
  });

  it("make objects no schema describes inherit nothing too, however deep, and keep a __proto__ key as data", async () => {
    const res = await post('{"extra":{"deeper":[{"__proto__":{"admin":true},"deepest":{"x":[{}]}}]},"nested":[{"free":{"form":{}}}]}');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      keys: ["extra", "nested", "options", "__proto__"],
      inheritsNothing: { body: true, nested: [true], everyObject: true },
    });
  });

  it("read a discriminator named like an Object.prototype member only from the object itself", async () => {
    const missing = await post('{"shape":{"r":1}}');
    expect(missing.status).toBe(422);
    expect((await missing.json()).errors).toEqual([
      { loc: ["body", "shape"], msg: "Unable to extract tag using discriminator 'constructor'", type: "union_tag_not_found" },
    ]);
    const ok = await post('{"shape":{"constructor":"square","side":2}}');
    expect(ok.status).toBe(200);
  });

  it("refuse nesting deeper than the limit at the bracket that crosses it, before and after a parse error", async () => {
    const deep = `{"nested":[${"[".repeat(200)}${"]".repeat(200)}]}`;
    const res = await post(deep);
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toEqual([{ loc: ["body", 137], msg: "JSON is nested more than 128 levels deep", type: "too_deep" }]);
    // Also when the validators find something wrong as well (they look before the depth is checked): the bracket
    // opening level 129 is the 128th after the root object.
    const deepAndInvalid = `{"options":"not an object","shape":{"constructor":"hexagon"},"nested":[${"[".repeat(200)}${"]".repeat(200)}]}`;
    const invalid = await post(deepAndInvalid);
    expect(invalid.status).toBe(422);
    expect((await invalid.json()).errors).toEqual([{ loc: ["body", deepAndInvalid.indexOf("[[") + 127], msg: "JSON is nested more than 128 levels deep", type: "too_deep" }]);
    const deepAndBroken = `{"nested":[${"[".repeat(200)}`;
    expect((await (await post(deepAndBroken)).json()).errors).toEqual([{ loc: ["body", 137], msg: "JSON is nested more than 128 levels deep", type: "too_deep" }]);
  });

  it("count the client's nesting only: defaults filled deeper than the limit are kept and inherit nothing", async () => {
    const spec: RouteSpec = {
      name: "create",
      method: "POST",
      path: "/things",
      secured: false,
      params: { path: [], query: [], header: [], cookie: [] },
      body: {
        required: true,
        content: { "application/json": { schema: { type: "object", properties: { a: { type: "object", default: { b: { c: { d: {} } } } } } } } },
      },
      responses: { "200": { content: { "application/json": { schema: {} } } } },
      validationErrorStatus: 422,
    };
    const deepest = (body: Record<string, any>) => body.a.b.c.d as object;
    const shallow = createRouterRuntime(document, [spec], { create: ({ body }: { body: Record<string, any> }) => ({ status: 200, body: { d: deepest(body), inherits: "toString" in deepest(body) } }) }, { maxDepth: 2 });
    const res = await shallow.fetch(new Request(`${BASE}/things`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ d: {}, inherits: false });
    const tooDeep = await shallow.fetch(new Request(`${BASE}/things`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"x":{"y":{}}}' }));
    expect((await tooDeep.json()).errors).toEqual([{ loc: ["body", 10], msg: "JSON is nested more than 2 levels deep", type: "too_deep" }]);
  });
});
