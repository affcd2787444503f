/**
 * Reading a bundled OpenAPI document for the diff: JSON pointers, `$ref`s, and the operations and webhooks with
 * everything they inherit (path-level parameters, document-level security and servers) resolved.
 */

import { resolvePointer as resolveSegments, splitPointer, toJsonPointer } from "../openapi/pointer.js";
import { PATH_ITEM_METHODS } from "../openapi/vocabulary.js";

export type Json = unknown;
export type JsonObject = Record<string, unknown>;

/** A node of a document and its JSON pointer. */
export interface Loc {
  node: Json;
  pointer: string;
}

export const isObject = (value: Json): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);

/** `pointer` with `segments` appended, each escaped (RFC 6901). */
export function child(pointer: string, ...segments: (string | number)[]): string {
  return pointer + toJsonPointer(segments);
}

export { splitPointer as parsePointer };

export function resolvePointer(doc: Json, pointer: string): Json {
  return resolveSegments(doc, splitPointer(pointer));
}

/** The pointer of an internal `$ref` (`#/components/schemas/Pet` → `/components/schemas/Pet`), percent-decoded. */
function refPointer(ref: string): string | undefined {
  if (!ref.startsWith("#")) return undefined;
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return ref.slice(1);
  }
}

/**
 * Follows `$ref`s (a chain of them too) to the node they name. A ref that does not resolve (the loader rejects
 * those, so only a hand-made document has one) is read as an empty object where it is.
 */
export function deref(doc: Json, loc: Loc): Loc {
  let current = loc;
  for (let hops = 0; hops < 64 && isObject(current.node) && typeof current.node.$ref === "string"; hops++) {
    const target = refTarget(doc, current.node.$ref);
    if (target === undefined) return { node: {}, pointer: current.pointer };
    current = target;
  }
  return current;
}

/** What a `$ref` of a document points at (one hop), cached: large specs have the same refs thousands of times. */
const refTargets = new WeakMap<object, Map<string, Loc | undefined>>();
function refTarget(doc: Json, ref: string): Loc | undefined {
  if (doc === null || typeof doc !== "object") return undefined;
  let cache = refTargets.get(doc);
  if (!cache) refTargets.set(doc, (cache = new Map()));
  if (cache.has(ref)) return cache.get(ref);
  const pointer = refPointer(ref);
  const node = pointer === undefined ? undefined : resolvePointer(doc, pointer);
  const target = node === undefined || pointer === undefined ? undefined : { node, pointer };
  cache.set(ref, target);
  return target;
}

export interface ParameterView {
  /** `query:limit`; header names are case-insensitive, so lower-cased. */
  key: string;
  name: string;
  in: string;
  loc: Loc;
}

export interface OperationView {
  /** How operations are matched across versions: method and path with parameter names left out. */
  key: string;
  /** `GET /pets/{petId}`, or `webhook pet.created` (with the method when it is not POST). */
  label: string;
  kind: "operation" | "webhook";
  method: string;
  path: string;
  loc: Loc;
  operationId?: string;
  parameters: ParameterView[];
  /** Path parameter names in the order they appear in the path. */
  pathParameterOrder: string[];
  /** The security that applies and where it is written (the operation, or the document's default). */
  security: Loc;
  /** Servers that apply to this operation only (operation- or path-level), if any. */
  servers?: Loc;
}

/** Every operation of `paths` and every webhook (`webhooks`, and the `x-webhooks` of 3.0 documents such as GitHub's). */
export function operationsOf(doc: JsonObject): OperationView[] {
  const result: OperationView[] = [];
  const security: Loc = { node: doc.security, pointer: "/security" };
  const collect = (section: "paths" | "webhooks" | "x-webhooks") => {
    const items = doc[section];
    if (!isObject(items)) return;
    for (const [path, raw] of Object.entries(items)) {
      if (section === "paths" && path.startsWith("x-")) continue;
      const item = deref(doc, { node: raw, pointer: child("", section, path) });
      if (!isObject(item.node)) continue;
      const pathItem = item.node;
      for (const method of PATH_ITEM_METHODS) {
        const operation = pathItem[method];
        if (!isObject(operation)) continue;
        const pointer = child(item.pointer, method);
        const kind = section === "paths" ? "operation" : "webhook";
        const label = kind === "operation" ? `${method.toUpperCase()} ${path}` : `webhook ${path}${method === "post" ? "" : ` (${method.toUpperCase()})`}`;
        const normalizedPath = path.replace(/\{[^}]*\}/g, "{}");
        result.push({
          key: kind === "operation" ? `${method} ${normalizedPath}` : `webhook ${path} ${method}`,
          label,
          kind,
          method,
          path,
          loc: { node: operation, pointer },
          operationId: typeof operation.operationId === "string" ? operation.operationId : undefined,
          parameters: parametersOf(doc, pathItem, item.pointer, operation, pointer),
          pathParameterOrder: [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!),
          security: "security" in operation ? { node: operation.security, pointer: child(pointer, "security") } : security,
          servers: Array.isArray(operation.servers)
            ? { node: operation.servers, pointer: child(pointer, "servers") }
            : Array.isArray(pathItem.servers)
              ? { node: pathItem.servers, pointer: child(item.pointer, "servers") }
              : undefined,
        });
      }
    }
  };
  collect("paths");
  collect("webhooks");
  collect("x-webhooks");
  return result;
}

/** Path-level parameters, replaced by operation-level ones of the same name and location. */
function parametersOf(doc: JsonObject, pathItem: JsonObject, pathPointer: string, operation: JsonObject, operationPointer: string): ParameterView[] {
  const byKey = new Map<string, ParameterView>();
  const add = (list: Json, pointer: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((raw, index) => {
      const loc = deref(doc, { node: raw, pointer: child(pointer, "parameters", index) });
      if (!isObject(loc.node) || typeof loc.node.name !== "string" || typeof loc.node.in !== "string") return;
      const name = loc.node.in === "header" ? loc.node.name.toLowerCase() : loc.node.name;
      const key = `${loc.node.in}:${name}`;
      byKey.set(key, { key, name: loc.node.name, in: loc.node.in, loc });
    });
  };
  add(pathItem.parameters, pathPointer);
  add(operation.parameters, operationPointer);
  return [...byKey.values()];
}

/** The name a component has (`/components/schemas/Pet` → `Pet`), or undefined for anything else. */
export function componentName(pointer: string): string | undefined {
  const segments = splitPointer(pointer);
  return segments.length === 3 && segments[0] === "components" ? segments[2] : undefined;
}

/**
 * A schema pointer inside `components.schemas`, in words: `/components/schemas/Pet/properties/tags/items` →
 * `Pet.tags[]`. A change is named after where it is, whichever operation led to it.
 */
export function schemaSubject(pointer: string): string | undefined {
  const segments = splitPointer(pointer);
  if (segments.length < 3 || segments[0] !== "components" || segments[1] !== "schemas") return undefined;
  let subject = segments[2]!;
  for (let i = 3; i < segments.length; i++) {
    const segment = segments[i]!;
    const next = segments[i + 1];
    if ((segment === "properties" || segment === "patternProperties" || segment === "$defs") && next !== undefined) {
      subject += `.${next}`;
      i++;
    } else if (segment === "items" && (next === undefined || !/^\d+$/.test(next))) subject += "[]";
    else if ((segment === "prefixItems" || segment === "items") && next !== undefined) {
      subject += `[${next}]`;
      i++;
    } else if (segment === "additionalProperties") subject += "{}";
    else if ((segment === "oneOf" || segment === "anyOf" || segment === "allOf") && next !== undefined) {
      subject += ` (${segment} ${next})`;
      i++;
    } else subject += `/${segment}`;
  }
  return subject;
}
