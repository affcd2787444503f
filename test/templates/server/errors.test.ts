import { describe, expect, it } from "vitest";
import { createRouterRuntime, HttpError, type ResponseSpec, type RouteSpec, type Schema } from "../../../templates/server/index.js";

/**
 * The router's own error bodies take the shape the operation declares for the status (templates/server/errors.ts).
 * Each row: the declared response of a secured operation for 401 and 422, what a missing token gets, and what an
 * invalid body gets.
 */

const json = (schema: Schema): ResponseSpec => ({ content: { "application/json": { schema } } });
const detailString = { type: "object", required: ["detail"], properties: { detail: { type: "string" } } };
const detailList = {
  type: "object",
  properties: { detail: { type: "array", items: { type: "object", required: ["loc", "msg", "type"], properties: { loc: { type: "array", items: { anyOf: [{ type: "string" }, { type: "integer" }] } }, msg: { type: "string" }, type: { type: "string" } } } } },
};
const openai = {
  type: "object",
  required: ["error"],
  properties: { error: { type: "object", required: ["message", "type", "param", "code"], properties: { message: { type: "string" }, type: { type: "string" }, param: { type: ["string", "null"] }, code: { type: ["string", "null"] } } } },
};
// Stripe's `error` response: `type` is an enum, `param` and `code` are plain strings (never null).
const stripe = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["type"],
      properties: { type: { type: "string", enum: ["api_error", "card_error", "idempotency_error", "invalid_request_error"] }, message: { type: "string" }, param: { type: "string" }, code: { type: "string" } },
    },
  },
};
const github = { type: "object", properties: { message: { type: "string" }, documentation_url: { type: "string" }, url: { type: "string" }, status: { type: "string" } } };
const githubValidation = { type: "object", required: ["message", "documentation_url"], properties: { message: { type: "string" }, documentation_url: { type: "string" }, errors: { type: "array" } } };
const petstore = { type: "object", required: ["code", "message"], properties: { code: { type: "integer", format: "int32" }, message: { type: "string" } } };

function router(responses: Record<string, ResponseSpec>, options: Parameters<typeof createRouterRuntime>[3] = {}) {
  const route: RouteSpec = {
    name: "op",
    method: "POST",
    path: "/op",
    secured: true,
    params: { path: [], query: [], header: [] },
    body: { required: true, content: { "application/json": { schema: { type: "object", required: ["name"], properties: { name: { type: "string" } } } } } },
    responses: { "200": json({ type: "object" }), ...responses },
    validationErrorStatus: "422" in responses ? 422 : 400,
  };
  return createRouterRuntime({}, [route], { op: () => ({ status: 200, body: {} }) }, { authenticate: () => ({}), ...options });
}

async function answers(responses: Record<string, ResponseSpec>) {
  const app = router(responses);
  const unauthorized = await app.fetch(new Request("http://x/op", { method: "POST" }));
  const invalid = await app.fetch(new Request("http://x/op", { method: "POST", headers: { authorization: "Bearer t", "content-type": "application/json" }, body: "{}" }));
  const text = async (res: Response) => ({ status: res.status, type: res.headers.get("content-type"), body: (await res.text()) || undefined });
  return { unauthorized: await text(unauthorized), invalid: await text(invalid) };
}

const missingName = [{ loc: ["body", "name"], msg: "Field required", type: "missing" }];

describe("error bodies in the declared shape", () => {
  it("FastAPI: {detail} and HTTPValidationError's {detail: [{loc, msg, type}]}", async () => {
    const { unauthorized, invalid } = await answers({ "401": json(detailString), "422": json(detailList) });
    expect(unauthorized).toEqual({ status: 401, type: "application/json", body: JSON.stringify({ detail: "Not authenticated" }) });
    expect(JSON.parse(invalid.body!)).toEqual({ detail: missingName });
  });

  it("a {detail: string} schema for validation errors gets the problems in one sentence", async () => {
    const { invalid } = await answers({ "400": json(detailString) });
    expect(JSON.parse(invalid.body!)).toEqual({ detail: "Request validation failed: body.name: Field required" });
  });

  it("OpenAI: {error: {message, type, param, code}} with nullable param and code", async () => {
    const { unauthorized, invalid } = await answers({ "401": json(openai), "400": json(openai) });
    expect(JSON.parse(unauthorized.body!)).toEqual({ error: { message: "Not authenticated", type: "invalid_request_error", param: null, code: "unauthorized" } });
    expect(JSON.parse(invalid.body!)).toEqual({ error: { message: "Request validation failed: body.name: Field required", type: "invalid_request_error", param: "name", code: "validation_error" } });
  });

  it("Stripe: the envelope without nulls, and a 5xx is an api_error", async () => {
    const app = createRouterRuntime(
      {},
      [{ name: "op", method: "GET", path: "/op", secured: true, params: { path: [], query: [], header: [] }, responses: { "200": json({}), default: json(stripe) }, validationErrorStatus: 400 }],
      { op: () => Promise.reject(new Error("down")) },
      { authenticate: () => ({}), onError: () => undefined },
    );
    const unauthorized = await app.fetch(new Request("http://x/op"));
    expect(await unauthorized.json()).toEqual({ error: { message: "Not authenticated", type: "invalid_request_error", code: "unauthorized" } });
    const crashed = await app.fetch(new Request("http://x/op", { headers: { authorization: "Bearer t" } }));
    expect(await crashed.json()).toEqual({ error: { message: "Internal Server Error", type: "api_error", code: "internal_error" } });
  });

  it("GitHub's basic-error: {message}; its validation-error (documentation_url required) cannot be made: problem details", async () => {
    const { unauthorized, invalid } = await answers({ "401": json(github), "422": json(githubValidation) });
    expect(JSON.parse(unauthorized.body!)).toEqual({ message: "Not authenticated" });
    expect(invalid.type).toBe("application/problem+json");
  });

  it("petstore's {code: integer, message} under `default`", async () => {
    const { unauthorized } = await answers({ default: json(petstore) });
    expect(JSON.parse(unauthorized.body!)).toEqual({ code: 401, message: "Not authenticated" });
  });

  it("a declared application/problem+json is used as declared; text/plain gets the sentence; no content gets no body", async () => {
    const problem = await answers({ "401": { content: { "application/problem+json": { schema: { type: "object", required: ["title"] } } } } });
    expect(problem.unauthorized.type).toBe("application/problem+json");
    expect(JSON.parse(problem.unauthorized.body!)).toEqual({ type: "about:blank", title: "Unauthorized", status: 401, detail: "Not authenticated", instance: "/op" });
    const text = await answers({ "401": { content: { "text/plain": { schema: { type: "string" } } } } });
    expect(text.unauthorized).toEqual({ status: 401, type: "text/plain", body: "Not authenticated" });
    const none = await answers({ "401": {} });
    expect(none.unauthorized).toEqual({ status: 401, type: null, body: undefined });
  });

  it("a free-form or unsatisfiable schema, or nothing declared: RFC 9457 problem details, problems in `errors`", async () => {
    const declarations: Record<string, ResponseSpec>[] = [{ "401": json({}), "400": json({ type: "object" }) }, { "401": json({ type: "string" }) }, {}];
    for (const responses of declarations) {
      const { unauthorized, invalid } = await answers(responses);
      expect(unauthorized.type).toBe("application/problem+json");
      expect(JSON.parse(invalid.body!)).toEqual({ type: "about:blank", title: "Bad Request", status: 400, detail: "Request validation failed", instance: "/op", errors: missingName });
    }
  });

  it("authenticate (or a handler) throwing HttpError answers its status in the declared shape: 403 from a permission check", async () => {
    const forbidden = (message: string) => new HttpError(403, "forbidden", message);
    for (const authenticate of [
      () => {
        throw forbidden("Not enough permissions");
      },
      () => Promise.reject(forbidden("Not enough permissions")),
    ]) {
      const app = router({ "403": json(detailString) }, { authenticate });
      const res = await app.fetch(new Request("http://x/op", { method: "POST", headers: { authorization: "Bearer t" } }));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ detail: "Not enough permissions" });
    }
  });

  it("errorBody sees every fact and the default body; it may reshape, keep (undefined) or fail (the default goes out)", async () => {
    const seen: unknown[] = [];
    const app = router(
      { "401": json(detailString) },
      {
        errorBody: (error) => {
          seen.push(error);
          if (error.status === 400) throw new Error("hook bug");
          return error.status === 401 ? { body: `no: ${error.detail}`, contentType: "text/plain" } : undefined;
        },
      },
    );
    const unauthorized = await app.fetch(new Request("http://x/op", { method: "POST" }));
    expect(await unauthorized.text()).toBe("no: Not authenticated");
    expect(unauthorized.headers.get("www-authenticate")).toBe("Bearer");
    const invalid = await app.fetch(new Request("http://x/op", { method: "POST", headers: { authorization: "Bearer t", "content-type": "application/json" }, body: "{}" }));
    expect((await invalid.json()).errors).toEqual(missingName);
    expect(seen[0]).toEqual({ status: 401, type: "unauthorized", title: "Unauthorized", detail: "Not authenticated", instance: "/op", operation: "op", body: { detail: "Not authenticated" }, contentType: "application/json" });
    expect(seen[1]).toMatchObject({ status: 400, type: "validation_error", issues: missingName });
  });
});
