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
      "Id":{"type":["string","integer"]},\
      "MaybeName":{"type":["string","null"]},\
      "Kind":{"const":"thing"},\
      "Version":{"const":2},\
      "Flags":{"type":["array","null"],"items":{"type":"boolean"}},\
      "Letter":{"type":["string","null"],"enum":["a","b",null]},\
      "Owner":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"email":{"type":"string"}}},\
      "Thing":{\
        "type":"object",\
        "required":["id","kind","version"],\
        "properties":{\
          "id":{"$ref":"#/components/schemas/Id"},\
          "kind":{"$ref":"#/components/schemas/Kind"},\
          "version":{"$ref":"#/components/schemas/Version"},\
          "name":{"$ref":"#/components/schemas/MaybeName"},\
          "flags":{"$ref":"#/components/schemas/Flags"},\
          "letter":{"$ref":"#/components/schemas/Letter"},\
          "owner":{"$ref":"#/components/schemas/Owner"},\
          "contact":{"required":["email"],"allOf":[{"$ref":"#/components/schemas/Owner"}]},\
          "ownerOrNull":{"anyOf":[{"$ref":"#/components/schemas/Owner"},{"type":"null"}]},\
          "legacyNullable":{"nullable":true,"anyOf":[{"$ref":"#/components/schemas/Owner"}]},\
          "inlineConst":{"type":"string","const":"fixed"}\
        }\
      }\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes: RouteSpec[] = JSON.parse(
  '[\
  {"name":"createThing","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Thing"}}}},"responses":{"201":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Thing"}}}}},"validationErrorStatus":400,"path":"/things"}\
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
  /** `POST /things` */
  createThing?: Handler<paths["/things"]["post"], Auth, "application/json">;
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
  Id: components["schemas"]["Id"];
  MaybeName: components["schemas"]["MaybeName"];
  Kind: components["schemas"]["Kind"];
  Version: components["schemas"]["Version"];
  Flags: components["schemas"]["Flags"];
  Letter: components["schemas"]["Letter"];
  Owner: components["schemas"]["Owner"];
  Thing: components["schemas"]["Thing"];
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
