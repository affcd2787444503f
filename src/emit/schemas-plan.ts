import type { ApiModel, MediaType, Operation, Parameter } from "../ir/model.js";
import { NameRegistry, declarableName } from "../ir/naming.js";
import { escapePointerSegment, parsePointer, resolvePointer } from "../openapi/pointer.js";
import { DATA_KEYWORDS, NAME_MAPS } from "../openapi/vocabulary.js";

/**
 * What the `schemas` output holds, whichever library writes it: one schema per component schema of the spec, and per
 * operation the schemas of its parts (parameters by location, the body, the body of each response). Each schema is
 * its JSON as the spec writes it; a `$ref` names another schema of the plan (a component, or a schema elsewhere in the
 * document that a `$ref` points at), so that every schema can be shipped with exactly the schemas it reaches.
 */
export interface SchemasPlan {
  components: PlannedSchema[];
  /** Schemas outside `components.schemas` that `$ref`s point at (`#/components/parameters/P/schema`): not exported. */
  others: PlannedSchema[];
  operations: PlannedOperation[];
}

export interface PlannedSchema {
  /** The name of its constant (a component's export name). */
  name: string;
  /** The component's name as the spec writes it (`components.schemas` key); absent for the others. */
  component?: string;
  /** The JSON pointer `$ref`s name it by (`#/components/schemas/Pet`). */
  at: string;
  schema: unknown;
  /** The planned schemas its `$ref`s name, each once, in the order first named. */
  refs: PlannedSchema[];
  /** The patterns and `patternProperties` keys in it (not in what it `$ref`s), each once. */
  patterns: string[];
}

/** Which side of an exchange a part is: the router's request or response semantics (`readOnly` / `writeOnly`). */
export type PartUse = "request" | "response";

export interface PlannedPart {
  /** The JSON Schema of the part (parameters gathered into an object schema by name). */
  schema: unknown;
  use: PartUse;
  refs: PlannedSchema[];
  patterns: string[];
}

/** A part of an operation: parameters by location, the body in one media type, or one response's body. */
export interface PlannedParameters extends PlannedPart {
  kind: "path" | "query" | "headers" | "cookies";
}
export interface PlannedBody extends PlannedPart {
  kind: "body";
  /** The media type as the spec writes it. */
  media: string;
}
export interface PlannedResponse extends PlannedPart {
  kind: "response";
  /** `200`, `4XX`, `default`: as the spec writes it. */
  status: string;
  media: string;
}

export interface PlannedOperation {
  /** The operation's name (the client's method, the router's handler). */
  name: string;
  operation: Operation;
  parameters: PlannedParameters[];
  body?: PlannedBody;
  responses: PlannedResponse[];
}

/** The openapi-typescript name of each parameter location, and the part that holds its parameters. */
const PARAMETER_PARTS = [
  ["path", "path"],
  ["query", "query"],
  ["header", "headers"],
  ["cookie", "cookies"],
] as const;

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The plan of a spec's schemas. `reserved`: names the generated modules use for their own imports, which no schema
 * constant may take.
 */
export function planSchemas(model: ApiModel, reserved: readonly string[]): SchemasPlan {
  const document = model.document;
  const components = isObject(document.components) && isObject(document.components.schemas) ? document.components.schemas : {};
  const names = new NameRegistry(reserved);
  const byPointer = new Map<string, PlannedSchema>();
  const planned: PlannedSchema[] = [];
  const others: PlannedSchema[] = [];
  for (const [component, schema] of Object.entries(components)) {
    const name = names.claim(declarableName(component, "schema"));
    const entry: PlannedSchema = { name, component, at: pointerOf(["components", "schemas", component]), schema, refs: [], patterns: [] };
    byPointer.set(entry.at, entry);
    planned.push(entry);
  }
  /** The planned schema a `$ref` names: the component it points into, or the schema it points at elsewhere. */
  const target = (ref: string): PlannedSchema | undefined => {
    if (!ref.startsWith("#")) return undefined;
    const segments = parsePointer(ref.slice(1));
    if (segments[0] === "components" && segments[1] === "schemas" && segments.length >= 3) {
      return byPointer.get(pointerOf(segments.slice(0, 3)));
    }
    const at = pointerOf(segments);
    let other = byPointer.get(at);
    if (other === undefined) {
      const schema = resolvePointer(document, segments);
      if (schema === undefined) return undefined; // the engine reports an unresolvable `$ref` when it compiles
      other = { name: names.claim("ref"), at, schema, refs: [], patterns: [] };
      byPointer.set(at, other);
      others.push(other);
      resolveRefs(other);
    }
    return other;
  };
  const resolveRefs = (entry: { schema: unknown; refs: PlannedSchema[]; patterns: string[] }) => {
    const { refs, patterns } = scanSchema(entry.schema);
    entry.patterns = patterns;
    for (const ref of refs) {
      const found = target(ref);
      if (found && !entry.refs.includes(found)) entry.refs.push(found);
    }
  };
  for (const entry of planned) resolveRefs(entry);
  const part = <P extends PlannedPart>(fields: Omit<P, "refs" | "patterns">): P => {
    const entry = { ...fields, refs: [], patterns: [] } as unknown as P;
    resolveRefs(entry);
    return entry;
  };

  const operations = model.operations.map((operation): PlannedOperation => {
    const parameters: PlannedParameters[] = [];
    for (const [location, kind] of PARAMETER_PARTS) {
      const group = operation.parameters.filter((parameter) => parameter.in === location);
      if (group.length > 0) parameters.push(part<PlannedParameters>({ kind, schema: parametersSchema(group), use: "request" }));
    }
    const media = operation.requestBody && bodyMedia(operation.requestBody.content, operation.requestBody.preferred);
    const body = media && part<PlannedBody>({ kind: "body", media: media.type, schema: media.schema, use: "request" });
    const responses = operation.responses.flatMap((response): PlannedResponse[] => {
      const json = jsonMedia(response.content);
      return json ? [part<PlannedResponse>({ kind: "response", status: response.status, media: json.type, schema: json.schema, use: "response" })] : [];
    });
    return { name: operation.name, operation, parameters, ...(body ? { body } : {}), responses };
  });
  return { components: planned, others, operations };
}

/** `#/a/b`, each segment escaped as a `$ref` writes it (`~0`, `~1`, and `%25`: pointers are percent-decoded). */
function pointerOf(segments: readonly string[]): string {
  return `#${segments.map((segment) => `/${escapePointerSegment(segment).replace(/%/g, "%25")}`).join("")}`;
}

/** The object schema of one location's parameters: each by its name, the required ones required. */
function parametersSchema(parameters: readonly Parameter[]): unknown {
  const properties: Obj = {};
  for (const parameter of parameters) Object.defineProperty(properties, parameter.name, { value: parameter.schema, enumerable: true, writable: true, configurable: true });
  const required = parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name);
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
}

/** `application/json` and `…+json` (parameters after `;` aside). */
function isJson(type: string): boolean {
  const essence = type.split(";", 1)[0]!.trim().toLowerCase();
  return essence === "application/json" || essence.endsWith("+json");
}

function jsonMedia(content: readonly MediaType[]): MediaType | undefined {
  const withSchema = content.filter((media) => media.schema !== undefined && isJson(media.type) && !media.sequence);
  return withSchema.find((media) => media.type.toLowerCase() === "application/json") ?? withSchema[0];
}

/**
 * The body a caller validates: the JSON one, else a form's (an object, as the client takes it) or a text one (a
 * string). Not multipart or binary bodies, whose values are files.
 */
function bodyMedia(content: readonly MediaType[], preferred: string): MediaType | undefined {
  const json = jsonMedia(content);
  if (json) return json;
  const media = content.find((candidate) => candidate.type === preferred);
  if (media?.schema === undefined) return undefined;
  const essence = media.type.split(";", 1)[0]!.trim().toLowerCase();
  return essence === "application/x-www-form-urlencoded" || essence.startsWith("text/") ? media : undefined;
}

/**
 * The `$ref`s a schema makes (and its discriminators' mappings, as `$ref`s: a bare name is a component schema's),
 * and its patterns (`pattern` values, `patternProperties` keys), each once. Data keywords (`enum`, `example`, …)
 * hold values, not schemas; the entries of a map of names (`properties`, …) are schemas whatever their names.
 */
export function scanSchema(schema: unknown): { refs: string[]; patterns: string[] } {
  const refs = new Set<string>();
  const patterns = new Set<string>();
  const visit = (node: unknown, names: boolean): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, false);
      return;
    }
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (names) {
        visit(value, false);
        continue;
      }
      if (key === "$ref") {
        if (typeof value === "string") refs.add(value);
      } else if (key === "pattern") {
        if (typeof value === "string") patterns.add(value);
      } else if (key === "discriminator") {
        if (!isObject(value)) continue;
        const targets = [...Object.values(isObject(value.mapping) ? value.mapping : {}), value.defaultMapping];
        for (const mapped of targets) if (typeof mapped === "string") refs.add(mapped.startsWith("#") ? mapped : `#/components/schemas/${mapped}`);
      } else if (!DATA_KEYWORDS.has(key)) {
        if (key === "patternProperties" && isObject(value)) for (const source of Object.keys(value)) patterns.add(source);
        visit(value, NAME_MAPS.has(key));
      }
    }
  };
  visit(schema, false);
  return { refs: [...refs], patterns: [...patterns] };
}
