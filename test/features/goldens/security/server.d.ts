import type { paths } from "./schema.js";
import type {
  ApiKeyCredentials,
  BasicCredentials,
  BearerCredentials,
  HttpCredentials,
  OAuth2Credentials,
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
export declare function createRouter<Auth = unknown>(
  handlers: Handlers<Auth>,
  options?: RouterOptions<Auth, Credentials> & NotABoolean<Auth>,
): Router;
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
export declare const mockFromSchema: MockFromSchema;
