import type { paths } from "./schema.js";
import type { RuntimeOperation } from "../client/runtime.js";
/** @slot the method types the spec's operations use (`emitResources`) */
import type { PaginatedResourceMethod, ResourceMethod, ResourceRow, StreamingResourceMethod } from "../client/resources.js";
import { resourceTree } from "../client/resources.js";
import { createClient as createOperations, type ClientOptions } from "./client.js";

export { ApiPromise, PagePromise } from "../client/resources.js";

/** @slot members: the resources and methods, nested (`resourceMembers`); the API's title and version in this comment */
/**
 * The resource-style client of Pet Store 1.0.0: the operations grouped into nested resources
 * (`client.pets.retrieve(petId)`), each method returning an `ApiPromise`.
 */
export interface Client {
  pets: {
    /**
     * List pets
     *
     * `GET /pets` (operationId `listPets`)
     */
    list: PaginatedResourceMethod<paths["/pets"]["get"], [], 1, "data">;
    /**
     * Create a pet
     *
     * `POST /pets` (operationId `createPet`)
     */
    create: ResourceMethod<paths["/pets"]["post"], [], 1>;
    /**
     * Find a pet
     *
     * `GET /pets/{petId}` (operationId `getPet`)
     */
    retrieve: ResourceMethod<paths["/pets/{petId}"]["get"], [petId: "petId"], 0>;
    /**
     * Find a pet
     *
     * `GET /pets/{petId}` (operationId `getPet`)
     *
     * @deprecated The spec records this as the operation's earlier name: use `pets.retrieve`.
     */
    get: ResourceMethod<paths["/pets/{petId}"]["get"], [petId: "petId"], 0>;
    /** A stand-in of the streaming form (this spec has no streaming operation). */
    stream: StreamingResourceMethod<paths["/pets"]["post"], [], 1>;
  };
}

/** @slot data: one row per method (`resourceRows`) */
/** Each method of the tree: `[dotted name, the flat client's operation, params layout, path parameter names]`. */
const resources: ResourceRow[] = [
  ["pets.list", "listPets", 1],
  ["pets.create", "createPet", 1],
  ["pets.retrieve", "getPet", 0, ["petId"]],
  ["pets.get", "getPet", 0, ["petId"]],
  ["pets.stream", "createPet", 1],
];

/** @slot signature: `options` is required (no `= {}`) when an option is (the spec declares no server) */
/**
 * Creates the resource-style client: the flat client's operations (one request engine: retries, errors,
 * credentials, pagination) as methods of nested resources.
 */
export function createClient(options: ClientOptions = {}): Client {
  const operations = createOperations(options) as unknown as Record<string, RuntimeOperation>;
  return resourceTree(operations, resources) as unknown as Client;
}
