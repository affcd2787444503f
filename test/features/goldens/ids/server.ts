import type { components, paths } from "./schema.js";
import {
  createRouterRuntime,
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
} from "./runtime/server/index.js";
import { requestValidators } from "./server-validators.js";
export { toNodeListener } from "./runtime/server/node.js";
export {
  HttpError,
  type Router,
  type RouterError,
  type RouterOptions,
  type HandlerResult,
} from "./runtime/server/index.js";
/** The spec's component schemas that route schemas `$ref`. */
const document: SchemaDocument = JSON.parse(
  '{\
  "components":{\
    "schemas":{\
      "Pet":{\
        "$id":"https://example.com/schemas/pet",\
        "type":"object",\
        "required":["id","name"],\
        "properties":{"id":{"$anchor":"pet-id","type":"integer"},"name":{"$ref":"#/components/schemas/name"},"owner":{"$ref":"#/components/schemas/Owner"},"nickname":{"$ref":"#/components/schemas/Pet_Nickname"},"tag":{"$ref":"#/components/schemas/Tag"},"collar":{"$ref":"#/components/schemas/collar"},"vet":{"$ref":"#/components/schemas/vet"},"toy":{"$ref":"#/components/schemas/favourite"}},\
        "$defs":{"Name":{"$anchor":"name","type":"string","minLength":1},"Nickname":{"type":"string","maxLength":10}}\
      },\
      "Owner":{"$id":"https://example.com/schemas/owner","type":"object","required":["name"],"properties":{"name":{"type":"string"},"pets":{"type":"array","items":{"$ref":"#/components/schemas/Pet"}}}},\
      "Tag":{"type":"string","enum":["cat","dog"]},\
      "NewPetEcho":{"$ref":"#/components/schemas/new-pet"},\
      "name":{"$anchor":"name","type":"string","minLength":1},\
      "Pet_Nickname":{"type":"string","maxLength":10},\
      "collar":{"$id":"https://example.com/schemas/collar","type":"object","required":["colour"],"properties":{"colour":{"type":"string","enum":["red","blue"]}}},\
      "vet":{"type":"object","properties":{"name":{"type":"string"}}},\
      "favourite":{"$anchor":"favourite","type":"object","required":["bounces"],"properties":{"bounces":{"type":"boolean"}}},\
      "new-pet":{"$anchor":"new-pet","type":"object","required":["name"],"properties":{"name":{"type":"string"}}},\
      "pet-id":{"$anchor":"pet-id","type":"integer"}\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes: RouteSpec[] = JSON.parse(
  '[\
  {\
    "name":"createPet",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{"required":true,"content":{"application/json":{"schema":{"$anchor":"new-pet","type":"object","required":["name"],"properties":{"name":{"type":"string"}}}}}},\
    "responses":{"201":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/NewPetEcho"}}}}},\
    "validationErrorStatus":400,\
    "path":"/pets"\
  },\
  {"name":"getPet","method":"GET","secured":false,"params":{"path":[{"name":"id","required":true,"schema":{"$ref":"#/components/schemas/pet-id"}}],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}}},"validationErrorStatus":400,"path":"/pets/{id}"}\
]',
);

/** What `authenticate` can be handed: one member per security alternative of the spec (the schemes a request presented, by key). Narrow with `"key" in credentials`. */
export interface SecurityAlternatives {}

export type Credentials = SecurityAlternatives[keyof SecurityAlternatives];
/** What the router needs to know of the spec besides its routes: the patterns that backtrack catastrophically (run on its linear-time matcher) and where its servers' routes are served. */
const generated: GeneratedInfo = JSON.parse(
  '{\
  "superLinearPatterns":[]\
}',
);
/** What the routes need beyond the router's core: multipart bodies, the linear-time matcher of catastrophic patterns. */
const features: RouterFeatures[] = [];

/** One optional handler per operation. A missing handler answers 501 (or a mock value in mock mode). */
export interface Handlers<Auth = unknown> {
  /** `POST /pets` */
  createPet?: Handler<paths["/pets"]["post"], Auth, "application/json">;
  /** `GET /pets/{id}` */
  getPet?: Handler<paths["/pets/{id}"]["get"], Auth>;
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

/** The component schemas `mockFromSchema(name)` makes values of (those the routes reach), with their types. */
export interface MockableSchemas {
  Pet: components["schemas"]["Pet"];
  Owner: components["schemas"]["Owner"];
  Tag: components["schemas"]["Tag"];
  NewPetEcho: components["schemas"]["NewPetEcho"];
  name: components["schemas"]["name"];
  Pet_Nickname: components["schemas"]["Pet_Nickname"];
  collar: components["schemas"]["collar"];
  vet: components["schemas"]["vet"];
  favourite: components["schemas"]["favourite"];
  "new-pet": components["schemas"]["new-pet"];
  "pet-id": components["schemas"]["pet-id"];
}

/** `mockFromSchema`: by component name, typed; or of any schema, in the document its `$ref`s point into. */
export interface MockFromSchema {
  /** A value of the component schema `name`, valid against it as the router validates, typed as schema.ts types it. */
  <Name extends keyof MockableSchemas>(
    name: Name,
    options?: Omit<MockOptions, "compiler">,
  ): MockableSchemas[Name];
  /** A value of `schema` (its `$ref`s resolved in `document`); `unknown`, as the schema is not a type. */
  (schema: Schema, document?: SchemaDocument, options?: MockOptions): unknown;
}

/**
 * Deterministic, schema-valid values, as the router's mock answers are made: `mockFromSchema("Pet")` is a `Pet`
 * (the spec's example when it validates, else one generated from the schema: formats, patterns, bounds, unique
 * items, discriminators; sizes clamped). `options.variant` gives other values; `options.onIssue` hears of any
 * place no value could satisfy.
 */
export const mockFromSchema: MockFromSchema = documentMocker(
  document,
) as MockFromSchema;
