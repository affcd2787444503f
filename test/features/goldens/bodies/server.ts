import type { paths } from "./schema.js";
import {
  createRouterRuntime,
  type GeneratedInfo,
  type Handler,
  type RouteSpec,
  type Router,
  type RouterOptions,
  type SchemaDocument,
} from "./runtime/server/index.js";
import { requestValidators } from "./server-validators.js";

export { toNodeListener } from "./runtime/server/node.js";
export {
  HttpError,
  mockFromSchema,
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
  options: RouterOptions<Auth, Credentials> = {},
): Router {
  return createRouterRuntime<Auth, Credentials>(
    document,
    routes,
    handlers as Record<string, unknown>,
    options,
    generated,
    requestValidators,
  );
}
