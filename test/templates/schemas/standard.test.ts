import type { StandardSchemaV1 } from "@standard-schema/spec";
import { describe, expect, it } from "vitest";
import * as schemas from "../../../templates/files/schemas.js";
import { standard } from "../../../templates/schemas/standard.js";
import type { SpecSchema } from "../../../templates/schemas/types.js";

/**
 * The schemas runtime (templates/schemas/standard.ts) through the entry template and its stand-ins (the pet store of
 * test/fixtures/templates/stand-in.yaml, as the emitter writes it): Standard Schema v1 objects that validate with the
 * router's engine, and the response check the client's `validateResponses` takes.
 */

/** A schema object as the emitter writes one (see src/emit/schemas.ts). */
function schema<T = unknown>(fields: Omit<SpecSchema<T>, "~standard">): SpecSchema<T> {
  return {
    get "~standard"() {
      return standard(this);
    },
    ...fields,
  } as SpecSchema<T>;
}

/** What any Standard Schema consumer does (tRPC, TanStack Form, …): only the interface of @standard-schema/spec. */
function parse<S extends StandardSchemaV1>(schema: S, value: unknown): StandardSchemaV1.InferOutput<S> {
  const result = schema["~standard"].validate(value);
  if (result instanceof Promise) throw new TypeError("async");
  if (result.issues) throw new Error(result.issues.map((issue) => `${issue.path?.join(".") ?? ""}: ${issue.message}`).join("; "));
  return result.value;
}

describe("Standard Schema v1", () => {
  it("is a Standard Schema of vendor specforge that answers synchronously", () => {
    const props = schemas.components.Pet["~standard"];
    expect(props.version).toBe(1);
    expect(props.vendor).toBe("specforge");
    expect(schemas.components.Pet["~standard"]).toBe(props); // one object per schema
    expect(props.validate({ id: 1, name: "Rex" })).not.toBeInstanceOf(Promise);
  });

  it("answers the value itself when it is valid, and changes nothing", () => {
    const value = { data: [{ id: 1, name: "Rex" }], has_more: false };
    const before = JSON.stringify(value);
    const result = schemas.components.PetPage["~standard"].validate(value);
    expect(result).toEqual({ value });
    expect((result as { value: unknown }).value).toBe(value);
    expect(JSON.stringify(value)).toBe(before);
  });

  it("answers issues with a message and the path of each, through $refs", () => {
    const result = schemas.components.PetPage["~standard"].validate({ data: [{ id: 1, name: "Rex" }, { id: "2", name: "Tom" }], has_more: "no" });
    expect(result.issues).toEqual([
      { message: "Input should be a valid integer", path: ["data", 1, "id"] },
      { message: "Input should be a valid boolean", path: ["has_more"] },
    ]);
    expect(parse(schemas.components.Pet, { id: 3, name: "Max", tag: "cat" })).toEqual({ id: 3, name: "Max", tag: "cat" });
    expect(() => parse(schemas.components.Pet, { id: 3 })).toThrow("name: Field required");
  });

  it("an operation's parts: parameters by location, the body, each response", () => {
    const { listPets, createPet, getPet } = schemas.operations;
    expect(listPets.query["~standard"].validate({ limit: 10 })).toEqual({ value: { limit: 10 } });
    expect(listPets.query["~standard"].validate({ limit: "10" }).issues).toEqual([{ message: "Input should be a valid integer", path: ["limit"] }]);
    expect(getPet.path["~standard"].validate({}).issues).toEqual([{ message: "Field required", path: ["petId"] }]);
    expect(createPet.body["~standard"].validate({ name: "Rex" })).toEqual({ value: { name: "Rex" } });
    expect(createPet.responses["201"]["~standard"].validate({ name: "Rex" }).issues).toEqual([{ message: "Field required", path: ["id"] }]);
    expect(getPet.responses["404"]["~standard"].validate({ message: "gone" })).toEqual({ value: { message: "gone" } });
  });
});

describe("validation semantics", () => {
  const Account = schema({
    at: "#/components/schemas/Account",
    json: JSON.stringify({
      type: "object",
      required: ["id", "password", "name"],
      properties: { id: { type: "integer", readOnly: true }, password: { type: "string", writeOnly: true }, name: { type: "string", default: "anonymous" } },
    }),
  });
  const request = schema({ use: "request", json: '{"$ref":"#/components/schemas/Account"}', refs: () => [Account] });
  const response = schema({ use: "response", json: '{"$ref":"#/components/schemas/Account"}', refs: () => [Account] });

  it("a component checks readOnly and writeOnly properties as JSON Schema does; a request part ignores readOnly ones, a response part writeOnly ones", () => {
    const issues = (s: SpecSchema<unknown>, value: unknown) => s["~standard"].validate(value).issues?.map((issue) => issue.path?.join("."));
    expect(issues(Account, { password: "x", name: "a" })).toEqual(["id"]);
    expect(issues(Account, { id: 1, name: "a" })).toEqual(["password"]);
    expect(issues(request, { password: "x", name: "a" })).toBeUndefined();
    expect(issues(request, { id: 1, name: "a" })).toEqual(["password"]);
    expect(issues(response, { id: 1, name: "a" })).toBeUndefined();
    expect(issues(response, { password: "x", name: "a" })).toEqual(["id"]);
  });

  it("a request part fills in defaults as the router does, on a copy; a component or a response part fills in none", () => {
    const value = { password: "x" };
    expect(request["~standard"].validate(value)).toEqual({ value: { password: "x", name: "anonymous" } });
    expect(value).toEqual({ password: "x" });
    const invalid = { password: 1 };
    expect(request["~standard"].validate(invalid).issues).toEqual([{ message: "Input should be a valid string", path: ["password"] }]);
    expect(invalid).toEqual({ password: 1 });
    expect(Account["~standard"].validate({ id: 1, password: "x" }).issues).toEqual([{ message: "Field required", path: ["name"] }]);
    expect(response["~standard"].validate({ id: 1 }).issues).toEqual([{ message: "Field required", path: ["name"] }]);
  });

  it("recursive schemas, and schemas elsewhere in the document that $refs name", () => {
    const Tree: SpecSchema<unknown> = schema({
      at: "#/components/schemas/Tree",
      json: JSON.stringify({ type: "object", properties: { value: { $ref: "#/components/parameters/Limit/schema" }, children: { type: "array", items: { $ref: "#/components/schemas/Tree" } } } }),
      refs: () => [Tree, limit],
    });
    const limit = schema({ at: "#/components/parameters/Limit/schema", json: '{"type":"integer","maximum":10}' });
    expect(Tree["~standard"].validate({ value: 1, children: [{ value: 2, children: [{ value: 3 }] }] }).issues).toBeUndefined();
    expect(Tree["~standard"].validate({ value: 1, children: [{ children: [{ value: 11 }] }] }).issues).toEqual([
      { message: "Input should be less than or equal to 10", path: ["children", 0, "children", 0, "value"] },
    ]);
  });

  it("names that are not identifiers, or that an object inherits, are keys like any other", () => {
    const Odd = schema({ at: "#/components/schemas/__proto__", json: '{"type":"object","required":["constructor"]}' });
    const user = schema({ at: "#/components/schemas/a~1b%25c", json: '{"$ref":"#/components/schemas/__proto__"}', refs: () => [Odd] });
    expect(user["~standard"].validate({ constructor: 1 }).issues).toBeUndefined();
    expect(user["~standard"].validate({}).issues).toEqual([{ message: "Field required", path: ["constructor"] }]);
    expect(({} as Record<string, unknown>).type).toBeUndefined(); // nothing reached Object.prototype
  });
});

describe("validateResponse (the client's validateResponses)", () => {
  it("checks a body against its status, else its status class, else `default`; a status without a schema passes", () => {
    expect(schemas.validateResponse("getPet", 200, { id: 1, name: "Rex" })).toEqual({ id: 1, name: "Rex" });
    expect(schemas.validateResponse("getPet", 500, "anything")).toBe("anything");
    expect(schemas.validateResponse("noSuchOperation", 200, 1)).toBe(1);
    expect(schemas.validateResponse("toString", 200, 1)).toBe(1);
  });

  it("throws a ResponseValidationError with the issues, the operation, the status and the body", () => {
    let error: unknown;
    try {
      schemas.validateResponse("getPet", 404, { message: 1 });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(schemas.ResponseValidationError);
    const failure = error as schemas.ResponseValidationError;
    expect(failure.name).toBe("ResponseValidationError");
    expect(failure.message).toBe("getPet: the 404 response does not match its schema: Input should be a valid string at message");
    expect(failure).toMatchObject({ operation: "getPet", status: 404, body: { message: 1 }, issues: [{ message: "Input should be a valid string", path: ["message"] }] });
  });
});
