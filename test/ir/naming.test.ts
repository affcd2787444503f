import { describe, expect, it } from "vitest";
import { NameRegistry, camelCase, operationBaseName, propertyKey, stripFastApiSuffix, toIdentifier } from "../../src/ir/naming.js";
import { buildModel } from "../../src/ir/build.js";
import { loadSpec } from "../../src/load/index.js";
import { V1_SPEC } from "../helpers.js";

describe("naming", () => {
  it.each([
    ["Create_RL_Training_Job", "createRlTrainingJob"],
    ["find pet by id", "findPetById"],
    ["repos/get-content", "reposGetContent"],
    ["getHTTPResponse", "getHttpResponse"],
    ["FunctionCall-Input", "functionCallInput"],
    ["café.créer", "cafeCreer"],
  ])("camelCase(%j) = %j", (input, want) => expect(camelCase(input)).toBe(want));

  it.each([
    ["delete", "delete_"],
    ["default", "default_"],
    ["class", "class_"],
    ["constructor", "constructor_"],
    ["__proto__", "proto"],
    ["123abc", "_123abc"],
    ["", "value"],
    ["日本語", "value"],
    ["a b.c-d", "aBCD"],
  ])("toIdentifier(%j) = %j", (input, want) => expect(toIdentifier(input)).toBe(want));

  it("quotes property keys that are not plain identifiers, and __proto__ always", () => {
    expect(propertyKey("ok")).toBe("ok");
    expect(propertyKey("content-type")).toBe('"content-type"');
    expect(propertyKey("__proto__")).toBe('"__proto__"');
  });

  it("strips FastAPI's path-and-method suffix, including the trailing-slash route's", () => {
    expect(stripFastApiSuffix("create_chat_completion_v1_chat_completions__post", "/v1/chat/completions/", "post")).toBe("create_chat_completion");
    expect(stripFastApiSuffix("log_v1_preview_models__model_id__log_post", "/v1/preview/models/{model_id}/log", "post")).toBe("log");
    expect(stripFastApiSuffix("listPets", "/pets", "get")).toBe("listPets");
  });

  it("names operations without an operationId from method and path", () => {
    expect(operationBaseName(undefined, "get", "/pets/{petId}/toys")).toBe("getPetsByPetIdToys");
    expect(operationBaseName("  ", "delete", "/")).toBe("delete_");
  });

  it("resolves collisions deterministically and case-insensitively, with one rule: `_2`, `_3`, …", () => {
    const names = new NameRegistry();
    expect(["getUser", "getUser", "GetUser", "getUser2", "getUser_2"].map((n) => names.claim(n))).toEqual(["getUser", "getUser_2", "GetUser_3", "getUser2", "getUser_2_2"]);
  });

  it("can compare names exactly (the loader's component schema names)", () => {
    const names = new NameRegistry(["Pet"], (name) => name);
    expect(["Pet", "pet", "Pet"].map((n) => names.claim(n))).toEqual(["Pet_2", "pet", "Pet_3"]);
  });
});

describe("operation names of the v1 document", () => {
  it("are the documented client method names, one per operation (trailing-slash twins merged)", () => {
    const model = buildModel(loadSpec(V1_SPEC), "spec");
    expect(model.operations.map((o) => o.name).sort()).toEqual(
      ["createChatCompletion", "createModel", "deleteModel", "listModelCheckpoints", "deleteModelCheckpoints", "log", "createRlTrainingJob", "createSftTrainingJob", "getTrainingJob", "getTrainingJobEvents", "healthCheck", "systemCheck", "listModels"].sort(),
    );
    const chat = model.operations.find((o) => o.name === "createChatCompletion")!;
    expect(chat.path).toBe("/v1/chat/completions");
    expect(chat.paths).toEqual(["/v1/chat/completions", "/v1/chat/completions/"]);
    expect(chat.stream).toEqual({ status: "200", mediaType: "text/event-stream", format: "sse", sse: { events: false, json: true }, when: { in: "body", name: "stream" } });
    expect(model.operations.find((o) => o.name === "listModelCheckpoints")!.pagination).toEqual({ items: "data", hasMore: "has_more", cursor: "last_id", param: "after" });
  });

  it("gives each operation its server: list-models the inference server, the rest the training server", () => {
    const model = buildModel(loadSpec(V1_SPEC), "spec");
    expect(model.servers.map((s) => s.variables.map((v) => `${v.name}->${v.option}=${v.default}`))).toEqual([
      ["base_url->baseUrl=https://api.training.wandb.ai"],
      ["inference_base_url->inferenceBaseUrl=https://api.inference.wandb.ai"],
    ]);
    for (const op of model.operations) expect(op.server, op.name).toBe(op.name === "listModels" ? 1 : 0);
  });
});
