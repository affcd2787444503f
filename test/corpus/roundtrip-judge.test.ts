import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, tempDir } from "../helpers.js";
import { sampleOfPattern } from "./roundtrip/samples.js";
import { serverPath } from "./roundtrip/servers.js";
import { documentForValidator, startRequestValidator, unicodePattern, type RequestValidator } from "./roundtrip/validator.js";
import { CASE_HEADER, type WireRequest } from "./roundtrip/wire.js";

/**
 * The round trip's judge (roundtrip/validator.ts) still refuses what the spec does not allow after the changes the
 * harness makes to the document it hands express-openapi-validator, and accepts what the spec allows where EOV alone
 * would not: one small spec with each case the corpus met.
 */
const SPEC = `
openapi: 3.0.3
info: { title: judge, version: "1" }
servers: [{ url: "http://example.test/v1" }]
paths:
  /items/{id}:
    get:
      operationId: getItem
      parameters:
        - { name: id, in: path, required: true, schema: { $ref: "#/components/schemas/Id" } }
        - { name: tag, in: query, schema: { type: string, pattern: '^[a-z\\-\\:]+$' } }
      responses: { "200": { description: ok } }
  /items/latest:
    get: { operationId: getLatest, responses: { "200": { description: ok } } }
  /things/{thing_id}:
    delete:
      operationId: deleteThing
      parameters: [{ name: thing_id, in: path, required: true, schema: { type: integer } }]
      responses: { "204": { description: gone } }
  /things/{thing_ref}:
    get:
      operationId: getThing
      parameters: [{ name: thing_ref, in: path, required: true, schema: { oneOf: [{ type: integer }, { type: string }] } }]
      responses: { "200": { description: ok } }
  /search:
    get:
      operationId: search
      parameters:
        - name: filter
          in: query
          style: deepObject
          explode: true
          required: true
          schema:
            type: object
            required: [lines]
            properties:
              lines:
                type: array
                items: { type: object, required: [type, amount], properties: { type: { type: string, enum: [a, b] }, amount: { type: integer } } }
              owner: { type: object, properties: { address: { type: object, properties: { city: { type: string }, line1: { type: string } } } } }
        - { name: Accept, in: header, schema: { type: string, enum: [application/yaml] } }
      responses: { "200": { description: ok } }
components:
  schemas:
    Id: { type: integer, readOnly: true }
`;

let validator: RequestValidator;
let oneByOne: RequestValidator;
let cases = 0;

beforeAll(async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "judge.yaml"), SPEC);
  const document = await documentForValidator(join(dir, "judge.yaml"));
  validator = await startRequestValidator(document);
  // Every operation in a batch of its own: the others are stand-ins.
  oneByOne = await startRequestValidator(document, { batchSize: 1 });
});

afterAll(async () => {
  await validator?.close();
  await oneByOne?.close();
  cleanupTempDirs();
});

function get(target: string, headers: string[] = []): WireRequest {
  return { method: "GET", target, rawHeaders: [CASE_HEADER, String(++cases), "accept", "application/json", ...headers], body: Buffer.alloc(0) };
}

describe("the round trip's judge", () => {
  it("reads a path parameter whose schema says readOnly (GitHub's alert_number) and a pattern only the legacy regex flavour reads", async () => {
    expect(await validator.judge(get("/v1/items/7?tag=a-b%3Ac"), "GET /items/{id}")).toEqual({ accepted: true });
    expect((await validator.judge(get("/v1/items/x"), "GET /items/{id}")).problem).toMatch(/must be integer/);
    expect((await validator.judge(get("/v1/items/7?tag=A"), "GET /items/{id}")).problem).toMatch(/must match pattern/);
  });

  it("reads a oneOf of integer and string (GitHub's workflow_id) as either, as the wire has both as text", async () => {
    expect(await validator.judge(get("/v1/things/7"), "GET /things/{thing_ref}")).toEqual({ accepted: true });
    expect(await validator.judge(get("/v1/things/main.yml"), "GET /things/{thing_ref}")).toEqual({ accepted: true });
  });

  it("routes paths that differ only in their variables' names by method (GitHub's attestations), each judged by its own operation", async () => {
    const remove: WireRequest = { ...get("/v1/things/x"), method: "DELETE" };
    expect((await validator.judge(remove, "DELETE /things/{thing_id}")).problem).toMatch(/must be integer/);
    expect(await validator.judge({ ...get("/v1/things/7"), method: "DELETE" }, "DELETE /things/{thing_id}")).toEqual({ accepted: true });
    expect(await validator.judge(get("/v1/things/abc"), "GET /things/{thing_ref}")).toEqual({ accepted: true });
  });

  it("reads nested deepObject parameters (Stripe's lines[0][type]) whole, and still checks them; ignores an Accept parameter, as OpenAPI says", async () => {
    const query = (type: string) =>
      `/v1/search?filter%5Blines%5D%5B0%5D%5Btype%5D=${type}&filter%5Blines%5D%5B0%5D%5Bamount%5D=1&filter%5Bowner%5D%5Baddress%5D%5Bcity%5D=x&filter%5Bowner%5D%5Baddress%5D%5Bline1%5D=y`;
    expect(await validator.judge(get(query("a")), "GET /search")).toEqual({ accepted: true });
    expect((await validator.judge(get(query("c")), "GET /search")).problem).toMatch(/must be equal to one of the allowed values/);
    expect((await validator.judge(get("/v1/search?filter%5Blines%5D%5B0%5D%5Bamount%5D=1"), "GET /search")).problem).toMatch(/must have required property 'type'/);
  });

  it("refuses a request that reaches another operation than the one it is meant for, in its batch or not", async () => {
    expect(await validator.judge(get("/v1/items/latest"), "GET /items/latest")).toEqual({ accepted: true });
    expect((await validator.judge(get("/v1/items/latest"), "GET /items/{id}")).problem).toMatch(/routed the request to GET \/items\/latest, not to GET \/items\/\{id\}/);
    expect((await oneByOne.judge(get("/v1/items/latest"), "GET /items/{id}")).problem).toMatch(/routed it to another operation/);
    expect(await oneByOne.judge(get("/v1/items/7"), "GET /items/{id}")).toEqual({ accepted: true });
  });
});

describe("the round trip's helpers", () => {
  it("writes a legacy-flavour pattern as the `u` flag reads it, meaning the same", () => {
    expect(unicodePattern("^[a-zA-Z0-9_\\-\\:]+$")).toBe("^[a-zA-Z0-9_\\-:]+$");
    expect(unicodePattern("^a\\-b$")).toBe("^a-b$");
    expect(unicodePattern("^\\d+\\.\\d+$")).toBe("^\\d+\\.\\d+$");
  });

  it("makes a string each pattern matches, or says it cannot", () => {
    for (const pattern of ["^\\d+\\.\\d+\\.\\d+$", "^sha256:[a-f0-9]{64}$", "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)$", ".+\\.[Jj][Ss][Oo][Nn][Ll]$", "^[^\\s]+$"]) {
      const sample = sampleOfPattern(pattern);
      expect(sample !== undefined && new RegExp(pattern, "u").test(sample), `${pattern} → ${sample}`).toBe(true);
    }
    expect(sampleOfPattern("^(a)\\1$")).toBeUndefined();
    expect(sampleOfPattern("^(?=a)b$")).toBeUndefined();
  });

  it("finds the path of every server URL OpenAPI allows: absolute, relative, with an empty host, with variables", () => {
    const path = (url: string, variables: { name: string; default: string }[] = []) => serverPath({ url, variables: variables.map((v) => ({ ...v, option: v.name })) });
    expect(path("https://api.example.com/")).toBe("");
    expect(path("https://api.example.com/v1/")).toBe("/v1");
    expect(path("https://")).toBe("");
    expect(path("/api/v31")).toBe("/api/v31");
    expect(path("v1")).toBe("/v1");
    expect(path("https://{agent_url}", [{ name: "agent_url", default: "{your-agent-url}" }])).toBe("");
    expect(path("{scheme}://api.example.com/{version}", [{ name: "scheme", default: "https" }, { name: "version", default: "v2" }])).toBe("/v2");
    expect(path("{base_url}/v1", [{ name: "base_url", default: "https://example.com/api" }])).toBe("/api/v1");
  });
});
