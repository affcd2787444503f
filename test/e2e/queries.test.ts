/**
 * The `queries` output with the real TanStack Query core (@tanstack/query-core): the options `createQueries(client)`
 * makes drive a QueryClient, an InfiniteQueryObserver and a MutationObserver against the generated router on
 * 127.0.0.1 over the generated client's real fetch; cancelling a query (as a component's unmount does) aborts its
 * request on the wire.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { MutationObserver, QueryClient, QueryObserver } from "@tanstack/query-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupTempDirs } from "../helpers.js";
import { generatedFixture } from "./queries-fixture.js";

let api: Record<string, any>;
let server: Server;
let baseUrl: string;
/** Resolves when a request to /slow arrives; the request's `close` (the client went away) is recorded. */
let slowArrived: Promise<void>;
let slowClosed: Promise<void>;

const pets = Array.from({ length: 5 }, (_, i) => ({ id: `00000000-0000-4000-8000-00000000000${i}`, name: `pet ${i}`, born: "2020-01-01", chip: "AAAA" }));

beforeAll(async () => {
  api = await import(join(await generatedFixture(), "index.ts"));
  let arrived!: () => void;
  let closed!: () => void;
  slowArrived = new Promise((resolve) => (arrived = resolve));
  slowClosed = new Promise((resolve) => (closed = resolve));
  const router = api.createRouter(
    {
      listPets: ({ query }: any) => {
        const start = query.after === undefined ? 0 : pets.findIndex((pet) => pet.id === query.after) + 1;
        const data = pets.slice(start, start + (query.limit ?? 2));
        return { status: 200, body: { data, has_more: start + data.length < pets.length, last_id: data.at(-1)?.id ?? null } };
      },
      getPet: ({ path }: any) => {
        const pet = pets.find((candidate) => candidate.id === path.petId);
        return pet ? { status: 200, body: pet } : { status: 404, body: { message: `no pet ${path.petId}` } };
      },
      createPet: ({ body }: any) =>
        body.name === "taken" ? { status: 422, body: { message: "the name is taken" } } : { status: 201, body: { ...body, id: "00000000-0000-4000-8000-0000000000aa", born: "2024-02-29", chip: "AAAA" } },
      deletePet: () => ({ status: 204 }),
      slow: async ({ request }: any) => {
        arrived();
        await new Promise<void>((resolve) => request.signal.addEventListener("abort", () => resolve(), { once: true }));
        return { status: 200, body: { done: true } };
      },
    },
    { basePath: "/v1" },
  );
  const listener = api.toNodeListener(router);
  server = createServer((req, res) => {
    if (req.url === "/v1/slow") req.socket.once("close", () => closed());
    listener(req, res);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  cleanupTempDirs();
});

function setup() {
  const client = api.createClient({ baseUrl, maxRetries: 0 });
  const queries = api.createQueries(client);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return { client, queries, queryClient };
}

describe("createQueries with @tanstack/query-core", () => {
  it("fetchQuery: the key is [operation, input], the data is the client's, a declared error keeps its type guard", async () => {
    const { queries, queryClient } = setup();
    const options = queries.getPet.queryOptions({ path: { petId: pets[1]!.id } });
    expect(options.queryKey).toEqual(["getPet", { path: { petId: pets[1]!.id } }]);
    expect(queries.getPet.queryKey()).toEqual(["getPet"]);
    expect(await queryClient.fetchQuery(options)).toEqual(pets[1]);
    expect(queryClient.getQueryData(options.queryKey)).toEqual(pets[1]);
    const missing: any = await queryClient.fetchQuery(queries.getPet.queryOptions({ path: { petId: "nope" } })).catch((error: unknown) => error);
    expect(queries.getPet.isError(missing) && missing.status === 404 && missing.body).toEqual({ message: "no pet nope" });
    // The operation's name is the prefix of all its keys: one call invalidates every pet fetched.
    await queryClient.invalidateQueries({ queryKey: queries.getPet.queryKey() });
    expect(queryClient.getQueryState(options.queryKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(queries.listPets.queryKey())).toBeUndefined();
  });

  it("fetchInfiniteQuery: pages follow the client's cursor (last_id → after) until has_more is false", async () => {
    const { queries, queryClient } = setup();
    const options = queries.listPets.infiniteQueryOptions({ query: { limit: 2 } });
    expect(options.queryKey).toEqual(["listPets", { query: { limit: 2 } }, "infinite"]);
    const data = await queryClient.fetchInfiniteQuery({ ...options, pages: 5 });
    expect(data.pages.map((page: any) => page.data.map((pet: any) => pet.name))).toEqual([["pet 0", "pet 1"], ["pet 2", "pet 3"], ["pet 4"]]);
    expect(data.pageParams).toEqual([undefined, pets[1]!.id, pets[3]!.id]);
    // No page after the last one, as `op.paginate` reads it.
    expect(options.getNextPageParam(data.pages[2], data.pages, data.pageParams[2])).toBeUndefined();
    // The plain query of the same operation has a key of its own.
    expect(queries.listPets.queryKey({ query: { limit: 2 } })).not.toEqual(options.queryKey);
  });

  it("a MutationObserver runs mutationOptions: data on success, the declared ApiError on failure", async () => {
    const { queries, queryClient } = setup();
    const observer = new MutationObserver<any, any, any>(queryClient, queries.createPet.mutationOptions());
    const created = await observer.mutate({ body: { name: "Rex" } });
    expect(created).toMatchObject({ name: "Rex", id: "00000000-0000-4000-8000-0000000000aa" });
    expect(observer.getCurrentResult().status).toBe("success");
    await observer.mutate({ body: { name: "taken" } }).catch(() => undefined);
    const error = observer.getCurrentResult().error;
    expect(queries.createPet.isError(error) && error.status === 422 && error.body.message).toBe("the name is taken");
    expect(queries.createPet.mutationOptions().mutationKey).toEqual(["createPet"]);
    // A DELETE without a body is a mutation too; a GET is not.
    expect(await new MutationObserver<any, any, any>(queryClient, queries.deletePet.mutationOptions()).mutate({ path: { petId: "x" } })).toBeUndefined();
    expect(queries.getPet.mutationOptions).toBeUndefined();
    expect(queries.listPets.infiniteQueryOptions).toBeTypeOf("function");
    expect(queries.getPet.infiniteQueryOptions).toBeUndefined();
  });

  it("cancelling a query (its last observer unsubscribes, as on unmount) aborts the request on the wire", async () => {
    const { queries, queryClient } = setup();
    const observer = new QueryObserver(queryClient, queries.slow.queryOptions());
    const unsubscribe = observer.subscribe(() => undefined);
    await slowArrived;
    unsubscribe();
    // The server sees the connection go away.
    await expect(Promise.race([slowClosed.then(() => "closed"), new Promise((resolve) => setTimeout(() => resolve("still open"), 5000))])).resolves.toBe("closed");
    expect(queryClient.getQueryState(queries.slow.queryKey())?.fetchStatus).toBe("idle");
  });

  it("the caller's own signal aborts too, next to TanStack's", async () => {
    const { queries, queryClient } = setup();
    const controller = new AbortController();
    controller.abort(new Error("the caller gave up"));
    const result = await queryClient.fetchQuery(queries.getPet.queryOptions({ path: { petId: pets[0]!.id } }, { signal: controller.signal })).catch((error: Error) => error);
    expect((result as Error).message).toBe("the caller gave up");
  });
});
