import type { paths } from "./schema.js";
import * as components from "./schemas-components.js";
import { standard } from "../schemas/standard.js";
import type {
  ParametersOf,
  RequestBodyOf,
  ResponseBodyOf,
  SpecSchema,
} from "../schemas/types.js";

export const listPets = {
  query: {
    get "~standard"() {
      return standard(this);
    },
    use: "request",
    json: '{"type":"object","properties":{"after":{"type":"string"},"limit":{"type":"integer"}}}',
  } as SpecSchema<ParametersOf<paths["/pets"]["get"], "query">>,
  responses: {
    "200": {
      get "~standard"() {
        return standard(this);
      },
      use: "response",
      json: '{"$ref":"#/components/schemas/PetPage"}',
      refs: () => [components.PetPage],
    } as SpecSchema<
      ResponseBodyOf<paths["/pets"]["get"], 200, "application/json">
    >,
  },
};

export const createPet = {
  body: {
    get "~standard"() {
      return standard(this);
    },
    use: "request",
    json: '{"$ref":"#/components/schemas/NewPet"}',
    refs: () => [components.NewPet],
  } as SpecSchema<RequestBodyOf<paths["/pets"]["post"], "application/json">>,
  responses: {
    "201": {
      get "~standard"() {
        return standard(this);
      },
      use: "response",
      json: '{"$ref":"#/components/schemas/Pet"}',
      refs: () => [components.Pet],
    } as SpecSchema<
      ResponseBodyOf<paths["/pets"]["post"], 201, "application/json">
    >,
    "422": {
      get "~standard"() {
        return standard(this);
      },
      use: "response",
      json: '{"$ref":"#/components/schemas/Error"}',
      refs: () => [components.Error],
    } as SpecSchema<
      ResponseBodyOf<paths["/pets"]["post"], 422, "application/json">
    >,
  },
};

export const getPet = {
  path: {
    get "~standard"() {
      return standard(this);
    },
    use: "request",
    json: '{"type":"object","properties":{"petId":{"type":"integer"}},"required":["petId"]}',
  } as SpecSchema<ParametersOf<paths["/pets/{petId}"]["get"], "path">>,
  responses: {
    "200": {
      get "~standard"() {
        return standard(this);
      },
      use: "response",
      json: '{"$ref":"#/components/schemas/Pet"}',
      refs: () => [components.Pet],
    } as SpecSchema<
      ResponseBodyOf<paths["/pets/{petId}"]["get"], 200, "application/json">
    >,
    "404": {
      get "~standard"() {
        return standard(this);
      },
      use: "response",
      json: '{"$ref":"#/components/schemas/Error"}',
      refs: () => [components.Error],
    } as SpecSchema<
      ResponseBodyOf<paths["/pets/{petId}"]["get"], 404, "application/json">
    >,
  },
};
