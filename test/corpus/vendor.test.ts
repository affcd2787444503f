import { readFileSync } from "node:fs";
import yaml from "js-yaml";
import { afterAll, describe, expect, it } from "vitest";
import { buildModel } from "../../src/ir/build.js";
import { loadSpec } from "../../src/load/index.js";
import { V1_SPEC, cleanupTempDirs, runCli, tempDir, typecheck } from "../helpers.js";
import { VENDOR_SPEC } from "./shared.js";

/**
 * The vendor's own published training document (../shared/facts/vendor-training-openapi.json, not copied into this
 * repository): specforge reads it, and the embedded v1 document keeps its operations and records.
 */
afterAll(cleanupTempDirs);

type Obj = Record<string, any>;
const METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"];
const operationsOf = (doc: Obj) =>
  Object.entries(doc.paths as Obj).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] as Obj })),
  );

const v1 = yaml.load(readFileSync(V1_SPEC, "utf8"), { schema: yaml.CORE_SCHEMA }) as Obj;
const vendor = JSON.parse(readFileSync(VENDOR_SPEC, "utf8")) as Obj;

describe("the vendor's published document", () => {
  it("generates cleanly and its output type-checks under tsc --strict", async () => {
    const dir = tempDir();
    const result = await runCli(["generate", "--spec", VENDOR_SPEC, "--out", "out"], dir);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const tsc = await typecheck(`${dir}/out`);
    expect(tsc.output).toBe("");
    expect(tsc.code).toBe(0);
  }, 120_000);

  it("gets the same operation names as the v1 document and no servers", () => {
    const model = buildModel(loadSpec(VENDOR_SPEC), "vendor");
    expect(model.operations).toHaveLength(12);
    expect(model.operations.map((o) => o.name)).toContain("createRlTrainingJob");
    expect(model.servers).toEqual([]);
  });
});

describe("spec/training-api.v1.yaml against the vendor's document", () => {
  it("has the vendor's 13 training operations exactly (paths, methods, operationIds, tags), plus list-models", () => {
    const ours = operationsOf(v1).map(({ path, method, op }) => `${method} ${path} ${op.operationId} ${op.tags}`);
    const theirs = operationsOf(vendor).map(({ path, method, op }) => `${method} ${path} ${op.operationId} ${op.tags}`);
    expect(ours).toHaveLength(14);
    expect(ours).toEqual(expect.arrayContaining(theirs));
    expect(ours).toContain("get /v1/models list_models_v1_models_get inference");
  });

  it("keeps the vendor's parameters and request/response schema names", () => {
    for (const { path, method, op } of operationsOf(vendor)) {
      const mine = v1.paths[path][method];
      const names = (params: Obj[] = []) => params.map((p) => (p.$ref ? p.$ref.split("/").pop() : `${p.in}:${p.name}`));
      const resolveParam = (p: Obj) => (p.$ref ? v1.components.parameters[p.$ref.split("/").pop()] : p);
      expect((mine.parameters ?? []).map(resolveParam).map((p: Obj) => `${p.in}:${p.name}:${p.required === true}`).sort(), `${method} ${path}`).toEqual(
        (op.parameters ?? []).map((p: Obj) => `${p.in}:${p.name}:${p.required === true}`).sort(),
      );
      void names;
      const bodyRef = op.requestBody?.content?.["application/json"]?.schema?.$ref;
      if (bodyRef) expect(mine.requestBody.content["application/json"].schema.$ref).toBe(bodyRef);
    }
  });

  it("matches the vendor's record schemas field by field (names, types, required, enums, defaults, formats)", () => {
    const records = ["ModelCreate", "ModelResponse", "CheckpointResponse", "DeleteCheckpointsRequest", "DeleteCheckpointsResponse", "DeleteModelResponse", "LogRequest", "TrajectoryGroup", "CreateTrainingJob", "CreateSFTTrainingJob", "TrainingJobResponse", "TrainingJobEventResponse", "PaginatedResponse_CheckpointResponse_", "PaginatedResponse_TrainingJobEventResponse_", "HTTPValidationError", "ValidationError"];
    const strip = (schema: unknown): unknown => {
      if (Array.isArray(schema)) return schema.map(strip);
      if (schema && typeof schema === "object") {
        return Object.fromEntries(
          Object.entries(schema)
            .filter(([k]) => !["title", "description", "examples", "example"].includes(k))
            .map(([k, v]) => [k, strip(v)]),
        );
      }
      return schema;
    };
    for (const name of records) {
      const theirs = vendor.components.schemas[name];
      const mine = v1.components.schemas[name];
      expect(mine, name).toBeDefined();
      expect(Object.keys(mine.properties ?? {}).sort(), name).toEqual(Object.keys(theirs.properties ?? {}).sort());
      expect([...(mine.required ?? [])].sort(), name).toEqual([...(theirs.required ?? [])].sort());
      for (const field of Object.keys(theirs.properties ?? {})) {
        const t = strip(theirs.properties[field]) as Obj;
        const m = strip(mine.properties[field]) as Obj;
        for (const key of ["type", "format", "enum", "default", "const", "minimum", "maximum"]) {
          expect(m[key], `${name}.${field}.${key}`).toEqual(t[key]);
        }
      }
    }
  });
});
