// @ts-self-types="./server.d.ts"
import { createRouterRuntime, documentMocker } from "./runtime/server/index.js";
import { requestValidators } from "./server-validators.js";
export { toNodeListener } from "./runtime/server/node.js";
export { HttpError } from "./runtime/server/index.js";
/** The spec's component schemas that route schemas `$ref`. */
const document = JSON.parse(
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
const routes = JSON.parse(
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
/** What the router needs to know of the spec besides its routes: the patterns that backtrack catastrophically (run on its linear-time matcher) and where its servers' routes are served. */
const generated = JSON.parse(
  '{\
  "superLinearPatterns":[]\
}',
);
/** What the routes need beyond the router's core: multipart bodies, the linear-time matcher of catastrophic patterns. */
const features = [];
/** A web-standard router (`fetch(request) => Promise<Response>`) for every route of the spec. Secured operations need `options.authenticate` (or `insecureNoAuth: true`); use `toNodeListener(router)` with `node:http`. */
export function createRouter(handlers, options) {
  return createRouterRuntime(
    document,
    routes,
    handlers,
    options ?? {},
    generated,
    requestValidators,
    features,
  );
}

/**
 * Deterministic, schema-valid values, as the router's mock answers are made: `mockFromSchema("Pet")` is a `Pet`
 * (the spec's example when it validates, else one generated from the schema: formats, patterns, bounds, unique
 * items, discriminators; sizes clamped). `options.variant` gives other values; `options.onIssue` hears of any
 * place no value could satisfy.
 */
export const mockFromSchema = documentMocker(document);
