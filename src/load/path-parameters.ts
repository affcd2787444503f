import { formatPointer, type SpecWarning } from "../errors.js";
import { parsePointer, resolvePointer } from "../openapi/pointer.js";
import { PATH_ITEM_METHODS } from "../openapi/vocabulary.js";

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Path templates and path parameters must match one to one (OpenAPI 3.x, Path Templating), but specs get it wrong
 * both ways, and hey-api's fixture does both:
 *
 * - a `{name}` no parameter declares (`/api/v{api-version}/…`, declared on two operations of forty) is on the wire
 *   but in no type, so the client could not be given a value and the request could not be sent: each operation
 *   lacking one gets a required string path parameter of that name;
 * - a path parameter whose name is not in the path (`foo_param` on `/simple:operation`) has no place on the wire,
 *   so no request could satisfy it: it is left out.
 *
 * One warning per path says which.
 */
export function matchPathParameters(document: JsonObject, shown: string): { document: JsonObject; warnings: SpecWarning[] } {
  const paths = document.paths;
  if (!isObject(paths)) return { document, warnings: [] };
  const warnings: SpecWarning[] = [];
  // Paths share parameters (`$ref`s to the same few components): each is resolved once.
  const targets = new Map<string, unknown>();
  const resolve = (ref: string): unknown => {
    if (!targets.has(ref)) targets.set(ref, resolvePointer(document, parsePointer(ref.slice(1))));
    return targets.get(ref);
  };
  let changedPaths: JsonObject | undefined;
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item) || typeof item.$ref === "string") continue;
    const names = new Set([...path.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]!));
    const placeless = (parameters: unknown) => pathParameters(resolve, parameters).filter((p) => !names.has(p.name));
    const extra = new Set<string>();
    let changedItem: JsonObject | undefined;
    const sharedExtra = placeless(item.parameters);
    if (sharedExtra.length > 0) {
      for (const p of sharedExtra) extra.add(p.name);
      changedItem = { ...item, parameters: withoutEntries(item.parameters, sharedExtra) };
    }
    const shared = pathParameters(resolve, item.parameters).map((p) => p.name);
    const missing = new Set<string>();
    let operations = 0;
    let lacking = 0;
    for (const method of PATH_ITEM_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      operations++;
      let parameters = operation.parameters;
      const ownExtra = placeless(parameters);
      if (ownExtra.length > 0) {
        for (const p of ownExtra) extra.add(p.name);
        parameters = withoutEntries(parameters, ownExtra);
      }
      const declared = new Set([...shared, ...pathParameters(resolve, parameters).map((p) => p.name)]);
      const absent = [...names].filter((name) => !declared.has(name));
      if (absent.length > 0) {
        lacking++;
        for (const name of absent) missing.add(name);
        const added = absent.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } }));
        parameters = Array.isArray(parameters) ? [...parameters, ...added] : added;
      }
      if (parameters !== operation.parameters) changedItem = { ...(changedItem ?? item), [method]: { ...operation, parameters } };
    }
    if (!changedItem) continue;
    (changedPaths ??= { ...paths })[path] = changedItem;
    const said: string[] = [];
    if (missing.size > 0) {
      const where = lacking === operations ? "" : ` on ${lacking} of its ${operations} operations`;
      said.push(`the path has ${[...missing].map((name) => `{${name}}`).join(", ")}, which no path parameter declares${where}: a required string path parameter is assumed`);
    }
    if (extra.size > 0) {
      const list = [...extra].map((name) => `\`${name}\``).join(", ");
      said.push(`the path has no ${[...extra].map((name) => `{${name}}`).join(", ")}: path parameter${extra.size === 1 ? "" : "s"} ${list} cannot be sent, and ${extra.size === 1 ? "is" : "are"} left out`);
    }
    warnings.push({
      message: said.join("; "),
      location: formatPointer(shown, ["paths", path]),
      hint: "declare each template variable of the path, and nothing else, as a parameter with `in: path`",
    });
  }
  return { document: changedPaths ? { ...document, paths: changedPaths } : document, warnings };
}

interface PathParameter {
  name: string;
  /** The entry of the parameter list (a `$ref` or the parameter itself). */
  entry: unknown;
}

/** The `in: path` parameters of a parameter list (through `$ref`s into the document, which `resolve` follows). */
function pathParameters(resolve: (ref: string) => unknown, parameters: unknown): PathParameter[] {
  if (!Array.isArray(parameters)) return [];
  const found: PathParameter[] = [];
  for (const entry of parameters) {
    let parameter = entry;
    for (let hops = 0; isObject(parameter) && typeof parameter.$ref === "string" && parameter.$ref.startsWith("#") && hops < 16; hops++) {
      parameter = resolve(parameter.$ref);
    }
    if (isObject(parameter) && parameter.in === "path" && typeof parameter.name === "string") found.push({ name: parameter.name, entry });
  }
  return found;
}

function withoutEntries(parameters: unknown, drop: PathParameter[]): unknown[] {
  const entries = new Set(drop.map((p) => p.entry));
  return (Array.isArray(parameters) ? parameters : []).filter((entry) => !entries.has(entry));
}
