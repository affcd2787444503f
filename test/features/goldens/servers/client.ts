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
/** What the operations need beyond JSON bodies and OpenAPI's default parameter styles. */
const features: RuntimeFeatures[] = [];
/** The spec's servers; each operation names one by index. */
const servers: ServerSpec[] = JSON.parse(
  '[\
  {"url":"{url}","variables":{"url":{"option":"baseUrl","default":"https://api.shop.example/v1"}}},\
  {"url":"{url}","variables":{"url":{"option":"uploadsUrl","default":"https://uploads.shop.example"}}},\
  {"url":"{url}","variables":{"url":{"option":"euRegionUrl","default":"https://shop.example/reports"}}},\
  {"url":"{url}","variables":{"url":{"option":"v0Url","default":"/v0"}}},\
  {"url":"{url}","variables":{"url":{"option":"server5Url","default":""}}}\
]',
);
/** The spec's security schemes, by key: where each credential goes and which client options hold it. */
const securitySchemes: Record<string, SecuritySchemeSpec> = JSON.parse("{}");

/** Options of `createClient`: the runtime's options plus one per server variable. The spec declares no security scheme: send credentials with `headers`. */
export interface ClientOptions extends RuntimeClientOptions {
  /**
   * Overrides the server URL.
   * @default "https://api.shop.example/v1"
   */
  baseUrl?: string | undefined;
  /**
   * Overrides the server URL.
   * @default "https://uploads.shop.example"
   */
  uploadsUrl?: string | undefined;
  /**
   * Overrides the server URL (EU region).
   * @default "https://shop.example/reports"
   */
  euRegionUrl?: string | undefined;
  /**
   * Overrides the server URL (The old service, kept running until every customer has moved to the new one.).
   * @default "/v0"
   */
  v0Url?: string | undefined;
  /** The URL of the operations on the server `https://`, which names no host (Use the exact upload_url returned when the batch was created; do not construct it.): required before calling them. */
  server5Url?: string | undefined;
}

/** One method per operation of Servers 1.0.0. */
export interface Client {
  /** `GET /items` (operationId `listItems`) */
  listItems: Operation<paths["/items"]["get"]>;
  /** `POST /uploads` (operationId `upload`) */
  upload: Operation<paths["/uploads"]["post"]>;
  /** `GET /reports` (operationId `getReport`) */
  getReport: Operation<paths["/reports"]["get"]>;
  /** `GET /legacy` (operationId `getLegacy`) */
  getLegacy: Operation<paths["/legacy"]["get"]>;
  /** `PUT /batches/upload` (operationId `uploadBatch`) */
  uploadBatch: Operation<paths["/batches/upload"]["put"]>;
}

/** Values several operations share, by key; `operations` holds their keys. */
const shared: Record<number, unknown> = JSON.parse("{}");
/** How each method sends its request: `[name, method, path, { parameters, body, declared errors, … }]`. */
const operations: OperationRow[] = JSON.parse(
  '[\
  ["listItems","GET","/items"],\
  ["upload","POST","/uploads",{"server":1}],\
  ["getReport","GET","/reports",{"server":2}],\
  ["getLegacy","GET","/legacy",{"server":3}],\
  ["uploadBatch","PUT","/batches/upload",{"server":4}]\
]',
);
/** Creates a client. Every method sends one request (with retries) and resolves to the typed success body. */
export function createClient(options: ClientOptions = {}): Client {
  const runtime = createRuntime(servers, options, securitySchemes, features);
  return Object.fromEntries(
    operations.map((row) => [
      row.at(0) as string,
      runtime.operation(row, shared),
    ]),
  ) as unknown as Client;
}
