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

/** One method per operation of readOnly / writeOnly 1.0.0. */
export interface Client {
  /** `POST /users` (operationId `createUser`) */
  createUser: Operation<paths["/users"]["post"]>;
}

/** Values several operations share, by key; `operations` holds their keys. */
const shared: Record<number, unknown> = JSON.parse("{}");
/** How each method sends its request: `[name, method, path, { parameters, body, declared errors, … }]`. */
const operations: OperationRow[] = JSON.parse(
  '[\
  ["createUser","POST","/users",{"body":{"mediaType":"application/json","required":true}}]\
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
