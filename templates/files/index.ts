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
} from "./server.js";
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
