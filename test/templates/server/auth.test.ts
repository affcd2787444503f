import { describe, expect, it } from "vitest";
import { createRouterRuntime, type RouteSpec } from "../../../templates/server/index.js";

/**
 * The credentials the router hands to `authenticate` are keyed by security scheme: a scheme whose key is an
 * Object.prototype name is an own key like any other, never the prototype of the credentials object.
 */
const document = {
  components: {
    securitySchemes: {
      ["__proto__"]: { type: "apiKey", in: "header", name: "X-Proto" },
      constructor: { type: "apiKey", in: "cookie", name: "ctor" },
    },
  },
};

const route: RouteSpec = {
  name: "guarded",
  method: "GET",
  path: "/guarded",
  secured: true,
  security: [[{ scheme: "__proto__", scopes: [] }, { scheme: "constructor", scopes: [] }]],
  params: { path: [], query: [], header: [], cookie: [] },
  responses: { "200": { content: { "application/json": { schema: {} } } } },
  validationErrorStatus: 422,
};

describe("credentials handed to authenticate", () => {
  it("keep a scheme named __proto__ (or constructor) as an own key", async () => {
    let seen: Record<string, unknown> | undefined;
    const router = createRouterRuntime(document, [route], { guarded: () => ({ status: 200, body: { ok: true } }) }, {
      authenticate: (credentials: Record<string, unknown>) => {
        seen = credentials;
        return { user: "u" };
      },
    });
    const res = await router.fetch(new Request("http://api.test/guarded", { headers: { "x-proto": "p-1", cookie: "ctor=c-1" } }));
    expect(res.status).toBe(200);
    expect(Object.getPrototypeOf(seen)).toBe(Object.prototype);
    expect(Object.keys(seen!)).toEqual(["__proto__", "constructor"]);
    expect(Object.getOwnPropertyDescriptor(seen, "__proto__")?.value).toEqual({ type: "apiKey", in: "header", name: "X-Proto", value: "p-1" });
    expect(seen!.constructor).toEqual({ type: "apiKey", in: "cookie", name: "ctor", value: "c-1" });
  });
});
