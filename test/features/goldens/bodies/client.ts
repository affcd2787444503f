import type { paths } from "./schema.js";
import type {
  ClientOptions as RuntimeClientOptions,
  Operation,
  OperationRow,
  PaginatedOperation,
  SecuritySchemeSpec,
  ServerSpec,
  StreamingOperation,
} from "./runtime/client/types.js";
import {
  createRuntime,
  type RuntimeFeatures,
} from "./runtime/client/runtime.js";
import { bodiesFeature } from "./runtime/client/serialize.js";
export {
  ApiError,
  ConnectionError,
  ResponseTooLargeError,
  TimeoutError,
} from "./runtime/client/errors.js";
export type {
  ApiErrorOf,
  ApiResponse,
  CredentialContext,
  RequestOptions,
} from "./runtime/client/types.js";
export { formPart, type FormPart } from "./runtime/client/serialize.js";
/** What the operations need beyond JSON bodies and OpenAPI's default parameter styles. */
const features: RuntimeFeatures[] = [bodiesFeature];
/** The spec's servers; each operation names one by index. */
const servers: ServerSpec[] = JSON.parse(
  '[\
  {"url":"{url}","variables":{"url":{"option":"baseUrl","default":""}}}\
]',
);
/** The spec's security schemes, by key: where each credential goes and which client options hold it. */
const securitySchemes: Record<string, SecuritySchemeSpec> = JSON.parse("{}");

/** Options of `createClient`: the runtime's options plus one per server variable. The spec declares no security scheme: send credentials with `headers`. */
export interface ClientOptions extends RuntimeClientOptions {
  /** Base URL of the API (the spec declares no server). */
  baseUrl: string;
}

/** One method per operation of Bodies and responses 1.0.0. */
export interface Client {
  /** `POST /forms` (operationId `submitForm`) */
  submitForm: Operation<
    paths["/forms"]["post"],
    "application/x-www-form-urlencoded"
  >;
  /** `POST /uploads` (operationId `upload`) */
  upload: Operation<paths["/uploads"]["post"], "multipart/form-data">;
  /** `GET /blobs/{id}` (operationId `getBlob`) */
  getBlob: Operation<paths["/blobs/{id}"]["get"]>;
  /** `PUT /blobs/{id}` (operationId `putBlob`) */
  putBlob: Operation<paths["/blobs/{id}"]["put"], "application/octet-stream">;
  /** `POST /notes` (operationId `postNote`) */
  postNote: Operation<paths["/notes"]["post"], "text/plain">;
  /** `GET /maybe` (operationId `maybe`) */
  maybe: Operation<paths["/maybe"]["get"]>;
  /** `GET /only-default` (operationId `onlyDefault`) */
  onlyDefault: Operation<paths["/only-default"]["get"]>;
  /** `GET /no-operation-id/{petId}` */
  getNoOperationIdByPetId: Operation<paths["/no-operation-id/{petId}"]["get"]>;
  /** `POST /no-operation-id/{petId}` */
  postNoOperationIdByPetId: Operation<
    paths["/no-operation-id/{petId}"]["post"]
  >;
}

/** Values several operations share, by key; `operations` holds their keys. */
const shared: Record<number, unknown> = JSON.parse(
  '{\
  "0":["default"],\
  "29":{"path":["id"]},\
  "46":{"path":["petId"]}\
}',
);
/** How each method sends its request: `[name, method, path, { parameters, body, declared errors, … }]`. */
const operations: OperationRow[] = JSON.parse(
  '[\
  ["submitForm","POST","/forms",{"body":{"mediaType":"application/x-www-form-urlencoded","required":true}}],\
  ["upload","POST","/uploads",{"body":{"mediaType":"multipart/form-data","required":true}}],\
  ["getBlob","GET","/blobs/{id}",{"params":29}],\
  ["putBlob","PUT","/blobs/{id}",{"params":29,"body":{"mediaType":"application/octet-stream","required":true}}],\
  ["postNote","POST","/notes",{"body":{"mediaType":"text/plain","required":true}}],\
  ["maybe","GET","/maybe",{"errors":0}],\
  ["onlyDefault","GET","/only-default",{"errors":0}],\
  ["getNoOperationIdByPetId","GET","/no-operation-id/{petId}",{"params":46}],\
  ["postNoOperationIdByPetId","POST","/no-operation-id/{petId}",{"params":46}]\
]',
);

/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export function createClient(options: ClientOptions): Client {
  const runtime = createRuntime(servers, options, securitySchemes, features);
  return Object.fromEntries(
    operations.map((row) => [
      row.at(0) as string,
      runtime.operation(row, shared),
    ]),
  ) as unknown as Client;
}
