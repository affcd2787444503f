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
      "Cat":{"type":"object","required":["petType","meows"],"properties":{"petType":{"type":"string"},"meows":{"type":"boolean"}}},\
      "Dog":{"type":"object","required":["petType","barks"],"properties":{"petType":{"type":"string"},"barks":{"type":"boolean"}}},\
      "Pet":{"oneOf":[{"$ref":"#/components/schemas/Cat"},{"$ref":"#/components/schemas/Dog"}],"discriminator":{"propertyName":"petType","mapping":{"cat":"#/components/schemas/Cat","dog":"#/components/schemas/Dog"}}},\
      "Circle":{"type":"object","required":["kind","radius"],"properties":{"kind":{"type":"string"},"radius":{"type":"number"}}},\
      "Square":{"type":"object","required":["kind","side"],"properties":{"kind":{"type":"string"},"side":{"type":"number"}}},\
      "Shape":{"oneOf":[{"$ref":"#/components/schemas/Circle"},{"$ref":"#/components/schemas/Square"}],"discriminator":{"propertyName":"kind"}},\
      "Animal":{"type":"object","required":["animalType","name"],"properties":{"animalType":{"type":"string"},"name":{"type":"string"}},"discriminator":{"propertyName":"animalType"}},\
      "Email":{"type":"object","required":["email"],"properties":{"email":{"type":"string","format":"email"}}},\
      "Phone":{"type":"object","required":["phone"],"properties":{"phone":{"type":"string","pattern":"^[0-9+ ]+$"}}},\
      "Contact":{"anyOf":[{"$ref":"#/components/schemas/Email"},{"$ref":"#/components/schemas/Phone"}]},\
      "IdOrName":{"oneOf":[{"type":"integer"},{"type":"string"}]},\
      "TreeNode":{"type":"object","required":["value"],"properties":{"value":{"type":"number"},"children":{"type":"array","items":{"$ref":"#/components/schemas/TreeNode"}}}},\
      "Person":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"employer":{"$ref":"#/components/schemas/Company"}}},\
      "Company":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"employees":{"type":"array","items":{"$ref":"#/components/schemas/Person"}}}},\
      "Open":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true},\
      "Closed":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false},\
      "Counts":{"type":"object","additionalProperties":{"type":"integer"}},\
      "Maps":{\
        "type":"object",\
        "properties":{"open":{"$ref":"#/components/schemas/Open"},"closed":{"$ref":"#/components/schemas/Closed"},"counts":{"$ref":"#/components/schemas/Counts"},"id":{"$ref":"#/components/schemas/IdOrName"},"person":{"$ref":"#/components/schemas/Person"},"maybePet":{"nullable":true,"anyOf":[{"$ref":"#/components/schemas/Pet"}]},"restatedPet":{"$ref":"#/components/schemas/Pet","type":"object"}}\
      }\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes: RouteSpec[] = JSON.parse(
  '[\
  {"name":"createPet","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}}},"validationErrorStatus":400,"path":"/pets"},\
  {"name":"createShape","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Shape"}}}},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Shape"}}}}},"validationErrorStatus":400,"path":"/shapes"},\
  {"name":"createAnimal","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Animal"}}}},"responses":{"204":{}},"validationErrorStatus":400,"path":"/animals"},\
  {"name":"addContact","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Contact"}}}},"responses":{"204":{}},"validationErrorStatus":400,"path":"/contacts"},\
  {"name":"plantTree","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/TreeNode"}}}},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/TreeNode"}}}}},"validationErrorStatus":400,"path":"/trees"},\
  {"name":"postMaps","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Maps"}}}},"responses":{"204":{}},"validationErrorStatus":400,"path":"/maps"}\
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
  /** `POST /shapes` */
  createShape?: Handler<paths["/shapes"]["post"], Auth, "application/json">;
  /** `POST /animals` */
  createAnimal?: Handler<paths["/animals"]["post"], Auth, "application/json">;
  /** `POST /contacts` */
  addContact?: Handler<paths["/contacts"]["post"], Auth, "application/json">;
  /** `POST /trees` */
  plantTree?: Handler<paths["/trees"]["post"], Auth, "application/json">;
  /** `POST /maps` */
  postMaps?: Handler<paths["/maps"]["post"], Auth, "application/json">;
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
  Cat: components["schemas"]["Cat"];
  Dog: components["schemas"]["Dog"];
  Pet: components["schemas"]["Pet"];
  Circle: components["schemas"]["Circle"];
  Square: components["schemas"]["Square"];
  Shape: components["schemas"]["Shape"];
  Animal: components["schemas"]["Animal"];
  Email: components["schemas"]["Email"];
  Phone: components["schemas"]["Phone"];
  Contact: components["schemas"]["Contact"];
  IdOrName: components["schemas"]["IdOrName"];
  TreeNode: components["schemas"]["TreeNode"];
  Person: components["schemas"]["Person"];
  Company: components["schemas"]["Company"];
  Open: components["schemas"]["Open"];
  Closed: components["schemas"]["Closed"];
  Counts: components["schemas"]["Counts"];
  Maps: components["schemas"]["Maps"];
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
