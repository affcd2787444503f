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
import { multipartFeature } from "./runtime/server/multipart.js";
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
      "Checksum":{"type":"string","pattern":"^[0-9a-f]{8}$"}\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes: RouteSpec[] = JSON.parse(
  '[\
  {\
    "name":"uploadBatch",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{\
      "required":true,\
      "content":{\
        "multipart/mixed":{\
          "schema":{"type":"array","minItems":1,"prefixItems":[{"type":"object","required":["count"],"properties":{"count":{"type":"integer"}}}],"items":{"type":"string","format":"binary"}},\
          "positionalHeaders":{"prefix":[{"X-Manifest-Version":{"required":true,"schema":{"type":"integer","const":2}}}],"items":{"X-Checksum":{"required":true,"schema":{"$ref":"#/components/schemas/Checksum"}},"X-Source":{"required":false,"schema":{"type":"string","default":"specforge"}}}}\
        }\
      }\
    },\
    "responses":{"200":{"content":{"application/json":{"schema":{"type":"object","additionalProperties":true}}}}},\
    "validationErrorStatus":400,\
    "path":"/batches"\
  },\
  {\
    "name":"addNote",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{\
      "required":true,\
      "content":{\
        "multipart/form-data":{"schema":{"type":"object","properties":{"note":{"type":"string"}}},"encoding":{"note":{"contentType":"text/plain","headers":{"X-Lang":{"required":true,"schema":{"type":"string","enum":["en","fr"]}}}}}},\
        "multipart/related":{"schema":{"type":"array","prefixItems":[{"type":"string"}]},"positionalHeaders":{"prefix":[{"X-Priority":{"required":false,"schema":{"type":"integer","minimum":1}}}]}}\
      }\
    },\
    "responses":{"200":{"content":{"application/json":{"schema":{"type":"object","additionalProperties":true}}}}},\
    "validationErrorStatus":400,\
    "path":"/notes"\
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
const features: RouterFeatures[] = [multipartFeature];

/** One optional handler per operation. A missing handler answers 501 (or a mock value in mock mode). */
export interface Handlers<Auth = unknown> {
  /**
   * A JSON manifest, then any number of blobs, each with its checksum
   *
   * `POST /batches`
   */
  uploadBatch?: Handler<
    paths["/batches"]["post"],
    Auth,
    never,
    | [
        {
          "X-Manifest-Version": 2;
        }?,
        ...Array<{
          "X-Checksum": string;
          "X-Source"?: string;
        }>,
      ]
    | Record<string, never>
  >;
  /**
   * The same upload as a form or as parts by position, each with its own part headers
   *
   * `POST /notes`
   */
  addNote?: Handler<
    paths["/notes"]["post"],
    Auth,
    never,
    | {
        note?: Array<{
          "X-Lang": "en" | "fr";
        }>;
      }
    | [
        {
          "X-Priority"?: number;
        }?,
        ...Array<Record<string, never>>,
      ]
    | Record<string, never>
  >;
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
  Checksum: components["schemas"]["Checksum"];
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
