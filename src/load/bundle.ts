import { dirname, resolve as resolvePath } from "node:path";
import { UserError, formatPointer } from "../errors.js";

/**
 * Turns a spec spread over several local files into one document whose `$ref`s are all internal (`#/...`), as
 * the emitters and openapi-typescript expect.
 *
 * - A `$ref` in a schema position that points into another file is hoisted into `components.schemas` under the
 *   target's own name (collisions get `_2`, `_3`, … in walk order), so shared and recursive schemas keep one
 *   definition and one type name.
 * - Any other external `$ref` (path item, parameter, response, example, …) is inlined; those cannot recurse.
 * - Internal `$ref`s of the entry file stay as they are, and every one of them is checked to resolve.
 *
 * Nodes are copied only where something changed, so a single-file spec is walked but not copied.
 */
export interface BundleInput {
  /** Absolute path of the entry file. */
  entry: string;
  /** Parsed entry document. */
  document: Record<string, unknown>;
  /** Reads and parses another file (absolute path); throws a UserError when it cannot. */
  readFile: (absolutePath: string, referencedFrom: string) => unknown;
  /** Path shown to the user for an absolute path. */
  display: (absolutePath: string) => string;
}

type Kind =
  | "document"
  | "pathItems"
  | "pathItem"
  | "operation"
  | "parameter"
  | "requestBody"
  | "responses"
  | "response"
  | "header"
  | "mediaType"
  | "schema"
  | "example"
  | "link"
  | "callback"
  | "securityScheme"
  | "components"
  | "data";

type Json = unknown;
type JsonObject = Record<string, unknown>;

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"];
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const SCHEMA_SINGLES = [
  "additionalProperties",
  "items",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contentSchema",
  "additionalItems",
];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
const COMPONENT_KINDS: Record<string, Kind> = {
  schemas: "schema",
  responses: "response",
  parameters: "parameter",
  examples: "example",
  requestBodies: "requestBody",
  headers: "header",
  securitySchemes: "securityScheme",
  links: "link",
  callbacks: "callback",
  pathItems: "pathItem",
};

export interface BundleResult {
  document: JsonObject;
  /** Absolute paths of every file that was read, entry first, then in the order they were reached. */
  files: string[];
}

export function bundle(input: BundleInput): BundleResult {
  const { entry } = input;
  const files = new Map<string, Json>([[entry, input.document]]);
  const hoisted = new Map<string, string>(); // "file#pointer" -> schema name in the entry's components
  const hoistedSchemas: [string, Json][] = [];
  const usedNames = new Set<string>(Object.keys(schemasOf(input.document)));
  const inlining: string[] = [];

  const load = (file: string, from: string): Json => {
    let doc = files.get(file);
    if (doc === undefined) {
      doc = input.readFile(file, from);
      files.set(file, doc);
    }
    return doc;
  };

  /** Resolves a `$ref` string to its value, file and pointer, or throws a UserError naming where it was. */
  const follow = (ref: string, file: string, path: (string | number)[]) => {
    const target = resolveRef(ref, file);
    const where = formatPointer(input.display(file), [...path, "$ref"]);
    const value = resolvePointer(load(target.file, where), target.pointer);
    if (value === undefined) {
      throw new UserError(`unresolved $ref ${JSON.stringify(ref)}: nothing at ${formatPointer(input.display(target.file), target.pointer)}`, {
        location: where,
      });
    }
    return { value, file: target.file, pointer: target.pointer };
  };

  const visit = (node: Json, kind: Kind, file: string, path: (string | number)[]): Json => {
    if (node === null || typeof node !== "object" || kind === "data") return node;
    if (Array.isArray(node)) return node; // arrays are walked by their owners, which know the element kind
    const obj = node as JsonObject;
    if ("$ref" in obj) {
      const replaced = visitRef(obj, kind, file, path);
      if (replaced !== undefined) return replaced;
    }
    return visitChildren(obj, kind, file, path);
  };

  /** Returns the replacement for a `$ref` node, or undefined to walk it as an ordinary object. */
  const visitRef = (obj: JsonObject, kind: Kind, file: string, path: (string | number)[]): Json | undefined => {
    const ref = obj.$ref;
    if (typeof ref !== "string") {
      throw new UserError(`$ref must be a string, found ${JSON.stringify(ref)}`, {
        location: formatPointer(input.display(file), [...path, "$ref"]),
        hint: "in YAML, quote a $ref that starts with '#' (an unquoted # starts a comment)",
      });
    }
    const { value, ...target } = follow(ref, file, path);
    if (target.file === entry) {
      if (file === entry) return undefined; // internal ref of the entry: keep, but still walk siblings below
      return { ...obj, $ref: "#" + encodePointer(target.pointer) };
    }
    const key = `${target.file}#${encodePointer(target.pointer)}`;
    if (kind === "schema") {
      const isComponentSlot = file === entry && path.length === 3 && path[0] === "components" && path[1] === "schemas";
      if (isComponentSlot && !hoisted.has(key)) {
        // `components.schemas.User: {$ref: ./User.yaml}`: the file's schema takes the slot's name.
        hoisted.set(key, String(path[2]));
        return visit(value, "schema", target.file, target.pointer);
      }
      let name = hoisted.get(key);
      if (name === undefined) {
        name = uniqueName(schemaNameFor(target.file, target.pointer), usedNames);
        hoisted.set(key, name);
        const slot: [string, Json] = [name, undefined];
        hoistedSchemas.push(slot);
        slot[1] = visit(value, "schema", target.file, target.pointer);
      }
      const { $ref: _dropped, ...siblings } = obj;
      return { ...siblings, $ref: `#/components/schemas/${escapePointerSegment(name)}` };
    }
    if (inlining.includes(key)) {
      throw new UserError(`cyclic $ref ${JSON.stringify(ref)} outside a schema cannot be bundled`, {
        location: formatPointer(input.display(file), [...path, "$ref"]),
      });
    }
    inlining.push(key);
    const inlined = visit(value, kind, target.file, target.pointer);
    inlining.pop();
    // OpenAPI 3.1 lets a Reference Object override summary and description of its target.
    const { $ref: _ref, ...siblings } = obj;
    if (Object.keys(siblings).length > 0 && inlined && typeof inlined === "object" && !Array.isArray(inlined)) {
      return { ...(inlined as JsonObject), ...siblings };
    }
    return inlined;
  };

  const visitChildren = (obj: JsonObject, kind: Kind, file: string, path: (string | number)[]): Json => {
    let copy: JsonObject | undefined;
    const set = (key: string, value: Json) => {
      if (value === obj[key]) return;
      copy ??= { ...obj };
      copy[key] = value;
    };
    const one = (key: string, childKind: Kind) => {
      if (key in obj) set(key, visit(obj[key], childKind, file, [...path, key]));
    };
    const map = (key: string, childKind: Kind) => {
      let value = obj[key];
      let mapFile = file;
      let mapPath: (string | number)[] = [...path, key];
      if (isRefObject(value)) {
        // The whole map is a reference (`properties: {$ref: attributes.yml#/x}`): walk the target in its file.
        const target = follow(value.$ref, file, mapPath);
        value = target.value;
        mapFile = target.file;
        mapPath = target.pointer;
      }
      if (value && typeof value === "object" && !Array.isArray(value)) {
        const walked = visitMap(value as JsonObject, childKind, mapFile, mapPath);
        set(key, walked);
      }
    };
    /** `example: {$ref: examples.yml#/x}` is data by the letter of the spec, but meant as a reference: inline it. */
    const dataRef = (key: string) => {
      const value = obj[key];
      if (isRefObject(value) && !value.$ref.startsWith("#")) set(key, follow(value.$ref, file, [...path, key]).value);
    };
    const list = (key: string, childKind: Kind) => {
      const value = obj[key];
      if (Array.isArray(value)) set(key, visitList(value, childKind, file, [...path, key]));
    };

    switch (kind) {
      case "document":
        // Components first, so a schema file referenced from a component slot keeps that slot's name.
        one("components", "components");
        map("paths", "pathItem");
        map("webhooks", "pathItem");
        map("x-webhooks", "pathItem");
        break;
      case "components":
        for (const [section, childKind] of Object.entries(COMPONENT_KINDS)) map(section, childKind);
        break;
      case "pathItem":
        list("parameters", "parameter");
        for (const method of HTTP_METHODS) one(method, "operation");
        map("additionalOperations", "operation");
        break;
      case "operation":
        list("parameters", "parameter");
        one("requestBody", "requestBody");
        map("responses", "response");
        map("callbacks", "callback");
        break;
      case "callback":
        for (const key of Object.keys(obj)) if (!key.startsWith("x-")) one(key, "pathItem");
        break;
      case "parameter":
      case "header":
        dataRef("example");
        one("schema", "schema");
        map("content", "mediaType");
        map("examples", "example");
        break;
      case "requestBody":
        map("content", "mediaType");
        break;
      case "response":
        map("headers", "header");
        map("content", "mediaType");
        map("links", "link");
        break;
      case "mediaType": {
        dataRef("example");
        one("schema", "schema");
        one("itemSchema", "schema");
        map("examples", "example");
        const encoding = obj.encoding;
        if (encoding && typeof encoding === "object") {
          const walked = mapValues(encoding as JsonObject, (enc, name) =>
            enc && typeof enc === "object"
              ? visitMapField(enc as JsonObject, "headers", "header", file, [...path, "encoding", name])
              : enc,
          );
          set("encoding", walked);
        }
        break;
      }
      case "schema":
        for (const key of SCHEMA_MAPS) map(key, "schema");
        for (const key of SCHEMA_SINGLES) {
          if (key in obj && !Array.isArray(obj[key]) && typeof obj[key] === "object") one(key, "schema");
        }
        for (const key of SCHEMA_LISTS) list(key, "schema");
        break;
      default:
        // example, link, securityScheme: no nested $refs that need bundling beyond their own $ref.
        break;
    }
    return copy ?? obj;
  };

  /** Objects whose `x-` keys are extensions (data), not entries: Paths, Responses, Callback. */
  const EXTENSIBLE_MAPS = new Set(["paths", "responses", "webhooks"]);

  const visitMap = (value: JsonObject, kind: Kind, file: string, path: (string | number)[]): JsonObject => {
    let copy: JsonObject | undefined;
    // In maps of names (properties, headers, content, schemas…) `x-request-id` is a name like any other.
    const hasExtensions = EXTENSIBLE_MAPS.has(String(path[path.length - 1]));
    for (const key of Object.keys(value)) {
      if (key.startsWith("x-") && hasExtensions) continue;
      const walked = visit(value[key], kind, file, [...path, key]);
      if (walked !== value[key]) {
        copy ??= { ...value };
        copy[key] = walked;
      }
    }
    return copy ?? value;
  };

  const visitMapField = (obj: JsonObject, key: string, kind: Kind, file: string, path: (string | number)[]) => {
    const value = obj[key];
    if (!value || typeof value !== "object") return obj;
    const walked = visitMap(value as JsonObject, kind, file, [...path, key]);
    return walked === value ? obj : { ...obj, [key]: walked };
  };

  const visitList = (value: Json[], kind: Kind, file: string, path: (string | number)[]): Json[] => {
    let copy: Json[] | undefined;
    value.forEach((item, index) => {
      const walked = visit(item, kind, file, [...path, index]);
      if (walked !== item) {
        copy ??= [...value];
        copy[index] = walked;
      }
    });
    return copy ?? value;
  };

  let document = visit(input.document, "document", entry, []) as JsonObject;
  if (hoistedSchemas.length > 0) {
    const components = (document.components ?? {}) as JsonObject;
    const schemas = { ...((components.schemas ?? {}) as JsonObject) };
    for (const [name, schema] of hoistedSchemas) schemas[name] = schema;
    document = { ...document, components: { ...components, schemas } };
  }
  return { document, files: [...files.keys()] };
}

function isRefObject(value: unknown): value is { $ref: string } {
  return !!value && typeof value === "object" && typeof (value as JsonObject).$ref === "string";
}

function schemasOf(document: JsonObject): JsonObject {
  const components = document.components as JsonObject | undefined;
  return (components?.schemas as JsonObject | undefined) ?? {};
}

function mapValues(obj: JsonObject, fn: (value: Json, key: string) => Json): JsonObject {
  let copy: JsonObject | undefined;
  for (const key of Object.keys(obj)) {
    const next = fn(obj[key], key);
    if (next !== obj[key]) {
      copy ??= { ...obj };
      copy[key] = next;
    }
  }
  return copy ?? obj;
}

/** Splits `other.yaml#/a/b` into an absolute file and decoded pointer segments, relative to `fromFile`. */
export function resolveRef(ref: string, fromFile: string): { file: string; pointer: string[] } {
  const hash = ref.indexOf("#");
  const filePart = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? "" : ref.slice(hash + 1);
  const file = filePart === "" ? fromFile : resolvePath(dirname(fromFile), safeDecode(filePart));
  return { file, pointer: parsePointer(fragment) };
}

export function parsePointer(fragment: string): string[] {
  if (fragment === "" || fragment === "/") return fragment === "/" ? [""] : [];
  const decoded = safeDecode(fragment);
  return decoded
    .replace(/^\//, "")
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

export function resolvePointer(doc: Json, pointer: readonly string[]): Json {
  let node: Json = doc;
  for (const segment of pointer) {
    if (node === null || typeof node !== "object") return undefined;
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(segment)) return undefined;
      node = node[Number(segment)];
    } else {
      if (!Object.prototype.hasOwnProperty.call(node, segment)) return undefined;
      node = (node as JsonObject)[segment];
    }
  }
  return node;
}

function encodePointer(segments: readonly string[]): string {
  return segments.length === 0 ? "" : "/" + segments.map(escapePointerSegment).join("/");
}

function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `schemas/User.yaml#` -> `User`; `common.yaml#/components/schemas/Error` -> `Error`. */
function schemaNameFor(file: string, pointer: readonly string[]): string {
  const last = pointer[pointer.length - 1];
  if (last) return last;
  const base = file.split(/[\\/]/).pop() ?? "Schema";
  return base.replace(/\.(ya?ml|json)$/i, "") || "Schema";
}

function uniqueName(base: string, used: Set<string>): string {
  let name = base;
  for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
  used.add(name);
  return name;
}
