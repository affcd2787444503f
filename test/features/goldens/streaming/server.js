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
      "ModelProperties":{"type":"object","properties":{"temperature":{"type":["number","null"]}}},\
      "StreamOptions":{"type":"object","properties":{"stream":{"type":["boolean","null"],"default":false}}},\
      "CreateChatCompletionRequest":{\
        "allOf":[{"$ref":"#/components/schemas/ModelProperties"},{"type":"object","required":["model","messages"],"properties":{"model":{"type":"string"},"messages":{"type":"array","items":{"type":"object","required":["role","content"],"properties":{"role":{"type":"string","enum":["user","assistant"]},"content":{"type":"string"}}}}}},{"$ref":"#/components/schemas/StreamingRequest"}]\
      },\
      "StreamingRequest":{"allOf":[{"$ref":"#/components/schemas/StreamOptions"}]},\
      "CreateCompletionRequest":{"$ref":"#/components/schemas/PromptRequest"},\
      "PromptRequest":{"allOf":[{"type":"object","required":["prompt"],"properties":{"prompt":{"type":"string"}}},{"$ref":"#/components/schemas/StreamOptions"}]},\
      "ChatCompletion":{"type":"object","required":["id","text"],"properties":{"id":{"type":"string"},"text":{"type":"string"}}},\
      "ChatCompletionChunk":{"type":"object","required":["id","delta"],"properties":{"id":{"type":"string"},"delta":{"type":"string"}}}\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes = JSON.parse(
  '[\
  {\
    "name":"createChatCompletion",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/CreateChatCompletionRequest"}}}},\
    "responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/ChatCompletion"}},"text/event-stream":{"schema":{"$ref":"#/components/schemas/ChatCompletionChunk"}}}}},\
    "validationErrorStatus":400,\
    "path":"/chat/completions"\
  },\
  {\
    "name":"createCompletion",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/CreateCompletionRequest"}}}},\
    "responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/ChatCompletion"}},"text/event-stream":{"schema":{"$ref":"#/components/schemas/ChatCompletionChunk"}}}}},\
    "validationErrorStatus":400,\
    "path":"/completions"\
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
