import { describe, expect, it } from "vitest";
import { operationTable } from "../../src/emit/client.js";
import { createRuntime, type OperationSpec } from "../../templates/client/index.js";

const BEARER = [[{ scheme: "bearerAuth" }]];
const JSON_BODY = { mediaType: "application/json", required: true };
const specs: OperationSpec[] = [
  { name: "a", method: "POST", path: "/a", security: BEARER, body: JSON_BODY, errors: [404, 422] },
  { name: "b", method: "PUT", path: "/b/{id}", server: 1, security: BEARER, params: { path: [{ name: "id" }] }, body: JSON_BODY, errors: [404, 422] },
  { name: "c", method: "GET", path: "/c", server: 1, errors: [500] },
  { name: "d", method: "GET", path: "/d" },
  { name: "e", method: "GET", path: "/e/{id}", params: { path: [{ name: "id", style: "label" }], query: [{ name: "q" }], querystring: { content: "application/json" } } },
];

describe("the operations table of client.ts", () => {
  it("writes name, method and path by position, each value several operations share once (in order of first use, the operations holding its index)", () => {
    const { shared, rows } = operationTable(specs);
    expect(shared).toEqual([BEARER, JSON_BODY, [404, 422]]);
    expect(rows).toEqual([
      ["a", "POST", "/a", { security: 0, body: 1, errors: 2 }],
      // A parameter with nothing but a name is written as that name.
      ["b", "PUT", "/b/{id}", { server: 1, security: 0, params: { path: ["id"] }, body: 1, errors: 2 }],
      // A value used once, and `server` (a number of its own), are written as they are.
      ["c", "GET", "/c", { server: 1, errors: [500] }],
      // Nothing but name, method and path: no fourth element.
      ["d", "GET", "/d"],
      ["e", "GET", "/e/{id}", { params: { path: [{ name: "id", style: "label" }], query: ["q"], querystring: { content: "application/json" } } }],
    ]);
  });

  it("the runtime reads a row back into the operation spec it was made from: `op.spec` keeps its shape and key order", () => {
    const { shared, rows } = operationTable(specs);
    const runtime = createRuntime([{ url: "https://a.example" }, { url: "https://b.example" }]);
    const table: ReturnType<typeof operationTable> = JSON.parse(JSON.stringify({ shared, rows }));
    const read = table.rows.map((row) => runtime.operation(row, table.shared).spec);
    expect(read).toEqual(specs);
    expect(read.map((spec) => Object.keys(spec))).toEqual(specs.map((spec) => Object.keys(spec)));
  });
});
