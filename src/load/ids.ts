import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { DATA_KEYWORDS, NAME_MAPS } from "../openapi/vocabulary.js";
import { isHttpUrl } from "../openapi/url.js";

/**
 * The schema identifiers of JSON Schema 2020-12 (OpenAPI 3.1 Schema Objects): `$id` starts a schema resource with
 * its own base URI, `$anchor` (and `$dynamicAnchor`) names a plain-name fragment inside the resource it is in. The
 * bundler asks this index where a `$ref` like `/schemas/pet#name` or `#name` points.
 *
 * Identifiers are found by walking a whole file, skipping the keywords whose values are data (`example`, `enum`,
 * `default`, …, and `x-` extensions), so an `$id` inside an example is not taken for a schema's.
 */
export interface Location {
  /** Absolute path (or http(s) URL) of the file the node is in. */
  file: string;
  /** JSON pointer segments of the node in that file. */
  pointer: string[];
}

interface ResourceRoot {
  pointer: string[];
  uri: string;
}

export class SchemaIds {
  /** `documentUri(file)`: the base URI of a file's top level (its `file:` URL, or the URL a fetched document came from). */
  constructor(private readonly documentUri: (file: string) => string = fileUri) {}

  private readonly resources = new Map<string, Location>();
  /** Documents that name themselves with `$self` (OpenAPI 3.2): the URI → the file. */
  private readonly selves: { uri: string; file: string }[] = [];
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
    walkSchemaNodes(document, this.documentUri(file), (obj, pointer, base) => {
      // OpenAPI 3.2: `$self` is the document's own URI and the base of its relative references (RFC 3986 §5.1.1);
      // a relative `$self` is resolved against the file's URI first.
      if (pointer.length === 0 && typeof obj.$self === "string" && "openapi" in obj) {
        const uri = safeUrl(obj.$self, base);
        if (uri) {
          base = stripFragment(uri);
          roots.push({ pointer, uri: base });
          register(this.resources, base, { file, pointer });
          this.selves.push({ uri: base, file });
        }
      }
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
    return this.resourceAt(file, pointer)?.uri ?? this.documentUri(file);
  }

  /** The innermost `$id`'d resource around a node, if any. */
  resourceAt(file: string, pointer: readonly (string | number)[]): ResourceRoot | undefined {
    for (const root of this.roots.get(file) ?? []) {
      if (root.pointer.length <= pointer.length && root.pointer.every((segment, i) => segment === String(pointer[i]))) return root;
    }
    return undefined;
  }

  /**
   * The local file a URI means when it lies beside a document that names itself with `$self`: with `$self:
   * https://example.com/api/openapi.yaml`, `https://example.com/api/schemas/pet.yaml` is `schemas/pet.yaml` next to
   * that document (the documents are read from disk as if from their intended URIs).
   */
  fileFor(uri: string): string | undefined {
    for (const self of this.selves) {
      // A document fetched from a URL resolves its references as URLs (load/remote-documents), not as local files.
      if (isHttpUrl(self.file)) continue;
      const folder = safeUrl(".", self.uri);
      if (folder === undefined || !uri.startsWith(folder) || uri === self.uri) continue;
      const relative = decode(uri.slice(folder.length));
      if (relative === "" || relative.split("/").includes("..")) continue;
      const path = fileURLToPath(new URL(relative.split("/").map(encodeURIComponent).join("/"), fileUri(self.file)));
      // A URI without an extension (`https://example.com/api/shared/foo`, as the specification's own examples write
      // them) names the document, whose file has one.
      if (/\.[A-Za-z0-9]+$/.test(relative)) return path;
      return [path, `${path}.yaml`, `${path}.yml`, `${path}.json`].find((candidate) => existsSync(candidate)) ?? path;
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

/** `file:///abs/path.yaml` for an absolute path (a URL stays as it is): the base URI of a file's top level. */
export function fileUri(file: string): string {
  if (isHttpUrl(file)) return file;
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
