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
      "ChatMessage":{\
        "oneOf":[{"$ref":"#/components/schemas/UserMessage"},{"$ref":"#/components/schemas/AssistantMessage"},{"$ref":"#/components/schemas/ToolMessage"},{"$ref":"#/components/schemas/SystemMessage"}],\
        "discriminator":{"propertyName":"role","mapping":{"user":"#/components/schemas/UserMessage","assistant":"#/components/schemas/AssistantMessage","tool":"#/components/schemas/ToolMessage","system":"#/components/schemas/SystemMessage"}}\
      },\
      "UserMessage":{"type":"object","required":["role","content"],"properties":{"role":{"type":"string","enum":["user"],"in this case `user`.":null},"content":{"type":"string"}}},\
      "AssistantMessage":{"type":"object","required":["role"],"properties":{"role":{"const":"assistant"},"content":{"type":["string","null"]}}},\
      "ToolRole":{"type":"string","enum":["tool"]},\
      "ToolMessage":{"type":"object","required":["role","tool_call_id"],"properties":{"role":{"$ref":"#/components/schemas/ToolRole"},"tool_call_id":{"type":"string"}}},\
      "MessageBase":{"type":"object","required":["content"],"properties":{"content":{"type":"string"}}},\
      "SystemMessage":{"allOf":[{"$ref":"#/components/schemas/MessageBase"},{"type":"object","required":["role"],"properties":{"role":{"type":"string","enum":["system"]}}}]},\
      "Event":{"oneOf":[{"$ref":"#/components/schemas/CreatedEvent"},{"$ref":"#/components/schemas/DeletedEvent"},{"$ref":"#/components/schemas/RenamedEvent"}],"discriminator":{"propertyName":"type","mapping":{"created":"#/components/schemas/CreatedEvent","deleted":"#/components/schemas/DeletedEvent"}}},\
      "CreatedEvent":{"type":"object","required":["type","id"],"properties":{"type":{"type":"string"},"id":{"type":"string"}}},\
      "DeletedEvent":{"type":"object","required":["type","id"],"properties":{"type":{"type":"string","enum":["deleted"]},"id":{"type":"string"}}},\
      "RenamedEvent":{"type":"object","required":["type","name"],"properties":{"type":{"type":"string"},"name":{"type":"string"}}},\
      "Config":{"oneOf":[{"$ref":"#/components/schemas/AutoConfig"},{"$ref":"#/components/schemas/CustomConfig"}],"discriminator":{"propertyName":"use_custom","mapping":{"False":"#/components/schemas/AutoConfig","True":"#/components/schemas/CustomConfig"}}},\
      "AutoConfig":{"type":"object","required":["use_custom"],"properties":{"use_custom":{"type":"boolean","const":false},"auto_setting":{"type":"string"}}},\
      "CustomConfig":{"type":"object","required":["use_custom","custom_value"],"properties":{"use_custom":{"type":"boolean","const":true},"custom_value":{"type":"integer"}}},\
      "KindBase":{"type":"object","required":["kind"],"properties":{"kind":{"type":"integer"}},"discriminator":{"propertyName":"kind","mapping":{"1":"#/components/schemas/KindOne","2":"#/components/schemas/KindTwo"}}},\
      "KindOne":{"allOf":[{"$ref":"#/components/schemas/KindBase"},{"type":"object","properties":{"one":{"type":"string"}}}]},\
      "KindTwo":{"allOf":[{"$ref":"#/components/schemas/KindBase"},{"type":"object","properties":{"two":{"type":"string"}}}]},\
      "Pet":{"type":"object","required":["petType","name"],"properties":{"petType":{"type":"string"},"name":{"type":"string"}},"oneOf":[{"$ref":"#/components/schemas/Cat"},{"$ref":"#/components/schemas/Dog"}],"discriminator":{"propertyName":"petType","mapping":{"cat":"#/components/schemas/Cat","dog":"#/components/schemas/Dog"}}},\
      "Cat":{"allOf":[{"type":"object","required":["petType","name"],"properties":{"petType":{"type":"string"},"name":{"type":"string"}}},{"type":"object","required":["meows"],"properties":{"meows":{"type":"boolean"}}}]},\
      "Dog":{"allOf":[{"type":"object","required":["petType","name"],"properties":{"petType":{"type":"string"},"name":{"type":"string"}}},{"type":"object","required":["barks"],"properties":{"barks":{"type":"boolean"}}}]},\
      "Shape":{"oneOf":[{"$ref":"#/components/schemas/Circle"},{"$ref":"#/components/schemas/Square"}],"discriminator":{"propertyName":"kind","mapping":{"circle":"#/components/schemas/Circle","square":"#/components/schemas/Square"}}},\
      "Circle":{"allOf":[{"type":"object","required":["kind","radius"],"properties":{"kind":{"const":"circle"},"radius":{"type":"number"}}}]},\
      "Square":{"allOf":[{"type":"object","required":["kind","side"],"properties":{"kind":{"const":"square"},"side":{"type":"number"}}}]},\
      "Vehicle":{"type":"object","required":["wheels"],"properties":{"wheels":{"type":"integer"}},"oneOf":[{"$ref":"#/components/schemas/Car"},{"$ref":"#/components/schemas/Bike"}]},\
      "Car":{"allOf":[{"type":"object","required":["wheels"],"properties":{"wheels":{"type":"integer"}}},{"type":"object","required":["doors"],"properties":{"doors":{"type":"integer"}}}]},\
      "Bike":{"allOf":[{"type":"object","required":["wheels"],"properties":{"wheels":{"type":"integer"}}},{"type":"object","required":["bell"],"properties":{"bell":{"type":"boolean"}},"not":{"required":["doors"]}}]}\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes: RouteSpec[] = JSON.parse(
  '[\
  {\
    "name":"chat",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{"required":true,"content":{"application/json":{"schema":{"type":"object","required":["messages"],"properties":{"messages":{"type":"array","items":{"$ref":"#/components/schemas/ChatMessage"}}}}}}},\
    "responses":{"200":{"content":{"application/json":{"schema":{"type":"object"}}}}},\
    "validationErrorStatus":400,\
    "path":"/chat"\
  },\
  {"name":"postEvent","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Event"}}}},"responses":{"204":{}},"validationErrorStatus":400,"path":"/events"},\
  {"name":"postConfig","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Config"}}}},"responses":{"204":{}},"validationErrorStatus":400,"path":"/configs"},\
  {"name":"postKind","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"oneOf":[{"$ref":"#/components/schemas/KindOne"},{"$ref":"#/components/schemas/KindTwo"}]}}}},"responses":{"204":{}},"validationErrorStatus":400,"path":"/kinds"},\
  {"name":"createPet","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}}},"validationErrorStatus":400,"path":"/pets"},\
  {"name":"createVehicle","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Vehicle"}}}},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Vehicle"}}}}},"validationErrorStatus":400,"path":"/vehicles"},\
  {"name":"createShape","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Shape"}}}},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Shape"}}}}},"validationErrorStatus":400,"path":"/shapes"}\
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
  /** `POST /chat` */
  chat?: Handler<paths["/chat"]["post"], Auth, "application/json">;
  /** `POST /events` */
  postEvent?: Handler<paths["/events"]["post"], Auth, "application/json">;
  /** `POST /configs` */
  postConfig?: Handler<paths["/configs"]["post"], Auth, "application/json">;
  /** `POST /kinds` */
  postKind?: Handler<paths["/kinds"]["post"], Auth, "application/json">;
  /** `POST /pets` */
  createPet?: Handler<paths["/pets"]["post"], Auth, "application/json">;
  /** `POST /vehicles` */
  createVehicle?: Handler<paths["/vehicles"]["post"], Auth, "application/json">;
  /** `POST /shapes` */
  createShape?: Handler<paths["/shapes"]["post"], Auth, "application/json">;
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
  ChatMessage: components["schemas"]["ChatMessage"];
  UserMessage: components["schemas"]["UserMessage"];
  AssistantMessage: components["schemas"]["AssistantMessage"];
  ToolRole: components["schemas"]["ToolRole"];
  ToolMessage: components["schemas"]["ToolMessage"];
  MessageBase: components["schemas"]["MessageBase"];
  SystemMessage: components["schemas"]["SystemMessage"];
  Event: components["schemas"]["Event"];
  CreatedEvent: components["schemas"]["CreatedEvent"];
  DeletedEvent: components["schemas"]["DeletedEvent"];
  RenamedEvent: components["schemas"]["RenamedEvent"];
  Config: components["schemas"]["Config"];
  AutoConfig: components["schemas"]["AutoConfig"];
  CustomConfig: components["schemas"]["CustomConfig"];
  KindBase: components["schemas"]["KindBase"];
  KindOne: components["schemas"]["KindOne"];
  KindTwo: components["schemas"]["KindTwo"];
  Pet: components["schemas"]["Pet"];
  Cat: components["schemas"]["Cat"];
  Dog: components["schemas"]["Dog"];
  Shape: components["schemas"]["Shape"];
  Circle: components["schemas"]["Circle"];
  Square: components["schemas"]["Square"];
  Vehicle: components["schemas"]["Vehicle"];
  Car: components["schemas"]["Car"];
  Bike: components["schemas"]["Bike"];
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
