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
      "record_a":{"allOf":[{"$ref":"#/components/schemas/record"}]},\
      "record":{"type":"object","required":["type","data"],"properties":{"type":{"type":"string","MX…).":null},"data":{"type":"string"},"priority":{"type":"integer"}}},\
      "record_mx":{"allOf":[{"$ref":"#/components/schemas/record"},{"type":"object","required":["priority"]}]}\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes: RouteSpec[] = JSON.parse(
  '[\
  {\
    "name":"createRecord",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{"required":true,"content":{"application/json":{"schema":{"oneOf":[{"$ref":"#/components/schemas/record_a"},{"$ref":"#/components/schemas/record_mx"}],"discriminator":{"propertyName":"type","mapping":{"A":"#/components/schemas/record_a","MX":"#/components/schemas/record_mx"}}}}}},\
    "responses":{"201":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/record"}}}}},\
    "validationErrorStatus":400,\
    "path":"/records"\
  }\
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
  /** `POST /records` */
  createRecord?: Handler<paths["/records"]["post"], Auth, "application/json">;
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
  record_a: components["schemas"]["record_a"];
  record: components["schemas"]["record"];
  record_mx: components["schemas"]["record_mx"];
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
