import { readFileSync } from "node:fs";
import { createConfig, lint } from "@redocly/openapi-core";
import yaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { buildModel } from "../../src/ir/build.js";
import { loadSpec } from "../../src/load/index.js";
import { V1_SPEC } from "../helpers.js";

type Obj = Record<string, any>;
const METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"];
const operationsOf = (doc: Obj) =>
  Object.entries(doc.paths as Obj).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] as Obj })),
  );

const v1 = yaml.load(readFileSync(V1_SPEC, "utf8"), { schema: yaml.CORE_SCHEMA }) as Obj;

/** The embedded v1 document on its own; how it matches the vendor's published document: test/corpus/vendor.test.ts. */
describe("spec/training-api.v1.yaml", () => {
  it("is OpenAPI 3.1.0, version 1.0.0", () => {
    expect(v1.openapi).toBe("3.1.0");
    expect(v1.info.version).toBe("1.0.0");
  });

  it("validates with Redocly's minimal ruleset with no errors", async () => {
    const config = await createConfig({ extends: ["minimal"] });
    const problems = await lint({ ref: V1_SPEC, config });
    expect(problems.filter((p) => p.severity === "error").map((p) => p.message)).toEqual([]);
  });

  it("declares the servers, the inference server on list-models, and bearer security except on health checks", () => {
    expect(v1.servers[0].url).toBe("{base_url}");
    expect(v1.servers[0].variables.base_url.default).toBe("https://api.training.wandb.ai");
    const listModels = v1.paths["/v1/models"].get;
    expect(listModels.servers[0].url).toBe("{inference_base_url}");
    expect(listModels.servers[0].variables.inference_base_url.default).toBe("https://api.inference.wandb.ai");
    expect(v1.components.securitySchemes.HTTPBearer).toMatchObject({ type: "http", scheme: "bearer" });
    const model = buildModel(loadSpec(V1_SPEC), "spec");
    const open = model.operations.filter((o) => !o.security.bearer).map((o) => o.path);
    expect(open.sort()).toEqual(["/v1/health", "/v1/system-check"]);
  });

  it("declares JSON and text/event-stream on the chat-completion 200 response", () => {
    const content = v1.paths["/v1/chat/completions"].post.responses["200"].content;
    expect(Object.keys(content).sort()).toEqual(["application/json", "text/event-stream"]);
  });

  it("declares the documented errors: 422 on training operations, 401/402/403/429/500/503 on list-models, 503 on system-check", () => {
    const statuses = (op: Obj) => Object.keys(op.responses);
    for (const { path, op } of operationsOf(v1)) {
      if (op.security?.length === 0 || path === "/v1/models") continue;
      expect(statuses(op), path).toEqual(expect.arrayContaining(["401", "422", "429", "500"]));
    }
    expect(statuses(v1.paths["/v1/models"].get)).toEqual(expect.arrayContaining(["401", "402", "403", "429", "500", "503"]));
    expect(statuses(v1.paths["/v1/system-check"].get)).toContain("503");
  });

  it("has one webhook per automation event, each a signed JSON POST whose template renders to its example", () => {
    const events = ["CREATE_ARTIFACT", "ADD_ARTIFACT_ALIAS", "UPDATE_ARTIFACT_ALIAS", "ADD_ARTIFACT_TAG", "REMOVE_ARTIFACT_TAG", "ADD_COLLECTION_TAG", "REMOVE_COLLECTION_TAG", "LINK_ARTIFACT", "UNLINK_ARTIFACT", "RUN_METRIC_THRESHOLD", "RUN_METRIC_CHANGE", "RUN_METRIC_ZSCORE", "RUN_STATE"];
    expect(Object.keys(v1.webhooks).sort()).toEqual([...events].sort());
    expect(v1["x-webhook-signature"]).toMatchObject({ header: "X-Wandb-Signature", algorithm: "hmac-sha256", encoding: "hex" });
    const model = buildModel(loadSpec(V1_SPEC), "spec");
    expect(model.webhooks).toHaveLength(13);
    const examples = Object.fromEntries(model.webhookSettings.payloadVariables.map((v) => [v.name, v.example]));
    for (const hook of model.webhooks) {
      expect(hook.method).toBe("post");
      expect(hook.requestBody?.content.map((c) => c.type)).toEqual(["application/json"]);
      expect(hook.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(["X-Wandb-Signature", "Authorization"]));
      expect(hook.payloadTemplate, hook.key).toBeDefined();
      // A minimal renderer, independent of the generated one: enough to prove template and example agree.
      const rendered = hook.payloadTemplate!.replace(/\$\{([A-Za-z_.]+)\}/g, (_m, name: string) => {
        const value = name === "event_type" ? hook.eventType : name.startsWith("artifact_metadata.") ? (examples.artifact_metadata as Obj)[name.split(".")[1]!] : examples[name];
        const variable = model.webhookSettings.payloadVariables.find((v) => v.name === name);
        if (variable?.events && !variable.events.includes(hook.eventType)) return "";
        return typeof value === "string" ? JSON.stringify(value).slice(1, -1) : JSON.stringify(value);
      });
      expect(JSON.parse(rendered), hook.key).toEqual(hook.example);
    }
  });
});
