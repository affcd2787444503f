/**
 * TanStack Query options for the generated client's operations (`createQueries(client)` in queries.ts). Nothing here
 * imports TanStack: the objects are plain `{ queryKey, queryFn }`, `{ mutationKey, mutationFn }` and
 * `{ queryKey, queryFn, initialPageParam, getNextPageParam }`, which `useQuery`, `useMutation` and `useInfiniteQuery`
 * of every TanStack Query adapter (React, Vue, Svelte, Solid, Angular) accept as they are, and spread into their own
 * `queryOptions()` helpers. The data and error types are the client's: `SuccessBody`, and the `ApiError`s the
 * operation declares beside the errors any call may end with.
 *
 * Keys are `[operationName, input]` (the input left out when there is none), so that
 * `queryClient.invalidateQueries({ queryKey: ["listPets"] })` reaches every query of an operation;
 * `infiniteQueryOptions` keys end with `"infinite"`, apart from the plain queries of the same input (TanStack caches
 * pages there, not a body: https://tanstack.com/query/v5/docs/framework/react/guides/infinite-queries).
 */
import type { ApiError, ConnectionError, TimeoutError } from "../client/errors.js";
import type { ApiErrorOf, CallArgs, OperationSpec, ParamsOf, RequestOptions, SuccessBody } from "../client/types.js";

/**
 * What a query or mutation of operation `Op` fails with: an `ApiError` with a status the operation declares
 * (`ApiErrorOf`, narrowed by `queries.op.isError(error)`), an `ApiError` with any other status, a `ConnectionError`
 * or a `TimeoutError`.
 */
export type QueryError<Op> = ApiErrorOf<Op> | ApiError | ConnectionError | TimeoutError;

/** The input of a call, as the client takes it: `{ path?, query?, headers?, cookies?, body? }`. */
type Input<Op, M extends string> = ParamsOf<Op, M>;

/** The arguments of `queryKey`, `queryOptions`: the input, optional when nothing in it is required. */
type InputArgs<P, Rest extends unknown[] = []> = {} extends P ? [input?: P, ...rest: Partial<Rest>] : [input: P, ...rest: Partial<Rest>];

/** `[operationName, input]`: the key of an operation's query (the input left out when there is none). */
export type OperationQueryKey<Name extends string, P> = readonly [name: Name, input?: P];

/**
 * What `queryOptions` returns. `throwOnError` is declared only so that TanStack's hooks infer the error type from
 * it (its callback's parameter); it is never set.
 */
export interface OperationQueryOptions<Name extends string, P, Data, Error> {
  queryKey: OperationQueryKey<Name, P>;
  queryFn: (context: { signal: AbortSignal }) => Promise<Data>;
  throwOnError?: (error: Error) => boolean;
}

/** What `mutationOptions` returns: the variables of a mutation are the operation's input. */
export interface OperationMutationOptions<Name extends string, P, Data, Error> {
  mutationKey: readonly [name: Name];
  mutationFn: {} extends P ? (input: P | void) => Promise<Data> : (input: P) => Promise<Data>;
  throwOnError?: (error: Error) => boolean;
}

/** What `infiniteQueryOptions` returns: the pages are the operation's bodies, the page parameter its cursor. */
export interface OperationInfiniteQueryOptions<Name extends string, P, Page, Cursor, Error> {
  queryKey: readonly [name: Name, input: P, kind: "infinite"];
  queryFn: (context: { signal: AbortSignal; pageParam: Cursor | undefined }) => Promise<Page>;
  initialPageParam: Cursor | undefined;
  getNextPageParam: (lastPage: Page, allPages: Page[], lastPageParam: Cursor | undefined) => Cursor | undefined;
  throwOnError?: (error: Error) => boolean;
}

/** Members every operation's queries have. */
interface QueriesBase<Name extends string, Op, P> {
  /** `[operationName, input]`; without an input, `[operationName]`, the prefix of every key of the operation. */
  queryKey(...args: {} extends P ? [input?: P] : [input?: P]): OperationQueryKey<Name, P>;
  /** True when `error` is an `ApiError` with a status the operation declares (the client's `isError`). */
  isError(error: unknown): error is ApiErrorOf<Op>;
}

/**
 * One operation's queries (`Op`: its openapi-typescript type, `M`: the request's media type, as the client's
 * `Operation<Op, M>`): `queryKey`, and `queryOptions` whose `queryFn` calls the client with the `signal` TanStack
 * passes (cancelling the query, as an unmount does, aborts the request).
 */
export interface QueryOperation<Name extends string, Op, M extends string = "application/json"> extends QueriesBase<Name, Op, Input<Op, M>> {
  queryOptions(...args: InputArgs<Input<Op, M>, [options: RequestOptions]>): OperationQueryOptions<Name, Input<Op, M>, SuccessBody<Op>, QueryError<Op>>;
}

/** An operation with a body or an unsafe method: also `mutationOptions`. */
export interface MutationOperation<Name extends string, Op, M extends string = "application/json"> extends QueryOperation<Name, Op, M> {
  mutationOptions(options?: RequestOptions): OperationMutationOptions<Name, Input<Op, M>, SuccessBody<Op>, QueryError<Op>>;
}

/** The input of a call that does not ask to stream (the body's `Flag` left out or false). */
type StreamOff<P, Flag extends string> = P & { body?: { [_ in Flag]?: false | null | undefined } | undefined };

/**
 * An operation that streams when the body's `Flag` is `true` (the client's `StreamingOperation`): its queries and
 * mutations are of the call that does not stream, whose data is the JSON body.
 */
export interface StreamingQueryOperation<Name extends string, Op, M extends string = "application/json", Flag extends string = "stream">
  extends QueriesBase<Name, Op, StreamOff<Input<Op, M>, Flag>> {
  queryOptions(
    ...args: InputArgs<StreamOff<Input<Op, M>, Flag>, [options: RequestOptions]>
  ): OperationQueryOptions<Name, StreamOff<Input<Op, M>, Flag>, SuccessBody<Op>, QueryError<Op>>;
  mutationOptions(options?: RequestOptions): OperationMutationOptions<Name, StreamOff<Input<Op, M>, Flag>, SuccessBody<Op>, QueryError<Op>>;
}

type QueryOf<P> = P extends { query?: infer Q } ? NonNullable<Q> : {};
/** The cursor's type: the type of the query parameter the next page's cursor goes in. */
type CursorOf<P, Param extends string> = Param extends keyof QueryOf<P> ? NonNullable<QueryOf<P>[Param]> : string;
/** The input of a paginated call without its cursor (`infiniteQueryOptions` passes it). */
type WithoutCursor<P, Param extends string> = Omit<P, "query"> & ("query" extends keyof P ? { query?: Omit<QueryOf<P>, Param> | undefined } : {});

/** An operation the client paginates (`op.paginate`): also `infiniteQueryOptions`, one page per TanStack page. */
export interface InfiniteQueryOperation<Name extends string, Op, Param extends string, M extends string = "application/json"> extends QueryOperation<Name, Op, M> {
  infiniteQueryOptions(
    ...args: InputArgs<WithoutCursor<Input<Op, M>, Param>, [options: RequestOptions]>
  ): OperationInfiniteQueryOptions<Name, WithoutCursor<Input<Op, M>, Param>, SuccessBody<Op>, CursorOf<Input<Op, M>, Param>, QueryError<Op>>;
}

/** Whether an operation gets `mutationOptions`: it sends a body, or its method is not a safe one (RFC 9110 9.2.1). */
export function isMutation(method: string, hasBody: boolean): boolean {
  return hasBody || !SAFE_METHODS.has(method.toUpperCase());
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "TRACE", "QUERY"]);

/** A client operation as the queries read it: callable, with its spec and `isError`. */
interface ClientOperation {
  (input?: unknown, options?: RequestOptions): Promise<unknown>;
  isError(error: unknown): boolean;
  readonly spec: OperationSpec;
}

/** The queries of every operation of `client` (a generated client), by operation name. */
export function createQueryOptions(client: object): Record<string, unknown> {
  const queries: Record<string, unknown> = {};
  for (const [name, operation] of Object.entries(client as Record<string, ClientOperation>)) {
    Object.defineProperty(queries, name, { value: operationQueries(name, operation), enumerable: true });
  }
  return queries;
}

function operationQueries(name: string, operation: ClientOperation): Record<string, unknown> {
  const { spec } = operation;
  const keyOf = (input: unknown) => (isEmpty(input) ? [name] : [name, input]);
  const call = (input: unknown, options: RequestOptions | undefined, signal: AbortSignal | undefined) =>
    operation(input, { ...options, signal: both(signal, options?.signal) });
  const queries: Record<string, unknown> = {
    queryKey: keyOf,
    isError: (error: unknown) => operation.isError(error),
    queryOptions: (input?: unknown, options?: RequestOptions) => ({
      queryKey: keyOf(input),
      queryFn: ({ signal }: { signal?: AbortSignal }) => call(input, options, signal),
    }),
  };
  if (isMutation(spec.method, spec.body !== undefined)) {
    queries.mutationOptions = (options?: RequestOptions) => ({
      mutationKey: [name],
      mutationFn: (input?: unknown) => call(input, options, undefined),
    });
  }
  const pagination = spec.pagination;
  if (pagination) {
    queries.infiniteQueryOptions = (input?: Record<string, unknown>, options?: RequestOptions) => ({
      queryKey: [name, input ?? {}, "infinite"],
      queryFn: ({ signal, pageParam }: { signal?: AbortSignal; pageParam?: unknown }) => {
        const query = { ...(input?.query as object | undefined), ...(pageParam === undefined ? {} : { [pagination.param]: pageParam }) };
        return call({ ...input, query }, options, signal);
      },
      initialPageParam: undefined,
      // As `op.paginate` reads pages: none after one that says it has no more, has no items, or repeats the cursor.
      getNextPageParam: (lastPage: Record<string, unknown> | undefined, _pages: unknown, lastPageParam: unknown) => {
        const items = lastPage?.[pagination.items];
        const cursor = lastPage?.[pagination.cursor];
        const more = pagination.hasMore === undefined || Boolean(lastPage?.[pagination.hasMore]);
        if (!more || !Array.isArray(items) || items.length === 0 || cursor === undefined || cursor === null || cursor === "" || cursor === lastPageParam) return undefined;
        return cursor;
      },
    });
  }
  return queries;
}

/** An input that adds nothing to a key: none, or `{}`. */
function isEmpty(input: unknown): boolean {
  return input === undefined || (input !== null && typeof input === "object" && !Array.isArray(input) && Object.keys(input).length === 0);
}

/** One signal for TanStack's and the caller's own: either aborts the request. */
function both(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (!a || !b) return a ?? b;
  if (typeof AbortSignal.any === "function") return AbortSignal.any([a, b]);
  const controller = new AbortController();
  for (const signal of [a, b]) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}
