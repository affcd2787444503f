import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildModel } from "../../src/ir/build.js";
import type { ApiModel } from "../../src/ir/model.js";
import { loadSpec } from "../../src/load/index.js";
import { cleanupTempDirs, tempDir, writeFiles } from "../helpers.js";

/**
 * What the model says about security and encodings (the IR other emitters read): requirements as alternatives of
 * combinations, the client option of each scheme, schemes implied by a spec that never says where they apply, and
 * the Encoding Objects of form and multipart bodies.
 */
afterAll(cleanupTempDirs);

function model(spec: object): ApiModel {
  const dir = tempDir();
  writeFiles(dir, { "openapi.json": JSON.stringify({ openapi: "3.1.0", info: { title: "t", version: "1" }, ...spec }) });
  return buildModel(loadSpec(join(dir, "openapi.json")), "openapi.json");
}

const ok = { responses: { "200": { description: "ok" } } };

describe("security in the model", () => {
  it("requirements keep alternatives and combinations, with scopes; `security: []` and `{}` are anonymous", () => {
    const m = model({
      security: [{ key: [] }],
      components: {
        securitySchemes: {
          key: { type: "apiKey", in: "header", name: "X-Key" },
          app: { type: "apiKey", in: "query", name: "app_id" },
          oauth: { type: "oauth2", flows: {} },
        },
      },
      paths: {
        "/root": { get: { operationId: "root", ...ok } },
        "/combo": { get: { operationId: "combo", security: [{ key: [], app: [] }, { oauth: ["read"] }], ...ok } },
        "/open": { get: { operationId: "open", security: [], ...ok } },
        "/optional": { get: { operationId: "optional", security: [{}, { key: [] }], ...ok } },
      },
    });
    const security = Object.fromEntries(m.operations.map((op) => [op.name, op.security]));
    expect(security.root).toMatchObject({ requirements: [[{ scheme: "key", scopes: [] }]], anonymous: false, schemes: ["key"], implied: false });
    expect(security.combo).toMatchObject({
      requirements: [[{ scheme: "key", scopes: [] }, { scheme: "app", scopes: [] }], [{ scheme: "oauth", scopes: ["read"] }]],
      anonymous: false,
      bearer: true,
    });
    expect(security.open).toMatchObject({ requirements: [], anonymous: true, schemes: [] });
    expect(security.optional).toMatchObject({ requirements: [[], [{ scheme: "key", scopes: [] }]], anonymous: true });
    expect(m.securitySchemes.map((s) => [s.key, s.type, s.option, s.alias])).toEqual([
      ["key", "apiKey", "key", undefined],
      ["app", "apiKey", "app", undefined],
      ["oauth", "oauth2", "oauth", undefined],
    ]);
    expect(m.warnings).toEqual([]);
  });

  it("a spec that declares schemes but never says where they apply offers each one, optionally, everywhere", () => {
    const m = model({
      components: { securitySchemes: { BearerToken: { type: "apiKey", in: "header", name: "authorization" } } },
      paths: { "/pods": { get: { operationId: "listPods", ...ok } } },
    });
    expect(m.operations[0]!.security).toMatchObject({ requirements: [[{ scheme: "BearerToken", scopes: [] }], []], anonymous: true, implied: true });
    // The only scheme, taking one token: `apiKey` works too.
    expect(m.securitySchemes[0]).toMatchObject({ option: "bearerToken", alias: "apiKey" });
  });

  it("option names: camelCased keys that never take a server variable's or the runtime's name", () => {
    const m = model({
      servers: [{ url: "{api_token}", variables: { api_token: { default: "https://x.test" } } }],
      components: {
        securitySchemes: {
          api_token: { type: "http", scheme: "bearer" },
          headers: { type: "apiKey", in: "header", name: "X-H" },
          api_key: { type: "http", scheme: "Basic" },
        },
      },
      security: [{ api_token: [] }],
      paths: { "/x": { get: { operationId: "x", ...ok } } },
    });
    expect(m.servers[0]!.variables[0]!.option).toBe("apiToken");
    expect(m.securitySchemes.map((s) => [s.option, s.alias])).toEqual([
      ["apiToken_2", undefined],
      ["headers_2", undefined],
      ["apiKey", undefined],
    ]);
  });

  it("warns, with the pointer, about schemes that cannot be applied and requirements naming undeclared ones", () => {
    const m = model({
      components: { securitySchemes: { mtls: { type: "mutualTLS" }, half: { type: "apiKey", in: "body", name: "k" } } },
      paths: { "/x": { get: { operationId: "x", security: [{ mtls: [] }, { nope: [] }], ...ok } } },
    });
    expect(m.warnings.map((w) => [w.location, w.message.split(":")[0]])).toEqual([
      ["openapi.json#/paths/~1x/get/security/1/nope", "security requirement names the scheme \"nope\", which components.securitySchemes does not declare"],
      ["openapi.json#/components/securitySchemes/mtls", "a mutualTLS scheme"],
      ["openapi.json#/components/securitySchemes/half", "an apiKey scheme without a valid `in` (header, query or cookie) and `name`; requests that need it are sent without its credentials and the router refuses them"],
    ]);
    expect(m.securitySchemes.map((s) => s.type)).toEqual(["unsupported", "unsupported"]);
  });
});

describe("encodings in the model", () => {
  it("form and multipart media types keep their Encoding Objects; part headers are multipart only, with pinned values", () => {
    const m = model({
      paths: {
        "/form": {
          post: {
            operationId: "form",
            requestBody: {
              content: {
                "application/x-www-form-urlencoded": {
                  schema: { type: "object" },
                  encoding: { meta: { style: "deepObject", explode: true, headers: { "X-Ignored": { schema: { const: 1 } } } } },
                },
                "multipart/form-data": {
                  schema: { type: "object" },
                  encoding: {
                    file: {
                      contentType: "image/png, image/jpeg",
                      headers: {
                        "Content-Type": { schema: { type: "string" } },
                        "X-Limit": { required: true, schema: { type: "integer", const: 10 } },
                        "X-Open": { schema: { type: "string" } },
                        "X-Default": { schema: { type: "string", default: "d" } },
                      },
                    },
                  },
                },
                "application/json": { schema: { type: "object" }, encoding: { ignored: { contentType: "text/plain" } } },
              },
              ...{},
            },
            ...ok,
          },
        },
      },
    });
    const content = m.operations[0]!.requestBody!.content;
    expect(content.map((c) => [c.type, c.encoding])).toEqual([
      ["application/x-www-form-urlencoded", { meta: { style: "deepObject", explode: true, headers: [] } }],
      [
        "multipart/form-data",
        {
          file: {
            contentType: "image/png, image/jpeg",
            headers: [
              { name: "X-Limit", required: true, value: "10", schema: { type: "integer", const: 10 } },
              { name: "X-Open", required: false, schema: { type: "string" } },
              { name: "X-Default", required: false, value: "d", schema: { type: "string", default: "d" } },
            ],
          },
        },
      ],
      ["application/json", undefined],
    ]);
  });

  it("an operation that declares an Idempotency-Key header parameter says so, spelled as the spec spells it", () => {
    const m = model({
      paths: { "/pay": { post: { operationId: "pay", parameters: [{ name: "idempotency-key", in: "header", schema: { type: "string" } }], ...ok } } },
    });
    expect(m.operations[0]!.idempotencyKey).toBe("idempotency-key");
  });
});
