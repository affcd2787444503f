/**
 * Cursor pagination (`op.paginate`), for a spec whose operations declare it (`OperationSpec.pagination`).
 */
import type { RequestParams, RuntimeFeatures } from "./runtime.js";
import type { PaginationSpec, RequestOptions } from "./types.js";
import { isPresent } from "./values.js";

/** `op.paginate` for the operations that declare pagination, for `createRuntime`. */
export const paginationFeature: RuntimeFeatures = {
  paginate(operation, spec, send) {
    if (spec.pagination) operation.paginate = paginate(spec.name, spec.pagination, send);
  },
};

/**
 * Every item of every page: calls `send` (the operation) with the cursor of the page before as query parameter
 * `pagination.param`, until a page says it has no more, has no items, or repeats the cursor.
 */
function paginate(name: string, pagination: PaginationSpec, send: (params: RequestParams, call?: RequestOptions) => Promise<unknown>) {
  return async function* (params: RequestParams = {}, call?: RequestOptions): AsyncGenerator<unknown> {
    let previous: unknown;
    for (;;) {
      const page = (await send(params, call)) as Record<string, unknown> | undefined;
      const items = page?.[pagination.items];
      if (!Array.isArray(items)) throw new TypeError(`${name}: the response has no "${pagination.items}" array`);
      yield* items;
      const cursor = page?.[pagination.cursor];
      const more = pagination.hasMore === undefined || Boolean(page?.[pagination.hasMore]);
      // An unchanged cursor would fetch the same page forever.
      if (!more || items.length === 0 || !isPresent(cursor) || cursor === previous) return;
      previous = cursor;
      params = { ...params, query: { ...params.query, [pagination.param]: cursor } };
    }
  };
}
