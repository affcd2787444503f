import { describe, expect, it } from "vitest";
import { locatePointers } from "../../src/diff/locate.js";

const YAML = `openapi: 3.1.0
info:
  title: t
  description: |
    a block scalar with key: value lines
    servers: not a key
  version: "1"
servers:
- url: https://a.example
  variables:
    v: { default: x }
paths:
  /pets/{petId}:
    parameters:
      - name: petId
        in: path
      - $ref: '#/components/parameters/Limit'
    get:
      responses:
        '200':
          description: ok
        "4XX":
          description: error
components:
  schemas:
    Pet:
      enum: [a, b]
      required:
        - id
`;

const JSON_TEXT = JSON.stringify(
  { openapi: "3.1.0", paths: { "/pets/{petId}": { get: { parameters: [{ name: "a" }, { name: 'b"q' }], responses: { "200": { description: "ok" } } } } }, components: { schemas: { "a/b": { type: "string" } } } },
  null,
  2,
);

describe("locatePointers: the line of a JSON pointer in the spec file", () => {
  it.each([
    ["/info/version", 7],
    ["/servers/0", 9],
    ["/servers/0/variables/v", 11],
    ["/servers/0/variables/v/default", 11], // inside a flow mapping: the line of the key that holds it
    ["/paths/~1pets~1{petId}/parameters/1", 17],
    ["/paths/~1pets~1{petId}/parameters/0/in", 16],
    ["/paths/~1pets~1{petId}/get/responses/200/description", 21],
    ["/paths/~1pets~1{petId}/get/responses/4XX", 22],
    ["/components/schemas/Pet/required/0", 29],
    ["/components/schemas/Pet/enum/1", 27],
    ["/components/schemas/Missing/properties/x", 25], // not in the file: its nearest ancestor
  ])("YAML %s → line %i", (pointer, line) => {
    expect(locatePointers(YAML, [pointer], false).get(pointer)).toBe(line);
  });

  it("YAML: a block scalar's lines are not keys", () => {
    expect(locatePointers(YAML, ["/servers"], false).get("/servers")).toBe(8);
  });

  it.each([
    ["/paths/~1pets~1{petId}/get", 5],
    ["/paths/~1pets~1{petId}/get/parameters/1", 10],
    ["/paths/~1pets~1{petId}/get/responses/200/description", 16],
    ["/components/schemas/a~1b/type", 25],
  ])("JSON %s → line %i", (pointer, line) => {
    expect(locatePointers(JSON_TEXT, [pointer], true).get(pointer)).toBe(line);
  });
});
