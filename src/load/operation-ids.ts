import { formatPointer, type SpecWarning } from "../errors.js";
import { NameRegistry } from "../ir/naming.js";
import { operationsOf } from "./operations.js";

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);

/** An operation whose operationId another operation already had. */
export interface RenamedOperation {
  /** JSON pointer segments of the operation in the bundled document. */
  pointer: string[];
  /** The operationId the spec gives it. */
  original: string;
  /** The operationId it has in the loaded document: `<original>_2`, `_3`, … */
  renamed: string;
}

/**
 * operationIds must be unique (OpenAPI), and openapi-typescript keys its `operations` interface by them, so a
 * duplicate makes a `schema.ts` that does not compile. Every operation after the first with a given operationId —
 * in document order: paths, then webhooks, then `components.pathItems` — is renamed `<operationId>_2`, `_3`, …
 * (skipping names any operation already has), with a warning naming both places. The client method and server
 * handler names follow from the renamed id, so the output is the same on every run.
 *
 * openapi-typescript writes `#` in an operationId as `/`; ids that differ only so are duplicates too.
 */
export function renameDuplicateOperationIds(
  document: JsonObject,
  shown: string,
): { document: JsonObject; renamed: RenamedOperation[]; warnings: SpecWarning[] } {
  const found: { pointer: string[]; id: string }[] = [];
  const collect = (items: unknown, base: string[]) => {
    if (!isObject(items)) return;
    for (const key of Object.keys(items)) {
      const item = items[key];
      if (!isObject(item) || typeof item.$ref === "string") continue;
      for (const { at, operation } of operationsOf(item).operations) {
        if (typeof operation.operationId === "string") found.push({ pointer: [...base, key, ...at], id: operation.operationId });
      }
    }
  };
  collect(document.paths, ["paths"]);
  collect(document.webhooks, ["webhooks"]);
  collect(isObject(document.components) ? document.components.pathItems : undefined, ["components", "pathItems"]);

  const key = (id: string) => id.replace(/#/g, "/");
  const taken = new NameRegistry(found.map((f) => f.id), key);
  const firstAt = new Map<string, string[]>();
  const renamed: RenamedOperation[] = [];
  const warnings: SpecWarning[] = [];
  for (const { pointer, id } of found) {
    const first = firstAt.get(key(id));
    if (!first) {
      firstAt.set(key(id), pointer);
      continue;
    }
    const name = taken.claim(id);
    renamed.push({ pointer, original: id, renamed: name });
    warnings.push({
      message: `operationId ${JSON.stringify(id)} is also the operationId of ${formatPointer(shown, first)}; operationIds must be unique, so this one is renamed ${JSON.stringify(name)}`,
      location: formatPointer(shown, [...pointer, "operationId"]),
      hint: "give each operation its own operationId",
    });
  }
  if (renamed.length === 0) return { document, renamed, warnings };

  let copy = document;
  for (const { pointer, renamed: name } of renamed) copy = setIn(copy, [...pointer, "operationId"], name);
  return { document: copy, renamed, warnings };
}

/** A copy of `root` with the value at `pointer` replaced; only the objects along the way are copied. */
function setIn(root: JsonObject, pointer: string[], value: unknown): JsonObject {
  const [head, ...rest] = pointer;
  if (head === undefined) return root;
  const next = rest.length === 0 ? value : setIn(root[head] as JsonObject, rest, value);
  return { ...root, [head]: next };
}
