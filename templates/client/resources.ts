/**
 * The resource-style client (`client.chat.completions.create(…)`, the way Stainless-generated SDKs read): nested
 * objects built from a table over the operations of the flat client, so both share one request engine (retries,
 * errors, credentials, pagination). A method takes its path parameters first, in the order of the path, then the
 * rest as one params object (the query, header and cookie parameters and the body's properties side by side, or
 * `{ query, headers, cookies, body }` where their names collide), then the call's `RequestOptions`; it returns an
 * `ApiPromise`.
 *
 * ```ts
 * const client = createClient({ apiKey });
 * const file = await client.files.retrieve(fileId);
 * const { data, response } = await client.files.retrieve(fileId).withResponse();
 * const raw = await client.files.content.retrieve(fileId).asResponse(); // its body unread
 * for await (const job of client.fineTuning.jobs.list({ limit: 20 })) console.log(job.id); // every page
 * ```
 */
import type { RequestParams, RuntimeOperation } from "./runtime.js";
import type { Stream } from "./sse.js";
import type { ApiResponse, CallArgs, ItemOf, ParamsOf, RequestBodyOf, RequestOptions, StreamEventOf, SuccessBody } from "./types.js";

/**
 * How a method takes what is not a path parameter: `0` no params object (the options follow the path parameters),
 * `1` one object of every parameter and body property by name, `2` `{ query, headers, cookies, querystring, body }`
 * as the flat client takes them (names that collide, a body that is not an object of named properties).
 */
export type ParamsLayout = 0 | 1 | 2;

/**
 * One method of the resource tree: its dotted name (`fineTuning.jobs.cancel`), the flat client's operation it calls,
 * its params layout and the names of its path parameters in the order of the path.
 */
export type ResourceRow = [name: string, operation: string, layout: ParamsLayout, path?: string[]];

/**
 * What a resource method returns: a promise of the data (`await`), that also gives the data with the response it
 * came from (`.withResponse()`) or the response itself, its body unread (`.asResponse()`).
 *
 * The request is sent once, in the microtask after the call, in the form the code asked for by then: a form asked
 * for later than that (`.asResponse()` after the body was read) rejects.
 */
export class ApiPromise<T> implements PromiseLike<T> {
  readonly #send: (raw: boolean) => Promise<unknown>;
  #full: Promise<ApiResponse<T>> | undefined;
  #raw: Promise<Response> | undefined;
  /** Set when the code took another form (pages, the raw response) before the request was sent. */
  protected claimed = false;

  constructor(send: (raw: boolean) => Promise<unknown>) {
    this.#send = send;
    queueMicrotask(() => {
      // (Not caught: like any promise, a failure nobody awaits is reported as unhandled.)
      if (!this.claimed && !this.#raw) void this.#response();
    });
  }

  #response(): Promise<ApiResponse<T>> {
    return (this.#full ??= this.#send(false) as Promise<ApiResponse<T>>);
  }

  /** The data with the response it came from: `{ data, response, status, headers }`. */
  withResponse(): Promise<ApiResponse<T>> {
    return this.#response();
  }

  /** The successful response, its body unread (any other status rejects with the call's error). */
  asResponse(): Promise<Response> {
    if (this.#full) return Promise.reject(new TypeError("asResponse(): the response was read already; call it on the method's result at once"));
    return (this.#raw ??= this.#send(true) as Promise<Response>);
  }

  then<A = T, B = never>(onFulfilled?: ((value: T) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    return this.#response().then((response) => response.data).then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.then(undefined, onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onFinally);
  }

  get [Symbol.toStringTag](): string {
    return "ApiPromise";
  }
}

/**
 * What a paginated list method returns: awaited, the first page; iterated (`for await`), every item of every page,
 * fetching the next page as the loop reaches it.
 */
export class PagePromise<T, Item> extends ApiPromise<T> implements AsyncIterable<Item> {
  readonly #pages: () => AsyncIterable<unknown>;

  constructor(send: (raw: boolean) => Promise<unknown>, pages: () => AsyncIterable<unknown>) {
    super(send);
    this.#pages = pages;
  }

  [Symbol.asyncIterator](): AsyncIterator<Item> {
    this.claimed = true;
    return this.#pages()[Symbol.asyncIterator]() as AsyncIterator<Item>;
  }
}

/**
 * The client's resource tree from its table: for each row, the method at its dotted name, calling the operation of
 * `operations` (the flat client's) that the row names.
 */
export function resourceTree(operations: Readonly<Record<string, RuntimeOperation>>, rows: readonly ResourceRow[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [name, operation, layout, path = []] of rows) {
    const parts = name.split(".");
    let node = root;
    for (const part of parts.slice(0, -1)) {
      if (!Object.hasOwn(node, part)) define(node, part, {});
      node = node[part] as Record<string, unknown>;
    }
    define(node, parts.at(-1)!, resourceMethod(name, operations[operation]!, layout, path));
  }
  return root;
}

/** One method (see `ResourceRow`). */
function resourceMethod(name: string, operation: RuntimeOperation, layout: ParamsLayout, pathNames: readonly string[]) {
  const { spec } = operation;
  const namesIn = (list: readonly { name: string }[] | undefined) => new Set((list ?? []).map((param) => param.name));
  const groups: [keyof RequestParams, Set<string>][] = [
    ["query", namesIn(spec.params?.query)],
    ["headers", namesIn(spec.params?.header)],
    ["cookies", namesIn(spec.params?.cookie)],
  ];
  return (...args: unknown[]) => {
    const path: Record<string, unknown> = {};
    pathNames.forEach((param, i) => {
      const value = args[i];
      if (value === undefined || value === null || value === "") throw new TypeError(`${name}: path parameter "${param}" (argument ${i + 1}) is required`);
      path[param] = value;
    });
    const given = layout === 0 ? undefined : (args[pathNames.length] as Record<string, unknown> | undefined);
    const options = args[pathNames.length + (layout === 0 ? 0 : 1)] as RequestOptions | undefined;
    const params: RequestParams = layout === 2 ? { ...given, path } : { path };
    if (layout === 1) {
      // Each value where the spec declares it; anything else is a property of the body (of the query when the
      // operation has no body).
      for (const key of Object.keys(given ?? {})) {
        const where = groups.find(([, names]) => names.has(key))?.[0] ?? (spec.body ? "body" : "query");
        define((params[where] ??= {}) as Record<string, unknown>, key, given![key]);
      }
      if (spec.body?.required) params.body ??= {};
    }
    const send = (raw: boolean) => (raw ? operation.asResponse(params, options) : operation.withResponse(params, options));
    const { paginate } = operation;
    return paginate ? new PagePromise(send, () => paginate(params, options)) : new ApiPromise(send);
  };
}

/** Sets an own property, whatever its name (`__proto__` included: a value, never the prototype). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

// ---------------------------------------------------------------------------------------------------------------
// Types of the emitted resource tree
// ---------------------------------------------------------------------------------------------------------------

type Group<Op, K extends string> = Op extends { parameters: infer P } ? (K extends keyof P ? ([NonNullable<P[K]>] extends [never] ? {} : NonNullable<P[K]>) : {}) : {};

/** The body's properties as a flattened params object takes them (not a whole `FormData` or `URLSearchParams`). */
type FlatBody<Op, M extends string> = Op extends { requestBody: infer RB }
  ? Exclude<RequestBodyOf<RB, M>, FormData | URLSearchParams>
  : Op extends { requestBody?: infer RB }
    ? [NonNullable<RB>] extends [never]
      ? {}
      : unknown extends RB
        ? {}
        : Partial<Exclude<RequestBodyOf<NonNullable<RB>, M>, FormData | URLSearchParams>>
    : {};

/** Layout `1`: the query, header and cookie parameters and the body's properties in one object. */
export type FlatParamsOf<Op, M extends string = "application/json"> = { [K in keyof (Group<Op, "query"> & Group<Op, "header"> & Group<Op, "cookie"> & FlatBody<Op, M>)]: (Group<Op, "query"> & Group<Op, "header"> & Group<Op, "cookie"> & FlatBody<Op, M>)[K] };

/** Layout `2`: the flat client's params without the path parameters. */
export type NestedParamsOf<Op, M extends string = "application/json"> = Omit<ParamsOf<Op, M>, "path">;

/** The path parameters' types in the order of `Names` (a labelled tuple of their names: the labels name the arguments). */
export type PathArgs<Op, Names extends readonly string[]> = { [I in keyof Names]: Group<Op, "path">[Names[I] & keyof Group<Op, "path">] };

type ParamsOfLayout<Op, Layout extends ParamsLayout, M extends string> = Layout extends 1 ? FlatParamsOf<Op, M> : NestedParamsOf<Op, M>;
type ResourceArgs<Op, Path extends readonly string[], Layout extends ParamsLayout, M extends string> = [
  ...PathArgs<Op, Path>,
  ...(Layout extends 0 ? [options?: RequestOptions] : CallArgs<ParamsOfLayout<Op, Layout, M>>),
];

/**
 * A method of the resource tree: `(…path parameters, params?, options?)` resolving to the success body.
 * @typeParam Op - openapi-typescript operation type, e.g. `paths["/files/{file_id}"]["get"]`.
 * @typeParam Path - its path parameters' names in path order, labelled with the arguments' names: `[fileId: "file_id"]`.
 */
export type ResourceMethod<Op, Path extends readonly string[], Layout extends ParamsLayout = 1, ReqMedia extends string = "application/json"> = (
  ...args: ResourceArgs<Op, Path, Layout, ReqMedia>
) => ApiPromise<SuccessBody<Op>>;

/** A list method with cursor pagination: awaited, the first page; `for await`, every item of every page. */
export type PaginatedResourceMethod<Op, Path extends readonly string[], Layout extends ParamsLayout = 1, ItemsKey extends string = "data", ReqMedia extends string = "application/json"> = (
  ...args: ResourceArgs<Op, Path, Layout, ReqMedia>
) => PagePromise<SuccessBody<Op>, ItemOf<SuccessBody<Op>, ItemsKey>>;

type StreamFlag<Layout extends ParamsLayout, Flag extends string, V> = Layout extends 1 ? { [_ in Flag]: V } : { body: { [_ in Flag]: V } };
type StreamFlagOff<Layout extends ParamsLayout, Flag extends string> = Layout extends 1
  ? { [_ in Flag]?: false | null | undefined }
  : { body?: { [_ in Flag]?: false | null | undefined } | undefined };

/** A method that streams when the body's `Flag` property is `true` (`{ stream: true }`), else resolves to the JSON body. */
export interface StreamingResourceMethod<
  Op,
  Path extends readonly string[],
  Layout extends ParamsLayout = 1,
  ReqMedia extends string = "application/json",
  StreamMedia extends string = "text/event-stream",
  Flag extends string = "stream",
> {
  (...args: [...PathArgs<Op, Path>, params: ParamsOfLayout<Op, Layout, ReqMedia> & StreamFlag<Layout, Flag, true>, options?: RequestOptions]): ApiPromise<Stream<StreamEventOf<Op, StreamMedia>>>;
  (...args: [...PathArgs<Op, Path>, ...CallArgs<ParamsOfLayout<Op, Layout, ReqMedia> & StreamFlagOff<Layout, Flag>>]): ApiPromise<SuccessBody<Op>>;
  (...args: ResourceArgs<Op, Path, Layout, ReqMedia>): ApiPromise<Stream<StreamEventOf<Op, StreamMedia>> | SuccessBody<Op>>;
}
