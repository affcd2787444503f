import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildModel } from "../../src/ir/build.js";
import { resourceNaming, type ResourceOverrides } from "../../src/ir/resources.js";
import { loadSpec } from "../../src/load/index.js";
import { cleanupTempDirs, tempDir, V1_SPEC } from "../helpers.js";

afterAll(cleanupTempDirs);

/** A spec of the given routes (`"POST /files"`, `"GET /repos/{owner} repos/get"` with an operationId). */
function modelOf(routes: string[], extra: (op: Record<string, unknown>, route: string) => void = () => {}) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const [method, path, operationId] = route.split(" ") as [string, string, string | undefined];
    const parameters = [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({ name, in: "path", required: true, schema: { type: "string" } }));
    const op: Record<string, unknown> = { ...(operationId ? { operationId } : {}), parameters, responses: { "200": { description: "ok" } } };
    extra(op, route);
    (paths[path] ??= {})[method.toLowerCase()] = op;
  }
  const dir = tempDir();
  writeFileSync(join(dir, "openapi.json"), JSON.stringify({ openapi: "3.1.0", info: { title: "t", version: "1" }, paths }));
  return buildModel(loadSpec(join(dir, "openapi.json")), "openapi.json");
}

/** Each route's dotted name, in route order. */
function names(routes: string[], overrides?: ResourceOverrides): string[] {
  const model = modelOf(routes);
  const naming = resourceNaming(model, overrides);
  return naming.methods.map((m) => [...m.resource, m.method].join("."));
}

describe("resource names from paths", () => {
  it.each<[string, { given: string[]; want: string[] }]>([
    [
      "a collection and its items",
      {
        given: ["GET /files", "POST /files", "GET /files/{file_id}", "POST /files/{file_id}", "DELETE /files/{file_id}"],
        want: ["files.list", "files.create", "files.retrieve", "files.update", "files.delete"],
      },
    ],
    ["nested literal segments", { given: ["POST /chat/completions", "GET /fine_tuning/jobs"], want: ["chat.completions.create", "fineTuning.jobs.list"] }],
    [
      "an action on an item, a list below an item, a read of an item's content",
      {
        given: ["POST /fine_tuning/jobs/{id}/cancel", "GET /fine_tuning/jobs/{id}/checkpoints", "GET /fine_tuning/jobs/{id}", "GET /files/{id}/content"],
        want: ["fineTuning.jobs.cancel", "fineTuning.jobs.checkpoints.list", "fineTuning.jobs.retrieve", "files.content.retrieve"],
      },
    ],
    [
      "an action on a collection with operations of its own, and on a plural namespace",
      {
        given: ["GET /customers", "GET /customers/search", "POST /responses", "POST /responses/compact", "POST /graders/run"],
        want: ["customers.list", "customers.search", "responses.create", "responses.compact", "graders.run"],
      },
    ],
    ["a collection created below an item", { given: ["POST /uploads/{id}/parts"], want: ["uploads.parts.create"] }],
    ["a singleton read and written without an id", { given: ["GET /tax/config", "POST /tax/config", "GET /zen"], want: ["tax.config.retrieve", "tax.config.update", "zen.retrieve"] }],
    ["a version segment every path shares names no resource", { given: ["GET /v1/customers", "DELETE /v1/customers/{id}"], want: ["customers.list", "customers.delete"] }],
    ["a version segment not all paths share stays", { given: ["GET /v1/customers", "GET /v2/customers"], want: ["v1.customers.list", "v2.customers.list"] }],
    ["a path's own query is not a segment", { given: ["POST /responses?beta=true"], want: ["responses.create"] }],
    ["names that would change what the object is", { given: ["POST /jobs/{id}/then", "GET /constructor"], want: ["jobs.then_", "constructor_.retrieve"] }],
  ])("%s", (_, { given, want }) => expect(names(given)).toEqual(want));

  it("uses the operationId namespace when most operations have one", () => {
    expect(names(["GET /repos/{owner}/{repo} repos/get", "GET /repos/{owner}/{repo}/contents/{path} repos/get-content", "GET /octocat meta/get-octocat", "GET /zen"])).toEqual([
      "repos.get",
      "repos.getContent",
      "meta.getOctocat",
      "zen.retrieve",
    ]);
  });

  it("falls back to the first tag for a path that names no resource", () => {
    const model = modelOf(["GET /"], (op) => (op.tags = ["meta"]));
    expect(resourceNaming(model).methods.map((m) => [...m.resource, m.method].join("."))).toEqual(["meta.list"]);
  });

  it("tells colliding operations apart by their flat names, in document order, and reports them", () => {
    const model = modelOf(["POST /threads/runs createThreadAndRun", "POST /threads/{thread_id}/runs createRun", "POST /threads/{thread_id}/runs/{run_id} updateRun"]);
    const naming = resourceNaming(model);
    expect(naming.methods.map((m) => [...m.resource, m.method].join("."))).toEqual(["threads.runs.create", "threads.runs.createRun", "threads.runs.update"]);
    expect(naming.collisions).toEqual([
      {
        name: "threads.runs.create",
        resolved: [
          { operation: "createThreadAndRun", name: "threads.runs.create" },
          { operation: "createRun", name: "threads.runs.createRun" },
        ],
      },
    ]);
  });

  it("keeps a method from taking a sub-resource's name", () => {
    expect(names(["GET /skills/{id}/content", "GET /skills/{id}/content/versions"])).toEqual(["skills.content.retrieve", "skills.content.versions.list"]);
    expect(names(["POST /jobs/{id}/cancel", "GET /jobs/cancel/reasons"])).toEqual(["jobs.postJobsByIdCancel", "jobs.cancel.reasons.list"]);
  });
});

describe("resource overrides", () => {
  const routes = ["GET /organization/projects", "GET /organization/projects/{id}", "POST /threads/runs", "GET /models"];
  it("mounts a path prefix under a resource and renames single operations by METHOD /path, operationId or flat name", () => {
    expect(names(routes, { "/organization": "admin.organization", "POST /threads/runs": "beta.threads.createAndRun", getModels: "models.all" })).toEqual([
      "admin.organization.projects.list",
      "admin.organization.projects.retrieve",
      "beta.threads.createAndRun",
      "models.all",
    ]);
  });

  it("an endpoint key matches whatever the path parameters are called, and the exact path first", () => {
    expect(names(routes, { "GET /organization/projects/{project_id}": "admin.projects.retrieve", "post /threads/runs": "beta.threads.createAndRun" })).toEqual([
      "organization.projects.list",
      "admin.projects.retrieve",
      "beta.threads.createAndRun",
      "models.list",
    ]);
    const naming = resourceNaming(modelOf(routes), { "GET /organization/projects/{project_id}": "a.b", "GET /organization/projects/{id}": "c.d" });
    expect(naming.methods[1]).toMatchObject({ resource: ["c"], method: "d" });
    expect(naming.unusedOverrides).toEqual(["GET /organization/projects/{project_id}"]);
  });

  it("reports keys that match no operation", () => {
    expect(resourceNaming(modelOf(routes), { "/nothing": "x", "GET /nope": "y.z" }).unusedOverrides).toEqual(["/nothing", "GET /nope"]);
  });
});

describe("renames the spec records", () => {
  it("become deprecated aliases (x-octokit changes), never over an operation's name", () => {
    const model = modelOf(["POST /user/emails users/add-email-for-authenticated-user", "GET /user/emails users/list-emails"], (op, route) => {
      if (route.startsWith("POST")) op["x-octokit"] = { changes: [{ type: "OPERATION", date: "2021-10-05", before: { operationId: "users/add-email-for-authenticated" } }] };
      else op["x-octokit"] = { changes: [{ type: "OPERATION", before: { operationId: "users/add-email-for-authenticated-user" } }] };
    });
    const naming = resourceNaming(model);
    const aliases = Object.fromEntries(naming.methods.map((m) => [m.operation, m.aliases.map((a) => [...a.resource, a.method].join("."))]));
    expect(aliases).toEqual({ usersAddEmailForAuthenticatedUser: ["users.addEmailForAuthenticated"], usersListEmails: [] });
  });
});

describe("the v1 document", () => {
  it("reads like an SDK", () => {
    const model = buildModel(loadSpec(V1_SPEC), "spec");
    const naming = resourceNaming(model);
    expect(naming.collisions).toEqual([]);
    expect(Object.fromEntries(naming.methods.map((m) => [m.operation, [...m.resource, m.method].join(".")]))).toMatchInlineSnapshot(`
      {
        "createChatCompletion": "chat.completions.create",
        "createModel": "preview.models.create",
        "createRlTrainingJob": "preview.trainingJobs.create",
        "createSftTrainingJob": "preview.sftTrainingJobs.create",
        "deleteModel": "preview.models.delete",
        "deleteModelCheckpoints": "preview.models.checkpoints.delete",
        "getTrainingJob": "preview.trainingJobs.retrieve",
        "getTrainingJobEvents": "preview.trainingJobs.events.list",
        "healthCheck": "health.retrieve",
        "listModelCheckpoints": "preview.models.checkpoints.list",
        "listModels": "models.list",
        "log": "preview.models.log",
        "systemCheck": "systemCheck.retrieve",
      }
    `);
  });
});
