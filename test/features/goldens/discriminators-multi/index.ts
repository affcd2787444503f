export type * from "./schema.js";
export {
  createClient,
  ApiError,
  ConnectionError,
  ResponseTooLargeError,
  TimeoutError,
  type Client,
  type ClientOptions,
  type ApiErrorOf,
  type ApiResponse,
  type CredentialContext,
  type RequestOptions,
} from "./client.js";
export {
  createRouter,
  toNodeListener,
  HttpError,
  mockFromSchema,
  type Credentials,
  type Handlers,
  type Router,
  type RouterError,
  type RouterOptions,
  type HandlerResult,
  type SecurityAlternatives,
} from "./server.js";
