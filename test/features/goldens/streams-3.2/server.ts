import type { components, paths } from "./schema.js";
import {
  createRouterRuntime,
  documentMocker,
  type GeneratedInfo,
  type MockOptions,
  type Schema,
  type Handler,
  type RouteSpec,
  type Router,
  type RouterFeatures,
  type NotABoolean,
  type RouterOptions,
  type SchemaDocument,
} from "./runtime/server/index.js";
import { requestValidators } from "./server-validators.js";
export { toNodeListener } from "./runtime/server/node.js";
export {
  HttpError,
  type Router,
  type RouterError,
  type RouterOptions,
  type HandlerResult,
} from "./runtime/server/index.js";
/** The spec's component schemas that route schemas `$ref`. */
const document: SchemaDocument = JSON.parse(
  '{\
  "components":{\
    "schemas":{\
      "Tick":{"type":"object","required":["seq","at"],"properties":{"seq":{"type":"integer","minimum":0},"at":{"type":"string","format":"date-time"},"note":{"type":"string"}}},\
      "Answer":{"type":"object","required":["text"],"properties":{"text":{"type":"string"}}},\
      "Chunk":{"type":"object","required":["delta"],"properties":{"delta":{"type":"string"}}}\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes: RouteSpec[] = JSON.parse(
  '[\
  {\
    "name":"streamEvents",\
    "method":"GET",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "responses":{\
      "200":{\
        "content":{\
          "text/event-stream":{\
            "schema":{\
              "anyOf":[\
                {"type":"object","properties":{"event":{"allOf":[{"type":"string"},{"const":"tick"}]},"data":{"$ref":"#/components/schemas/Tick"},"id":{"type":"string"},"retry":{"type":"integer","minimum":0}},"required":["data","event"]},\
                {"type":"object","properties":{"event":{"allOf":[{"type":"string"},{"const":"note"}]},"data":{"allOf":[{"type":"string"},{"maxLength":40}]},"id":{"type":"string"},"retry":{"type":"integer","minimum":0}},"required":["data","event"]}\
              ]\
            },\
            "sequence":{"format":"sse","sse":{"events":true,"json":{"byEvent":{"tick":true,"note":false},"otherwise":false}}}\
          }\
        }\
      }\
    },\
    "validationErrorStatus":400,\
    "path":"/events"\
  },\
  {\
    "name":"streamPlanetEvents",\
    "method":"GET",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "responses":{"200":{"content":{"text/event-stream":{"schema":{"$ref":"#/components/schemas/Tick"}},"application/jsonl":{"schema":{"$ref":"#/components/schemas/Tick"},"sequence":{"format":"jsonl"}},"application/json-seq":{"schema":{"$ref":"#/components/schemas/Tick"},"sequence":{"format":"json-seq"}}}}},\
    "validationErrorStatus":400,\
    "path":"/planet-events"\
  },\
  {\
    "name":"streamTicksJsonl",\
    "method":"GET",\
    "secured":false,\
    "params":{"path":[],"query":[{"name":"count","required":false,"schema":{"type":"integer","minimum":0,"maximum":5000,"default":3}}],"header":[]},\
    "responses":{"200":{"content":{"application/jsonl":{"schema":{"$ref":"#/components/schemas/Tick"},"sequence":{"format":"jsonl"},"example":[{"seq":1,"at":"2025-01-01T00:00:00Z"},{"seq":2,"at":"2025-01-01T00:00:01Z"}]}}}},\
    "validationErrorStatus":400,\
    "path":"/ticks.jsonl"\
  },\
  {"name":"streamTicksNdjson","method":"GET","secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/x-ndjson":{"schema":{"$ref":"#/components/schemas/Tick"},"sequence":{"format":"jsonl"}}}}},"validationErrorStatus":400,"path":"/ticks.ndjson"},\
  {"name":"streamTicksSeq","method":"GET","secured":false,"params":{"path":[],"query":[],"header":[]},"responses":{"200":{"content":{"application/json-seq":{"schema":{"$ref":"#/components/schemas/Tick"},"sequence":{"format":"json-seq"}}}}},"validationErrorStatus":400,"path":"/ticks.seq"},\
  {\
    "name":"createChat",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{"required":true,"content":{"application/json":{"schema":{"type":"object","required":["prompt"],"properties":{"prompt":{"type":"string"},"stream":{"type":"boolean"}}}}}},\
    "responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Answer"}},"text/event-stream":{"schema":{"type":"object","properties":{"event":{"type":"string"},"data":{"$ref":"#/components/schemas/Chunk"},"id":{"type":"string"},"retry":{"type":"integer","minimum":0}},"required":["data"]},"sequence":{"format":"sse","sse":{"events":true,"json":true}}}}}},\
    "validationErrorStatus":400,\
    "path":"/chat"\
  }\
]',
);

/** What `authenticate` can be handed: one member per security alternative of the spec (the schemes a request presented, by key). Narrow with `"key" in credentials`. */
export interface SecurityAlternatives {}

export type Credentials = SecurityAlternatives[keyof SecurityAlternatives];
/** What the router needs to know of the spec besides its routes: the patterns that backtrack catastrophically (run on its linear-time matcher) and where its servers' routes are served. */
const generated: GeneratedInfo = JSON.parse(
  '{\
  "superLinearPatterns":[]\
}',
);
/** What the routes need beyond the router's core: multipart bodies, the linear-time matcher of catastrophic patterns. */
const features: RouterFeatures[] = [];

/** One optional handler per operation. A missing handler answers 501 (or a mock value in mock mode). */
export interface Handlers<Auth = unknown> {
  /**
   * Ticks as JSON events, notes as text events (the specification's SSE example, reduced)
   *
   * `GET /events`
   */
  streamEvents?: Handler<paths["/events"]["get"], Auth>;
  /**
   * Scalar Galaxy's shape, an itemSchema without `data` (it describes each event's JSON data)
   *
   * `GET /planet-events`
   */
  streamPlanetEvents?: Handler<paths["/planet-events"]["get"], Auth>;
  /** `GET /ticks.jsonl` */
  streamTicksJsonl?: Handler<paths["/ticks.jsonl"]["get"], Auth>;
  /** `GET /ticks.ndjson` */
  streamTicksNdjson?: Handler<paths["/ticks.ndjson"]["get"], Auth>;
  /** `GET /ticks.seq` */
  streamTicksSeq?: Handler<paths["/ticks.seq"]["get"], Auth>;
  /**
   * A JSON answer, or (with `stream`) a stream of events whose data is a chunk
   *
   * `POST /chat`
   */
  createChat?: Handler<paths["/chat"]["post"], Auth, "application/json">;
}

/** A web-standard router (`fetch(request) => Promise<Response>`) for every route of the spec. Secured operations need `options.authenticate` (or `insecureNoAuth: true`); use `toNodeListener(router)` with `node:http`. */
export function createRouter<Auth = unknown>(
  handlers: Handlers<Auth>,
  options?: RouterOptions<Auth, Credentials> & NotABoolean<Auth>,
): Router {
  return createRouterRuntime<Auth, Credentials>(
    document,
    routes,
    handlers as Record<string, unknown>,
    options ?? {},
    generated,
    requestValidators,
    features,
  );
}

/** The component schemas `mockFromSchema(name)` makes values of (those the routes reach), with their types. */
export interface MockableSchemas {
  Tick: components["schemas"]["Tick"];
  Answer: components["schemas"]["Answer"];
  Chunk: components["schemas"]["Chunk"];
}

/** `mockFromSchema`: by component name, typed; or of any schema, in the document its `$ref`s point into. */
export interface MockFromSchema {
  /** A value of the component schema `name`, valid against it as the router validates, typed as schema.ts types it. */
  <Name extends keyof MockableSchemas>(
    name: Name,
    options?: Omit<MockOptions, "compiler">,
  ): MockableSchemas[Name];
  /** A value of `schema` (its `$ref`s resolved in `document`); `unknown`, as the schema is not a type. */
  (schema: Schema, document?: SchemaDocument, options?: MockOptions): unknown;
}

/**
 * Deterministic, schema-valid values, as the router's mock answers are made: `mockFromSchema("Pet")` is a `Pet`
 * (the spec's example when it validates, else one generated from the schema: formats, patterns, bounds, unique
 * items, discriminators; sizes clamped). `options.variant` gives other values; `options.onIssue` hears of any
 * place no value could satisfy.
 */
export const mockFromSchema: MockFromSchema = documentMocker(
  document,
) as MockFromSchema;
