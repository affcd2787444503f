import type { OptionalKind, PropertySignatureStructure } from "ts-morph";
import type { ParamsLayout, ResourceRow } from "../../templates/client/resources.js";
import type { ApiModel, Operation } from "../ir/model.js";
import { propertyKey, toIdentifier } from "../ir/naming.js";
import type { ResourceNaming } from "../ir/resources.js";
import { derefIn, type Deref } from "../load/sequential.js";
import type { FileTemplateSource } from "../package/templates.js";
import { operationDocs } from "./client.js";
import type { EmittedFile } from "./file.js";
import { commentText } from "./literal.js";
import { LongTexts } from "./long-text.js";
import { FileTemplate, namedImports, typeText } from "./template.js";

type Member = OptionalKind<PropertySignatureStructure>;

/**
 * `resources.ts`: the resource-style client (`client.files.retrieve(fileId)`), from templates/files/resources.ts.
 * Its `createClient` nests the flat client's operations (client.ts) as `naming` places them; this fills the table of
 * methods and the `Client` interface, whose resources are nested object types and whose methods keep the
 * operations' documentation.
 */
export function emitResources(model: ApiModel, naming: ResourceNaming, source: FileTemplateSource): EmittedFile[] {
  const template = new FileTemplate(source);
  const byName = new Map(model.operations.map((op) => [op.name, op]));
  const deref = derefIn(model.document);
  const rows: ResourceRow[] = [];
  const root: ResourceNode = { members: new Map() };
  const used = new Set<string>();
  const texts = new LongTexts();
  for (const placed of naming.methods) {
    const op = byName.get(placed.operation)!;
    const shape = callShape(op, deref);
    const type = methodType(op, shape);
    used.add(type.slice(0, type.indexOf("<")));
    const current = [...placed.resource, placed.method].join(".");
    const docs = operationDocs(op, model.tags, texts, `\`${current}\``);
    const pathNames = shape.path.map((param) => param.name);
    for (const [resource, method] of [[placed.resource, placed.method] as const, ...placed.aliases.map((alias) => [alias.resource, alias.method] as const)]) {
      const name = [...resource, method].join(".");
      const node = resourceAt(root, resource);
      // (An earlier name where a method of another operation is: left out, the method stays.)
      if (node === undefined || node.members.has(method)) continue;
      rows.push(pathNames.length > 0 ? [name, op.name, shape.layout, pathNames] : [name, op.name, shape.layout]);
      // An earlier name is deprecated whether or not the operation is.
      const aliasDocs = [...docs.filter((line) => line !== "@deprecated"), `@deprecated The spec records this as the operation's earlier name: use \`${commentText(current)}\`.`];
      node.members.set(method, { type, docs: (name === current ? docs : aliasDocs).join("\n\n") });
    }
  }

  const types = template.structure("import ./runtime/client/resources.js", "import");
  types.namedImports = namedImports(types).filter((specifier) => !specifier.name.endsWith("ResourceMethod") || used.has(specifier.name));
  template.fillData("resources", rows);
  const client = template.structure("Client", "interface");
  client.docs = [
    `The resource-style client of ${commentText(model.title)} ${commentText(model.version)}: the operations grouped into nested resources, each method returning an \`ApiPromise\`.`,
  ];
  client.properties = [...root.members].map(([name, member]): Member => ("type" in member ? { name: propertyKey(name), type: member.type, docs: [member.docs] } : { name: propertyKey(name), type: literalType(member) }));
  // A required client option (the spec declares no server: `baseUrl`) makes `options` required, as in client.ts.
  if (model.servers.length === 0) template.structure("createClient", "function").parameters![0]!.initializer = undefined;
  else template.keep("createClient");
  return template.printModule("resource-style client: createClient() with the operations as methods of nested resources");
}

/** A resource of the tree: its sub-resources and methods by name, in the order the operations first name them. */
interface ResourceNode {
  members: Map<string, ResourceNode | { type: string; docs: string }>;
}

/** The resource at `path`, made where missing; undefined where a method has the name of one of its resources. */
function resourceAt(root: ResourceNode, path: readonly string[]): ResourceNode | undefined {
  let node = root;
  for (const part of path) {
    let child = node.members.get(part);
    if (child === undefined) node.members.set(part, (child = { members: new Map() }));
    if ("type" in child) return undefined;
    node = child;
  }
  return node;
}

/** A resource as an object type, each method with its documentation. */
function literalType(node: ResourceNode): string {
  const members = [...node.members].map(([name, member]) =>
    "type" in member ? `/**\n${member.docs.split("\n").map((line) => ` *${line ? ` ${line}` : ""}`).join("\n")}\n */\n${propertyKey(name)}: ${member.type};` : `${propertyKey(name)}: ${literalType(member)};`,
  );
  return `{\n${members.join("\n")}\n}`;
}

/** How a method takes its arguments: its layout (see `ParamsLayout`) and its path parameters in path order. */
export interface CallShape {
  layout: ParamsLayout;
  path: { name: string; label: string }[];
}

/**
 * The arguments of an operation's method: path parameters positionally, in the order of the path, each named by
 * its camelCased name; then nothing more (`0`) when the operation has no other parameter and no body, else one
 * object of every other parameter and the body's properties by name (`1`) when no two share a name and the body is
 * an object of named properties, else the flat client's `{ query, headers, cookies, body }` (`2`).
 */
export function callShape(op: Operation, deref: Deref): CallShape {
  const order = [...op.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name!);
  const declared = op.parameters.filter((param) => param.in === "path");
  const labels = new Set<string>();
  const path = declared
    .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name))
    .map((param) => {
      let label = toIdentifier(param.name, "param");
      for (let i = 2; labels.has(label); i++) label = `${toIdentifier(param.name, "param")}_${i}`;
      labels.add(label);
      return { name: param.name, label };
    });
  const rest = op.parameters.filter((param) => param.in !== "path");
  if (rest.length === 0 && !op.requestBody) return { layout: 0, path };
  if (rest.some((param) => param.in === "querystring")) return { layout: 2, path };
  const names = rest.map((param) => param.name);
  if (op.requestBody) {
    const properties = bodyProperties(op, deref);
    if (properties === undefined) return { layout: 2, path };
    names.push(...properties);
  }
  return { layout: new Set(names).size === names.length ? 1 : 2, path };
}

/**
 * The property names of the body the client sends, when it is an object of named properties (a JSON, form or
 * multipart object, or a union or intersection of such); undefined for anything else (an array, a scalar, bytes).
 */
function bodyProperties(op: Operation, deref: Deref): string[] | undefined {
  const media = op.requestBody!.content.find((m) => m.type === op.requestBody!.preferred);
  const type = media?.type.split(";")[0]!.trim().toLowerCase() ?? "";
  if (!/^application\/(.+\+)?json$|^application\/x-www-form-urlencoded$|^multipart\//.test(type)) return undefined;
  const names = new Set<string>();
  const visit = (node: unknown, depth: number): boolean => {
    const schema = deref(node);
    if (depth > 8 || schema === null || typeof schema !== "object" || Array.isArray(schema)) return false;
    const object = schema as Record<string, unknown>;
    const kinds = object.type === undefined ? [] : [object.type].flat();
    if (kinds.some((kind) => kind !== "object" && kind !== "null")) return false;
    let named = false;
    if (object.properties && typeof object.properties === "object") {
      for (const key of Object.keys(object.properties)) names.add(key);
      named = true;
    }
    for (const key of ["allOf", "oneOf", "anyOf"]) {
      const list = object[key];
      if (!Array.isArray(list)) continue;
      // Every branch of a union must be an object; an intersection may add a branch without properties.
      const results = list.map((branch) => visit(branch, depth + 1));
      if (key !== "allOf" && results.some((ok) => !ok)) return false;
      named ||= results.some(Boolean);
    }
    return named || kinds.includes("object");
  };
  return visit(media?.schema, 0) ? [...names] : undefined;
}

/** The method's type: `ResourceMethod<paths[path][method], [label: "name", …], layout>` or its paginated or streaming form. */
function methodType(op: Operation, shape: CallShape): string {
  const typeRef = typeText.indexed("paths", op.path, op.method);
  const path = `[${shape.path.map((param) => `${param.label}: ${typeText.string(param.name)}`).join(", ")}]`;
  const media = op.requestBody ? op.requestBody.preferred : "application/json";
  const mediaArg = media === "application/json" ? [] : [typeText.string(media)];
  const layout = String(shape.layout);
  if (op.stream?.when) {
    return typeText.reference("StreamingResourceMethod", [typeRef, path, layout, typeText.string(media), typeText.string(op.stream.mediaType), typeText.string(op.stream.when.name)]);
  }
  if (op.pagination) return typeText.reference("PaginatedResourceMethod", [typeRef, path, layout, typeText.string(op.pagination.items), ...mediaArg]);
  return typeText.reference("ResourceMethod", [typeRef, path, layout, ...mediaArg]);
}
