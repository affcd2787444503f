/**
 * Response validation for the generated client (its `validateResponses` option): the body of a response is checked
 * against the schema its operation declares for its status, with any Standard Schema (specforge's or zod's).
 */
import type { OperationSchemas, StandardSchemaIssue, StandardSchemaResult } from "./types.js";

/** What `new ResponseValidationError(…)` takes. */
export interface ResponseValidationErrorInit {
  operation: string;
  status: number;
  issues: readonly StandardSchemaIssue[];
  body: unknown;
}

/**
 * A response whose body does not match the schema its operation declares for its status (the client's
 * `validateResponses`). `issues` say what differs and where; `body` is the response body as parsed.
 */
export class ResponseValidationError extends Error {
  override readonly name = "ResponseValidationError";
  /** Name of the client operation that made the request. */
  declare readonly operation: string;
  /** HTTP status of the response. */
  declare readonly status: number;
  declare readonly issues: readonly StandardSchemaIssue[];
  declare readonly body: unknown;

  constructor({ operation, status, issues, body }: ResponseValidationErrorInit) {
    const first = issues[0];
    const where = first?.path?.length ? ` at ${first.path.map((segment) => String(typeof segment === "object" ? segment.key : segment)).join(".")}` : "";
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
    super(`${operation}: the ${status} response does not match its schema: ${first?.message ?? "invalid"}${where}${more}`);
    Object.assign(this, { operation, status, issues, body });
  }
}

/**
 * Validates a response `body` of `operation` against the schema `operations` declares for `status` (the status
 * itself, else its class such as `4XX`, else `default`): resolves to the validated value, or throws a
 * `ResponseValidationError`. A status without a schema passes as it is.
 */
export function checkResponse(operations: object, operation: string, status: number, body: unknown): unknown {
  const responses = Object.hasOwn(operations, operation) ? (operations as Record<string, OperationSchemas>)[operation]!.responses : undefined;
  if (!responses) return body;
  const schema = [String(status), `${String(status)[0]}XX`, "default"].find((key) => Object.hasOwn(responses, key));
  if (schema === undefined) return body;
  const result = responses[schema]!["~standard"].validate(body);
  const settle = (outcome: StandardSchemaResult<unknown>) => {
    if (outcome.issues) throw new ResponseValidationError({ operation, status, issues: outcome.issues, body });
    return outcome.value;
  };
  return result instanceof Promise ? result.then(settle) : settle(result);
}
