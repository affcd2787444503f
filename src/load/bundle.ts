import { existsSync } from "node:fs";
import { dirname, resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";
import { UserError, formatPointer } from "../errors.js";
import { SchemaIds, fileUri, safeUrl, stripFragment, walkSchemaNodes, type Location } from "./ids.js";
import { escapePointerSegment, parsePointer, resolvePointer, toJsonPointer } from "../openapi/pointer.js";
import { PATH_ITEM_METHODS, SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_SINGLES } from "../openapi/vocabulary.js";
import { NameRegistry } from "../ir/naming.js";
import { isHttpUrl, originOf } from "../openapi/url.js";

/**
 * Turns a spec spread over several local files into one document whose `$ref`s are all internal (`#/...`), as
 * the emitters and openapi-typescript expect.
 *
 * - A `$ref` in a schema position that points into another file is hoisted into `components.schemas` under the
 *   target's own name (collisions get `_2`, `_3`, … in walk order), so shared and recursive schemas keep one
 *   definition and one type name.
 * - Any other external `$ref` (path item, parameter, response, example, …) is inlined; those cannot recurse.
 * - Internal `$ref`s of the entry file stay as they are, and every one of them is checked to resolve.
 * - A `$ref` by JSON Schema identifier (`$id`, `$anchor`: `/schemas/pet`, `#pet_name`, `other.yaml#name`) is
 *   resolved against the base URI of the schema resource it is in and replaced by a JSON pointer to its target.
 *   A `#/…` pointer inside an `$id`'d resource is read against that resource when it resolves there, else against
 *   the file (as OpenAPI tools read it).
 * - A schema `$ref` with sibling constraints (`{$ref: Pet, nullable: true}`, `{$ref: Pet, required: [id]}`) becomes
 *   a composition (`anyOf`/`allOf`, see refWithConstraints): the siblings apply as in JSON Schema 2020-12 (OpenAPI
 *   3.1), in 3.0 documents too, and every consumer (openapi-typescript, the server's validator) reads the same thing.
 * - A null `$ref` in a schema (an unquoted `$ref: #/…` that YAML read as a comment) is dropped with a warning, which
 *   leaves the schema unconstrained; anywhere else it is an error.
 *
 * Nodes are copied only where something changed, so a single-file spec is walked but not copied.
 */
export interface BundleInput {
  /** Absolute path (or http(s) URL) of the entry file. */
  entry: string;
  /** Parsed entry document. */
  document: Record<string, unknown>;
  /**
   * Reads and parses another file (an absolute path, or an http(s) URL), for a `$ref` at `referencedFrom` in the
   * file `referrer`; throws a UserError when it cannot.
   */
  readFile: (target: string, referencedFrom: string, referrer: string) => unknown;
  /** The base URI of a file's top level: its `file:` URL, or where a fetched document came from after redirects. */
  documentUri?: (file: string) => string;
  /** Whether a `$ref` may fetch a document from this http(s) URL (its origin is allowed). Default: never. */
  mayFetch?: (url: string) => boolean;
  /** Path shown to the user for an absolute path. */
  display: (absolutePath: string) => string;
  /**
   * False for a file that cannot declare `$id` or `$anchor` (its text has neither), so it need not be scanned for
   * them. Default: every file is scanned.
   */
  mayDeclareIds?: (absolutePath: string) => boolean;
}

/** Something bundling accepted but the user should hear about; the loader turns it into a SpecWarning. */
export interface BundleWarning {
  file: string;
  /** JSON pointer of the offending keyword in `file`. */
  pointer: (string | number)[];
  message: string;
  hint?: string;
  /** A `$ref` whose value is null: the loader looks for the line YAML read as a comment. */
  nullRef?: boolean;
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

/** The keys of a schema that the walk looks into (SCHEMA_MAPS, SCHEMA_SINGLES, SCHEMA_LISTS, and what it reports). */
const SCHEMA_WALKED_KEYS: ReadonlySet<string> = new Set([...SCHEMA_MAPS, ...SCHEMA_SINGLES, ...SCHEMA_LISTS, "discriminator", "$dynamicRef"]);

function hasSchemaChildren(schema: JsonObject): boolean {
  for (const key in schema) if (SCHEMA_WALKED_KEYS.has(key)) return true;
  return false;
}

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

/** What a `$ref` resolves to. */
interface Followed extends Target {
  value: Json;
  /** `file#pointer` of the target: the hoisting and cycle bookkeeping's key. */
  key: string;
}

/** Where a `$ref` points. */
interface Target extends Location {
  /** True for an ordinary JSON pointer into the same file (such a ref can stay as written in the entry file). */
  plain: boolean;
  /** A name for the target should it be hoisted: the anchor's, or the last segment of the `$id`. */
  nameHint?: string;
}

export interface BundleResult {
  document: JsonObject;
  /** Absolute paths of every file that was read, entry first, then in the order they were reached. */
  files: string[];
  warnings: BundleWarning[];
  /** JSON pointers outside `components.schemas` that schema `$ref`s of the entry point at (a parameter, a header). */
  foreignSchemaRefs: string[][];
}

export function bundle(input: BundleInput): BundleResult {
  const { entry } = input;
  const files = new Map<string, Json>([[entry, input.document]]);
  const hoisted = new Map<string, string>(); // "file#pointer" -> schema name in the entry's components
  const hoistedSchemas: [string, Json][] = [];
  // Component schema names are keys of the document: exact, case-sensitive names.
  const schemaNames = new NameRegistry(Object.keys(schemasOf(input.document)), (name) => name);
  const inlining: string[] = [];
  let inlinedCount = 0;

  const warnings: BundleWarning[] = [];
  const foreign = new Map<string, string[]>();
  const ids = new SchemaIds(input.documentUri ?? fileUri);
  const mayDeclareIds = input.mayDeclareIds ?? (() => true);
  ids.index(entry, input.document, mayDeclareIds(entry));

  /**
   * The parsed file `file`, for a `$ref` at `from()` in `referrer`; a document fetched from a URL reads no local file.
   * `from` is a function: the location is shown only when a file is read or refused, and formatting it for each of a
   * big spec's `$ref`s cost ~0.1 s on GitHub's.
   */
  const load = (file: string, from: () => string, referrer: string = file): Json => {
    if (isHttpUrl(referrer) && !isHttpUrl(file)) {
      throw new UserError(`$ref to a local file (${input.display(file)}) in a document fetched from a URL: refused`, {
        location: from(),
        hint: "a document from a URL may $ref only other URLs (on allowed origins), never files on this machine",
      });
    }
    let doc = files.get(file);
    if (doc === undefined) {
      doc = input.readFile(file, from(), referrer);
      files.set(file, doc);
      ids.index(file, doc, mayDeclareIds(file));
    }
    return doc;
  };

  const where = (file: string, path: Place) => formatPointer(input.display(file), [...pointerOf(path), "$ref"]);

  /** Where a `$ref` points: a file and a JSON pointer in it. */
  const target = (ref: string, file: string, path: Place): Target => {
    if (ref.startsWith("#") && (ref.length === 1 || ref[1] === "/")) {
      const pointer = parsePointer(ref.slice(1));
      // Inside an `$id`'d resource, `#/…` is relative to that resource (JSON Schema), when it resolves there.
      const resource = ids.empty ? undefined : ids.resourceAt(file, pointerOf(path));
      if (resource && resource.pointer.length > 0) {
        const inResource = [...resource.pointer, ...pointer];
        if (resolvePointer(load(file, () => where(file, path)), inResource) !== undefined) return { file, pointer: inResource, plain: false };
      }
      return { file, pointer, plain: true };
    }
    const within = (root: Location, rootUri: string, fragment: string, fallback?: Location & { uri: string }): Target => {
      if (fragment === "") return { ...root, plain: false, nameHint: lastUriSegment(rootUri) };
      if (fragment.startsWith("/")) return { ...root, pointer: [...root.pointer, ...parsePointer(fragment)], plain: false };
      const name = safeDecode(fragment);
      const anchored = ids.anchor(rootUri, name) ?? (fallback && ids.anchor(fallback.uri, name));
      if (!anchored) {
        throw new UserError(`unresolved $ref ${JSON.stringify(ref)}: no $anchor ${JSON.stringify(name)} in ${rootUri.startsWith("file:") ? input.display(root.file) : rootUri}`, {
          location: where(file, path),
        });
      }
      return { ...anchored, plain: false, nameHint: name };
    };
    if (ref.startsWith("#")) {
      // `#name`: an anchor of the enclosing resource (or, leniently, of the file's top level).
      const resource = ids.resourceAt(file, pointerOf(path));
      const top = { file, pointer: [], uri: ids.baseAt(file, []) };
      return resource ? within({ file, pointer: resource.pointer }, resource.uri, ref.slice(1), top) : within(top, top.uri, ref.slice(1));
    }
    const remote = isHttpUrl(file);
    if (ids.empty && !hasScheme(ref) && !remote) {
      // No `$id` anywhere so far: a relative ref is a file path (the common multi-file case, kept cheap).
      const hash = ref.indexOf("#");
      const local = resolvePath(dirname(file), safeDecode(hash === -1 ? ref : ref.slice(0, hash)));
      if (files.has(local) || existsSync(local)) {
        load(local, () => where(file, path));
        const fragment = hash === -1 ? "" : ref.slice(hash + 1);
        if (fragment === "" || fragment.startsWith("/")) return { file: local, pointer: parsePointer(fragment), plain: false };
      }
    }
    const base = ids.baseAt(file, pointerOf(path));
    const uri = safeUrl(ref, base);
    if (uri === undefined) {
      throw new UserError(`$ref ${JSON.stringify(ref)} is not a valid URI reference (base ${base})`, { location: where(file, path) });
    }
    const hash = uri.indexOf("#");
    const fragment = hash === -1 ? "" : uri.slice(hash + 1);
    const resourceUri = stripFragment(uri);
    const inFile = (targetFile: string) => {
      load(targetFile, () => where(file, path), file);
      // A file whose top level has an `$id` names its anchors under that `$id`.
      return within({ file: targetFile, pointer: [] }, ids.baseAt(targetFile, []), fragment);
    };
    // An `$id` wins over a file of the same name (JSON Schema), then local files, then `$id`s of files not read yet.
    const known = ids.resource(resourceUri);
    if (known) return within(known, resourceUri, fragment);
    const isFile = resourceUri.startsWith("file:");
    const local = isFile ? fileURLToPath(resourceUri) : undefined;
    if (local !== undefined && (files.has(local) || existsSync(local))) return inFile(local);
    if (!isFile && !hasScheme(ref) && !remote) {
      // A relative ref inside a resource with a non-file base (`$id: https://…`) may still mean a local file.
      const relative = resolvePath(dirname(file), safeDecode(stripFragment(ref)));
      if (existsSync(relative)) return inFile(relative);
    }
    const besideSelf = ids.fileFor(resourceUri);
    if (besideSelf !== undefined && (files.has(besideSelf) || existsSync(besideSelf))) return inFile(besideSelf);
    discoverFiles();
    const discovered = ids.resource(resourceUri);
    if (discovered) return within(discovered, resourceUri, fragment);
    if (local !== undefined) return inFile(local); // reports the missing file
    if (isHttpUrl(resourceUri)) {
      if (input.mayFetch?.(resourceUri)) return inFile(resourceUri);
      const origin = originOf(resourceUri);
      throw new UserError(`unresolved $ref ${JSON.stringify(ref)}: ${resourceUri} is not the $id of a schema in the document, and documents are not fetched from ${origin}`, {
        location: where(file, path),
        hint: `$refs to other origins are off: if ${origin} serves part of the spec, allow it in the config: "fetch": { "origins": { ${JSON.stringify(origin)}: {} } }`,
      });
    }
    throw new UserError(`unresolved $ref ${JSON.stringify(ref)}: ${resourceUri} is neither the $id of a schema in the document nor a local file`, {
      location: where(file, path),
    });
  };

  /**
   * An `$id` may be declared in a file nothing has referenced by path yet: read every local file the files read so
   * far reference (skipping any that cannot be read), once, before giving up on an identifier.
   */
  let discoveryDone = false;
  const discoverFiles = () => {
    if (discoveryDone) return;
    discoveryDone = true;
    const walked = new Set<string>();
    for (let changed = true; changed; ) {
      changed = false;
      for (const [file, document] of [...files]) {
        if (walked.has(file)) continue;
        walked.add(file);
        if (isHttpUrl(file)) continue; // its relative refs are URLs, not files
        walkSchemaNodes(document, "", (obj) => {
          const ref = obj.$ref;
          if (typeof ref !== "string" || hasScheme(ref) || ref.startsWith("#")) return "";
          const other = resolvePath(dirname(file), safeDecode(stripFragment(ref)));
          if (files.has(other) || !existsSync(other)) return "";
          try {
            load(other, () => formatPointer(input.display(file), []));
            changed = true;
          } catch {
            // Not a spec file (or broken): it cannot declare an `$id` we can use.
          }
          return "";
        });
      }
    }
  };

  /**
   * What the plain pointers (`#/…`) of each file resolved to. Without any `$id` such a pointer means the same node
   * wherever it is written, and big specs repeat the same few of them (GitHub: 10,460 `$ref`s to 1,764 targets).
   */
  const plainRefs = new Map<string, Map<string, Followed>>();

  /** Resolves a `$ref` string to its value, file and pointer, or throws a UserError naming where it was. */
  const follow = (ref: string, file: string, path: Place): Followed => {
    const remembered = ids.empty && ref.startsWith("#/") ? plainRefs.get(file) : undefined;
    let followed = remembered?.get(ref);
    if (followed === undefined) {
      followed = resolveRef(ref, file, path);
      if (ids.empty && followed.plain && ref.startsWith("#/")) {
        if (remembered) remembered.set(ref, followed);
        else plainRefs.set(file, new Map([[ref, followed]]));
      }
    }
    return followed;
  };

  const resolveRef = (ref: string, file: string, path: Place): Followed => {
    const found = target(ref, file, path);
    const value = resolvePointer(load(found.file, () => where(file, path), file), found.pointer);
    if (value === undefined) {
      throw new UserError(`unresolved $ref ${JSON.stringify(ref)}: nothing at ${formatPointer(input.display(found.file), found.pointer)}`, {
        location: where(file, path),
      });
    }
    return { value, file: found.file, pointer: found.pointer, plain: found.plain, nameHint: found.nameHint, key: `${found.file}#${toJsonPointer(found.pointer)}` };
  };

  const visit = (node: Json, kind: Kind, file: string, path: Place): Json => {
    if (node === null || typeof node !== "object" || kind === "data") return node;
    if (Array.isArray(node)) return node; // arrays are walked by their owners, which know the element kind
    const obj = node as JsonObject;
    if ("$ref" in obj) {
      const replaced = visitRef(obj, kind, file, path) ?? visitChildren(obj, kind, file, path);
      return kind === "schema" ? refWithConstraints(replaced) : replaced;
    }
    return visitChildren(obj, kind, file, path);
  };

  /** Returns the replacement for a `$ref` node, or undefined to walk it as an ordinary object. */
  const visitRef = (obj: JsonObject, kind: Kind, file: string, path: Place): Json | undefined => {
    const ref = obj.$ref;
    if (typeof ref !== "string") {
      if (ref === null && kind === "schema") {
        // `$ref: #/…` unquoted: YAML read the rest of the line as a comment. Guessing the target from a comment would
        // be reading what is not data; the schema is left unconstrained and the user is told how to fix it.
        warnings.push({
          file,
          pointer: [...pointerOf(path), "$ref"],
          nullRef: true,
          message: `$ref is null, so the schema at ${formatPointer(input.display(file), pointerOf(path))} is unconstrained (unknown)`,
          hint: "in YAML an unquoted # starts a comment: quote the $ref",
        });
        const { $ref: _null, ...siblings } = obj;
        return visitChildren(siblings, kind, file, path);
      }
      throw new UserError(`$ref must be a string, found ${JSON.stringify(ref)}`, {
        location: formatPointer(input.display(file), [...pointerOf(path), "$ref"]),
        hint: "in YAML, quote a $ref that starts with '#' (an unquoted # starts a comment)",
      });
    }
    // Read field by field: a big spec's walk follows tens of thousands of `$ref`s (GitHub: 10,460), most to a few targets.
    const target = follow(ref, file, path);
    const { value, plain, nameHint, key } = target;
    // openapi-typescript turns `#/components/schemas/A/properties/b` into `components["schemas"]["A"]["b"]`, which
    // is wrong past an optional property, an array or a composition, and the server's schema document only holds
    // component schemas: a schema `$ref` to anything but a whole component schema gets its target hoisted.
    const isComponentSchema = target.pointer.length === 3 && target.pointer[0] === "components" && target.pointer[1] === "schemas";
    // A plain pointer into another component section (`#/components/parameters/P`, an authoring slip) stays: that is
    // a type openapi-typescript has; the server's schema document gets the target instead (`foreignSchemaRefs`).
    const inOtherComponents = plain && target.pointer[0] === "components" && target.pointer[1] !== "schemas";
    if (kind === "schema" && target.file === entry && inOtherComponents) foreign.set(key, target.pointer);
    if (target.file === entry && (kind !== "schema" || isComponentSchema || inOtherComponents)) {
      if (file === entry && plain) return undefined; // internal ref of the entry: keep, but still walk siblings below
      return visitChildren({ ...obj, $ref: "#" + toJsonPointer(target.pointer) }, kind, file, path);
    }
    if (kind === "schema") {
      const isComponentSlot = file === entry && isComponentSchemaSlot(path);
      if (isComponentSlot && !hoisted.has(key) && target.file !== entry) {
        // `components.schemas.User: {$ref: ./User.yaml}`: the file's schema takes the slot's name.
        hoisted.set(key, String(path!.key));
        return visit(value, "schema", target.file, placeOf(target.pointer));
      }
      let name = hoisted.get(key);
      if (name === undefined) {
        name = schemaNames.claim(nameHint ?? schemaNameFor(target.file, target.pointer, entry));
        hoisted.set(key, name);
        const slot: [string, Json] = [name, undefined];
        hoistedSchemas.push(slot);
        slot[1] = visit(value, "schema", target.file, placeOf(target.pointer));
      }
      const { $ref: _dropped, ...siblings } = obj;
      return visitChildren({ ...siblings, $ref: `#/components/schemas/${escapePointerSegment(name)}` }, kind, file, path);
    }
    if (inlining.includes(key)) {
      throw new UserError(`cyclic $ref ${JSON.stringify(ref)} outside a schema cannot be bundled`, {
        location: formatPointer(input.display(file), [...pointerOf(path), "$ref"]),
      });
    }
    if (++inlinedCount > MAX_INLINED_REFS) {
      throw new UserError(`$refs to other files expand to more than ${MAX_INLINED_REFS.toLocaleString("en-US")} inlined copies (a $ref bomb?)`, {
        location: formatPointer(input.display(file), [...pointerOf(path), "$ref"]),
        hint: "a parameter, response or path item $ref'd from another file is copied where it is used: keep shared ones few, or in the spec's own components",
      });
    }
    inlining.push(key);
    const inlined = visit(value, kind, target.file, placeOf(target.pointer));
    inlining.pop();
    // OpenAPI 3.1 lets a Reference Object override summary and description of its target.
    const { $ref: _ref, ...siblings } = obj;
    if (Object.keys(siblings).length > 0 && inlined && typeof inlined === "object" && !Array.isArray(inlined)) {
      return { ...(inlined as JsonObject), ...siblings };
    }
    return inlined;
  };

  /** One object's children being walked: the object is copied when the first of them changes. */
  class Children {
    copy: JsonObject | undefined;
    constructor(
      readonly obj: JsonObject,
      readonly file: string,
      readonly path: Place,
    ) {}
    set(key: string, value: Json) {
      if (value === this.obj[key]) return;
      this.copy ??= { ...this.obj };
      this.copy[key] = value;
    }
    one(key: string, childKind: Kind) {
      const value = this.obj[key];
      // visit returns anything but an object as it is.
      if (value !== null && typeof value === "object" && !Array.isArray(value)) this.set(key, visit(value, childKind, this.file, new Step(this.path, key)));
    }
    map(key: string, childKind: Kind) {
      let value = this.obj[key];
      if (!value || typeof value !== "object") return;
      let mapFile = this.file;
      let mapPath: Place = new Step(this.path, key);
      if (isRefObject(value)) {
        // The whole map is a reference (`properties: {$ref: attributes.yml#/x}`): walk the target in its file.
        const target = follow(value.$ref, this.file, mapPath);
        value = target.value;
        mapFile = target.file;
        mapPath = placeOf(target.pointer);
      }
      if (value && typeof value === "object" && !Array.isArray(value)) this.set(key, visitMap(value as JsonObject, childKind, mapFile, mapPath));
    }
    /** `example: {$ref: examples.yml#/x}` is data by the letter of the spec, but meant as a reference: inline it. */
    dataRef(key: string) {
      const value = this.obj[key];
      if (isRefObject(value) && !value.$ref.startsWith("#")) this.set(key, follow(value.$ref, this.file, new Step(this.path, key)).value);
    }
    list(key: string, childKind: Kind) {
      const value = this.obj[key];
      if (Array.isArray(value)) this.set(key, visitList(value, childKind, this.file, new Step(this.path, key)));
    }
  }

  const visitChildren = (obj: JsonObject, kind: Kind, file: string, path: Place): Json => {
    const children = new Children(obj, file, path);
    switch (kind) {
      case "document":
        // Components first, so a schema file referenced from a component slot keeps that slot's name.
        children.one("components", "components");
        children.map("paths", "pathItem");
        children.map("webhooks", "pathItem");
        children.map("x-webhooks", "pathItem");
        break;
      case "components":
        for (const [section, childKind] of Object.entries(COMPONENT_KINDS)) children.map(section, childKind);
        break;
      case "pathItem":
        children.list("parameters", "parameter");
        for (const method of PATH_ITEM_METHODS) children.one(method, "operation");
        children.map("additionalOperations", "operation");
        break;
      case "operation":
        children.list("parameters", "parameter");
        children.one("requestBody", "requestBody");
        children.map("responses", "response");
        children.map("callbacks", "callback");
        break;
      case "callback":
        for (const key of Object.keys(obj)) if (!key.startsWith("x-")) children.one(key, "pathItem");
        break;
      case "parameter":
      case "header":
        children.dataRef("example");
        children.one("schema", "schema");
        children.map("content", "mediaType");
        children.map("examples", "example");
        break;
      case "requestBody":
        children.map("content", "mediaType");
        break;
      case "response":
        children.map("headers", "header");
        children.map("content", "mediaType");
        children.map("links", "link");
        break;
      case "mediaType": {
        children.dataRef("example");
        children.one("schema", "schema");
        children.one("itemSchema", "schema");
        children.map("examples", "example");
        const encoding = obj.encoding;
        if (encoding && typeof encoding === "object") {
          const walked = mapValues(encoding as JsonObject, (enc, name) =>
            enc && typeof enc === "object"
              ? visitMapField(enc as JsonObject, "headers", "header", file, new Step(new Step(path, "encoding"), name))
              : enc,
          );
          children.set("encoding", walked);
        }
        break;
      }
      case "schema":
        // Most schemas (`{type: string, description}`) have no keyword below that walks or warns: one look at their keys.
        if (!hasSchemaChildren(obj)) break;
        if (typeof obj.$dynamicRef === "string") {
          warnings.push({
            file,
            pointer: [...pointerOf(path), "$dynamicRef"],
            message: `$dynamicRef ${JSON.stringify(obj.$dynamicRef)} is not supported and is ignored: it does not constrain the schema`,
            hint: "use $ref (to an $id, an $anchor or a JSON pointer) instead",
          });
        }
        for (const key of SCHEMA_MAPS) children.map(key, "schema");
        for (const key of SCHEMA_SINGLES) {
          if (key in obj && !Array.isArray(obj[key]) && typeof obj[key] === "object") children.one(key, "schema");
        }
        for (const key of SCHEMA_LISTS) children.list(key, "schema");
        if (isObject(obj.discriminator) && isObject(obj.discriminator.mapping)) {
          const mapping = bundleMapping(obj.discriminator.mapping, file, new Step(new Step(path, "discriminator"), "mapping"));
          if (mapping !== obj.discriminator.mapping) children.set("discriminator", { ...obj.discriminator, mapping });
        }
        if (isObject(obj.discriminator) && typeof obj.discriminator.defaultMapping === "string") {
          // OpenAPI 3.2's defaultMapping is read like a mapping value.
          const bundled = bundleMapping({ defaultMapping: obj.discriminator.defaultMapping }, file, new Step(path, "discriminator"));
          const discriminator = (children.copy ?? obj).discriminator as JsonObject;
          if (bundled.defaultMapping !== discriminator.defaultMapping) children.set("discriminator", { ...discriminator, defaultMapping: bundled.defaultMapping });
        }
        break;
      default:
        // example, link, securityScheme: no nested $refs that need bundling beyond their own $ref.
        break;
    }
    return children.copy ?? obj;
  };

  /**
   * A discriminator `mapping` value is a schema name or a reference, and a reference is read like a `$ref` of the
   * file it is in: `models/record.yml#/record_a` becomes the hoisted `#/components/schemas/record_a`, so every
   * consumer can follow it (DigitalOcean maps its DNS record types into other files).
   */
  const bundleMapping = (mapping: JsonObject, file: string, path: Place): JsonObject => {
    let copy: JsonObject | undefined;
    for (const [key, value] of Object.entries(mapping)) {
      if (typeof value !== "string") continue;
      const isPointer = value.startsWith("#");
      const isName = !isPointer && Object.prototype.hasOwnProperty.call(schemasOf(input.document), value);
      // In the entry, pointers and component names already mean the bundled document's; elsewhere a bare name that
      // is no file reference is left for the consumers to read as a component name.
      if ((file === entry && (isPointer || isName)) || (!isPointer && !/[/#]|\.(ya?ml|json)$/i.test(value))) continue;
      const replaced = visitRef({ $ref: value }, "schema", file, new Step(path, key));
      const ref = isObject(replaced) && typeof replaced.$ref === "string" ? replaced.$ref : undefined;
      if (ref !== undefined && ref !== value) (copy ??= { ...mapping })[key] = ref;
    }
    return copy ?? mapping;
  };

  /** Objects whose `x-` keys are extensions (data), not entries: Paths, Responses, Callback. */
  const EXTENSIBLE_MAPS = new Set(["paths", "responses", "webhooks"]);

  const visitMap = (value: JsonObject, kind: Kind, file: string, path: Place): JsonObject => {
    let copy: JsonObject | undefined;
    // In maps of names (properties, headers, content, schemas…) `x-request-id` is a name like any other.
    const hasExtensions = path !== undefined && EXTENSIBLE_MAPS.has(String(path.key));
    for (const key of Object.keys(value)) {
      if (key.startsWith("x-") && hasExtensions) continue;
      const walked = visit(value[key], kind, file, new Step(path, key));
      if (walked !== value[key]) {
        copy ??= { ...value };
        copy[key] = walked;
      }
    }
    return copy ?? value;
  };

  const visitMapField = (obj: JsonObject, key: string, kind: Kind, file: string, path: Place) => {
    const value = obj[key];
    if (!value || typeof value !== "object") return obj;
    const walked = visitMap(value as JsonObject, kind, file, new Step(path, key));
    return walked === value ? obj : { ...obj, [key]: walked };
  };

  const visitList = (value: Json[], kind: Kind, file: string, path: Place): Json[] => {
    let copy: Json[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item = value[index];
      const walked = visit(item, kind, file, new Step(path, index));
      if (walked !== item) {
        copy ??= [...value];
        copy[index] = walked;
      }
    }
    return copy ?? value;
  };

  let document = visit(input.document, "document", entry, undefined) as JsonObject;
  if (hoistedSchemas.length > 0) {
    const components = (document.components ?? {}) as JsonObject;
    const schemas = { ...((components.schemas ?? {}) as JsonObject) };
    for (const [name, schema] of hoistedSchemas) schemas[name] = schema;
    document = { ...document, components: { ...components, schemas } };
  }
  for (const { uri, first, second } of ids.duplicates) {
    warnings.push({
      file: second.file,
      pointer: second.pointer,
      message: `${uri} is declared twice (first at ${formatPointer(input.display(first.file), first.pointer)}); $refs to it use the first`,
    });
  }
  // A hoisted schema of the entry is walked twice (in place and as its copy): report each problem once.
  const seen = new Set<string>();
  const unique = warnings.filter((w) => {
    const id = `${w.file}#${w.pointer.join("/")}`;
    return !seen.has(id) && seen.add(id);
  });
  return { document, files: [...files.keys()], warnings: unique, foreignSchemaRefs: [...foreign.values()] };
}

/**
 * How many times `$ref`s to non-schema objects of other files may be inlined. Each use is a copy, and copies nest
 * (a path item's callbacks `$ref` path items of another file…), so ten references per file over six files are a
 * million copies. DigitalOcean's 2,900-file spec inlines 17,000.
 */
export const MAX_INLINED_REFS = 250_000;

/** Keywords beside a schema `$ref` that describe rather than constrain: they stay beside it. */
const ANNOTATIONS = new Set(["$ref", "description", "summary", "title", "example", "examples", "deprecated", "default", "externalDocs", "xml", "$comment", "readOnly", "writeOnly"]);

/**
 * `{$ref, ...constraints}` → a composition that applies them; annotations stay on the outer schema. openapi-typescript
 * ignores every sibling of a `$ref`, so without this `{$ref: Pet, nullable: true}` would be typed `Pet` while the
 * server accepts `null`.
 * - Only `nullable`: `{anyOf: [{$ref}], nullable: true}` (`Pet | null`). Not allOf: openapi-typescript reads
 *   `allOf: [{$ref: <discriminated>}]` as a subtype and gives it a discriminator value of its own.
 * - Anything else (`required`, `properties`, `enum`, …): `{allOf: [{$ref}], …}` (`required` becomes `WithRequired`).
 * - A lone `type` beside a `$ref` (`{$ref: Item, type: object}`) restates the target: left as it is.
 */
function refWithConstraints(node: Json): Json {
  if (!node || typeof node !== "object" || Array.isArray(node)) return node;
  const obj = node as JsonObject;
  if (typeof obj.$ref !== "string" || !hasConstraint(obj)) return node;
  const constraints = Object.keys(obj).filter(isConstraint);
  const { $ref, ...rest } = obj;
  if (constraints.every((key) => key === "nullable")) return { ...rest, anyOf: [{ $ref }] };
  const { allOf, ...others } = rest;
  return { ...others, allOf: [{ $ref }, ...(Array.isArray(allOf) ? allOf : [])] };
}

/** A keyword beside a `$ref` that constrains (see refWithConstraints). */
function isConstraint(key: string): boolean {
  return !ANNOTATIONS.has(key) && !key.startsWith("x-") && key !== "type";
}

function hasConstraint(obj: JsonObject): boolean {
  for (const key in obj) if (isConstraint(key)) return true;
  return false;
}

/**
 * A node's place in its file: the key that leads to it from its parent's place (`undefined` is the file's top level).
 * The walk extends its parent's place by one step per node instead of copying the whole path, and makes the JSON
 * pointer (`pointerOf`) only for a message, a warning or an `$id` lookup.
 */
class Step {
  constructor(
    readonly parent: Place,
    readonly key: string | number,
  ) {}
}
type Place = Step | undefined;

function pointerOf(place: Place): (string | number)[] {
  const pointer: (string | number)[] = [];
  for (let step = place; step !== undefined; step = step.parent) pointer.push(step.key);
  return pointer.reverse();
}

function placeOf(pointer: readonly (string | number)[]): Place {
  let place: Place;
  for (const key of pointer) place = new Step(place, key);
  return place;
}

/** `/components/schemas/<name>`: a component schema's own slot. */
function isComponentSchemaSlot(place: Place): boolean {
  const section = place?.parent;
  return section?.key === "schemas" && section.parent?.key === "components" && section.parent.parent === undefined;
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
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

/** True for an absolute URI reference (`https://…`, `urn:…`); false for a relative one (`pet.yaml`, `/x`). */
function hasScheme(ref: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(ref);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * `schemas/User.yaml#` -> `User`; `common.yaml#/components/schemas/Error` -> `Error`; in the entry,
 * `#/components/schemas/Pet/properties/id` -> `Pet_id`.
 */
function schemaNameFor(file: string, pointer: readonly string[], entry: string): string {
  const last = pointer[pointer.length - 1];
  if (file === entry && pointer.length > 3 && pointer[0] === "components" && last) return `${pointer[2]}_${last}`;
  if (last) return last;
  const base = (isHttpUrl(file) ? new URL(file).pathname : file).split(/[\\/]/).pop() ?? "Schema";
  return base.replace(/\.(ya?ml|json)$/i, "") || "Schema";
}

/** `https://example.com/schemas/pet.json` -> `pet`. */
function lastUriSegment(uri: string): string | undefined {
  const segment = safeDecode(uri.replace(/[?#].*$/, "").replace(/\/+$/, "").split(/[/:]/).pop() ?? "");
  return segment.replace(/\.(ya?ml|json)$/i, "") || undefined;
}
