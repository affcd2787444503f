/**
 * The operations of a Path Item Object, as OpenAPI 3.2 defines them: one fixed field per method (`get` … `trace`,
 * and `query`, new in 3.2), plus `additionalOperations`, a map from any other method, spelled as it is sent
 * (`COPY`, `LINK`, `SUBSCRIBE`), to its operation. Every layer that walks operations (lint, operationIds, the model)
 * reads them from here, so none of them sees fewer than another.
 */

import { PATH_ITEM_METHODS } from "../openapi/vocabulary.js";

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);

/** The methods a Path Item Object has fields for, in the order the specification lists them. */
export const FIXED_METHODS = PATH_ITEM_METHODS;

/** An HTTP method token (RFC 9110 §5.6.2): what `additionalOperations` keys must be to be sent at all. */
const METHOD_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** One operation of a path item. */
export interface PathItemOperation {
  /** The fixed field (`get`, `query`) or the `additionalOperations` key as written (`COPY`). */
  method: string;
  /** The method as sent on the wire: upper case for the fixed fields, as written for the others. */
  wireMethod: string;
  /** JSON pointer segments of the operation below its path item: `["get"]` or `["additionalOperations", "COPY"]`. */
  at: string[];
  operation: JsonObject;
}

/** Something in a path item's `additionalOperations` that is not read the way it is written, with why. */
export interface OperationNote {
  at: string[];
  message: string;
  hint?: string;
}

/**
 * The operations of a path item, fixed fields first. An `additionalOperations` entry for a method that has a fixed
 * field (`POST`, which the specification forbids) is read as that field when the path item leaves it empty, and
 * skipped otherwise; a key that is not an HTTP method token is skipped. Both are reported in `notes`.
 */
export function operationsOf(item: JsonObject): { operations: PathItemOperation[]; notes: OperationNote[] } {
  const operations: PathItemOperation[] = [];
  const notes: OperationNote[] = [];
  for (const method of FIXED_METHODS) {
    const operation = item[method];
    if (isObject(operation)) operations.push({ method, wireMethod: method.toUpperCase(), at: [method], operation });
  }
  const additional = item.additionalOperations;
  if (!isObject(additional)) return { operations, notes };
  for (const key of Object.keys(additional)) {
    const operation = additional[key];
    if (!isObject(operation) || key.startsWith("x-")) continue;
    const at = ["additionalOperations", key];
    const fixed = FIXED_METHODS.find((method) => method === key.toLowerCase());
    if (fixed !== undefined) {
      if (operations.some((op) => op.method === fixed)) {
        notes.push({ at, message: `additionalOperations.${key} repeats the path item's \`${fixed}\` operation and is ignored`, hint: `describe the operation once, under \`${fixed}:\`` });
      } else {
        operations.push({ method: fixed, wireMethod: fixed.toUpperCase(), at, operation });
        notes.push({ at, message: `additionalOperations.${key} is read as the path item's \`${fixed}\` operation`, hint: `OpenAPI 3.2 reserves additionalOperations for methods without a field of their own: write it as \`${fixed}:\`` });
      }
      continue;
    }
    if (!METHOD_TOKEN.test(key)) {
      notes.push({ at, message: `additionalOperations key ${JSON.stringify(key)} is not an HTTP method (a token of letters, digits and !#$%&'*+.^_\`|~-) and is ignored` });
      continue;
    }
    operations.push({ method: key, wireMethod: key, at, operation });
  }
  return { operations, notes };
}
