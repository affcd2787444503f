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
      "ChatMessage":{\
        "oneOf":[{"$ref":"#/components/schemas/UserMessage"},{"$ref":"#/components/schemas/AssistantMessage"},{"$ref":"#/components/schemas/ToolMessage"},{"$ref":"#/components/schemas/SystemMessage"}],\
        "discriminator":{"propertyName":"role","mapping":{"user":"#/components/schemas/UserMessage","assistant":"#/components/schemas/AssistantMessage","tool":"#/components/schemas/ToolMessage","system":"#/components/schemas/SystemMessage"}}\
      },\
      "UserMessage":{"type":"object","required":["role","content"],"properties":{"role":{"type":"string","enum":["user"],"in this case `user`.":null},"content":{"type":"string"}}},\
      "AssistantMessage":{"type":"object","required":["role"],"properties":{"role":{"const":"assistant"},"content":{"type":["string","null"]}}},\
      "ToolRole":{"type":"string","enum":["tool"]},\
      "ToolMessage":{"type":"object","required":["role","tool_call_id"],"properties":{"role":{"$ref":"#/components/schemas/ToolRole"},"tool_call_id":{"type":"string"}}},\
      "MessageBase":{"type":"object","required":["content"],"properties":{"content":{"type":"string"}}},\
      "SystemMessage":{"allOf":[{"$ref":"#/components/schemas/MessageBase"},{"type":"object","required":["role"],"properties":{"role":{"type":"string","enum":["system"]}}}]},\
      "Event":{"oneOf":[{"$ref":"#/components/schemas/CreatedEvent"},{"$ref":"#/components/schemas/DeletedEvent"},{"$ref":"#/components/schemas/RenamedEvent"}],"discriminator":{"propertyName":"type","mapping":{"created":"#/components/schemas/CreatedEvent","deleted":"#/components/schemas/DeletedEvent"}}},\
      "CreatedEvent":{"type":"object","required":["type","id"],"properties":{"type":{"type":"string"},"id":{"type":"string"}}},\
      "DeletedEvent":{"type":"object","required":["type","id"],"properties":{"type":{"type":"string","enum":["deleted"]},"id":{"type":"string"}}},\
      "RenamedEvent":{"type":"object","required":["type","name"],"properties":{"type":{"type":"string"},"name":{"type":"string"}}},\
      "Config":{"oneOf":[{"$ref":"#/components/schemas/AutoConfig"},{"$ref":"#/components/schemas/CustomConfig"}],"discriminator":{"propertyName":"use_custom","mapping":{"False":"#/components/schemas/AutoConfig","True":"#/components/schemas/CustomConfig"}}},\
      "AutoConfig":{"type":"object","required":["use_custom"],"properties":{"use_custom":{"type":"boolean","const":false},"auto_setting":{"type":"string"}}},\
      "CustomConfig":{"type":"object","required":["use_custom","custom_value"],"properties":{"use_custom":{"type":"boolean","const":true},"custom_value":{"type":"integer"}}},\
      "KindBase":{"type":"object","required":["kind"],"properties":{"kind":{"type":"integer"}},"discriminator":{"propertyName":"kind","mapping":{"1":"#/components/schemas/KindOne","2":"#/components/schemas/KindTwo"}}},\
      "KindOne":{"allOf":[{"$ref":"#/components/schemas/KindBase"},{"type":"object","properties":{"one":{"type":"string"}}}]},\
      "KindTwo":{"allOf":[{"$ref":"#/components/schemas/KindBase"},{"type":"object","properties":{"two":{"type":"string"}}}]},\
      "Pet":{"type":"object","required":["petType","name"],"properties":{"petType":{"type":"string"},"name":{"type":"string"}},"oneOf":[{"$ref":"#/components/schemas/Cat"},{"$ref":"#/components/schemas/Dog"}],"discriminator":{"propertyName":"petType","mapping":{"cat":"#/components/schemas/Cat","dog":"#/components/schemas/Dog"}}},\
      "Cat":{"allOf":[{"type":"object","required":["petType","name"],"properties":{"petType":{"type":"string"},"name":{"type":"string"}}},{"type":"object","required":["meows"],"properties":{"meows":{"type":"boolean"}}}]},\
      "Dog":{"allOf":[{"type":"object","required":["petType","name"],"properties":{"petType":{"type":"string"},"name":{"type":"string"}}},{"type":"object","required":["barks"],"properties":{"barks":{"type":"boolean"}}}]},\
      "Shape":{"oneOf":[{"$ref":"#/components/schemas/Circle"},{"$ref":"#/components/schemas/Square"}],"discriminator":{"propertyName":"kind","mapping":{"circle":"#/components/schemas/Circle","square":"#/components/schemas/Square"}}},\
      "Circle":{"allOf":[{"type":"object","required":["kind","radius"],"properties":{"kind":{"const":"circle"},"radius":{"type":"number"}}}]},\
      "Square":{"allOf":[{"type":"object","required":["kind","side"],"properties":{"kind":{"const":"square"},"side":{"type":"number"}}}]},\
      "Vehicle":{"type":"object","required":["wheels"],"properties":{"wheels":{"type":"integer"}},"oneOf":[{"$ref":"#/components/schemas/Car"},{"$ref":"#/components/schemas/Bike"}]},\
      "Car":{"allOf":[{"type":"object","required":["wheels"],"properties":{"wheels":{"type":"integer"}}},{"type":"object","required":["doors"],"properties":{"doors":{"type":"integer"}}}]},\
      "Bike":{"allOf":[{"type":"object","required":["wheels"],"properties":{"wheels":{"type":"integer"}}},{"type":"object","required":["bell"],"properties":{"bell":{"type":"boolean"}},"not":{"required":["doors"]}}]}\
    }\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes = JSON.parse(
  '[\
  {\
    "name":"chat",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{"required":true,"content":{"application/json":{"schema":{"type":"object","required":["messages"],"properties":{"messages":{"type":"array","items":{"$ref":"#/components/schemas/ChatMessage"}}}}}}},\
    "responses":{"200":{"content":{"application/json":{"schema":{"type":"object"}}}}},\
    "validationErrorStatus":400,\
    "path":"/chat"\
  },\
  {"name":"postEvent","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Event"}}}},"responses":{"204":{}},"validationErrorStatus":400,"path":"/events"},\
  {"name":"postConfig","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Config"}}}},"responses":{"204":{}},"validationErrorStatus":400,"path":"/configs"},\
  {"name":"postKind","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"oneOf":[{"$ref":"#/components/schemas/KindOne"},{"$ref":"#/components/schemas/KindTwo"}]}}}},"responses":{"204":{}},"validationErrorStatus":400,"path":"/kinds"},\
  {"name":"createPet","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Pet"}}}}},"validationErrorStatus":400,"path":"/pets"},\
  {"name":"createVehicle","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Vehicle"}}}},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Vehicle"}}}}},"validationErrorStatus":400,"path":"/vehicles"},\
  {"name":"createShape","method":"POST","secured":false,"params":{"path":[],"query":[],"header":[]},"body":{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Shape"}}}},"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Shape"}}}}},"validationErrorStatus":400,"path":"/shapes"}\
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
