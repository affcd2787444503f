/**
 * Runtime of the generated client, all of it in one entry point. The generated `client.ts` imports the modules
 * themselves (runtime.js, types.js, errors.js and the feature modules its spec needs), and the generator copies
 * only those: this file is for code that uses the runtime by hand (specforge's tests).
 *
 * ```ts
 * const client = createClient({ httpBearer: process.env.API_KEY }); // one option per security scheme of the spec
 * const job = await client.getTrainingJob({ path: { training_job_id: id } });
 * const { data, headers } = await client.getTrainingJob.withResponse({ path: { training_job_id: id } });
 * for await (const checkpoint of client.listModelCheckpoints.paginate({ path: { model_id } })) console.log(checkpoint.step);
 * for await (const chunk of await client.createChatCompletion({ body: { messages, stream: true } })) write(chunk);
 * try {
 *   await client.createTrainingJob({ body });
 * } catch (error) {
 *   if (client.createTrainingJob.isError(error) && error.status === 422) console.error(error.body.detail);
 *   else throw error; // ApiError (undeclared status), ConnectionError, TimeoutError, or the abort reason
 * }
 * ```
 */
import { authFeature } from "./auth.js";
import { cookiesFeature, headerParamsFeature } from "./headers.js";
import { deviceFlowFeature } from "./oauth.js";
import { paginationFeature } from "./pagination.js";
import { pathQueryFeature } from "./pathquery.js";
import { createRuntime as createCore, type RuntimeFeatures } from "./runtime.js";
import { bodiesFeature, stylesFeature } from "./serialize.js";
import { streamsFeature } from "./records.js";

export type { RequestParams, Runtime, RuntimeFeatures, RuntimeOperation } from "./runtime.js";

/** Every optional feature of the request engine; what a generated client passes is only what its spec uses. */
export const ALL_FEATURES: readonly RuntimeFeatures[] = [authFeature, deviceFlowFeature, pathQueryFeature, stylesFeature, headerParamsFeature, cookiesFeature, bodiesFeature, streamsFeature, paginationFeature];

/**
 * The request engine with every feature (for code that builds operations by hand). A generated client imports
 * runtime.js and the feature modules its spec needs instead, so that a bundler leaves out the rest.
 */
export const createRuntime = (...[servers, options, schemes, features = ALL_FEATURES]: Parameters<typeof createCore>): ReturnType<typeof createCore> =>
  createCore(servers, options, schemes, features);
export { ApiError, ConnectionError, ResponseTooLargeError, TimeoutError, type ApiErrorConstructor, type ApiErrorInit } from "./errors.js";
export { Stream, parseSSE, readStream, sseFeature, streamAccept, type ParseSSEOptions, type ServerSentEvent, type StreamOptions } from "./sse.js";
export { parseRecords, readRecords, recordFormat, recordsFeature, streamsFeature } from "./records.js";
export { FormPart, formPart, type FormPartOptions } from "./serialize.js";
export { authFeature, credentialsFor, type AppliedCredentials } from "./auth.js";
export { tokenFeature } from "./token.js";
export { paginationFeature } from "./pagination.js";
export { cookiesFeature, headerParamsFeature } from "./headers.js";
export { pathQueryFeature, splitPath } from "./pathquery.js";
export { isBodyInit, plainBodiesFeature, plainBody } from "./plain.js";
export { OAuth2Error, deviceFlowFeature, withDeviceFlows, type DeviceCodePrompt, type OAuth2DeviceFlow, type OAuth2Endpoints } from "./oauth.js";
export { bodiesFeature, encodeBody, styles, stylesFeature, wholeQueryString } from "./serialize.js";
export type {
  ApiErrorOf,
  ApiResponse,
  BasicCredentials,
  BinaryBody,
  BodySpec,
  CallArgs,
  ClientOptions,
  Credential,
  CredentialContext,
  EncodingSpec,
  ErrorStatusKey,
  FetchLike,
  HeaderValues,
  HttpMethod,
  Operation,
  OperationBase,
  OperationRow,
  OperationSpec,
  PaginatedOperation,
  ParamSerializers,
  PaginationSpec,
  ParamSpec,
  QuerystringSpec,
  ParamStyle,
  ParamsOf,
  RequestOptions,
  SecurityRequirementItem,
  SecuritySchemeSpec,
  ServerSpec,
  SseItemsSpec,
  ServerVariableSpec,
  StreamEventOf,
  StreamingOperation,
  StreamSpec,
  SuccessBody,
} from "./types.js";
