import { describe, expect, it } from "vitest";
import { compileValidator, mockFromSchema, type Schema } from "../../../templates/server/index.js";

/** The mock value of `schema` (as a webhook body or response), which must pass specforge's own validator. */
function mock(schema: Schema): unknown {
  const value = mockFromSchema(schema, {}, { direction: "response" });
  expect(compileValidator(schema, {}, { direction: "response" })(structuredClone(value)), JSON.stringify(value)).toEqual([]);
  return value;
}

describe("mockFromSchema: allOf members that describe the same property", () => {
  it("satisfies every member's schema of the property, not only the last one's (GitHub narrows a string to an enum)", () => {
    const issue = {
      allOf: [
        { type: "object", required: ["state"], properties: { state: { type: "string", enum: ["open", "closed"] } } },
        { type: "object", properties: { state: { type: "string" } } },
      ],
    } satisfies Schema;
    expect(mock(issue)).toEqual({ state: "open" });
  });

  it("intersects the members' types (`string | null` and `null` is null), also through a property both describe", () => {
    expect(mock({ allOf: [{ type: ["string", "null"] }, { type: ["null"] }] })).toBeNull();
    expect(mock({ allOf: [{ type: "number", minimum: 1 }, { type: "integer" }] })).toBe(1);
    const repository = {
      allOf: [
        { type: "object", required: ["language"], properties: { language: { type: ["null"] } } },
        { type: "object", required: ["language"], properties: { language: { type: ["string", "null"] } } },
      ],
    } satisfies Schema;
    expect(mock(repository)).toEqual({ language: null });
  });
});
