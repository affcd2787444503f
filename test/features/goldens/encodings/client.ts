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
import { bodiesFeature, stylesFeature } from "./runtime/client/serialize.js";
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
const features: RuntimeFeatures[] = [stylesFeature, bodiesFeature];
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

/** One method per operation of Encodings 1.0.0. */
export interface Client {
  /** `GET /v1/customers` (operationId `GetCustomers`) */
  getCustomers: Operation<paths["/v1/customers"]["get"]>;
  /** `POST /v1/customers` (operationId `PostCustomers`) */
  postCustomers: Operation<
    paths["/v1/customers"]["post"],
    "application/x-www-form-urlencoded"
  >;
  /** `POST /v1/files` (operationId `PostFiles`) */
  postFiles: Operation<paths["/v1/files"]["post"], "multipart/form-data">;
}

/** Values several operations share, by key; `operations` holds their keys. */
const shared: Record<number, unknown> = JSON.parse("{}");
/** How each method sends its request: `[name, method, path, { parameters, body, declared errors, … }]`. */
const operations: OperationRow[] = JSON.parse(
  '[\
  ["getCustomers","GET","/v1/customers",{"params":{"query":[{"name":"created","style":"deepObject","explode":true},{"name":"expand","style":"deepObject","explode":true},{"name":"filter","style":"deepObject","explode":true}]}}],\
  [\
    "postCustomers",\
    "POST",\
    "/v1/customers",\
    {\
      "body":{\
        "mediaType":"application/x-www-form-urlencoded",\
        "required":true,\
        "encoding":{\
          "metadata":{"style":"deepObject","explode":true},\
          "preferred_locales":{"style":"deepObject","explode":true},\
          "expand":{"style":"deepObject","explode":true},\
          "invoice_settings":{"style":"deepObject","explode":true},\
          "cash_balance":{"style":"deepObject","explode":true},\
          "csv":{"style":"form","explode":false},\
          "pipes":{"style":"pipeDelimited","explode":false},\
          "redirect":{"allowReserved":true},\
          "id_json":{"contentType":"application/json"},\
          "point":{"style":"form","explode":true}\
        }\
      }\
    }\
  ],\
  ["postFiles","POST","/v1/files",{"body":{"mediaType":"multipart/form-data","required":true,"encoding":{"file":{"contentType":"image/png, image/jpeg","headers":{"X-Rate-Limit-Limit":"10"}},"doc":{"contentType":"application/json"},"file_link_data":{"style":"deepObject","explode":true}}}}]\
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
