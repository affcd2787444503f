import { describe, expect, it } from "vitest";
import { diffDocuments } from "../../src/diff/compare.js";
import { resolvePointer } from "../../src/diff/document.js";
import type { Change } from "../../src/diff/model.js";
import { loadSpec } from "../../src/load/index.js";
import { V1_SPEC } from "../helpers.js";

/**
 * The v1 spec against edited copies of itself: one edit per kind of change, and the exact changes `diff` must
 * report for it, with who they break. `breaks` is "client", "server", "both" or "none" (compatible).
 */

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const V1: Doc = loadSpec(V1_SPEC).document;

type Breaks = "client" | "server" | "both" | "none";
interface Expected {
  rule: Change["rule"];
  breaks: Breaks;
  subject: string;
  /** A part of the message. */
  says?: string;
}

const breaksOf = (c: Change): Breaks => (c.breaking.client && c.breaking.server ? "both" : c.breaking.client ? "client" : c.breaking.server ? "server" : "none");

function diffWith(edit: (doc: Doc) => void, base: Doc = V1) {
  const edited = structuredClone(base);
  edit(edited);
  return { result: diffDocuments(base, edited), edited };
}

const S = (doc: Doc) => doc.components.schemas;
const HEALTH = "/v1/health";
const MODELS = "/v1/models";
const CREATE_MODEL = "/v1/preview/models";
const MODEL = "/v1/preview/models/{model_id}";
const CHECKPOINTS = "/v1/preview/models/{model_id}/checkpoints";
const LOG = "/v1/preview/models/{model_id}/log";
const EVENTS = "/v1/preview/training-jobs/{training_job_id}/events";
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

const cases: [string, (doc: Doc) => void, Expected[]][] = [
  // Operations
  ["operation removed", (d) => delete d.paths[HEALTH], [{ rule: "operation-removed", breaks: "client", subject: "GET /v1/health" }]],
  ["operation added", (d) => (d.paths["/v1/ping"] = { get: { ...d.paths[HEALTH].get, operationId: "ping" } }), [{ rule: "operation-added", breaks: "server", subject: "GET /v1/ping" }]],
  [
    "operation moved (same operationId, new path)",
    (d) => {
      d.paths["/v1/healthz"] = d.paths[HEALTH];
      delete d.paths[HEALTH];
    },
    [{ rule: "operation-moved", breaks: "client", subject: "GET /v1/healthz", says: "moved from GET /v1/health" }],
  ],
  ["operationId changed", (d) => (d.paths[HEALTH].get.operationId = "health"), [{ rule: "operation-id-changed", breaks: "both", subject: "GET /v1/health", says: "wire are the same" }]],
  [
    "path parameter renamed",
    (d) => {
      d.paths["/v1/preview/models/{id}"] = d.paths[MODEL];
      delete d.paths[MODEL];
      d.paths["/v1/preview/models/{id}"].delete.parameters = [{ ...d.components.parameters.ModelId, name: "id" }];
    },
    [{ rule: "path-parameter-renamed", breaks: "both", subject: "DELETE /v1/preview/models/{id} path parameter id", says: 'from "model_id" to "id"' }],
  ],
  ["operation deprecated", (d) => (d.paths[MODELS].get.deprecated = true), [{ rule: "operation-deprecated", breaks: "none", subject: "GET /v1/models", says: "deprecated" }]],

  // Parameters
  [
    "required parameter added",
    (d) => d.paths[MODELS].get.parameters.push({ name: "team", in: "query", required: true, schema: { type: "string" } }),
    [{ rule: "parameter-added", breaks: "client", subject: "GET /v1/models query parameter team", says: "required query parameter added" }],
  ],
  [
    "optional parameter added",
    (d) => d.paths[MODELS].get.parameters.push({ name: "team", in: "query", schema: { type: "string" } }),
    [{ rule: "parameter-added", breaks: "none", subject: "GET /v1/models query parameter team" }],
  ],
  ["parameter removed", (d) => (d.paths[MODELS].get.parameters = []), [{ rule: "parameter-removed", breaks: "client", subject: "GET /v1/models header parameter OpenAI-Project" }]],
  [
    "shared parameter became required (every operation using it)",
    (d) => (d.components.parameters.Limit.required = true),
    [
      { rule: "parameter-required", breaks: "client", subject: `GET ${CHECKPOINTS} query parameter limit`, says: "became required" },
      { rule: "parameter-required", breaks: "client", subject: `GET ${EVENTS} query parameter limit`, says: "became required" },
    ],
  ],
  [
    "webhook header became optional: the receiver may now get deliveries without it",
    (d) => (d.components.parameters.WebhookSignature.required = false),
    Object.keys(V1.webhooks).map((name) => ({ rule: "parameter-required" as const, breaks: "client" as const, subject: `webhook ${name} header parameter X-Wandb-Signature`, says: "became optional" })),
  ],
  [
    "parameter serialization changed",
    (d) => Object.assign(d.paths[CHECKPOINTS].get.parameters[3], { explode: false }),
    [{ rule: "parameter-serialization-changed", breaks: "both", subject: `GET ${CHECKPOINTS} query parameter order`, says: "explode true → false" }],
  ],

  // Request bodies
  ["request body removed", (d) => delete d.paths[LOG].post.requestBody, [{ rule: "request-body-removed", breaks: "client", subject: `POST ${LOG} request body` }]],
  ["request body became optional", (d) => (d.paths[CREATE_MODEL].post.requestBody.required = false), [{ rule: "request-body-required", breaks: "server", subject: `POST ${CREATE_MODEL} request body`, says: "became optional" }]],
  ["optional request body added", (d) => (d.paths[HEALTH].get.requestBody = json({ type: "object" })), [{ rule: "request-body-added", breaks: "none", subject: "GET /v1/health request body" }]],
  [
    "request media type replaced",
    (d) => {
      const content = d.paths[CREATE_MODEL].post.requestBody.content;
      content["application/x-www-form-urlencoded"] = content["application/json"];
      delete content["application/json"];
    },
    [
      { rule: "media-type-removed", breaks: "client", subject: `POST ${CREATE_MODEL} request body (application/json)` },
      { rule: "media-type-added", breaks: "server", subject: `POST ${CREATE_MODEL} request body (application/x-www-form-urlencoded)` },
    ],
  ],

  // Responses
  ["error response removed", (d) => delete d.paths[MODEL].delete.responses["404"], [{ rule: "response-removed", breaks: "server", subject: `DELETE ${MODEL} response 404` }]],
  [
    "success and error responses added",
    (d) => {
      d.paths[CREATE_MODEL].post.responses["201"] = d.paths[CREATE_MODEL].post.responses["200"];
      d.paths[CREATE_MODEL].post.responses["409"] = { description: "conflict" };
    },
    [
      { rule: "response-added", breaks: "client", subject: `POST ${CREATE_MODEL} response 201`, says: "success" },
      { rule: "response-added", breaks: "none", subject: `POST ${CREATE_MODEL} response 409`, says: "error" },
    ],
  ],
  [
    "response media types: added is compatible, removed breaks clients",
    (d) => {
      const content = d.paths[MODELS].get.responses["200"].content;
      content["application/x-ndjson"] = content["application/json"];
      delete content["application/json"];
    },
    [
      { rule: "media-type-removed", breaks: "client", subject: "GET /v1/models response 200 (application/json)" },
      { rule: "media-type-added", breaks: "none", subject: "GET /v1/models response 200 (application/x-ndjson)" },
    ],
  ],
  [
    "response headers added (required, optional)",
    (d) => (d.paths[HEALTH].get.responses["200"].headers = { "X-Request-Id": { required: true, schema: { type: "string" } }, "X-Trace": { schema: { type: "string" } } }),
    [
      { rule: "response-header-added", breaks: "server", subject: "GET /v1/health response 200 header X-Request-Id", says: "required" },
      { rule: "response-header-added", breaks: "none", subject: "GET /v1/health response 200 header X-Trace", says: "optional" },
    ],
  ],

  // Request schemas (ModelCreate is POST /v1/preview/models's body)
  [
    "request properties added (required, optional)",
    (d) => {
      S(d).ModelCreate.properties.gpu = { type: "string" };
      S(d).ModelCreate.properties.notes = { type: "string" };
      S(d).ModelCreate.required.push("gpu");
    },
    [
      { rule: "property-added", breaks: "client", subject: "ModelCreate.gpu", says: "required property added" },
      { rule: "property-added", breaks: "none", subject: "ModelCreate.notes", says: "optional property added" },
    ],
  ],
  ["request property removed", (d) => delete S(d).ModelCreate.properties.return_existing, [{ rule: "property-removed", breaks: "client", subject: "ModelCreate.return_existing" }]],
  ["request property became required", (d) => S(d).ModelCreate.required.push("entity"), [{ rule: "property-required", breaks: "client", subject: "ModelCreate.entity", says: "became required" }]],
  [
    "request property became optional",
    (d) => (S(d).ModelCreate.required = ["project", "name"]),
    [{ rule: "property-required", breaks: "server", subject: "ModelCreate.base_model", says: "became optional" }],
  ],
  [
    "request property made readOnly: no longer part of requests",
    (d) => (S(d).ModelCreate.properties.return_existing.readOnly = true),
    [{ rule: "property-removed", breaks: "client", subject: "ModelCreate.return_existing", says: "now readOnly" }],
  ],
  [
    "request item type changed",
    (d) => (S(d).DeleteCheckpointsRequest.properties.steps.items = { type: "string" }),
    [{ rule: "type-changed", breaks: "both", subject: "DeleteCheckpointsRequest.steps[]", says: "from integer to string" }],
  ],
  [
    "request type widened (integer → number)",
    (d) => (S(d).DeleteCheckpointsRequest.properties.steps.items = { type: "number" }),
    [{ rule: "type-changed", breaks: "server", subject: "DeleteCheckpointsRequest.steps[]", says: "from integer to number" }],
  ],
  [
    "request property no longer nullable",
    (d) => (S(d).ModelCreate.properties.entity = { type: "string" }),
    [{ rule: "type-changed", breaks: "client", subject: "ModelCreate.entity", says: "no longer nullable" }],
  ],
  [
    "request enum value added (server must handle it)",
    (d) => d.paths[CHECKPOINTS].get.parameters[3].schema.enum.push("random"),
    [{ rule: "enum-values-added", breaks: "server", subject: `GET ${CHECKPOINTS} query parameter order`, says: '"random"' }],
  ],
  [
    "request bounds: maximum lowered, minimum lowered, maxLength and pattern added",
    (d) => {
      Object.assign(d.components.parameters.Limit.schema, { maximum: 50, minimum: 0 });
      Object.assign(S(d).ModelCreate.properties.name, { maxLength: 64 });
      Object.assign(S(d).ModelCreate.properties.project, { pattern: "^[a-z-]+$" });
    },
    [
      { rule: "constraint-changed", breaks: "client", subject: `GET ${CHECKPOINTS} query parameter limit`, says: "maximum changed from 100 to 50" },
      { rule: "constraint-changed", breaks: "server", subject: `GET ${CHECKPOINTS} query parameter limit`, says: "minimum changed from 1 to 0" },
      { rule: "constraint-changed", breaks: "client", subject: `GET ${EVENTS} query parameter limit`, says: "maximum changed from 100 to 50" },
      { rule: "constraint-changed", breaks: "server", subject: `GET ${EVENTS} query parameter limit`, says: "minimum changed from 1 to 0" },
      { rule: "constraint-changed", breaks: "client", subject: "ModelCreate.name", says: "maxLength 64 added" },
      { rule: "pattern-changed", breaks: "client", subject: "ModelCreate.project", says: "added" },
    ],
  ],
  [
    "request pattern removed",
    (d) => delete d.paths[MODELS].get.parameters[0].schema.pattern,
    [{ rule: "pattern-changed", breaks: "server", subject: "GET /v1/models header parameter OpenAI-Project", says: "removed" }],
  ],
  ["additionalProperties: false on a request body", (d) => (S(d).ModelCreate.additionalProperties = false), [{ rule: "additional-properties-changed", breaks: "client", subject: "ModelCreate" }]],
  [
    "request variant removed and added",
    (d) => {
      const param = S(d).ChatCompletionMessageParam;
      param.oneOf = param.oneOf.filter((v: { $ref: string }) => !v.$ref.endsWith("FunctionMessageParam"));
      param.oneOf.push({ type: "object", title: "Audio", required: ["role"], properties: { role: { const: "audio" } } });
    },
    [
      { rule: "variant-added", breaks: "server", subject: "ChatCompletionMessageParam (oneOf 5)", says: '"Audio" added' },
      { rule: "variant-removed", breaks: "client", subject: "ChatCompletionMessageParam (oneOf 5)", says: "ChatCompletionFunctionMessageParam removed" },
    ],
  ],
  [
    "oneOf became anyOf",
    (d) => {
      const param = S(d).ChatCompletionMessageParam;
      param.anyOf = param.oneOf;
      delete param.oneOf;
    },
    [{ rule: "composition-changed", breaks: "server", subject: "ChatCompletionMessageParam", says: "oneOf became anyOf" }],
  ],
  ["default changed", (d) => (d.components.parameters.Limit.schema.default = 50), [
    { rule: "default-changed", breaks: "none", subject: `GET ${CHECKPOINTS} query parameter limit`, says: "from 20 to 50" },
    { rule: "default-changed", breaks: "none", subject: `GET ${EVENTS} query parameter limit`, says: "from 20 to 50" },
  ]],

  // Response schemas (ModelResponse answers POST /v1/preview/models)
  [
    "response properties: required added, optional added, required became optional, optional became required",
    (d) => {
      const model = S(d).ModelResponse;
      model.properties.created = { type: "integer" };
      model.properties.tags = { type: "array", items: { type: "string" } };
      model.required = ["id", "project", "name", "base_model", "created", "run_id"];
    },
    [
      { rule: "property-required", breaks: "client", subject: "ModelResponse.entity", says: "became optional" },
      { rule: "property-required", breaks: "server", subject: "ModelResponse.run_id", says: "became required" },
      { rule: "property-added", breaks: "server", subject: "ModelResponse.created", says: "required property added" },
      { rule: "property-added", breaks: "none", subject: "ModelResponse.tags", says: "optional property added" },
    ],
  ],
  [
    "response properties removed: required breaks clients, optional does not",
    (d) => {
      delete S(d).ModelResponse.properties.base_model;
      S(d).ModelResponse.required = ["id", "entity", "project", "name"];
      delete S(d).ModelResponse.properties.run_id;
    },
    [
      { rule: "property-removed", breaks: "client", subject: "ModelResponse.base_model", says: "required property removed" },
      { rule: "property-removed", breaks: "none", subject: "ModelResponse.run_id", says: "optional property removed" },
    ],
  ],
  ["response format removed (widened)", (d) => delete S(d).ModelResponse.properties.id.format, [{ rule: "format-changed", breaks: "client", subject: "ModelResponse.id", says: "format uuid removed" }]],
  ["response property became nullable", (d) => (S(d).ModelResponse.properties.project = { type: ["string", "null"] }), [{ rule: "type-changed", breaks: "client", subject: "ModelResponse.project", says: "became nullable" }]],
  ["response enum value added (clients may get it)", (d) => S(d).TrainingJobEventType.enum.push("training_paused"), [{ rule: "enum-values-added", breaks: "client", subject: "TrainingJobEventType", says: '"training_paused"' }]],
  ["response enum value removed (servers may no longer send it)", (d) => S(d).TrainingJobEventType.enum.pop(), [{ rule: "enum-values-removed", breaks: "server", subject: "TrainingJobEventType", says: '"training_failed"' }]],

  // Security
  ["an open operation now requires credentials", (d) => delete d.paths[HEALTH].get.security, [{ rule: "security-added", breaks: "client", subject: "GET /v1/health security", says: "HTTPBearer" }]],
  ["an operation no longer requires credentials", (d) => (d.paths[MODELS].get.security = [{}]), [{ rule: "security-removed", breaks: "server", subject: "GET /v1/models security" }]],
  [
    "another way to authenticate added",
    (d) => {
      d.components.securitySchemes.ApiKey = { type: "apiKey", in: "header", name: "X-Api-Key" };
      d.paths[MODELS].get.security = [{ HTTPBearer: [] }, { ApiKey: [] }];
    },
    [{ rule: "security-alternative-added", breaks: "server", subject: "GET /v1/models security", says: "also accepts ApiKey" }],
  ],
  [
    "how the credential is sent changed (one change for every operation)",
    (d) => (d.components.securitySchemes.HTTPBearer = { type: "apiKey", in: "header", name: "X-Api-Key" }),
    [{ rule: "security-scheme-changed", breaks: "both", subject: "security scheme HTTPBearer", says: 'type "http" → "apiKey"' }],
  ],

  // Servers
  [
    "server URL replaced",
    (d) => (d.servers = [{ url: "https://api.example.com" }]),
    [
      { rule: "server-removed", breaks: "client", subject: "servers", says: "{base_url} removed" },
      { rule: "server-added", breaks: "none", subject: "servers", says: "https://api.example.com added" },
    ],
  ],
  [
    "server variable restricted",
    (d) => (d.servers[0].variables.base_url.enum = ["https://api.training.wandb.ai"]),
    [{ rule: "server-variable-changed", breaks: "client", subject: "servers", says: "base_url no longer allows (any value)" }],
  ],

  // Webhooks (payloads flow from the API to the receiver)
  ["webhook removed", (d) => delete d.webhooks.RUN_STATE, [{ rule: "webhook-removed", breaks: "client", subject: "webhook RUN_STATE" }]],
  ["webhook added", (d) => (d.webhooks.RUN_DELETED = d.webhooks.RUN_STATE), [{ rule: "webhook-added", breaks: "none", subject: "webhook RUN_DELETED" }]],
  [
    "webhook payload field removed breaks receivers",
    (d) => {
      delete S(d).WebhookPayloadBase.properties.event_author;
      S(d).WebhookPayloadBase.required = ["event_type", "entity_name", "project_name"];
    },
    [{ rule: "property-removed", breaks: "client", subject: "WebhookPayloadBase.event_author", says: "required property removed" }],
  ],
  [
    "a webhook receiver now requires credentials: breaking for the API that delivers it, not for receivers",
    (d) => (d.webhooks.RUN_STATE.post.security = [{ HTTPBearer: [] }]),
    [{ rule: "security-added", breaks: "server", subject: "webhook RUN_STATE security", says: "now requires credentials" }],
  ],
  [
    "webhook event type value added reaches receivers",
    (d) => S(d).WebhookEventType.enum.push("DELETE_RUN"),
    [{ rule: "enum-values-added", breaks: "client", subject: "WebhookEventType", says: '"DELETE_RUN"' }],
  ],
];

describe("specforge diff: every kind of change, on the v1 spec", () => {
  it.each(cases)("%s", (_name, edit, expected) => {
    const { result, edited } = diffWith(edit);
    const actual = result.changes.map((c) => ({ rule: c.rule, breaks: breaksOf(c), subject: c.subject, message: c.message }));
    const sortKey = (e: { subject: string; rule: string }) => `${e.subject}\u0000${e.rule}`;
    expect([...actual].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1))).toEqual(
      [...expected]
        .sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1))
        .map((e) => ({ rule: e.rule, breaks: e.breaks, subject: e.subject, message: e.says ? expect.stringContaining(e.says) : expect.any(String) })),
    );
    // Every change points into both documents: at the thing, or (for something added or removed) at its parent.
    for (const change of result.changes) {
      expect(resolvePointer(V1, change.old), `${change.rule} old ${change.old}`).toBeDefined();
      expect(resolvePointer(edited, change.new), `${change.rule} new ${change.new}`).toBeDefined();
    }
  });

  it("a change in a shared schema lists every operation it reaches", () => {
    const { result } = diffWith((d) => S(d).TrainingJobEventType.enum.push("training_paused"));
    expect(result.changes[0]!.operations).toEqual([`GET ${EVENTS}`]);
    const limit = diffWith((d) => (d.components.parameters.Limit.schema.maximum = 10)).result.changes;
    expect(limit.map((c) => c.operations)).toEqual([[`GET ${CHECKPOINTS}`], [`GET ${EVENTS}`]]);
  });
});

describe("what is not a change", () => {
  const none: [string, (doc: Doc) => void][] = [
    ["descriptions, summaries, examples, tags", (d) => {
      d.paths[MODELS].get.summary = "Models";
      d.paths[MODELS].get.description = "All of them.";
      d.paths[MODELS].get.tags = ["other"];
      S(d).ModelCreate.properties.entity.description = "changed";
      S(d).ModelCreate.properties.name.examples = ["x"];
    }],
    ["a component renamed (same shape, every $ref updated)", (d) => {
      S(d).Model = S(d).ModelResponse;
      delete S(d).ModelResponse;
      d.paths[CREATE_MODEL].post.responses["200"].content["application/json"].schema = { $ref: "#/components/schemas/Model" };
    }],
    ["a component inlined where it was referenced", (d) => (d.paths[MODEL].delete.responses["200"].content["application/json"].schema = structuredClone(S(d).DeleteModelResponse))],
    ["3.1 anyOf [T, null] written as type: [T, null]", (d) => (S(d).ModelCreate.properties.entity = { type: ["string", "null"] })],
    ["an object split into allOf parts", (d) => {
      const { properties, required, ...rest } = S(d).ModelResponse;
      const names = Object.keys(properties);
      const part = (keys: string[]) => ({ type: "object", properties: Object.fromEntries(keys.map((k) => [k, properties[k]])), required: required.filter((r: string) => keys.includes(r)) });
      S(d).ModelResponse = { ...rest, allOf: [part(names.slice(0, 2)), part(names.slice(2))] };
    }],
    ["a security scheme renamed with the same definition", (d) => {
      d.components.securitySchemes.Bearer = d.components.securitySchemes.HTTPBearer;
      delete d.components.securitySchemes.HTTPBearer;
      d.security = [{ Bearer: [] }];
      d.paths[MODELS].get.security = [{ Bearer: [] }];
    }],
    ["path-level parameters moved onto the operation", (d) => {
      const op = d.paths[CHECKPOINTS].get;
      d.paths[CHECKPOINTS].parameters = op.parameters.slice(0, 1);
      op.parameters = op.parameters.slice(1);
    }],
  ];
  it.each(none)("%s", (_name, edit) => {
    expect(diffWith(edit).result.changes).toEqual([]);
  });
});

describe("recursive schemas", () => {
  const withTree = (d: Doc) => {
    S(d).Tree = { type: "object", required: ["name"], properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/components/schemas/Tree" } }, parent: { $ref: "#/components/schemas/Forest" } } };
    S(d).Forest = { type: "object", properties: { trees: { type: "array", items: { $ref: "#/components/schemas/Tree" } } } };
    d.paths[HEALTH].get.responses["200"].content["application/json"].schema = { $ref: "#/components/schemas/Forest" };
  };
  const base = structuredClone(V1);
  withTree(base);

  it("terminate, and a change inside the cycle is reported once, where it is", () => {
    const { result } = diffWith((d) => (S(d).Tree.properties.name.maxLength = 10), base);
    expect(result.changes.map((c) => [c.rule, c.subject, breaksOf(c), c.operations])).toEqual([["constraint-changed", "Tree.name", "server", ["GET /v1/health"]]]);
  });

  it("compare equal when both sides are renamed", () => {
    const renamed = structuredClone(base);
    const text = JSON.stringify(renamed).replaceAll("#/components/schemas/Tree", "#/components/schemas/Node").replaceAll("#/components/schemas/Forest", "#/components/schemas/Wood");
    const doc = JSON.parse(text);
    S(doc).Node = S(doc).Tree;
    S(doc).Wood = S(doc).Forest;
    delete S(doc).Tree;
    delete S(doc).Forest;
    expect(diffDocuments(base, doc).changes).toEqual([]);
  });
});
