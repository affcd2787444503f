import { formatPointer } from "../errors.js";
import { hasHtml, htmlToMarkdown } from "./html.js";
import { MAX_NESTING, tooDeep } from "./parse.js";

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
const DATA_KEYS = new Set(["example", "examples", "default", "enum", "const", "value", "mapping", "scopes"]);

/**
 * The bundled document with every `description` written in HTML turned into Markdown (see html.ts), once, so every
 * consumer — openapi-typescript's JSDoc and specforge's own — shows the same text. Data (examples, defaults, enums,
 * `x-` extensions) is left alone, and nodes are copied only where a description changed.
 *
 * The same walk refuses a bundled document nested deeper than MAX_NESTING (each file was checked when it was parsed;
 * inlining `$ref`s of other files can stack them).
 */
export function markdownDescriptions(document: JsonObject, entryShown: string): JsonObject {
  const done = new Map<object, { value: object; height: number }>();
  const path: string[] = [];

  const visit = (node: object, depth: number, namesMap: boolean): { value: object; height: number } => {
    const known = done.get(node);
    if (known) {
      if (depth + known.height > MAX_NESTING) throw tooDeep(formatPointer(entryShown, path));
      return known;
    }
    if (depth > MAX_NESTING) throw tooDeep(formatPointer(entryShown, path));
    let copy: object | undefined;
    let height = 0;
    const child = (key: string, value: unknown, childIsNames: boolean) => {
      if (value === null || typeof value !== "object") return value;
      path.push(key);
      const result = visit(value, depth + 1, childIsNames);
      path.pop();
      if (result.height + 1 > height) height = result.height + 1;
      return result.value;
    };
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const next = child(String(i), node[i], false);
        if (next !== node[i]) ((copy ??= [...node]) as unknown[])[i] = next;
      }
    } else {
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
        } else if (key === "description" && typeof value === "string") {
          if (hasHtml(value)) next = htmlToMarkdown(value);
        } else {
          next = child(key, value, NAME_MAPS.has(key) && !Array.isArray(value));
        }
        if (next !== value) ((copy ??= { ...obj }) as JsonObject)[key] = next;
      }
    }
    const result = { value: copy ?? node, height };
    done.set(node, result);
    return result;
  };
  return visit(document, 0, false).value as JsonObject;
}
