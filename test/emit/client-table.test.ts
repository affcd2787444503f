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
  it("writes name, method and path by position, each value several operations share once (under a key, the operations holding it)", () => {
    const { shared, rows } = operationTable(specs);
    expect(Object.values(shared)).toEqual(expect.arrayContaining([BEARER, JSON_BODY, [404, 422]]));
    expect(Object.keys(shared)).toHaveLength(3);
    const key = (value: unknown) => Number(Object.keys(shared).find((k) => JSON.stringify(shared[Number(k)]) === JSON.stringify(value)));
    // Two digits for up to ten values.
    expect(Object.keys(shared).every((k) => /^\d{1,2}$/.test(k))).toBe(true);
    expect(rows).toEqual([
      ["a", "POST", "/a", { security: key(BEARER), body: key(JSON_BODY), errors: key([404, 422]) }],
      // A parameter with nothing but a name is written as that name.
      ["b", "PUT", "/b/{id}", { server: 1, security: key(BEARER), params: { path: ["id"] }, body: key(JSON_BODY), errors: key([404, 422]) }],
      // A value used once, and `server` (a number of its own), are written as they are.
      ["c", "GET", "/c", { server: 1, errors: [500] }],
      // Nothing but name, method and path: no fourth element.
      ["d", "GET", "/d"],
      ["e", "GET", "/e/{id}", { params: { path: [{ name: "id", style: "label" }], query: ["q"], querystring: { content: "application/json" } } }],
    ]);
  });

  it("a value's key depends on its JSON alone: an operation that comes, goes or changes leaves the other rows as they were", () => {
    const many: OperationSpec[] = Array.from({ length: 60 }, (_, i) => ({
      name: `op${i}`,
      method: "GET",
      path: `/op/${i}`,
      // Values shared by pairs of operations: one of them leaving the table takes its value out of `shared`.
      params: { query: [{ name: `q${Math.floor(i / 2)}` }, { name: "page" }] },
      errors: [400 + (i % 7), 500],
    }));
    const before = operationTable(many).rows;
    const changed = many.map((op, i) => (i === 10 ? { ...op, params: { query: [{ name: "other" }] } } : op));
    const without = many.filter((_, i) => i !== 31);
    const withOneMore = [...many.slice(0, 20), { name: "new", method: "GET", path: "/new", params: { query: [{ name: "fresh" }, { name: "page" }] }, errors: [418, 500] }, ...many.slice(20)] as OperationSpec[];
    const differing = (rows: unknown[]) => rows.filter((row) => !before.some((old) => JSON.stringify(old) === JSON.stringify(row))).length;
    expect(differing(operationTable(changed).rows)).toBe(2); // the edited operation, and the one that shared its value
    expect(differing(operationTable(without).rows)).toBe(1); // op30, which no longer shares `q15`
    expect(differing(operationTable(withOneMore).rows)).toBe(1);
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
