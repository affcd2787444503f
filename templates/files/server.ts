import type { components, paths } from "./schema.js";
/** @slot the credential types only where `SecurityAlternatives` uses them (`emitServer`) */
import {
  createRouterRuntime,
  type ApiKeyCredentials,
  type BasicCredentials,
  type BearerCredentials,
  type HttpCredentials,
  type OAuth2Credentials,
  documentMocker,
  type GeneratedInfo,
  type MockOptions,
  type Schema,
  type Handler,
  type RouteSpec,
  type Router,
  type RouterFeatures,
  type NotABoolean,
  type RouterOptions,
  type SchemaDocument,
} from "../server/index.js";
/** @slot only where an operation takes a multipart body, or a body of any type (`emitServer`) */
import { multipartFeature } from "../server/multipart.js";
/** @slot only where the spec has patterns that backtrack catastrophically (`emitServer`) */
import { linearPatternsFeature } from "../server/pattern.js";
import { requestValidators } from "./server-validators.js";

export { toNodeListener } from "../server/node.js";
export {
  HttpError,
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

/** @slot the router's optional parts the spec needs, from the imports above (`emitServer`) */
/** What the routes need beyond the router's core: multipart bodies, the linear-time matcher of catastrophic patterns. */
const features: RouterFeatures[] = [multipartFeature, linearPatternsFeature];

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
  options?: RouterOptions<Auth, Credentials> & NotABoolean<Auth>,
): Router {
  return createRouterRuntime<Auth, Credentials>(
    document,
    routes,
    handlers as Record<string, unknown>,
    options ?? {},
    generated,
    requestValidators,
    features,
  );
}

/** @slot members: one per component schema the routes reach (`mockableMember`) */
/** The component schemas `mockFromSchema(name)` makes values of (those the routes reach), with their types. */
export interface MockableSchemas {
  NewPet: components["schemas"]["NewPet"];
  Pet: components["schemas"]["Pet"];
  PetPage: components["schemas"]["PetPage"];
  Error: components["schemas"]["Error"];
}

/** `mockFromSchema`: by component name, typed; or of any schema, in the document its `$ref`s point into. */
export interface MockFromSchema {
  /** A value of the component schema `name`, valid against it as the router validates, typed as schema.ts types it. */
  <Name extends keyof MockableSchemas>(name: Name, options?: Omit<MockOptions, "compiler">): MockableSchemas[Name];
  /** A value of `schema` (its `$ref`s resolved in `document`); `unknown`, as the schema is not a type. */
  (schema: Schema, document?: SchemaDocument, options?: MockOptions): unknown;
}

/**
 * Deterministic, schema-valid values, as the router's mock answers are made: `mockFromSchema("Pet")` is a `Pet`
 * (the spec's example when it validates, else one generated from the schema: formats, patterns, bounds, unique
 * items, discriminators; sizes clamped). `options.variant` gives other values; `options.onIssue` hears of any
 * place no value could satisfy.
 */
export const mockFromSchema: MockFromSchema = documentMocker(document) as MockFromSchema;
