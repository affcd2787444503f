import { describe, expect, it } from "vitest";
import { serverPaths, serverRuntimeData } from "../../src/emit/server-data.js";
import { buildModel } from "../../src/ir/build.js";
import type { ServerVariable } from "../../src/ir/model.js";
import { loadSpec } from "../../src/load/index.js";
import { tempDir, writeFiles } from "../helpers.js";

const variable = (name: string, value: string, values?: string[]): ServerVariable => ({ name, option: name, default: value, ...(values ? { enum: values } : {}) });

describe("the paths a server's operations are served under (the router's default base paths)", () => {
  it.each([
    ["https://api.spotify.com/v1", ["/v1"]],
    ["https://api.example.com/v1/", ["/v1"]],
    ["https://api.example.com", [""]],
    ["https://api.example.com/", [""]],
    ["http://localhost:8080/api/v3?x=1#top", ["/api/v3"]],
    ["/api/v3", ["/api/v3"]],
    ["v1", ["/v1"]],
    ["//cdn.example.com/files", ["/files"]],
    // DigitalOcean's presigned-upload server: no host, no path.
    ["https://", [""]],
    ["https://api.example.com/caf\u00e9", ["/caf%C3%A9"]],
  ])("%s → %j", (url, want) => {
    expect(serverPaths({ url, variables: [] })).toEqual(want);
  });

  it("takes the variables' defaults: a whole URL in a variable, a variable in the path", () => {
    expect(serverPaths({ url: "{base_url}", variables: [variable("base_url", "https://api.training.wandb.ai")] })).toEqual([""]);
    expect(serverPaths({ url: "{base_url}", variables: [variable("base_url", "https://api.example.com/v2")] })).toEqual(["/v2"]);
    expect(serverPaths({ url: "https://api.example.com/{version}", variables: [variable("version", "v1")] })).toEqual(["/v1"]);
  });

  it("serves under each value of an enumerated variable of the path, the default first; one in the host adds none", () => {
    expect(serverPaths({ url: "https://{region}.example.com/{version}/api", variables: [variable("region", "eu", ["eu", "us", "ap"]), variable("version", "v2", ["v1", "v2"])] })).toEqual([
      "/v2/api",
      "/v1/api",
    ]);
    const both = serverPaths({ url: "https://example.com/{tenant}/{version}", variables: [variable("tenant", "a", ["a", "b"]), variable("version", "v1", ["v1", "v2"])] });
    expect(both).toEqual(["/a/v1", "/a/v2", "/b/v1", "/b/v2"]);
  });

  it("beyond 16 combinations, the defaults alone", () => {
    const many = Array.from({ length: 17 }, (_, i) => `t${i}`);
    expect(serverPaths({ url: "https://example.com/{tenant}", variables: [variable("tenant", "t0", many)] })).toEqual(["/t0"]);
  });
});

describe("the router's data: routes name their server only when some server has a path", () => {
  function dataOf(document: Record<string, unknown>) {
    const dir = tempDir();
    writeFiles(dir, { "openapi.json": JSON.stringify({ openapi: "3.1.0", info: { title: "t", version: "1" }, ...document }) });
    return serverRuntimeData(buildModel(loadSpec("openapi.json", dir), "openapi.json"));
  }
  const get = (operationId: string, servers?: unknown) => ({ get: { operationId, ...(servers ? { servers } : {}), responses: { "204": { description: "none" } } } });

  it("a server with a path: serverPaths, and the index of each route's server when it is not the first", () => {
    const data = dataOf({ servers: [{ url: "https://api.example.com/v1" }], paths: { "/a": get("a"), "/b": get("b", [{ url: "https://uploads.example.com" }]) } });
    expect(data.generated.serverPaths).toEqual([["/v1"], [""]]);
    expect(data.routes.map((route) => [route.name, route.server])).toEqual([
      ["a", undefined],
      ["b", 1],
    ]);
  });

  it("servers without paths, or none: nothing (every route at the root)", () => {
    for (const servers of [[{ url: "https://api.example.com" }], undefined]) {
      const data = dataOf({ ...(servers ? { servers } : {}), paths: { "/a": get("a"), "/b": get("b", [{ url: "https://other.example.com/" }]) } });
      expect(data.generated).not.toHaveProperty("serverPaths");
      expect(data.routes.every((route) => route.server === undefined)).toBe(true);
    }
  });
});
