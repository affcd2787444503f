/**
 * Facts of the OpenAPI format that the loader, the IR and the emitters all rely on, each written down once: the
 * methods of a Path Item, parameter locations and their serialisation defaults, and which keywords hold data or
 * maps of schemas.
 */

/**
 * The fields of a Path Item that hold an Operation, in the order the specification lists them: `get` … `trace`
 * (OpenAPI 3.0 and 3.1) and `query` (3.2). Any other method is an `additionalOperations` key (load/operations.ts).
 */
export const PATH_ITEM_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"] as const;

/** The Path Item methods of OpenAPI 3.0 and 3.1: all openapi-typescript types, and all a webhook may use. */
export const OAS31_METHODS: ReadonlySet<string> = new Set(PATH_ITEM_METHODS.filter((method) => method !== "query"));

/**
 * An operation's method as its path item names it: a fixed field (`get`, `query`) or an `additionalOperations` key
 * as written (`COPY`). The IR's `Operation.wireMethod` is what is sent.
 */
export type HttpMethod = string;

/** Where a parameter is (`in`). `querystring` (OpenAPI 3.2): the whole query string is one value, described by a media type. */
export const PARAMETER_LOCATIONS = ["path", "query", "querystring", "header", "cookie"] as const;
export type ParameterLocation = (typeof PARAMETER_LOCATIONS)[number];

/** The locations whose parameters are serialised by `style` and `explode` (a querystring parameter is by its media type). */
export const STYLED_PARAMETER_LOCATIONS = ["path", "query", "header", "cookie"] as const;

/** A parameter's `style` when it does not say: `form` for query and cookie (and querystring), `simple` for path and header. */
export function defaultStyle(location: ParameterLocation): "form" | "simple" {
  return location === "query" || location === "cookie" || location === "querystring" ? "form" : "simple";
}

/** A parameter's `explode` when it does not say: true for `form` and (OpenAPI 3.2) `cookie`, false for every other style. */
export function defaultExplode(style: string): boolean {
  return style === "form" || style === "cookie";
}

/** Schema keywords whose value is data (an instance), never a schema: a `$ref` or `pattern` key inside means nothing. */
export const DATA_KEYWORDS: ReadonlySet<string> = new Set(["example", "examples", "default", "enum", "const"]);

/** Schema keywords whose value is one schema (JSON Schema 2020-12 §10; `items` and draft 4's `additionalItems` may be either). */
export const SCHEMA_SINGLES: readonly string[] = [
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

/** Schema keywords whose value is a list of schemas (`items` as draft 4 wrote tuples). */
export const SCHEMA_LISTS: readonly string[] = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/** Schema keywords whose value maps arbitrary names (maybe "example", maybe "$ref") to schemas. */
export const SCHEMA_MAPS: readonly string[] = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/**
 * Keys whose object value maps names to objects (properties, responses, content…): its keys are names, whatever they
 * spell (`default`, `$id`, `example`), not keywords. Every walk that skips data keywords reads a map's entries by it.
 */
export const NAME_MAPS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "paths",
  "webhooks",
  "schemas",
  "responses",
  "parameters",
  "examples",
  "requestBodies",
  "headers",
  "securitySchemes",
  "links",
  "callbacks",
  "pathItems",
  "content",
  "encoding",
  "variables",
]);
