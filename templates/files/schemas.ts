import { checkResponse } from "../schemas/responses.js";
import * as operationSchemas from "./schemas-operations.js";

export * as components from "./schemas-components.js";
export * as operations from "./schemas-operations.js";
export { ResponseValidationError, type ResponseValidationErrorInit } from "../schemas/responses.js";
export type {
  OperationSchemas,
  SpecSchema,
  StandardSchemaIssue,
  StandardSchemaResult,
  StandardSchemaV1,
} from "../schemas/types.js";

/**
 * Checks a response body against the schema its operation declares for its status (the status itself, else its
 * class such as `4XX`, else `default`): answers the body, or throws a `ResponseValidationError` with the issues. Pass
 * it as the client's `validateResponses` option.
 */
export function validateResponse(operation: string, status: number, body: unknown): unknown {
  return checkResponse(operationSchemas, operation, status, body);
}
