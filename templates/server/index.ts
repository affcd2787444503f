/**
 * Server runtime for specforge-generated route stubs. Web-standard core (`Request` → `Response`); the
 * `node:http` adapter lives in `./node.js` so other runtimes never load it.
 *
 * The emitted `server.ts` calls `createRouterRuntime(document, routes, handlers, options)` and types the
 * handlers with `Handler<Op, Auth, Media>`.
 */
export { createRouterRuntime, DEFAULT_MAX_BODY_BYTES, ResponseValidationError } from "./runtime.js";
export { HttpError } from "./body.js";
export { SchemaCompiler, compileValidator, canonicalJson, DEFAULT_MAX_DEPTH, DEFAULT_PATTERN_BUDGET } from "./validate.js";
export type { Check, CompilerSettings, FastCheck, GeneratedValidators, SchemaDirection, Strip, ValidatorEnv } from "./validate.js";
export { mockFromSchema, documentMocker, mediaExample, mockPayload, describeMockIssues, MOCK_LIMITS } from "./mock.js";
export type { DocumentMocker, MockIssue, MockOptions, MockPayload } from "./mock.js";
export { resolvePointer } from "./schema.js";
export type {
  AnyHandlerResult,
  ApiKeyCredentials,
  BasicCredentials,
  BearerCredentials,
  EncodingSpec,
  ErrorBody,
  ErrorContext,
  GeneratedInfo,
  Handler,
  HandlerContext,
  HandlerResult,
  HttpCredentials,
  Loc,
  MediaSpec,
  MockSettings,
  MountOptions,
  MultipartLimits,
  NoParams,
  NoPartHeaders,
  OAuth2Credentials,
  ParamGroup,
  ParamSpec,
  PartHeaderSpec,
  PatternOptions,
  PositionalHeaderSpec,
  NotABoolean,
  Principal,
  QuerystringParam,
  QuerystringParamSpec,
  RequestBody,
  RequestBodySpec,
  ResponseSpec,
  ResultHeaders,
  RouteParams,
  Router,
  RouterError,
  RouterFeatures,
  RouterOptions,
  RouteSpec,
  Schema,
  SchemaDocument,
  SchemaObject,
  SchemeCredentials,
  SequenceSpec,
  ValidationIssue,
} from "./types.js";
