import { describe, expect, it } from "vitest";
import { operationTable } from "../../src/emit/client.js";
import { createRuntime, type OperationSpec } from "../../templates/client/index.js";

const BEARER = [[{ scheme: "bearerAuth" }]];
const JSON_BODY = { mediaType: "application/json", required: true };
const specs: OperationSpec[] = [
  { name: "a", method: "POST", path: "/a", security: BEARER, body: JSON_BODY, errors: [404, 422] },
  { name: "b", method: "PUT", path: "/b/{id}", server: 1, security: BEARER, params: { path: [{ name: "id" }] }, body: JSON_BODY, errors: [404, 422] },
  { name: "c", method: "GET", path: "/c", server: 1, errors: [500] },
];

describe("the operations table of client.ts", () => {
  it("writes each value several operations share once, in order of first use, and the operations hold its index", () => {
    const { shared, rows } = operationTable(specs);
    expect(shared).toEqual([BEARER, JSON_BODY, [404, 422]]);
    expect(rows).toEqual([
      { name: "a", method: "POST", path: "/a", security: 0, body: 1, errors: 2 },
      { name: "b", method: "PUT", path: "/b/{id}", server: 1, security: 0, params: { path: [{ name: "id" }] }, body: 1, errors: 2 },
      // A value used once, and `server` (a number of its own), are written as they are.
      { name: "c", method: "GET", path: "/c", server: 1, errors: [500] },
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
