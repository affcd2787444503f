/**
 * Facts of the OpenAPI format that the loader, the IR and the emitters all rely on, each written down once: the
 * methods of a Path Item, parameter locations and their serialisation defaults, and which keywords hold data or
 * maps of schemas.
 */

/** The fields of a Path Item that hold an Operation in OpenAPI 3.0 and 3.1, in the order the spec lists them. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Every Path Item field that may hold an Operation, OpenAPI 3.2's `query` included (bundled like the others). */
export const PATH_ITEM_METHODS: readonly string[] = [...HTTP_METHODS, "query"];

export const PARAMETER_LOCATIONS = ["path", "query", "header", "cookie"] as const;
export type ParameterLocation = (typeof PARAMETER_LOCATIONS)[number];

/** A parameter's `style` when it does not say: `form` for query and cookie, `simple` for path and header. */
export function defaultStyle(location: ParameterLocation): "form" | "simple" {
  return location === "query" || location === "cookie" ? "form" : "simple";
}

/** A parameter's `explode` when it does not say: true for `form`, false for every other style. */
export function defaultExplode(style: string): boolean {
  return style === "form";
}

/** Schema keywords whose value is data (an instance), never a schema: a `$ref` or `pattern` key inside means nothing. */
export const DATA_KEYWORDS: ReadonlySet<string> = new Set(["example", "examples", "default", "enum", "const"]);

/** Schema keywords whose value maps arbitrary names (maybe "example", maybe "$ref") to schemas. */
export const SCHEMA_MAPS: readonly string[] = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
