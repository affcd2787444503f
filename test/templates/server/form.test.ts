import { describe, expect, it } from "vitest";
import { compileFormDecoder } from "../../../templates/server/form.js";
import type { SchemaDocument, ValidationIssue } from "../../../templates/server/schema.js";
import { SchemaCompiler } from "../../../templates/server/validate.js";

/** The form decoder (urlencoded and multipart bodies) on what the generated client writes where OpenAPI is silent. */
describe("form bodies: an exploded form object (`style: form` on an object property)", () => {
  const document: SchemaDocument = {
    components: { schemas: { Model: { type: "object", properties: { prop: { type: "string" }, tags: { type: "array", items: { type: "string" } }, n: { anyOf: [{ type: "integer" }, { type: "string", enum: [""] }] } } } } },
  };
  const schema = { type: "object", properties: { data: { oneOf: [{ $ref: "#/components/schemas/Model" }, { type: "null" }] } } } as const;
  const decode = compileFormDecoder(schema, { data: { style: "form" } }, document, ["body"], new SchemaCompiler(document).probe);

  it("takes the properties its union's $ref branch declares, a list from its repeated field, an emptyable number typed", () => {
    const errors: ValidationIssue[] = [];
    expect(decode(new URLSearchParams("prop=x&tags=a&tags=b&n=6"), errors)).toEqual({ data: { prop: "x", tags: ["a", "b"], n: 6 } });
    expect(decode(new URLSearchParams("n="), errors)).toEqual({ data: { n: "" } });
    expect(errors).toEqual([]);
  });
});
