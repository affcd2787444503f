// @ts-self-types="./server.d.ts"
import { createRouterRuntime, documentMocker } from "./runtime/server/index.js";
import { multipartFeature } from "./runtime/server/multipart.js";
import { requestValidators } from "./server-validators.js";
export { toNodeListener } from "./runtime/server/node.js";
export { HttpError } from "./runtime/server/index.js";
/** The spec's component schemas that route schemas `$ref`. */
const document = JSON.parse(
  '{\
  "components":{\
    "schemas":{}\
  }\
}',
);
/** Every route of the spec. Routes that differ only by a trailing slash share one handler. */
const routes = JSON.parse(
  '[\
  {\
    "name":"getCustomers",\
    "method":"GET",\
    "secured":false,\
    "params":{\
      "path":[],\
      "query":[\
        {"name":"created","required":false,"schema":{"anyOf":[{"type":"object","properties":{"gt":{"type":"integer"},"lte":{"type":"integer"}}},{"type":"integer"}]},"style":"deepObject","explode":true},\
        {"name":"expand","required":false,"schema":{"type":"array","items":{"type":"string"}},"style":"deepObject","explode":true},\
        {"name":"filter","required":false,"schema":{"type":"object","properties":{"owner":{"type":"object","properties":{"id":{"type":"integer"},"verified":{"type":"boolean"}}},"tags":{"type":"array","items":{"type":"string"}}}},"style":"deepObject","explode":true}\
      ],\
      "header":[]\
    },\
    "responses":{"200":{"content":{"application/json":{"schema":{"type":"object","additionalProperties":true}}}}},\
    "validationErrorStatus":400,\
    "path":"/v1/customers"\
  },\
  {\
    "name":"postCustomers",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{\
      "required":true,\
      "content":{\
        "application/x-www-form-urlencoded":{\
          "schema":{\
            "type":"object",\
            "properties":{\
              "email":{"type":"string"},\
              "name":{"type":"string"},\
              "balance":{"type":"integer"},\
              "application_fee_amount":{"anyOf":[{"type":"integer"},{"type":"string","enum":[""]}]},\
              "off_session":{"anyOf":[{"type":"boolean"},{"type":"string","enum":["one_off","recurring"]}]},\
              "tax_exempt":{"type":"string","enum":["","exempt","none","reverse"]},\
              "metadata":{"anyOf":[{"type":"object","additionalProperties":{"type":"string"}},{"type":"string","enum":[""]}]},\
              "preferred_locales":{"type":"array","items":{"type":"string"}},\
              "expand":{"type":"array","items":{"type":"string"}},\
              "invoice_settings":{"type":"object","properties":{"footer":{"type":"string"},"days_until_due":{"anyOf":[{"type":"integer"},{"type":"string","enum":[""]}]},"custom_fields":{"anyOf":[{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"value":{"type":"string"}}}},{"type":"string","enum":[""]}]}}},\
              "cash_balance":{"type":"object","properties":{"settings":{"type":"object","properties":{"reconciliation_mode":{"type":"string","enum":["automatic","manual"]},"enabled":{"type":"boolean"},"threshold":{"type":"number"}}}}},\
              "shipping_json":{"type":"object","properties":{"city":{"type":"string"}}},\
              "csv":{"type":"array","items":{"type":"integer"}},\
              "pipes":{"type":"array","items":{"type":"string"}},\
              "redirect":{"type":"string"},\
              "id_json":{"type":"string"},\
              "point":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"number"}}}\
            }\
          },\
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
    },\
    "responses":{"200":{"content":{"application/json":{"schema":{"type":"object","additionalProperties":true}}}}},\
    "validationErrorStatus":400,\
    "path":"/v1/customers"\
  },\
  {\
    "name":"postFiles",\
    "method":"POST",\
    "secured":false,\
    "params":{"path":[],"query":[],"header":[]},\
    "body":{\
      "required":true,\
      "content":{\
        "multipart/form-data":{\
          "schema":{\
            "type":"object",\
            "required":["file"],\
            "properties":{\
              "file":{"type":"string","format":"binary"},\
              "purpose":{"type":"string"},\
              "count":{"type":"integer"},\
              "tags":{"type":"array","items":{"type":"string"}},\
              "meta":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"array","items":{"type":"string"}}}},\
              "doc":{"type":"string"},\
              "file_link_data":{"type":"object","properties":{"create":{"type":"boolean"},"expires_at":{"type":"integer"},"metadata":{"type":"object","additionalProperties":{"type":"string"}}}}\
            }\
          },\
          "encoding":{"file":{"contentType":"image/png, image/jpeg","headers":{"X-Rate-Limit-Limit":{"required":false,"schema":{"type":"integer","enum":[10]}}}},"doc":{"contentType":"application/json"},"file_link_data":{"style":"deepObject","explode":true}}\
        }\
      }\
    },\
    "responses":{"200":{"content":{"application/json":{"schema":{"type":"object","additionalProperties":true}}}}},\
    "validationErrorStatus":400,\
    "path":"/v1/files"\
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
const features = [multipartFeature];
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
