/**
 * Names of the resource-style client (`client.chat.completions.create(…)`): every operation gets a place in a tree
 * of nested resources and a method name on its resource. The rules read the spec only; the user's `resources` map
 * (config) overrides any of them.
 *
 * 1. An operationId namespace, when the spec uses one for most operations: `repos/get-content` →
 *    `repos.getContent` (GitHub's REST description; Octokit's names).
 * 2. Else the path, the way Stainless-generated SDKs read (openai-node, anthropic-sdk): each literal segment is a
 *    resource (`/fine_tuning/jobs` → `fineTuning.jobs`) and the method says what the request does to it —
 *    `GET /files` → `files.list`, `POST /files` → `files.create`, `GET /files/{id}` → `files.retrieve`,
 *    `POST|PUT|PATCH /files/{id}` → `files.update`, `DELETE …/{id}` → `delete`; a last segment that names an action
 *    rather than a collection (`POST /fine_tuning/jobs/{id}/cancel`, `GET /customers/search`) is a method of its
 *    parent (`fineTuning.jobs.cancel`, `customers.search`); a resource read and written without an id
 *    (`GET|POST /tax/settings`) is a singleton (`retrieve`, `update`). A leading version segment shared by every
 *    path (`/v1`) names no resource.
 * 3. The first tag, for an operation whose path names no resource (`GET /`).
 *
 * Renames the spec records (`x-octokit.changes`: an operation's previous operationId) become deprecated aliases,
 * so code written against the old name keeps working. Two operations that would share a name are told apart
 * deterministically (document order: the later one takes its flat client name) and reported.
 */
import type { ApiModel, Operation } from "./model.js";
import { camelCase, NameRegistry } from "./naming.js";

/** Where one operation sits in the resource-style client. */
export interface ResourceMethod {
  /** The operation's name in the flat client (`Operation.name`). */
  operation: string;
  /** The nested resources, each a property name: `["fineTuning", "jobs"]`. */
  resource: string[];
  /** The method's name on its resource: `cancel`. */
  method: string;
  /** What named it. */
  source: "operationId" | "path" | "tag" | "override";
  /** Names the spec records as the operation's earlier ones: deprecated aliases of `method`. */
  aliases: { resource: string[]; method: string }[];
}

/** Two or more operations whose names collided, and the names they got. */
export interface ResourceCollision {
  /** The name they would have shared: `threads.runs.create`. */
  name: string;
  /** The operations (flat names, document order) and the dotted name each got. */
  resolved: { operation: string; name: string }[];
}

export interface ResourceNaming {
  /** One per operation, in document order. */
  methods: ResourceMethod[];
  collisions: ResourceCollision[];
  /** Keys of the override map that matched no operation (the config names them in an error). */
  unusedOverrides: string[];
}

/**
 * The user's overrides (config `resources`), by key:
 * - a path prefix (`"/organization"`): every operation at or below it is mounted under the given resource
 *   (`"admin.organization"`), the rest of its path naming the rest as usual;
 * - `"METHOD /path"` (`"POST /threads/runs"`), an operationId or a flat method name: that operation's full dotted
 *   name (`"beta.threads.createAndRun"`), its last part the method.
 */
export type ResourceOverrides = Readonly<Record<string, string>>;

/** Method names a resource object cannot have: a `then` would make it awaitable, the rest reach Object.prototype. */
export const UNSAFE_MEMBERS: ReadonlySet<string> = new Set(["then", "constructor", "__proto__", "prototype", "hasOwnProperty", "toString", "valueOf", "withResponse", "asResponse"]);

const VERSION_SEGMENT = /^v\d+[a-z0-9]*$/i;
const PARAMETER = /^\{.*\}$/;
/** A plural noun, as far as one word can tell (`files`, `runs`; not `status`, `access`). */
const PLURAL = /[^su]s$/i;

interface PathNode {
  children: Map<string, PathNode>;
  methods: Set<string>;
}

/** The literal and parameter segments of a path, without its query (`/responses?beta=true`) and shared version. */
function pathSegments(path: string): string[] {
  return path
    .split("?")[0]!
    .split("/")
    .filter(Boolean)
    .map((segment) => (PARAMETER.test(segment) ? "{}" : segment));
}

/**
 * A name of the tree as a property: camelCase ASCII (`fine_tuning` → `fineTuning`); reserved words are fine as
 * property names (`delete`, `return`), members that would change what the object is are not.
 */
export function resourceMember(text: string): string {
  let name = camelCase(text).replace(/[^A-Za-z0-9_$]/g, "") || "resource";
  if (/^[0-9]/.test(name)) name = `_${name}`;
  return UNSAFE_MEMBERS.has(name) ? `${name}_` : name;
}

function verbFor(method: string, onItem: boolean, singleton: boolean): string {
  if (singleton) return method === "GET" ? "retrieve" : method === "DELETE" ? "delete" : "update";
  switch (method) {
    case "GET":
      return onItem ? "retrieve" : "list";
    case "POST":
      return onItem ? "update" : "create";
    case "PUT":
    case "PATCH":
      return "update";
    case "DELETE":
      return "delete";
    default:
      return resourceMember(method.toLowerCase());
  }
}

/** The default place of one operation from its path (rule 2), or undefined when the path names no resource. */
function fromPath(segments: readonly string[], wireMethod: string, root: PathNode): { resource: string[]; method: string } | undefined {
  const nodes: PathNode[] = [];
  let node = root;
  for (const segment of segments) {
    node = node.children.get(segment)!;
    nodes.push(node);
  }
  const resource: string[] = [];
  const last = segments.length - 1;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === "{}") continue;
    const here = nodes[i]!;
    const parent = i > 0 ? nodes[i - 1]! : undefined;
    // A last segment with nothing below it and one method is an action of its parent when the parent is an item
    // (`/jobs/{id}/cancel`) or a collection with operations of its own (`/customers/search`, `/responses/compact`):
    // a verb (POST `cancel`, `search`), or a GET of something that is not a list (`/files/{id}/content`).
    if (i === last && i > 0 && here.children.size === 0 && here.methods.size === 1 && parent) {
      const afterItem = segments[i - 1] === "{}";
      const parentIsResource = afterItem || parent.methods.size > 0 || parent.children.has("{}") || PLURAL.test(segments[i - 1]!);
      const plural = PLURAL.test(segment) && !segment.includes("_");
      if (parentIsResource && (wireMethod === "GET" ? !PLURAL.test(segment) && !afterItem : !plural)) {
        if (resource.length === 0) return undefined;
        return { resource, method: resourceMember(segment) };
      }
    }
    resource.push(resourceMember(segment));
  }
  if (resource.length === 0) return undefined;
  const onItem = segments[last] === "{}";
  const singleton = !onItem && !node.children.has("{}") && node.methods.has("GET") && !PLURAL.test(segments[last]!);
  return { resource, method: verbFor(wireMethod, onItem, singleton) };
}

/** The operationIds the spec says an operation had before (`x-octokit.changes`), oldest first. */
function recordedRenames(model: ApiModel, operation: Operation): string[] {
  let node: unknown = model.document;
  for (const segment of operation.pointer) node = node && typeof node === "object" ? (node as Record<string, unknown>)[segment] : undefined;
  const changes = ((node as Record<string, unknown> | undefined)?.["x-octokit"] as { changes?: unknown } | undefined)?.changes;
  if (!Array.isArray(changes)) return [];
  return changes.flatMap((change) => {
    const before = (change as { type?: unknown; before?: { operationId?: unknown } })?.before?.operationId;
    return (change as { type?: unknown }).type === "OPERATION" && typeof before === "string" && before !== operation.operationId ? [before] : [];
  });
}

/** `repos/get-content` → `{ resource: ["repos"], method: "getContent" }`. */
function fromNamespacedId(operationId: string): { resource: string[]; method: string } {
  const parts = operationId.split("/").filter(Boolean);
  return { resource: parts.slice(0, -1).map(resourceMember), method: resourceMember(camelCase(parts.at(-1)!)) };
}

/** Names every operation of the model (see the module's comment). */
export function resourceNaming(model: ApiModel, overrides: ResourceOverrides = {}): ResourceNaming {
  const operations = model.operations;
  const namespaced = operations.filter((op) => op.operationId !== undefined && /^[^/]+(\/[^/]+)+$/.test(op.operationId));
  const useNamespaces = namespaced.length * 2 > operations.length;

  const segmentsOf = new Map(operations.map((op) => [op, pathSegments(op.path)]));
  const firsts = [...segmentsOf.values()].map((s) => s[0]);
  const shared = firsts.length > 0 && firsts.every((s) => s === firsts[0]) && VERSION_SEGMENT.test(firsts[0] ?? "") ? 1 : 0;
  const root: PathNode = { children: new Map(), methods: new Set() };
  for (const op of operations) {
    const segments = segmentsOf.get(op)!.slice(shared);
    segmentsOf.set(op, segments);
    let node = root;
    for (const segment of segments) {
      let child = node.children.get(segment);
      if (!child) node.children.set(segment, (child = { children: new Map(), methods: new Set() }));
      node = child;
    }
    node.methods.add(op.wireMethod);
  }

  const used = new Set<string>();
  const mounts = Object.entries(overrides)
    .filter(([key]) => key.startsWith("/"))
    .map(([key, value]) => ({ key, segments: pathSegments(key).slice(VERSION_SEGMENT.test(pathSegments(key)[0] ?? "") ? shared : 0), to: value.split(".").filter(Boolean) }))
    .sort((a, b) => b.segments.length - a.segments.length);
  // An endpoint key matches whatever its path parameters are called (`GET /files/{file_id}` is `GET /files/{id}`).
  const endpointKey = (method: string, path: string) => `${method.toUpperCase()} /${pathSegments(path).join("/")}`;
  const byEndpoint = new Map<string, string>();
  for (const key of Object.keys(overrides)) {
    const endpoint = /^([A-Za-z]+) (\/.*)$/.exec(key);
    if (endpoint && !byEndpoint.has(endpointKey(endpoint[1]!, endpoint[2]!))) byEndpoint.set(endpointKey(endpoint[1]!, endpoint[2]!), key);
  }
  const renameOf = (op: Operation): string | undefined => {
    const endpoints = op.paths.map((path) => byEndpoint.get(endpointKey(op.wireMethod, path)));
    for (const key of [`${op.wireMethod} ${op.path}`, `${op.wireMethod} ${op.path.split("?")[0]}`, ...endpoints, op.operationId, op.name]) {
      if (key !== undefined && Object.hasOwn(overrides, key) && !key.startsWith("/")) {
        used.add(key);
        return overrides[key];
      }
    }
    return undefined;
  };

  const placed = operations.map((op): ResourceMethod => {
    const aliases = recordedRenames(model, op).map(fromNamespacedId);
    const rename = renameOf(op);
    if (rename !== undefined) {
      const parts = rename.split(".").filter(Boolean);
      return { operation: op.name, resource: parts.slice(0, -1), method: parts.at(-1) ?? op.name, source: "override", aliases };
    }
    if (useNamespaces && op.operationId && /^[^/]+(\/[^/]+)+$/.test(op.operationId)) {
      return { operation: op.name, ...fromNamespacedId(op.operationId), source: "operationId", aliases };
    }
    const segments = segmentsOf.get(op)!;
    const mount = mounts.find((m) => m.segments.every((s, i) => segments[i] === s || (s === "{}" && segments[i] === "{}")));
    const found = fromPath(segments, op.wireMethod, root);
    if (found) {
      if (mount) {
        used.add(mount.key);
        const dropped = mount.segments.filter((s) => s !== "{}").length;
        return { operation: op.name, resource: [...mount.to, ...found.resource.slice(dropped)], method: found.method, source: "override", aliases };
      }
      return { operation: op.name, ...found, source: "path", aliases };
    }
    const tag = op.tags[0];
    return { operation: op.name, resource: [resourceMember(tag ?? "root")], method: verbFor(op.wireMethod, false, false), source: "tag", aliases };
  });

  const collisions = resolveCollisions(placed);
  const unusedOverrides = Object.keys(overrides).filter((key) => !used.has(key));
  return { methods: placed, collisions, unusedOverrides };
}

/**
 * Gives every operation a name of its own: where several share one, the first (document order) keeps it and each
 * other is called by its flat client name (`responses.betaCreateResponse`), else gets `_2`, `_3`, …; a method that shares its name with a sub-resource of the same resource yields to it
 * the same way (`skills.content` the method beside `skills.content.versions` the resource). Aliases never take a
 * name an operation has.
 */
function resolveCollisions(placed: ResourceMethod[]): ResourceCollision[] {
  const key = (resource: readonly string[]) => resource.join(".");
  /** Each resource's sub-resources, so a method can avoid their names. */
  const subResources = new Map<string, Set<string>>();
  for (const { resource } of placed) {
    for (let i = 1; i <= resource.length; i++) {
      const parent = key(resource.slice(0, i - 1));
      (subResources.get(parent) ?? subResources.set(parent, new Set()).get(parent)!).add(resource[i - 1]!);
    }
  }
  const registries = new Map<string, NameRegistry>();
  const registryFor = (resource: readonly string[]) => {
    const k = key(resource);
    let registry = registries.get(k);
    if (!registry) registries.set(k, (registry = new NameRegistry(subResources.get(k) ?? [], (name) => name)));
    return registry;
  };
  const byName = new Map<string, { operation: string; name: string }[]>();
  for (const entry of placed) {
    const wanted = entry.method;
    const registry = registryFor(entry.resource);
    // A later operation with a taken name is called by its flat name, which says what it is (`betaCreateResponse`).
    entry.method = registry.isFree(wanted) ? registry.claim(wanted) : registry.claim(registry.isFree(entry.operation) ? entry.operation : wanted);
    const name = `${key([...entry.resource, wanted])}`;
    const list = byName.get(name) ?? byName.set(name, []).get(name)!;
    list.push({ operation: entry.operation, name: key([...entry.resource, entry.method]) });
  }
  for (const entry of placed) {
    entry.aliases = entry.aliases.filter((alias) => {
      const registry = registryFor(alias.resource);
      if (!registry.isFree(alias.method)) return false;
      registry.reserve(alias.method);
      return true;
    });
  }
  return [...byName].filter(([name, list]) => list.length > 1 || list[0]!.name !== name).map(([name, resolved]) => ({ name, resolved }));
}
