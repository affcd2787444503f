/**
 * Errors thrown by the client. A call rejects with one of these, or with `signal.reason` when the caller aborts it.
 */

/** What `new ApiError(…)` takes. */
export interface ApiErrorInit<Status extends number = number, Body = unknown> {
  status: Status;
  statusText?: string;
  body: Body;
  headers: Headers;
  operation: string;
  method: string;
  url: string;
}

class ApiErrorClass<Status extends number = number, Body = unknown> extends Error {
  override readonly name = "ApiError";
  // (`declare`: the constructor assigns them; no class field initialisers to ship.)
  /** HTTP status of the response. */
  declare readonly status: Status;
  /** Response body, parsed by content type: JSON value, string, `Blob`, or `undefined` when empty. */
  declare readonly body: Body;
  declare readonly headers: Headers;
  /** Name of the client operation that made the request. */
  declare readonly operation: string;
  declare readonly method: string;
  declare readonly url: string;

  constructor({ status, statusText, body, headers, operation, method, url }: ApiErrorInit<Status, Body>) {
    // (The status text and the body are the server's: their control characters are escaped, so that a message in a
    // log or terminal cannot forge lines or send escape sequences.)
    super(`${operation}: ${method} ${url} failed with ${status}${statusText ? ` ${statusText}` : ""}${summarize(body)}`.replace(/[\0-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
    // (Each name once, where `this.status = init.status` spelled it twice in minified code.)
    Object.assign(this, { status, body, headers, operation, method, url });
  }
}

/**
 * The server answered with a status the operation does not treat as success. `ApiErrorOf<Op>` (and `op.isError`)
 * give `status` and `body` the types the spec declares.
 */
export type ApiError<Status extends number = number, Body = unknown> = ApiErrorClass<Status, Body>;

/**
 * The `ApiError` class. Declared through this interface so that `error instanceof ApiError` narrows to
 * `ApiError<number, unknown>`: for a generic class TypeScript would narrow to `ApiError<any, any>`.
 */
export interface ApiErrorConstructor {
  new <Status extends number = number, Body = unknown>(init: ApiErrorInit<Status, Body>): ApiError<Status, Body>;
  readonly prototype: ApiError;
}

export const ApiError: ApiErrorConstructor = ApiErrorClass;

/** The request could not be sent or its response could not be read (DNS, refused or reset connection, …). */
export class ConnectionError extends Error {
  override readonly name = "ConnectionError";
}

/**
 * A response body was larger than the client's `maxResponseBytes`, counted as decoded (after any `Content-Encoding`):
 * the read stopped there and the connection was closed. A `RangeError`, like an oversized streamed event.
 */
export class ResponseTooLargeError extends RangeError {
  override readonly name = "ResponseTooLargeError";
}

/** The ResponseTooLargeError of a body (`what`) past `max` bytes. */
export const responseTooLarge = (what: string, max: number): ResponseTooLargeError => new ResponseTooLargeError(`${what} is larger than ${max} bytes (maxResponseBytes)`);

/** An attempt took longer than `timeoutMs` (after all retries). */
export class TimeoutError extends Error {
  override readonly name = "TimeoutError";
}

/** A short excerpt of an error body for the message, so logs show the server's reason. */
function summarize(body: unknown): string {
  if (body === undefined || body === "" || body instanceof Blob) return "";
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return `: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}
