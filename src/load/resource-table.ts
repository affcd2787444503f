/**
 * A resource table in the shape of Stainless' `stainless.yml` (its `resources:` tree), read as names for the
 * resource-style client. Only the naming part is read:
 *
 * ```yaml
 * resources:
 *   files:
 *     methods:
 *       list: get /files                          # a method: its endpoint
 *       retrieve: { endpoint: get /files/{file_id} }
 *   fine_tuning:
 *     subresources:
 *       jobs:
 *         methods:
 *           list_events: get /fine_tuning/jobs/{fine_tuning_job_id}/events
 * ```
 *
 * Each method names its endpoint's operation `fineTuning.jobs.listEvents`: every name camel-cased, as Stainless'
 * TypeScript SDKs spell them. `$client`'s methods sit on the client itself; other `$` entries (`$shared`) and the
 * rest of a resource (`models`, descriptions) name no operation and are skipped, as are methods of another `type`
 * than `http` (`webhook_unwrap`), which send no request. https://app.stainlessapi.com/docs/guides/configure#resources
 */
import { statSync } from "node:fs";
import { UserError, formatPosition, type SpecWarning } from "../errors.js";
import { locatePointers } from "../diff/locate.js";
import { toJsonPointer } from "../openapi/pointer.js";
import { resourceMember } from "../ir/resources.js";
import { looksLikeJson, parseSpec } from "./parse.js";
import { readRegularFile } from "./read.js";

/** A resource table is a few hundred lines (one per SDK method, tens of kilobytes): 4 MiB is far past any real one. */
export const MAX_RESOURCE_TABLE_BYTES = 4 * 1024 * 1024;

/** One method of the table. */
export interface ResourceTableMethod {
  /** The dotted name the method gives its operation: `fineTuning.jobs.listEvents`. */
  name: string;
  /** Where it is written: `stainless.yml:12:9`. */
  location: string;
  /** Its path in the table, as the file spells it: `resources.fine_tuning.subresources.jobs.methods.list_events`. */
  path: string;
  /** The endpoint as written: `get /fine_tuning/jobs/{fine_tuning_job_id}/events`. */
  endpoint: string;
}

/** The table as the resource-style client's names: the same keys as the config's `client.resources` map. */
export interface ResourceTable {
  /** `"GET /files/{file_id}"` → `"files.retrieve"`, in the table's order. */
  resources: Record<string, string>;
  /** The method that wrote each key of `resources`. */
  methods: Record<string, ResourceTableMethod>;
  /** Methods left out (an endpoint a method earlier in the table already names) and the parser's own warnings. */
  warnings: SpecWarning[];
}

/** The methods an endpoint may name, as OpenAPI's path item spells them (3.2 adds `query`). */
const HTTP_METHODS = new Set(["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE", "QUERY"]);
const ENDPOINT = /^([A-Za-z]+) +(\/\S*)$/;

/**
 * Reads the resource table at `file` (YAML or JSON), at most `maxBytes` of it. Every problem is a UserError at the
 * file (`file:line:column` where it is inside it): missing, not a regular file, too large, not YAML, not the shape.
 */
export function readResourceTable(file: string, display: string, maxBytes = MAX_RESOURCE_TABLE_BYTES): ResourceTable {
  const hint = "`client.resources` names a resource table (a stainless.yml-like file, relative to the config file) or maps names itself";
  let size: number;
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) throw new UserError("the resource table is a directory, not a file", { location: display, hint });
    if (!stat.isFile()) throw new UserError("the resource table is not a regular file (a device, pipe or socket)", { location: display });
    size = stat.size;
  } catch (error) {
    if (error instanceof UserError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(code === "ENOENT" ? "resource table not found" : `cannot read the resource table (${code ?? String(error)})`, { location: display, hint });
  }
  if (size > maxBytes) {
    throw new UserError(`the resource table is ${size} bytes, more than the limit of ${maxBytes} bytes`, { location: display, hint: "a resource table names methods only: leave the rest of the config out of it" });
  }
  const bytes = readRegularFile(file, maxBytes, { followLinks: true });
  if (bytes === undefined) throw new UserError("cannot read the resource table (it changed while it was read)", { location: display });
  return parseResourceTable(bytes.toString("utf8"), display);
}

/** The names a resource table's text gives (see the module's comment); `display` is the file as messages show it. */
export function parseResourceTable(text: string, display: string): ResourceTable {
  const parsed = parseSpec(text, display);
  const json = looksLikeJson(display, text.replace(/^\uFEFF/, ""));
  const lines = text.split(/\r?\n/);
  /** `file:line:column` of each node of the table asked for, by its path (the nearest line the scan finds): one scan. */
  const locate = (pointers: readonly (readonly string[])[]): string[] => {
    const keys = pointers.map((pointer) => toJsonPointer(pointer));
    const found = locatePointers(text, keys, json);
    return keys.map((key) => {
      const line = found.get(key) ?? 1;
      const content = lines[line - 1] ?? "";
      return formatPosition(display, line, content.length - content.trimStart().length + 1);
    });
  };
  const at = (pointer: readonly string[]) => locate([pointer])[0]!;
  const dotted = (pointer: readonly string[]) => pointer.join(".");
  const fail = (message: string, pointer: readonly string[], hint?: string): never => {
    throw new UserError(`resource table: ${message}`, { location: at(pointer), ...(hint ? { hint } : {}) });
  };

  const document = parsed.document;
  if (!isMapping(document) || !Object.hasOwn(document, "resources")) {
    fail("a resource table is a mapping with a `resources:` tree (resources → methods and subresources)", [], "write `resources:` at the top, as in stainless.yml");
  }
  const table: ResourceTable = { resources: {}, methods: {}, warnings: [...parsed.warnings] };

  const walkResources = (resources: unknown, names: readonly string[], pointer: readonly string[]): void => {
    if (resources === undefined || resources === null) return;
    if (!isMapping(resources)) return fail(`\`${dotted(pointer)}\` must map resource names to resources`, pointer);
    for (const [name, resource] of Object.entries(resources as Record<string, unknown>)) {
      const here = [...pointer, name];
      // `$client`: methods of the client itself; `$shared` and any other `$` entry hold no methods of a resource.
      if (name.startsWith("$") && name !== "$client") continue;
      if (resource === null) continue;
      if (!isMapping(resource)) return fail(`resource \`${dotted(here)}\` must be a mapping (methods, subresources, models)`, here);
      const path = name === "$client" ? names : [...names, resourceMember(name)];
      walkMethods(resource.methods, path, [...here, "methods"]);
      walkResources(resource.subresources, path, [...here, "subresources"]);
    }
  };

  const walkMethods = (methods: unknown, names: readonly string[], pointer: readonly string[]): void => {
    if (methods === undefined || methods === null) return;
    if (!isMapping(methods)) return fail(`\`${dotted(pointer)}\` must map method names to endpoints`, pointer);
    for (const [name, method] of Object.entries(methods as Record<string, unknown>)) {
      const here = [...pointer, name];
      let endpoint: unknown = method;
      if (isMapping(method)) {
        // A method of another kind (`type: webhook_unwrap`) sends no request: nothing of the spec to name.
        if (method.endpoint === undefined && method.type !== undefined && method.type !== "http") continue;
        endpoint = method.endpoint;
        if (endpoint === undefined) fail(`method \`${dotted(here)}\` has no \`endpoint\``, here, 'write `endpoint: get /path` (or the method as a string, `list: "get /path"`)');
      }
      if (typeof endpoint !== "string") fail(`method \`${dotted(here)}\` must be an endpoint ("get /path") or a mapping with \`endpoint\`, got ${JSON.stringify(endpoint)}`, here);
      const match = ENDPOINT.exec((endpoint as string).trim());
      const verb = match?.[1]!.toUpperCase();
      if (!match || !HTTP_METHODS.has(verb!)) {
        fail(`method \`${dotted(here)}\`: the endpoint ${JSON.stringify(endpoint)} is not an HTTP method and a path`, here, 'write it as "get /files/{file_id}": the method, one space, the path as the spec writes it');
      }
      methodsFound.push({ key: `${verb} ${match![2]}`, pointer: here, entry: { name: [...names, resourceMember(name)].join("."), location: "", path: dotted(here), endpoint: endpoint as string } });
    }
  };

  const methodsFound: { key: string; pointer: readonly string[]; entry: ResourceTableMethod }[] = [];
  walkResources((document as Record<string, unknown>).resources, [], ["resources"]);
  const locations = locate(methodsFound.map((found) => found.pointer));
  for (const [i, { key, entry }] of methodsFound.entries()) {
    entry.location = locations[i]!;
    const earlier = table.methods[key];
    if (earlier) {
      table.warnings.push({
        message: `resource table: \`${entry.path}\` names the endpoint \`${earlier.endpoint}\` again, which \`${earlier.path}\` (${earlier.location}) already names \`${earlier.name}\`: it is left out`,
        location: entry.location,
        hint: "an operation has one name in the client: remove one of the two",
      });
      continue;
    }
    table.resources[key] = entry.name;
    table.methods[key] = entry;
  }
  return table;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
