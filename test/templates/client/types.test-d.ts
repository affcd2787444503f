/**
 * Type tests of the client's call signatures, checked by `tsc` (root tsconfig, and typecheck.test.ts under the
 * strictest settings). Every `@ts-expect-error` line must fail to compile; everything else must compile.
 * Nothing here runs: the calls sit in functions that are never invoked.
 */
import { describe, expectTypeOf, test } from "vitest";
import type { components, operations, paths } from "./fixtures/schema.js";
import { createClient, type Client } from "./fixtures/client.js";
import {
  ApiError,
  type ApiErrorOf,
  type ApiResponse,
  type FormPart,
  type Operation,
  type ParamsOf,
  type Stream,
  type SuccessBody,
} from "../../../templates/client/index.js";

type Schemas = components["schemas"];
declare const client: Client;

describe("call parameters", () => {
  test("required keys are required, optional ones may be left out", () => {
    expectTypeOf<ParamsOf<operations["getTrainingJob"]>>().toEqualTypeOf<{ path: { training_job_id: string } }>();
    expectTypeOf<ParamsOf<operations["healthCheck"]>>().toEqualTypeOf<{}>();
    expectTypeOf<ParamsOf<operations["updateModel"]>>().toEqualTypeOf<{
      path: { model_id: string };
      body?: { name?: string } | undefined;
    }>();
    expectTypeOf<ParamsOf<operations["listInferenceModels"]>>().toEqualTypeOf<{
      headers?: { "OpenAI-Project"?: string } | undefined;
    }>();
  });

  function calls() {
    void client.healthCheck();
    void client.getTrainingJob({ path: { training_job_id: "j1" } });
    void client.listModelCheckpoints({ path: { model_id: "m" } });
    void client.listModelCheckpoints({ path: { model_id: "m" }, query: { limit: 5, order: "asc" } }, { timeoutMs: 5 });
    void client.updateModel({ path: { model_id: "m" } });
    void client.listInferenceModels();
    void client.echoParams({
      path: { label: ["a"], matrix: { x: 1 }, simple: "s" },
      query: { q: "x" },
      headers: { "X-Trace-Id": "t" },
    });

    // @ts-expect-error a required path parameter is missing
    void client.getTrainingJob({ path: {} });
    // @ts-expect-error params are required when the operation has a path parameter
    void client.getTrainingJob();
    // @ts-expect-error the body is required
    void client.createTrainingJob();
    // @ts-expect-error a body field the schema does not have
    void client.createTrainingJob({ body: { model_id: "m", modelId: "m" } });
    // @ts-expect-error a body field of the wrong type
    void client.createTrainingJob({ body: { model_id: 1 } });
    // @ts-expect-error a required query parameter is missing
    void client.echoParams({ path: { label: [], matrix: {}, simple: "s" }, query: {}, headers: { "X-Trace-Id": "t" } });
    // @ts-expect-error a required header parameter is missing
    void client.echoParams({ path: { label: [], matrix: {}, simple: "s" }, query: { q: "" } });
    // @ts-expect-error an enum query parameter outside the enum
    void client.listModelCheckpoints({ path: { model_id: "m" }, query: { order: "up" } });
    // @ts-expect-error an operation without a body takes none
    void client.getTrainingJob({ path: { training_job_id: "j" }, body: {} });
  }

  test("bodies follow the request media type", () => {
    expectTypeOf(client.uploadFile).parameter(0).toHaveProperty("body").toEqualTypeOf<
      | {
          file: string | Blob | FormPart;
          purpose: string | Blob | FormPart;
          tags?: (string | Blob | FormPart)[];
          metadata?: { [key: string]: string } | FormPart;
        }
      | FormData
    >();
    expectTypeOf(client.putBlob).parameter(0).toHaveProperty("body").toEqualTypeOf<
      Blob | ArrayBuffer | Uint8Array | ReadableStream<Uint8Array> | string
    >();
    expectTypeOf(client.createNote).parameter(0).toHaveProperty("body").toEqualTypeOf<string>();
    expectTypeOf(client.submitForm).parameter(0).toHaveProperty("body").toExtend<URLSearchParams | { name: string }>();
  });

  function uploads() {
    void client.uploadFile({ body: { file: new Blob(["x"]), purpose: "fine-tune", tags: ["a"] } });
    void client.uploadFile({ body: new FormData() });
    // @ts-expect-error multipart fields are checked too
    void client.uploadFile({ body: { file: new Blob(["x"]) } });
  }
  void calls;
  void uploads;
});

describe("results", () => {
  test("a call resolves to the union of its 2xx bodies", () => {
    expectTypeOf(client.getTrainingJob).returns.resolves.toEqualTypeOf<Schemas["TrainingJob"]>();
    expectTypeOf(client.healthCheck).returns.resolves.toBeUnknown();
    expectTypeOf(client.deleteModel).returns.resolves.toEqualTypeOf<undefined>();
    expectTypeOf(client.putBlob).returns.resolves.toEqualTypeOf<undefined>();
    expectTypeOf(client.getBlob).returns.resolves.toEqualTypeOf<Blob>();
    expectTypeOf(client.createNote).returns.resolves.toEqualTypeOf<string>();
    // Only `default` declared: it describes success too.
    expectTypeOf(client.getLegacy).returns.resolves.toEqualTypeOf<Schemas["Problem"]>();
    // Only text/event-stream declared: the call always streams.
    expectTypeOf(client.streamEvents).returns.resolves.toEqualTypeOf<Stream<Schemas["ChatCompletionChunk"]>>();
    expectTypeOf(client.getTrainingJob.withResponse).returns.resolves.toEqualTypeOf<ApiResponse<Schemas["TrainingJob"]>>();
  });

  async function reads() {
    const job = await client.getTrainingJob({ path: { training_job_id: "j" } });
    expectTypeOf(job.id).toBeString();
    // @ts-expect-error the response has no such field
    void job.status;
    const { data, status, headers } = await client.getTrainingJob.withResponse({ path: { training_job_id: "j" } });
    expectTypeOf(data).toEqualTypeOf<Schemas["TrainingJob"]>();
    expectTypeOf(status).toBeNumber();
    expectTypeOf(headers).toEqualTypeOf<Headers>();
  }

  test("a streaming operation streams only when asked to", () => {
    const chat = client.createChatCompletion;
    const messages = [{ role: "user" as const, content: "hi" }];
    expectTypeOf(chat({ body: { messages, stream: true } })).resolves.toEqualTypeOf<Stream<Schemas["ChatCompletionChunk"]>>();
    expectTypeOf(chat({ body: { messages } })).resolves.toEqualTypeOf<Schemas["ChatCompletion"]>();
    expectTypeOf(chat({ body: { messages, stream: false } })).resolves.toEqualTypeOf<Schemas["ChatCompletion"]>();
    const flag = Math.random() > 0.5;
    expectTypeOf(chat({ body: { messages, stream: flag } })).resolves.toEqualTypeOf<
      Stream<Schemas["ChatCompletionChunk"]> | Schemas["ChatCompletion"]
    >();
    expectTypeOf(chat.withResponse({ body: { messages, stream: true } })).resolves.toEqualTypeOf<
      ApiResponse<Stream<Schemas["ChatCompletionChunk"]>>
    >();
  });

  async function streams() {
    const stream = await client.createChatCompletion({ body: { messages: [], stream: true } });
    for await (const chunk of stream) {
      expectTypeOf(chunk.choices[0]!.delta.content).toEqualTypeOf<string | undefined>();
      // @ts-expect-error chunks have no message
      void chunk.choices[0]!.message;
    }
    // @ts-expect-error the body is still checked when streaming
    void client.createChatCompletion({ body: { stream: true } });
  }

  test("paginate yields the items of the pages", () => {
    expectTypeOf(client.listModelCheckpoints.paginate({ path: { model_id: "m" } })).toEqualTypeOf<
      AsyncIterable<Schemas["Checkpoint"]>
    >();
  });
  void reads;
  void streams;
});

describe("errors", () => {
  test("ApiErrorOf is a union discriminated by status", () => {
    expectTypeOf<ApiErrorOf<operations["getTrainingJob"]>>().toEqualTypeOf<
      ApiError<404, Schemas["Problem"]> | ApiError<422, Schemas["HTTPValidationError"]>
    >();
    // No content declared: the body is whatever the server sent.
    expectTypeOf<ApiErrorOf<operations["deleteModel"]>>().toEqualTypeOf<ApiError<404, unknown>>();
    expectTypeOf<ApiErrorOf<operations["getLegacy"]>>().toEqualTypeOf<ApiError<number, Schemas["Problem"]>>();
    expectTypeOf<ApiErrorOf<operations["streamEvents"]>>().toEqualTypeOf<ApiError<number, Schemas["Problem"]>>();
    expectTypeOf<ApiErrorOf<operations["healthCheck"]>>().toBeNever();
  });

  function handles(error: unknown) {
    if (client.getTrainingJob.isError(error)) {
      if (error.status === 422) expectTypeOf(error.body.detail).toEqualTypeOf<Schemas["ValidationError"][] | undefined>();
      else expectTypeOf(error.body.title).toBeString();
      // @ts-expect-error narrowing is needed: a 422 body has no title
      void error.body.title;
    }
    if (error instanceof ApiError) expectTypeOf(error.body).toBeUnknown();
  }
  void handles;
});

describe("helpers work on any openapi-typescript operation", () => {
  test("no parameters, no body, only default, headers only", () => {
    type Bare = { parameters: { query?: never; header?: never; path?: never; cookie?: never }; requestBody?: never; responses: { default: { headers: { [name: string]: unknown }; content?: never } } };
    expectTypeOf<ParamsOf<Bare>>().toEqualTypeOf<{}>();
    expectTypeOf<SuccessBody<Bare>>().toEqualTypeOf<undefined>();
    expectTypeOf<Parameters<Operation<Bare>>>().toEqualTypeOf<[params?: {}, options?: import("../../../templates/client/index.js").RequestOptions]>();
    type NoKeys = { parameters: {}; responses: { 200: { headers: { [name: string]: unknown } } } };
    expectTypeOf<SuccessBody<NoKeys>>().toEqualTypeOf<undefined>();
    expectTypeOf<ParamsOf<NoKeys>>().toEqualTypeOf<{}>();
    type Mixed = { parameters: {}; responses: { 200: { headers: {}; content: { "application/json": { a: 1 } } }; 201: { headers: {}; content: { "application/vnd.x+json": { b: 2 } } }; 202: { headers: {}; content?: never } } };
    expectTypeOf<SuccessBody<Mixed>>().toEqualTypeOf<{ a: 1 } | { b: 2 } | undefined>();
    type AnyMedia = { parameters: {}; responses: { 200: { headers: {}; content: { "*/*": string } } } };
    expectTypeOf<SuccessBody<AnyMedia>>().toBeUnknown();
  });

  test("vendor-style paths index the same types", () => {
    expectTypeOf<paths["/v1/preview/training-jobs/{training_job_id}"]["get"]>().toEqualTypeOf<operations["getTrainingJob"]>();
  });
});

describe("client options", () => {
  test("the platform fetch and plain wrappers fit the fetch option", () => {
    createClient({ fetch: globalThis.fetch, apiKey: undefined, baseUrl: "http://localhost:1" });
    createClient({ fetch: (request) => fetch(request), onRequest: (request) => void request.headers.set("x", "y") });
  });
});
