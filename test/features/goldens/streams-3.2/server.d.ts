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
  /**
   * Ticks as JSON events, notes as text events (the specification's SSE example, reduced)
   *
   * `GET /events`
   */
  streamEvents?: Handler<paths["/events"]["get"], Auth>;
  /**
   * Scalar Galaxy's shape, an itemSchema without `data` (it describes each event's JSON data)
   *
   * `GET /planet-events`
   */
  streamPlanetEvents?: Handler<paths["/planet-events"]["get"], Auth>;
  /** `GET /ticks.jsonl` */
  streamTicksJsonl?: Handler<paths["/ticks.jsonl"]["get"], Auth>;
  /** `GET /ticks.ndjson` */
  streamTicksNdjson?: Handler<paths["/ticks.ndjson"]["get"], Auth>;
  /** `GET /ticks.seq` */
  streamTicksSeq?: Handler<paths["/ticks.seq"]["get"], Auth>;
  /**
   * A JSON answer, or (with `stream`) a stream of events whose data is a chunk
   *
   * `POST /chat`
   */
  createChat?: Handler<paths["/chat"]["post"], Auth, "application/json">;
}

/** A web-standard router (`fetch(request) => Promise<Response>`) for every route of the spec. Secured operations need `options.authenticate` (or `insecureNoAuth: true`); use `toNodeListener(router)` with `node:http`. */
export declare function createRouter<Auth = unknown>(
  handlers: Handlers<Auth>,
  options?: RouterOptions<Auth, Credentials> & NotABoolean<Auth>,
): Router;
/** The component schemas `mockFromSchema(name)` makes values of (those the routes reach), with their types. */
export interface MockableSchemas {
  Tick: components["schemas"]["Tick"];
  Answer: components["schemas"]["Answer"];
  Chunk: components["schemas"]["Chunk"];
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
