import type { paths } from "./schema.js";
import type { Client } from "./client.js";
import { createQueryOptions, type InfiniteQueryOperation, type MutationOperation, type QueryOperation, type StreamingQueryOperation } from "../queries/index.js";

export type { QueryError } from "../queries/index.js";

/** @slot members: one per operation (`queriesMember`); the API's title and version in this comment */
/** TanStack Query options for each operation of Pet Store 1.0.0. */
export interface Queries {
  /** `GET /pets` */
  listPets: InfiniteQueryOperation<"listPets", paths["/pets"]["get"], "after">;
  /** `POST /pets` */
  createPet: MutationOperation<"createPet", paths["/pets"]["post"]>;
  /** `GET /pets/{petId}` */
  getPet: QueryOperation<"getPet", paths["/pets/{petId}"]["get"]>;
}

/**
 * TanStack Query options for every operation of `client`: `queries.getPet.queryOptions(input)` for `useQuery`,
 * `queries.createPet.mutationOptions()` for `useMutation`, `queries.listPets.infiniteQueryOptions(input)` for
 * `useInfiniteQuery`, and `queries.getPet.queryKey(input)` to invalidate. Nothing is imported from TanStack: the
 * options fit every adapter (React, Vue, Svelte, Solid, Angular).
 */
export function createQueries(client: Client): Queries {
  return createQueryOptions(client) as unknown as Queries;
}
