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
      "Error":{"type":"object","required":["code","message"],"properties":{"code":{"type":"integer"},"message":{"type":"string"}}}\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes: RouteSpec[] = JSON.parse(
  '[\
  {\
    "name":"submitForm",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{"required":true,"content":{"application/x-www-form-urlencoded":{"schema":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"age":{"type":"integer"},"agree":{"type":"boolean"},"tags":{"type":"array","items":{"type":"string"}}}}}}},\
    "responses":{"200":{"content":{"application/json":{"schema":{"type":"object","additionalProperties":true}}}}},\
    "validationErrorStatus":400,\
    "path":"/forms"\
  },\
  {\
    "name":"upload",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{"required":true,"content":{"multipart/form-data":{"schema":{"type":"object","required":["file","description"],"properties":{"file":{"type":"string","format":"binary"},"description":{"type":"string"},"count":{"type":"integer"},"labels":{"type":"array","items":{"type":"string"}},"meta":{"type":"object","properties":{"a":{"type":"integer"}}}}}}}},\
    "responses":{"201":{"content":{"application/json":{"schema":{"type":"object","properties":{"fileName":{"type":"string"},"fileText":{"type":"string"},"description":{"type":"string"},"count":{"type":"integer"},"labels":{"type":"array","items":{"type":"string"}},"meta":{"type":"object","properties":{"a":{"type":"integer"}}}}}}}}},\
    "validationErrorStatus":400,\
    "path":"/uploads"\
  },\
  {"name":"getBlob","method":"GET","secured":false,"params":{"path":[{"name":"id","required":true,"schema":{"type":"string"}}],"query":[],"header":[]},"responses":{"200":{"content":{"application/octet-stream":{"schema":{"type":"string","format":"binary"}}}}},"validationErrorStatus":400,"path":"/blobs/{id}"},\
  {\
    "name":"putBlob",\
    "method":"PUT",\
    "secured":false,\
    "params":{"path":[{"name":"id","required":true,"schema":{"type":"string"}}],"query":[],"header":[]},\
    "body":{"required":true,"content":{"application/octet-stream":{"schema":{"type":"string","format":"binary"}}}},\
    "responses":{"200":{"content":{"application/json":{"schema":{"type":"object","required":["size","first"],"properties":{"size":{"type":"integer"},"first":{"type":"integer"}}}}}}},\
    "validationErrorStatus":400,\
    "path":"/blobs/{id}"\
  },\
  {"name":"postNote","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"text/plain":{"schema":{"type":"string"}}}},"responses":{"200":{"content":{"text/plain":{"schema":{"type":"string"}}}}},"validationErrorStatus":400,"path":"/notes"},\
  {"name":"maybe","method":"GET","secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{"type":"object","required":["ok"],"properties":{"ok":{"type":"boolean"}}}}}},"default":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Error"}}}}},"validationErrorStatus":400,"path":"/maybe"},\
  {"name":"onlyDefault","method":"GET","secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"default":{"content":{"application/json":{"schema":{"type":"object","required":["status"],"properties":{"status":{"type":"string"}}}}}}},"validationErrorStatus":400,"path":"/only-default"},\
  {"name":"getNoOperationIdByPetId","method":"GET","secured":false,"params":{"path":[{"name":"petId","required":true,"schema":{"type":"string"}}],"query":[],"header":[]},"responses":{"204":{}},"validationErrorStatus":400,"path":"/no-operation-id/{petId}"},\
  {"name":"postNoOperationIdByPetId","method":"POST","secured":false,"params":{"path":[{"name":"petId","required":true,"schema":{"type":"string"}}],"query":[],"header":[]},"responses":{"204":{}},"validationErrorStatus":400,"path":"/no-operation-id/{petId}"}\
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
  /** `POST /forms` */
  submitForm?: Handler<paths["/forms"]["post"], Auth>;
  /** `POST /uploads` */
  upload?: Handler<paths["/uploads"]["post"], Auth>;
  /** `GET /blobs/{id}` */
  getBlob?: Handler<paths["/blobs/{id}"]["get"], Auth>;
  /** `PUT /blobs/{id}` */
  putBlob?: Handler<paths["/blobs/{id}"]["put"], Auth>;
  /** `POST /notes` */
  postNote?: Handler<paths["/notes"]["post"], Auth>;
  /** `GET /maybe` */
  maybe?: Handler<paths["/maybe"]["get"], Auth>;
  /** `GET /only-default` */
  onlyDefault?: Handler<paths["/only-default"]["get"], Auth>;
  /** `GET /no-operation-id/{petId}` */
  getNoOperationIdByPetId?: Handler<
    paths["/no-operation-id/{petId}"]["get"],
    Auth
  >;
  /** `POST /no-operation-id/{petId}` */
  postNoOperationIdByPetId?: Handler<
    paths["/no-operation-id/{petId}"]["post"],
    Auth
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
  Error: components["schemas"]["Error"];
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
