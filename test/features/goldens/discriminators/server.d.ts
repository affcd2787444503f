import type { components, paths } from "./schema.js";
import type {
  MockOptions,
  Schema,
  Handler,
  Router,
  NotABoolean,
  RouterOptions,
  SchemaDocument,
} from "./runtime/server/index.js";
export { toNodeListener } from "./runtime/server/node.js";
export {
  HttpError,
  type Router,
  type RouterError,
  type RouterOptions,
  type HandlerResult,
} from "./runtime/server/index.js";
/** What `authenticate` can be handed: one member per security alternative of the spec (the schemes a request presented, by key). Narrow with `"key" in credentials`. */
export interface SecurityAlternatives {}

export type Credentials = SecurityAlternatives[keyof SecurityAlternatives];
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
export declare function createRouter<Auth = unknown>(
  handlers: Handlers<Auth>,
  options?: RouterOptions<Auth, Credentials> & NotABoolean<Auth>,
): Router;
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
export declare const mockFromSchema: MockFromSchema;
