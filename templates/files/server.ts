import type { paths } from "./schema.js";
/** @slot the credential types only where `SecurityAlternatives` uses them (`emitServer`) */
import {
  createRouterRuntime,
  type ApiKeyCredentials,
  type BasicCredentials,
  type BearerCredentials,
  type HttpCredentials,
  type OAuth2Credentials,
  type GeneratedInfo,
  type Handler,
  type RouteSpec,
  type Router,
  type RouterOptions,
  type SchemaDocument,
} from "../server/index.js";
import { requestValidators } from "./server-validators.js";

export { toNodeListener } from "../server/node.js";
export {
  HttpError,
  mockFromSchema,
  type Router,
  type RouterError,
  type RouterOptions,
  type HandlerResult,
} from "../server/index.js";

/** @slot data: the component schemas the routes reach (`serverDocument` in src/emit/server-data.ts) */
/** The spec's component schemas that route schemas `$ref`. */
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
    securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
  },
};

/** @slot data: one route per path of each operation (`serverRoutes` in src/emit/server-data.ts) */
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes: RouteSpec[] = [
  {
    name: "listPets",
    method: "GET",
    path: "/pets",
    secured: true,
    security: [[{ scheme: "bearerAuth" }]],
    params: {
      path: [],
      query: [
        { name: "after", required: false, schema: { type: "string" } },
        { name: "limit", required: false, schema: { type: "integer" } },
      ],
      header: [],
    },
    responses: { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/PetPage" } } } } },
    validationErrorStatus: 400,
  },
  {
    name: "createPet",
    method: "POST",
    path: "/pets",
    secured: true,
    security: [[{ scheme: "bearerAuth" }]],
    params: { path: [], query: [], header: [] },
    body: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/NewPet" } } } },
    responses: {
      "201": { content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
      "422": { content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    },
    validationErrorStatus: 400,
  },
  {
    name: "getPet",
    method: "GET",
    path: "/pets/{petId}",
    secured: true,
    security: [[{ scheme: "bearerAuth" }]],
    params: { path: [{ name: "petId", required: true, schema: { type: "integer" } }], query: [], header: [] },
    responses: {
      "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
      "404": { content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    },
    validationErrorStatus: 400,
  },
];

/** @slot members: one per security alternative of the spec's operations (`credentialAlternatives`) */
/** What `authenticate` can be handed: one member per security alternative of the spec (the schemes a request presented, by key). Narrow with `"key" in credentials`. */
export interface SecurityAlternatives {
  bearerAuth: {
    bearerAuth: BearerCredentials;
  };
}
export type Credentials = SecurityAlternatives[keyof SecurityAlternatives];

/** @slot data: the spec's patterns that backtrack catastrophically (`superLinearPatterns`) and its servers' paths (`serverPaths`) */
/** What the router needs to know of the spec besides its routes: the patterns that backtrack catastrophically (run on its linear-time matcher) and where its servers' routes are served. */
const generated: GeneratedInfo = { superLinearPatterns: [] };

/** @slot members: one optional handler per operation (`handlerMember`) */
/** One optional handler per operation. A missing handler answers 501 (or a mock value in mock mode). */
export interface Handlers<Auth = unknown> {
  /**
   * List pets
   *
   * `GET /pets`
   */
  listPets?: Handler<paths["/pets"]["get"], Auth>;
  /**
   * Create a pet
   *
   * `POST /pets`
   */
  createPet?: Handler<paths["/pets"]["post"], Auth, "application/json">;
  /**
   * Find a pet
   *
   * `GET /pets/{petId}`
   */
  getPet?: Handler<paths["/pets/{petId}"]["get"], Auth>;
}

/** A web-standard router (`fetch(request) => Promise<Response>`) for every route of the spec. Secured operations need `options.authenticate` (or `insecureNoAuth: true`); use `toNodeListener(router)` with `node:http`. */
export function createRouter<Auth = unknown>(
  handlers: Handlers<Auth>,
  options: RouterOptions<Auth, Credentials> = {},
): Router {
  return createRouterRuntime<Auth, Credentials>(
    document,
    routes,
    handlers as Record<string, unknown>,
    options,
    generated,
    requestValidators,
  );
}
