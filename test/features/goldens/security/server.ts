import type { components, paths } from "./schema.js";
import {
  createRouterRuntime,
  type ApiKeyCredentials,
  type BasicCredentials,
  type BearerCredentials,
  type HttpCredentials,
  type OAuth2Credentials,
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
    "schemas":{},\
    "securitySchemes":{\
      "bearerAuth":{"type":"http","scheme":"bearer"},\
      "basicAuth":{"type":"http","scheme":"basic"},\
      "tokenAuth":{"type":"http","scheme":"Token"},\
      "headerKey":{"type":"apiKey","in":"header","name":"X-API-Key"},\
      "queryKey":{"type":"apiKey","in":"query","name":"api_key"},\
      "cookieKey":{"type":"apiKey","in":"cookie","name":"session_id"},\
      "botToken":{"type":"apiKey","in":"header","name":"Authorization"},\
      "oauth":{"type":"oauth2"},\
      "oidc":{"type":"openIdConnect"},\
      "mtls":{"type":"mutualTLS"}\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes: RouteSpec[] = JSON.parse(
  '[\
  {"name":"rootDefault","method":"GET","secured":true,"security":[[{"scheme":"bearerAuth"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/default"},\
  {"name":"basic","method":"GET","secured":true,"security":[[{"scheme":"basicAuth"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/basic"},\
  {"name":"token","method":"GET","secured":true,"security":[[{"scheme":"tokenAuth"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/token"},\
  {"name":"headerKey","method":"GET","secured":true,"security":[[{"scheme":"headerKey"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/header-key"},\
  {"name":"queryKey","method":"GET","secured":true,"security":[[{"scheme":"queryKey"}]],"params":{"path":[],"query":[{"name":"q","required":false,"schema":{"type":"string"}}],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/query-key"},\
  {"name":"cookieKey","method":"GET","secured":true,"security":[[{"scheme":"cookieKey"}]],"params":{"path":[],"query":[],"header":[],"cookie":[{"name":"theme","required":false,"schema":{"type":"string"}}]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/cookie-key"},\
  {"name":"bot","method":"GET","secured":true,"security":[[{"scheme":"botToken"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/bot"},\
  {"name":"oauth","method":"GET","secured":true,"security":[[{"scheme":"oauth","scopes":["read","write"]}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/oauth"},\
  {"name":"oidc","method":"GET","secured":true,"security":[[{"scheme":"oidc"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/oidc"},\
  {"name":"either","method":"GET","secured":true,"security":[[{"scheme":"basicAuth"}],[{"scheme":"bearerAuth"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/either"},\
  {"name":"both","method":"GET","secured":true,"security":[[{"scheme":"headerKey"},{"scheme":"queryKey"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/both"},\
  {"name":"optional","method":"GET","secured":false,"security":[[],[{"scheme":"botToken"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/optional"},\
  {"name":"noAuth","method":"GET","secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/public"},\
  {"name":"mtls","method":"GET","secured":true,"security":[[{"scheme":"mtls"}]],"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json":{"schema":{}}}}},"validationErrorStatus":400,"path":"/mtls"}\
]',
);

/** What `authenticate` can be handed: one member per security alternative of the spec (the schemes a request presented, by key). Narrow with `"key" in credentials`. */
export interface SecurityAlternatives {
  bearerAuth: {
    bearerAuth: BearerCredentials;
  };
  basicAuth: {
    basicAuth: BasicCredentials;
  };
  tokenAuth: {
    tokenAuth: HttpCredentials;
  };
  headerKey: {
    headerKey: ApiKeyCredentials;
  };
  queryKey: {
    queryKey: ApiKeyCredentials;
  };
  cookieKey: {
    cookieKey: ApiKeyCredentials;
  };
  botToken: {
    botToken: ApiKeyCredentials;
  };
  oauth: {
    oauth: OAuth2Credentials;
  };
  oidc: {
    oidc: OAuth2Credentials;
  };
  "headerKey & queryKey": {
    headerKey: ApiKeyCredentials;
    queryKey: ApiKeyCredentials;
  };
}

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
  /** `GET /default` */
  rootDefault?: Handler<paths["/default"]["get"], Auth>;
  /** `GET /basic` */
  basic?: Handler<paths["/basic"]["get"], Auth>;
  /** `GET /token` */
  token?: Handler<paths["/token"]["get"], Auth>;
  /** `GET /header-key` */
  headerKey?: Handler<paths["/header-key"]["get"], Auth>;
  /** `GET /query-key` */
  queryKey?: Handler<paths["/query-key"]["get"], Auth>;
  /** `GET /cookie-key` */
  cookieKey?: Handler<paths["/cookie-key"]["get"], Auth>;
  /** `GET /bot` */
  bot?: Handler<paths["/bot"]["get"], Auth>;
  /** `GET /oauth` */
  oauth?: Handler<paths["/oauth"]["get"], Auth>;
  /** `GET /oidc` */
  oidc?: Handler<paths["/oidc"]["get"], Auth>;
  /** `GET /either` */
  either?: Handler<paths["/either"]["get"], Auth>;
  /** `GET /both` */
  both?: Handler<paths["/both"]["get"], Auth>;
  /** `GET /optional` */
  optional?: Handler<paths["/optional"]["get"], Auth>;
  /** `GET /public` */
  noAuth?: Handler<paths["/public"]["get"], Auth>;
  /** `GET /mtls` */
  mtls?: Handler<paths["/mtls"]["get"], Auth>;
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
export interface MockableSchemas {}

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
