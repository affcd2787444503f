/**
 * The work every router target does, defined once: the requests the load generator sends, the answers the
 * handlers give, and the JSON Schemas (read from the v1 spec itself) that the ajv-based targets validate with.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import yaml from "js-yaml";
import { ROOT } from "./paths.mjs";

/** The spec of the deep-oneOf scenario (its router is generated from it by `compileDeepOneOf`). */
export const DEEP_ONEOF_SPEC = join(ROOT, "bench", "runtime", "deep-oneof.yaml");

export const TOKEN = "sk-bench-8c1f0e2a9b7d4c36a5e1f0b2d3c4e5f6";
export const USER = { user: "bench", entity: "bench-team" };
export const JOB_ID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
export const MODEL_ID = "3fa85f64-5717-4562-b3fc-2c963f66afa6";

/** A realistic chat request: system prompt, a multi-part user turn with an image, history, one tool. */
export const CHAT_BODY = {
  model: "OpenPipe/Qwen3-14B-Instruct",
  messages: [
    { role: "system", content: "You are a concise assistant for a machine-learning training platform. Answer in at most three sentences and cite run ids when you use them." },
    {
      role: "user",
      content: [
        { type: "text", text: "Summarise this loss chart in one sentence and tell me whether the run is still improving." },
        { type: "image_url", image_url: { url: "https://example.org/runs/4f2a/charts/loss.png", detail: "low" } },
      ],
    },
    { role: "assistant", content: "The loss falls steadily from 2.31 to 0.84 over 1,200 steps and is still improving, though more slowly after step 900." },
    { role: "user", content: "Should I stop the run at step 1,500 or let it continue to 3,000? Use the evaluation tool if you need the latest metrics." },
  ],
  tools: [
    {
      type: "function",
      function: {
        name: "get_run_metrics",
        description: "Latest evaluation metrics of a training run.",
        parameters: { type: "object", properties: { run_id: { type: "string" }, last_n_steps: { type: "integer" } }, required: ["run_id"] },
      },
    },
  ],
  tool_choice: "auto",
  temperature: 0.2,
  top_p: 0.95,
  max_completion_tokens: 256,
  user: "user-1234",
};

/** The answer to a chat request (`model` echoed from the request, the principal's name in the content). */
export function chatAnswer(model, user) {
  return {
    id: "chatcmpl-9f8e7d6c5b4a",
    object: "chat.completion",
    created: 1_700_000_000,
    model: model ?? "default",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: `Let it continue, ${user}: the slope at step 1,200 is still negative and the eval loss has not diverged from the train loss.` },
        finish_reason: "stop",
      },
    ],
    usage: { prompt_tokens: 187, completion_tokens: 31, total_tokens: 218 },
  };
}

/** The answer to GET /v1/preview/training-jobs/{training_job_id}. */
export function jobAnswer(id) {
  return { id };
}

/** The answer to GET /v1/preview/models/{model_id}/checkpoints (honours the coerced `limit`, defaulted `order`). */
export function checkpointsAnswer(modelId, limit, order) {
  const data = [];
  for (let i = 0; i < Math.min(limit, 3); i++) {
    const step = order === "desc" ? 300 - i * 100 : 100 + i * 100;
    data.push({ id: `${modelId.slice(0, 24)}${String(step).padStart(12, "0")}`, step, metrics: { loss: 1 / step, reward: step / 300 } });
  }
  return { object: "list", data, first_id: data[0]?.id ?? "", last_id: data.at(-1)?.id ?? "", has_more: false };
}


/**
 * The client benchmarks' two requests written by hand with `fetch` against `base` (what the generated client must
 * add as little as possible to): `signal` is the caller's, or undefined for none.
 */
export function bareRequests(base) {
  return {
    chat: async (signal) => {
      const res = await fetch(`${base}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify(CHAT_BODY),
        signal,
      });
      if (!res.ok) throw new Error(`status ${res.status}`);
      return res.json();
    },
    get: async (signal) => {
      const res = await fetch(`${base}/v1/preview/training-jobs/${JOB_ID}`, { headers: { authorization: `Bearer ${TOKEN}` }, signal });
      if (!res.ok) throw new Error(`status ${res.status}`);
      return res.json();
    },
  };
}

/**
 * A request under what the client does for its default timeout (10 min) and for aborting: an AbortController per
 * request whose signal fetch follows, and a timer. Node's fetch makes following a signal costly; this baseline tells
 * that cost from the client's own code.
 */
export function withTimeoutSignal(request) {
  return async () => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 600_000);
    try {
      return await request(controller.signal);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Makes `count` calls, `inFlight` at a time (each of `inFlight` workers starts the next call when its last ends). */
export async function callsInFlight(call, count, inFlight) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

/**
 * A ~100 kB chat request: the same model and tool as `CHAT_BODY`, with a long history (system prompt, then user
 * turns with text and image parts and assistant answers, each turn's text a little different) up to 100 kB.
 */
export const LARGE_CHAT_BODY = (() => {
  const messages = [CHAT_BODY.messages[0]];
  for (let turn = 1; JSON.stringify({ ...CHAT_BODY, messages }).length < 100_000; turn++) {
    messages.push(
      {
        role: "user",
        content: [
          { type: "text", text: `Turn ${turn}: here is the loss chart of run ${turn}; summarise it and say whether the learning rate of ${(turn * 1e-5).toExponential(2)} is too high.` },
          { type: "image_url", image_url: { url: `https://example.org/runs/${turn}/charts/loss.png`, detail: turn % 2 ? "low" : "high" } },
        ],
      },
      { role: "assistant", content: `Run ${turn}: the loss falls from ${(2 + turn / 100).toFixed(2)} to ${(0.8 + turn / 1000).toFixed(3)} and flattens after step ${900 + turn}; the learning rate looks fine.`, name: "analyst" },
    );
  }
  messages.push(CHAT_BODY.messages[3]);
  return { ...CHAT_BODY, messages };
})();

/**
 * A search request whose filter nests discriminated unions six levels deep (and → or → not → and → or → leaves),
 * 3 × 2 × 1 × 3 × 2 = 36 leaves of four kinds, for the deep-oneOf scenario (bench/runtime/deep-oneof.yaml).
 */
export const DEEP_ONEOF_BODY = (() => {
  let leafNumber = 0;
  const leaf = () => {
    const n = leafNumber++;
    switch (n % 4) {
      case 0:
        return { op: "compare", field: `metrics.loss_${n}`, comparator: "lt", value: n / 10 };
      case 1:
        return { op: "match", field: "run.name", text: `qwen3 sweep ${n}`, fuzzy: true };
      case 2:
        return { op: "range", field: "run.step", gte: n * 100, lte: n * 100 + 500 };
      default:
        return { op: "compare", field: "run.state", comparator: "eq", value: n % 8 === 3 ? "finished" : true };
    }
  };
  const or2 = () => ({ op: "or", filters: [leaf(), leaf()] });
  const and3 = () => ({ op: "and", filters: [or2(), or2(), { op: "exists", field: "run.tags" }] });
  const not1 = () => ({ op: "not", filter: and3() });
  const or = () => ({ op: "or", filters: [not1(), not1()] });
  return { filter: { op: "and", filters: [or(), or(), or()] } };
})();

/** What the deep-oneOf handler answers: the filter's top-level operator and the (defaulted) limit. */
export function searchAnswer(body) {
  return { op: body.filter.op, limit: body.limit };
}

const kB = (body) => `${(Buffer.byteLength(JSON.stringify(body)) / 1000).toFixed(1)} kB`;

/** "1.3 kB": the size of the chat request body. */
export const CHAT_BODY_SIZE = kB(CHAT_BODY);

/** The benchmark scenarios: what the load generator sends. */
export const SCENARIOS = [
  {
    id: "chat",
    title: `POST /v1/chat/completions (${kB(CHAT_BODY)} JSON body validated, bearer auth, JSON answer)`,
    method: "POST",
    path: "/v1/chat/completions",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(CHAT_BODY),
  },
  {
    id: "chat-100k",
    title: `POST /v1/chat/completions (${kB(LARGE_CHAT_BODY)} JSON body, ${LARGE_CHAT_BODY.messages.length} messages, validated, bearer auth, JSON answer)`,
    method: "POST",
    path: "/v1/chat/completions",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(LARGE_CHAT_BODY),
  },
  {
    id: "deep-oneof",
    title: `POST /search (${kB(DEEP_ONEOF_BODY)} JSON body: discriminated oneOf nested 6 levels, 36 leaves; bench/runtime/deep-oneof.yaml)`,
    method: "POST",
    path: "/search",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(DEEP_ONEOF_BODY),
  },
  {
    id: "get-job",
    title: "GET /v1/preview/training-jobs/{training_job_id} (path parameter, bearer auth)",
    method: "GET",
    path: `/v1/preview/training-jobs/${JOB_ID}`,
    headers: { authorization: `Bearer ${TOKEN}` },
  },
  {
    id: "list-checkpoints",
    title: "GET /v1/preview/models/{model_id}/checkpoints?limit=3&order=desc (path + coerced query parameters, bearer auth)",
    method: "GET",
    path: `/v1/preview/models/${MODEL_ID}/checkpoints?limit=3&order=desc`,
    headers: { authorization: `Bearer ${TOKEN}` },
  },
];

/**
 * JSON Schemas for ajv (Fastify's and the node:http baseline's), taken from the v1 spec: the components as one
 * schema (`$id: "spec"`, refs rewritten to `spec#/definitions/…`), the chat request body and the parameters of
 * the two GET operations. Discriminators keep `propertyName` (ajv's `discriminator: true` dispatches on it, as
 * specforge does) but drop `mapping`, which ajv does not support; the branches' `const` tags say the same.
 */
export function ajvSchemas() {
  const spec = yaml.load(readFileSync(join(ROOT, "spec", "training-api.v1.yaml"), "utf8"));
  const rewrite = rewriter("spec");
  const deep = yaml.load(readFileSync(DEEP_ONEOF_SPEC, "utf8"));
  const rewriteDeep = rewriter("deep");
  const parameter = (p) => (p.$ref ? spec.components.parameters[p.$ref.split("/").pop()] : p);
  const paramsSchema = (path, method, location) => {
    const params = (spec.paths[path][method].parameters ?? []).map(parameter).filter((p) => p.in === location);
    return {
      type: "object",
      properties: Object.fromEntries(params.map((p) => [p.name, rewrite(p.schema)])),
      required: params.filter((p) => p.required).map((p) => p.name),
    };
  };
  const chat = spec.paths["/v1/chat/completions"].post.requestBody.content["application/json"].schema;
  return {
    shared: { $id: "spec", definitions: rewrite(spec.components.schemas) },
    chatBody: rewrite(chat),
    jobParams: paramsSchema("/v1/preview/training-jobs/{training_job_id}", "get", "path"),
    checkpointParams: paramsSchema("/v1/preview/models/{model_id}/checkpoints", "get", "path"),
    checkpointQuery: paramsSchema("/v1/preview/models/{model_id}/checkpoints", "get", "query"),
    deepShared: { $id: "deep", definitions: rewriteDeep(deep.components.schemas) },
    searchBody: rewriteDeep(deep.paths["/search"].post.requestBody.content["application/json"].schema),
  };
}

/** Rewrites a spec's schema for ajv: component refs into `<id>#/definitions/…`, discriminators without `mapping`. */
function rewriter(id) {
  const rewrite = (node) => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node === null || typeof node !== "object") return node;
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") out.$ref = value.replace("#/components/schemas/", `${id}#/definitions/`);
      else if (key === "discriminator") out.discriminator = { propertyName: value.propertyName };
      else out[key] = rewrite(value);
    }
    return out;
  };
  return rewrite;
}

/**
 * Fastify's own ajv defaults (@fastify/ajv-compiler), plus discriminator dispatch and `strict: false` (ajv's strict mode
 * rejects the spec at compile time: `default` inside `anyOf` branches, `discriminator` without `type`). Strictness
 * only affects schema compilation, not validation cost. The node:http baseline uses the same options.
 */
export const AJV_OPTIONS = { coerceTypes: "array", useDefaults: true, removeAdditional: true, allErrors: false, discriminator: true, strict: false };
