import { formatPointer } from "../errors.js";
import { hasHtml, htmlToMarkdown } from "./html.js";
import { MAX_NESTING, tooDeep } from "./parse.js";
import { DATA_KEYWORDS } from "../openapi/vocabulary.js";

type JsonObject = Record<string, unknown>;

/** Keys whose object value maps names to objects (properties, responses, content…): its keys are names, not keywords. */
const NAME_MAPS = new Set([
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

/** Keywords whose value is data (an example, a default, allowed values): never rewritten. */
const DATA_KEYS = new Set([...DATA_KEYWORDS, "value", "mapping", "scopes"]);

/**
 * The bundled document with every `description` written in HTML turned into Markdown (see html.ts), once, so every
 * consumer — openapi-typescript's JSDoc and specforge's own — shows the same text. Data (examples, defaults, enums,
 * `x-` extensions) is left alone, and nodes are copied only where a description changed.
 *
 * The same walk refuses a bundled document nested deeper than MAX_NESTING (each file was checked when it was parsed;
 * inlining `$ref`s of other files can stack them). A node shared by two places (a YAML alias, a file inlined twice)
 * is walked at each; the parser's alias limit bounds that.
 */
export function markdownDescriptions(document: JsonObject, entryShown: string): JsonObject {
  const path: string[] = [];
  const visit = (node: object, depth: number, namesMap: boolean): object => {
    if (depth > MAX_NESTING) throw tooDeep(formatPointer(entryShown, path));
    let copy: object | undefined;
    const child = (key: string, value: unknown, childIsNames: boolean): unknown => {
      if (value === null || typeof value !== "object") return value;
      path.push(key);
      const result = visit(value, depth + 1, childIsNames);
      path.pop();
      return result;
    };
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const next = child(String(i), node[i], false);
        if (next !== node[i]) ((copy ??= [...node]) as unknown[])[i] = next;
      }
      return copy ?? node;
    }
    const obj = node as JsonObject;
    for (const key in obj) {
      const value = obj[key];
      let next = value;
      if (namesMap) {
        // `callbacks: {name: {expression: pathItem}}`: a callback is itself a map of names.
        next = child(key, value, path[path.length - 1] === "callbacks");
      } else if (key.startsWith("x-") || DATA_KEYS.has(key)) {
        // Data, except `examples` as a map of Example Objects (their `value` is skipped in turn).
        if (key === "examples" && value !== null && typeof value === "object" && !Array.isArray(value)) next = child(key, value, true);
      } else if (key === "description") {
        if (typeof value === "string" && hasHtml(value)) next = htmlToMarkdown(value);
      } else if (value !== null && typeof value === "object") {
        next = child(key, value, NAME_MAPS.has(key) && !Array.isArray(value));
      }
      if (next !== value) ((copy ??= { ...obj }) as JsonObject)[key] = next;
    }
    return copy ?? node;
  };
  return visit(document, 0, false) as JsonObject;
}
