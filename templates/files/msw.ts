import type { paths } from "./schema.js";
import type { HttpHandler } from "msw";
import { describeMockIssues, mockPayload } from "../server/mock.js";
import { streamResponse } from "../server/responses.js";
import type { SchemaDocument } from "../server/schema.js";
import { SchemaCompiler } from "../server/validate.js";
import { createMswRuntime, type MswAnswerOrResolver, type MswHandlerOptions, type MswOperationRow } from "../msw/index.js";

export type { MswAnswer, MswAnswerOrResolver, MswHandlerOptions, MswRequestInfo } from "../msw/index.js";

/** @slot data: each server's URL with its variables' defaults (`mswServers` in src/emit/msw.ts) */
/** The spec's servers, as the client calls them by default; each operation names one by index. */
const servers: string[] = ["https://petstore.example/v1"];

/** @slot data: the component schemas the responses reach (`schemaDocument` in src/emit/server-data.ts) */
/** The spec's component schemas that response schemas `$ref`. */
const document: SchemaDocument = {
  components: {
    schemas: {
      NewPet: { type: "object", required: ["name"], properties: { name: { type: "string" }, tag: { type: "string" } } },
      Pet: {
        allOf: [
          { $ref: "#/components/schemas/NewPet" },
          { type: "object", required: ["id"], properties: { id: { type: "integer" } } },
        ],
      },
      PetPage: {
        type: "object",
        required: ["data", "has_more"],
        properties: {
          data: { type: "array", items: { $ref: "#/components/schemas/Pet" } },
          has_more: { type: "boolean" },
          last_id: { type: ["string", "null"] },
        },
      },
      Error: { type: "object", required: ["message"], properties: { message: { type: "string" } } },
    },
  },
};

/** @slot data: one row per operation (`mswOperations` in src/emit/msw.ts) */
/** Each operation: `[name, method, paths, server, responses]`. */
const operations: MswOperationRow[] = [
  ["listPets", "GET", ["/pets"], 0, { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/PetPage" } } } } }],
  [
    "createPet",
    "POST",
    ["/pets"],
    0,
    {
      "201": { content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
      "422": { content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    },
  ],
  [
    "getPet",
    "GET",
    ["/pets/{petId}"],
    0,
    {
      "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
      "404": { content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    },
  ],
];

const compiler = new SchemaCompiler(document);
const runtime = createMswRuntime({
  servers,
  operations,
  mock: (responses) => mockPayload(responses, compiler),
  stream: streamResponse,
  describeIssues: describeMockIssues,
});

/** @slot members: one per operation (`mswMember`); the API's title and version in this comment */
/** One MSW handler per operation of Pet Store 1.0.0, answering as told: `mswHandler.getPet({ status: 200, body })`. */
export interface MswHandlers {
  /** `GET /pets` */
  listPets: (answer: MswAnswerOrResolver<paths["/pets"]["get"]>, options?: MswHandlerOptions) => HttpHandler;
  /** `POST /pets` */
  createPet: (answer: MswAnswerOrResolver<paths["/pets"]["post"]>, options?: MswHandlerOptions) => HttpHandler;
  /** `GET /pets/{petId}` */
  getPet: (answer: MswAnswerOrResolver<paths["/pets/{petId}"]["get"]>, options?: MswHandlerOptions) => HttpHandler;
}

/**
 * MSW request handlers for every operation, each answering with a schema-valid value of its first success response
 * (the spec's example when it validates): `setupServer(...createMswHandlers())`, or `setupWorker` in a browser.
 * Put `mswHandler.<operation>(answer)` before them (or `server.use` it) to answer as a test needs.
 */
export function createMswHandlers(options: MswHandlerOptions = {}): HttpHandler[] {
  return runtime.handlers(options);
}

/** One handler per operation, answering with a typed answer (a status the operation declares, and its body) or a resolver's. */
export const mswHandler: MswHandlers = Object.fromEntries(
  operations.map(([name]) => [name, (answer: unknown, options?: MswHandlerOptions) => runtime.handler(name, answer, options)]),
) as unknown as MswHandlers;
