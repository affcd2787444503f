/**
 * Type tests for the handler types. The `// @ts-expect-error` lines are the point: they are checked by
 * `tsc -p tsconfig.json` and by typecheck.test.ts (which compiles this file with the TypeScript API).
 */
import { describe, expectTypeOf, it } from "vitest";
import type { components, paths } from "./fixtures/schema.js";
import { createRouter, type Handlers } from "./fixtures/server.js";
import type { Handler, HandlerContext, HandlerResult, NoParams, RequestBody } from "../../../templates/server/index.js";

type Principal = { userId: string };
type Schemas = components["schemas"];
type CreateModel = paths["/v1/preview/models"]["post"];
type Checkpoints = paths["/v1/preview/models/{model_id}/checkpoints"]["get"];
type Chat = paths["/v1/chat/completions"]["post"];

/** An operation shaped like openapi-typescript output with an *optional* body and a range status. */
interface OptionalBodyOp {
  parameters: { query?: never; header?: never; path?: never; cookie?: never };
  requestBody?: { content: { "application/json": { note: string } } };
  responses: {
    200: { headers: { [name: string]: unknown }; content: { "application/json": { ok: boolean } } };
    "4XX": { headers: { [name: string]: unknown }; content: { "application/json": { message: string } } };
  };
}

describe("handler context types", () => {
  it("ctx.body, ctx.path, ctx.query, ctx.headers and ctx.auth are typed from the operation", () => {
    const createModel: Handler<CreateModel, Principal, "application/json"> = (ctx) => {
      expectTypeOf(ctx.body).toEqualTypeOf<Schemas["ModelCreate"]>();
      expectTypeOf(ctx.body.project).toEqualTypeOf<string>();
      expectTypeOf(ctx.auth).toEqualTypeOf<Principal>();
      expectTypeOf(ctx.path).toEqualTypeOf<NoParams>();
      expectTypeOf(ctx.request).toEqualTypeOf<Request>();
      // @ts-expect-error - not a field of ModelCreate
      void ctx.body.nope;
      return { status: 200, body: { id: "x", entity: "e", project: ctx.body.project, name: "n", base_model: "b" } };
    };
    const checkpoints: Handler<Checkpoints> = (ctx) => {
      expectTypeOf(ctx.path).toEqualTypeOf<{ model_id: string }>();
      expectTypeOf(ctx.query.limit).toEqualTypeOf<number | undefined>();
      expectTypeOf(ctx.query.order).toEqualTypeOf<"asc" | "desc" | undefined>();
      expectTypeOf(ctx.headers["X-Request-Id"]).toEqualTypeOf<string | undefined>();
      expectTypeOf(ctx.body).toEqualTypeOf<undefined>();
      // @ts-expect-error - path params are not numbers here
      const id: number = ctx.path.model_id;
      void id;
      return { status: 200, body: { object: "list", data: [], first_id: "", last_id: "", has_more: false } };
    };
    expectTypeOf<RequestBody<OptionalBodyOp, "application/json">>().toEqualTypeOf<{ note: string } | undefined>();
    expectTypeOf<RequestBody<paths["/v1/feedback"]["post"]>>().toEqualTypeOf<Schemas["Feedback"]>();
    expectTypeOf<HandlerContext<Chat>["cookies"]>().toEqualTypeOf<NoParams>();
    void createModel;
    void checkpoints;
  });
});

describe("handler result types", () => {
  it("status and body are tied together and limited to declared responses", () => {
    const ok: Handler<paths["/v1/preview/models/{model_id}"]["delete"]> = ({ path }) => {
      if (path.model_id === "a") return { status: 204 };
      if (path.model_id === "b") return { status: 404, body: { error: { message: "gone", type: "not_found" } } };
      if (path.model_id === "c") return { status: 422, body: { detail: [{ loc: ["path", "model_id"], msg: "bad", type: "value_error" }] } };
      return new Response(null, { status: 202 }); // escape hatch
    };
    // @ts-expect-error - 201 is not declared for createModel
    const undeclared: Handler<CreateModel> = () => ({ status: 201, body: { id: "x", entity: "e", project: "p", name: "n", base_model: "b" } });
    // @ts-expect-error - the 200 body must be a ModelResponse
    const wrongBody: Handler<CreateModel> = () => ({ status: 200, body: { id: 1 } });
    // @ts-expect-error - a 404 body where the 200 body is expected
    const swapped: Handler<paths["/v1/preview/models/{model_id}"]["delete"]> = () => ({ status: 204, body: { error: { message: "m", type: "t" } } });
    // @ts-expect-error - the 422 body shape is HTTPValidationError
    const bad422: Handler<CreateModel> = () => ({ status: 422, body: { error: "nope" } });
    void [ok, undeclared, wrongBody, swapped, bad422];
  });

  it("`default` and range keys admit other statuses with their body type", () => {
    const sft: Handler<paths["/v1/preview/sft-training-jobs"]["post"]> = ({ body }) =>
      body.model_id ? { status: 503, body: { error: { message: "busy", type: "unavailable" } } } : { status: 201, body: { id: "x" } };
    // @ts-expect-error - the default response still requires an Error body
    const badDefault: Handler<paths["/v1/preview/sft-training-jobs"]["post"]> = () => ({ status: 503, body: { busy: true } });
    const range: Handler<OptionalBodyOp> = ({ body }) => (body ? { status: 409, body: { message: body.note } } : { status: 200, body: { ok: true } });
    expectTypeOf<HandlerResult<OptionalBodyOp>>().toEqualTypeOf<
      | { status: 200; body: { ok: boolean }; contentType?: "application/json"; headers?: Record<string, string> | Headers }
      | { status: number; body: { message: string }; contentType?: "application/json"; headers?: Record<string, string> | Headers }
    >();
    void [sft, badDefault, range];
  });

  it("text/event-stream responses take a typed async iterable", () => {
    const chat: Handler<Chat, unknown, "application/json"> = ({ body }) => {
      if (!body.stream) {
        return {
          status: 200,
          body: { id: "c", object: "chat.completion", created: 0, model: "m", choices: [], usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } },
        };
      }
      return {
        status: 200,
        stream: (async function* () {
          yield { id: "c", object: "chat.completion.chunk" as const, created: 0, model: "m", choices: [] };
        })(),
      };
    };
    // @ts-expect-error - events must be ChatCompletionChunk
    const badEvents: Handler<Chat> = () => ({
      status: 200,
      stream: (async function* () {
        yield { wrong: true };
      })(),
    });
    // @ts-expect-error - listModels declares no text/event-stream response
    const notStreaming: Handler<paths["/v1/models"]["get"]> = () => ({ status: 200, stream: (async function* () {})() });
    void [chat, badEvents, notStreaming];
  });

  it("the emitted Handlers interface rejects unknown operations and accepts partial handler sets", () => {
    const handlers: Handlers<Principal> = { healthCheck: () => ({ status: 200, body: { status: "ok" } }) };
    createRouter<Principal>(handlers, { authenticate: ({ HTTPBearer }) => (HTTPBearer.token ? { userId: HTTPBearer.token } : null) });
    // @ts-expect-error - not an operation of the spec
    createRouter({ notAnOperation: () => ({ status: 200, body: {} }) });
    createRouter({
      // @ts-expect-error - health only declares 200
      healthCheck: () => ({ status: 500, body: { status: "ok" } }),
    });
  });

  it("authenticate answers with a principal or null, never a boolean (which would name no one, and failed open when false was not a refusal)", () => {
    const SECRET = "sk-secret";
    // @ts-expect-error - a boolean is not a principal
    createRouter({}, { authenticate: ({ HTTPBearer }) => HTTPBearer.token === SECRET });
    // @ts-expect-error - nor a promise of one
    createRouter({}, { authenticate: async ({ HTTPBearer }) => HTTPBearer.token === SECRET });
    // @ts-expect-error - `false` to refuse: write null
    createRouter({}, { authenticate: ({ HTTPBearer }) => (HTTPBearer.token === SECRET ? { user: "ann" } : false) });
    createRouter({}, { authenticate: ({ HTTPBearer }) => (HTTPBearer.token === SECRET ? { user: "ann" } : null) });
    createRouter({}, { authenticate: async ({ HTTPBearer }) => (HTTPBearer.token === SECRET ? "ann" : undefined) });
    createRouter<{ user: string }>({ healthCheck: ({ auth }) => ({ status: 200, body: { status: auth?.user === "ann" ? "ok" : "degraded" } }) }, { authenticate: () => ({ user: "ann" }) });
  });
});
