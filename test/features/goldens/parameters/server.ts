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
      "Echo":{"type":"object","properties":{"path":{"type":"object"},"query":{"type":"object"},"headers":{"type":"object"},"cookies":{"type":"object"}}}\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes: RouteSpec[] = JSON.parse(
  '[\
  {"name":"getItem","method":"GET","secured":false,"params":{"path":[{"name":"id","required":true,"schema":{"type":"integer"}}],"query":[{"name":"verbose","required":false,"schema":{"type":"boolean"}}],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Echo"}}}}},"validationErrorStatus":400,"path":"/items/{id}"},\
  {\
    "name":"deleteItem",\
    "method":"DELETE",\
    "secured":false,\
    "params":{"path":[{"name":"id","required":true,"schema":{"type":"integer"}}],"query":[{"name":"verbose","required":true,"schema":{"type":"string","enum":["yes","no"]}},{"name":"limit","required":false,"schema":{"type":"integer","minimum":1,"maximum":100,"default":20}}],"header":[]},\
    "responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Echo"}}}}},\
    "validationErrorStatus":400,\
    "path":"/items/{id}"\
  },\
  {\
    "name":"search",\
    "method":"GET",\
    "secured":false,\
    "params":{\
      "path":[],\
      "query":[\
        {"name":"ids","required":false,"schema":{"type":"array","items":{"type":"integer"}}},\
        {"name":"idsCsv","required":false,"schema":{"type":"array","items":{"type":"integer"}},"explode":false},\
        {"name":"idsSpace","required":false,"schema":{"type":"array","items":{"type":"string"}},"style":"spaceDelimited"},\
        {"name":"idsPipe","required":false,"schema":{"type":"array","items":{"type":"string"}},"style":"pipeDelimited"},\
        {"name":"filter","required":false,"schema":{"type":"object","properties":{"color":{"type":"string"},"size":{"type":"integer"}}}},\
        {"name":"point","required":false,"schema":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}}},"explode":false},\
        {"name":"where","required":false,"schema":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}},"style":"deepObject"},\
        {"name":"bar","required":false,"schema":{"type":"object","properties":{"R":{"type":"integer"},"G":{"type":"integer"}}},"style":"pipeDelimited"},\
        {"name":"limit","required":false,"schema":{"type":"integer","minimum":1,"maximum":100,"default":20}}\
      ],\
      "header":[{"name":"X-Trace","required":true,"schema":{"type":"string"}},{"name":"X-Coords","required":false,"schema":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}}},"explode":true},{"name":"X-Tags","required":false,"schema":{"type":"array","items":{"type":"string"}}}],\
      "cookie":[{"name":"session","required":false,"schema":{"type":"string"}}]\
    },\
    "responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Echo"}}}}},\
    "validationErrorStatus":400,\
    "path":"/search"\
  },\
  {\
    "name":"pathStyles",\
    "method":"GET",\
    "secured":false,\
    "params":{\
      "path":[\
        {"name":"simple","required":true,"schema":{"type":"array","items":{"type":"integer"}}},\
        {"name":"label","required":true,"schema":{"type":"array","items":{"type":"string"}},"style":"label"},\
        {"name":"matrix","required":true,"schema":{"type":"array","items":{"type":"integer"}},"style":"matrix"},\
        {"name":"labelExplode","required":true,"schema":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}}},"style":"label","explode":true},\
        {"name":"matrixExplode","required":true,"schema":{"type":"array","items":{"type":"integer"}},"style":"matrix","explode":true},\
        {"name":"simpleObject","required":true,"schema":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}}}},\
        {"name":"simpleExplode","required":true,"schema":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}}},"explode":true}\
      ],\
      "query":[],\
      "header":[]\
    },\
    "responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Echo"}}}}},\
    "validationErrorStatus":400,\
    "path":"/styles/{simple}/{label}/{matrix}/{labelExplode}/{matrixExplode}/{simpleObject}/{simpleExplode}"\
  },\
  {\
    "name":"pathScalars",\
    "method":"GET",\
    "secured":false,\
    "params":{"path":[{"name":"label","required":true,"schema":{"type":"integer"},"style":"label"},{"name":"matrix","required":true,"schema":{"type":"string"},"style":"matrix"}],"query":[],"header":[]},\
    "responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Echo"}}}}},\
    "validationErrorStatus":400,\
    "path":"/scalars/{label}/{matrix}"\
  }\
]',
);

/** What `authenticate` can be handed: one member per security alternative of the spec (the schemes a request presented, by key). Narrow with `"key" in credentials`. */
export interface SecurityAlternatives {}

export type Credentials = SecurityAlternatives[keyof SecurityAlternatives];
/** What the router needs to know of the spec besides its routes: the patterns that backtrack catastrophically (run on its linear-time matcher) and where its servers' routes are served. */
const generated: GeneratedInfo = JSON.parse(
  '{\
  "superLinearPatterns":[],\
  "serverPaths":[\
    ["/api"]\
  ]\
}',
);
/** What the routes need beyond the router's core: multipart bodies, the linear-time matcher of catastrophic patterns. */
const features: RouterFeatures[] = [];

/** One optional handler per operation. A missing handler answers 501 (or a mock value in mock mode). */
export interface Handlers<Auth = unknown> {
  /** `GET /items/{id}` */
  getItem?: Handler<paths["/items/{id}"]["get"], Auth>;
  /** `DELETE /items/{id}` */
  deleteItem?: Handler<paths["/items/{id}"]["delete"], Auth>;
  /** `GET /search` */
  search?: Handler<paths["/search"]["get"], Auth>;
  /** `GET /styles/{simple}/{label}/{matrix}/{labelExplode}/{matrixExplode}/{simpleObject}/{simpleExplode}` */
  pathStyles?: Handler<
    paths["/styles/{simple}/{label}/{matrix}/{labelExplode}/{matrixExplode}/{simpleObject}/{simpleExplode}"]["get"],
    Auth
  >;
  /** `GET /scalars/{label}/{matrix}` */
  pathScalars?: Handler<paths["/scalars/{label}/{matrix}"]["get"], Auth>;
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
  Echo: components["schemas"]["Echo"];
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
