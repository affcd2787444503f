import type { components } from "./schema.js";
import { standard } from "../schemas/standard.js";
import type { SpecSchema } from "../schemas/types.js";

export const NewPet = {
  get "~standard"() {
    return standard(this);
  },
  at: "#/components/schemas/NewPet",
  json: '{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"tag":{"type":"string"}}}',
} as SpecSchema<components["schemas"]["NewPet"]>;

export const Pet = {
  get "~standard"() {
    return standard(this);
  },
  at: "#/components/schemas/Pet",
  json: '{"allOf":[{"$ref":"#/components/schemas/NewPet"},{"type":"object","required":["id"],"properties":{"id":{"type":"integer"}}}]}',
  refs: () => [NewPet],
} as SpecSchema<components["schemas"]["Pet"]>;

export const PetPage = {
  get "~standard"() {
    return standard(this);
  },
  at: "#/components/schemas/PetPage",
  json: '{"type":"object","required":["data","has_more"],"properties":{"data":{"type":"array","items":{"$ref":"#/components/schemas/Pet"}},"has_more":{"type":"boolean"},"last_id":{"type":["string","null"]}}}',
  refs: () => [Pet],
} as SpecSchema<components["schemas"]["PetPage"]>;

export const PetAdopted = {
  get "~standard"() {
    return standard(this);
  },
  at: "#/components/schemas/PetAdopted",
  json: '{"type":"object","required":["type","pet"],"properties":{"type":{"const":"pet.adopted"},"pet":{"$ref":"#/components/schemas/Pet"}}}',
  refs: () => [Pet],
} as SpecSchema<components["schemas"]["PetAdopted"]>;

export const Error = {
  get "~standard"() {
    return standard(this);
  },
  at: "#/components/schemas/Error",
  json: '{"type":"object","required":["message"],"properties":{"message":{"type":"string"}}}',
} as SpecSchema<components["schemas"]["Error"]>;
