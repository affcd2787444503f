/**
 * Runtime of the generated client. The generator copies this folder verbatim; `client.ts` imports from here.
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
export { createRuntime, type RequestParams, type Runtime, type RuntimeOperation } from "./runtime.js";
export { ApiError, ConnectionError, TimeoutError, type ApiErrorConstructor, type ApiErrorInit } from "./errors.js";
export { Stream, parseRecords, parseSSE, sequenceFormat, type ParseSSEOptions, type SequenceFormat, type ServerSentEvent, type StreamOptions } from "./sse.js";
export { FormPart, formPart, type FormPartOptions } from "./serialize.js";
export { OAuth2Error, type DeviceCodePrompt, type OAuth2DeviceFlow, type OAuth2Endpoints } from "./oauth.js";
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
  OperationSpec,
  PaginatedOperation,
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
