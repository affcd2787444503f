export type * from "./schema.js";
/** @slot removed when the client is not generated; the names of the stream, multipart and OAuth 2 device flow features only where the spec uses them (`emitIndex`) */
export {
  createClient,
  ApiError,
  ConnectionError,
  ResponseTooLargeError,
  TimeoutError,
  Stream,
  formPart,
  OAuth2Error,
  type Client,
  type ClientOptions,
  type ApiErrorOf,
  type ApiResponse,
  type CredentialContext,
  type DeviceCodePrompt,
  type FormPart,
  type RequestOptions,
} from "./client.js";
/** @slot only with the resource-style client, which also gives the entry point's `createClient` and `Client` then (`emitIndex`) */
export { ApiPromise, PagePromise } from "./resources.js";
/** @slot removed when the server is not generated */
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
  type MockableSchemas,
  type MockFromSchema,
} from "./server.js";
/** @slot removed when the TanStack Query options are not generated */
export { createQueries, type Queries, type QueryError } from "./queries.js";
/** @slot removed when the MSW handlers are not generated */
export { createMswHandlers, mswHandler, type MswHandlers, type MswHandlerOptions } from "./msw.js";
/** @slot removed when webhooks are not generated (or the spec declares none) */
export {
  webhookSpec,
  WEBHOOK_EVENT_TYPES,
  verifyWebhookSignature,
  signWebhookPayload,
  signWebhookDelivery,
  parseWebhook,
  createWebhookHandler,
  createWebhookNodeListener,
  renderPayloadTemplate,
  checkPayloadTemplate,
  WebhookVerificationError,
  isWebhookVerificationError,
  type WebhookEvents,
  type WebhookHeaders,
  type WebhookEvent,
  type PayloadVariables,
  type WebhookFailureReason,
  type WebhookScheme,
} from "./webhooks.js";
/** @slot removed unless the config lists the adapter (`adapters`) */
export { toExpress, type ExpressMiddleware } from "../adapters/express.js";
/** @slot removed unless the config lists the adapter (`adapters`) */
export { toFastify, type FastifyPlugin } from "../adapters/fastify.js";
/** @slot removed unless the config lists the adapter (`adapters`) */
export { toHono, type HonoMiddleware } from "../adapters/hono.js";
/** @slot removed unless the config lists the adapter (`adapters`) */
export { toNextHandlers, type NextHandlers } from "../adapters/next.js";
/** @slot removed when the schemas are not generated */
export * as schemas from "./schemas.js";
