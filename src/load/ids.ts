import { pathToFileURL } from "node:url";
import { DATA_KEYWORDS } from "../openapi/vocabulary.js";

/**
 * The schema identifiers of JSON Schema 2020-12 (OpenAPI 3.1 Schema Objects): `$id` starts a schema resource with
 * its own base URI, `$anchor` (and `$dynamicAnchor`) names a plain-name fragment inside the resource it is in. The
 * bundler asks this index where a `$ref` like `/schemas/pet#name` or `#name` points.
 *
 * Identifiers are found by walking a whole file, skipping the keywords whose values are data (`example`, `enum`,
 * `default`, …, and `x-` extensions), so an `$id` inside an example is not taken for a schema's.
 */
export interface Location {
  /** Absolute path of the file the node is in. */
  file: string;
  /** JSON pointer segments of the node in that file. */
  pointer: string[];
}


/** Keywords whose value maps names to objects: their keys are names, whatever they spell (`default`, `$id`, `example`). */
const NAME_MAPS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "schemas",
  "responses",
  "parameters",
  "requestBodies",
  "headers",
  "content",
  "paths",
  "webhooks",
  "callbacks",
  "pathItems",
  "securitySchemes",
  "links",
  "encoding",
]);

interface ResourceRoot {
  pointer: string[];
  uri: string;
}

export class SchemaIds {
  private readonly resources = new Map<string, Location>();
  private readonly anchors = new Map<string, Location>();
  private readonly roots = new Map<string, ResourceRoot[]>();
  /** Identifiers declared twice (the first declaration wins). */
  readonly duplicates: { uri: string; first: Location; second: Location }[] = [];

  /** True when any file declared an `$id` or `$anchor`: until then every `$ref` is a plain path or pointer. */
  get empty(): boolean {
    return this.resources.size === 0 && this.anchors.size === 0;
  }

  /** Records the `$id`s and `$anchor`s of one parsed file; `scan: false` for a file whose text has neither. */
  index(file: string, document: unknown, scan = true): void {
    if (this.roots.has(file)) return;
    const roots: ResourceRoot[] = [];
    this.roots.set(file, roots);
    if (!scan) return;
    const register = (map: Map<string, Location>, key: string, at: Location) => {
      const first = map.get(key);
      if (!first) map.set(key, at);
      else if (first.file !== at.file || first.pointer.join("/") !== at.pointer.join("/")) this.duplicates.push({ uri: key, first, second: at });
    };
    walkSchemaNodes(document, fileUri(file), (obj, pointer, base) => {
      if (typeof obj.$id === "string") {
        const uri = safeUrl(obj.$id, base);
        if (uri) {
          const hash = uri.indexOf("#");
          const fragment = hash === -1 ? "" : uri.slice(hash + 1);
          if (fragment !== "" && !fragment.startsWith("/")) {
            // Draft-07 style `$id: "#name"` is a plain-name anchor.
            register(this.anchors, `${stripFragment(uri)}#${decode(fragment)}`, { file, pointer });
          } else {
            base = stripFragment(uri);
            roots.push({ pointer, uri: base });
            register(this.resources, base, { file, pointer });
          }
        }
      }
      for (const keyword of ["$anchor", "$dynamicAnchor"]) {
        const name = obj[keyword];
        if (typeof name === "string") register(this.anchors, `${base}#${name}`, { file, pointer });
      }
      return base;
    });
    // Deepest resource first, so `resourceAt` finds the innermost one.
    roots.sort((a, b) => b.pointer.length - a.pointer.length);
  }

  /** The base URI at a node: the `$id` of the innermost schema resource around it, else the file's own URI. */
  baseAt(file: string, pointer: readonly (string | number)[]): string {
    return this.resourceAt(file, pointer)?.uri ?? fileUri(file);
  }

  /** The innermost `$id`'d resource around a node, if any. */
  resourceAt(file: string, pointer: readonly (string | number)[]): ResourceRoot | undefined {
    for (const root of this.roots.get(file) ?? []) {
      if (root.pointer.length <= pointer.length && root.pointer.every((segment, i) => segment === String(pointer[i]))) return root;
    }
    return undefined;
  }

  /** The node whose `$id` is `uri` (absolute, without fragment). */
  resource(uri: string): Location | undefined {
    return this.resources.get(uri);
  }

  /** The node with `$anchor: name` in the resource `uri`. */
  anchor(uri: string, name: string): Location | undefined {
    return this.anchors.get(`${uri}#${name}`);
  }
}

/**
 * Calls `visit` for every object of a parsed file that is not data (see DATA_KEYWORDS) and not a map of names,
 * with its JSON pointer and the base URI around it; `visit` returns the base URI for the object's children.
 */
export function walkSchemaNodes(
  document: unknown,
  base: string,
  visit: (obj: Record<string, unknown>, pointer: string[], base: string) => string,
): void {
  const walk = (node: unknown, pointer: string[], base: string, namesHere: boolean): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, [...pointer, String(i)], base, false));
      return;
    }
    const obj = node as Record<string, unknown>;
    if (!namesHere) base = visit(obj, pointer, base);
    for (const key of Object.keys(obj)) {
      if (!namesHere && (DATA_KEYWORDS.has(key) || key.startsWith("x-"))) continue;
      walk(obj[key], [...pointer, key], base, !namesHere && NAME_MAPS.has(key));
    }
  };
  walk(document, [], base, false);
}

const fileUris = new Map<string, string>();

/** `file:///abs/path.yaml` for an absolute path: the base URI of a file's top level. */
export function fileUri(file: string): string {
  let uri = fileUris.get(file);
  if (uri === undefined) {
    uri = pathToFileURL(file).href;
    if (fileUris.size > 10_000) fileUris.clear();
    fileUris.set(file, uri);
  }
  return uri;
}

/** `reference` resolved against `base` (RFC 3986), or undefined when either is not a URI. */
export function safeUrl(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    return undefined;
  }
}

export function stripFragment(uri: string): string {
  const hash = uri.indexOf("#");
  return hash === -1 ? uri : uri.slice(0, hash);
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
