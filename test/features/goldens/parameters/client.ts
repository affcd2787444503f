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
import {
  cookiesFeature,
  headerParamsFeature,
} from "./runtime/client/headers.js";
import { stylesFeature } from "./runtime/client/serialize.js";
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
const features: RuntimeFeatures[] = [
  stylesFeature,
  headerParamsFeature,
  cookiesFeature,
];
/** The spec's servers; each operation names one by index. */
const servers: ServerSpec[] = JSON.parse(
  '[\
  {"url":"{url}","variables":{"url":{"option":"baseUrl","default":"http://localhost/api"}}}\
]',
);
/** The spec's security schemes, by key: where each credential goes and which client options hold it. */
const securitySchemes: Record<string, SecuritySchemeSpec> = JSON.parse("{}");

/** Options of `createClient`: the runtime's options plus one per server variable. The spec declares no security scheme: send credentials with `headers`. */
export interface ClientOptions extends RuntimeClientOptions {
  /**
   * Overrides the server URL.
   * @default "http://localhost/api"
   */
  baseUrl?: string | undefined;
}

/** One method per operation of Parameters 1.0.0. */
export interface Client {
  /** `GET /items/{id}` (operationId `getItem`) */
  getItem: Operation<paths["/items/{id}"]["get"]>;
  /** `DELETE /items/{id}` (operationId `deleteItem`) */
  deleteItem: Operation<paths["/items/{id}"]["delete"]>;
  /** `GET /search` (operationId `search`) */
  search: Operation<paths["/search"]["get"]>;
  /** `GET /styles/{simple}/{label}/{matrix}/{labelExplode}/{matrixExplode}/{simpleObject}/{simpleExplode}` (operationId `pathStyles`) */
  pathStyles: Operation<
    paths["/styles/{simple}/{label}/{matrix}/{labelExplode}/{matrixExplode}/{simpleObject}/{simpleExplode}"]["get"]
  >;
  /** `GET /scalars/{label}/{matrix}` (operationId `pathScalars`) */
  pathScalars: Operation<paths["/scalars/{label}/{matrix}"]["get"]>;
}

/** Values several operations share, by key; `operations` holds their keys. */
const shared: Record<number, unknown> = JSON.parse("{}");
/** How each method sends its request: `[name, method, path, { parameters, body, declared errors, … }]`. */
const operations: OperationRow[] = JSON.parse(
  '[\
  ["getItem","GET","/items/{id}",{"params":{"path":["id"],"query":["verbose"]}}],\
  ["deleteItem","DELETE","/items/{id}",{"params":{"path":["id"],"query":["verbose","limit"]}}],\
  ["search","GET","/search",{"params":{"query":["ids",{"name":"idsCsv","explode":false},{"name":"idsSpace","style":"spaceDelimited"},{"name":"idsPipe","style":"pipeDelimited"},"filter",{"name":"point","explode":false},{"name":"where","style":"deepObject"},{"name":"bar","style":"pipeDelimited"},"limit"],"header":["X-Trace",{"name":"X-Coords","explode":true},"X-Tags"],"cookie":["session"]}}],\
  ["pathStyles","GET","/styles/{simple}/{label}/{matrix}/{labelExplode}/{matrixExplode}/{simpleObject}/{simpleExplode}",{"params":{"path":["simple",{"name":"label","style":"label"},{"name":"matrix","style":"matrix"},{"name":"labelExplode","style":"label","explode":true},{"name":"matrixExplode","style":"matrix","explode":true},"simpleObject",{"name":"simpleExplode","explode":true}]}}],\
  ["pathScalars","GET","/scalars/{label}/{matrix}",{"params":{"path":[{"name":"label","style":"label"},{"name":"matrix","style":"matrix"}]}}]\
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
