import { formatPointer } from "../errors.js";
import { hasHtml, htmlToMarkdown } from "./html.js";
import { MAX_NESTING, tooDeep } from "./parse.js";
import { DATA_KEYWORDS, NAME_MAPS } from "../openapi/vocabulary.js";
import type { SchemaScanner } from "./discriminators.js";

type JsonObject = Record<string, unknown>;

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
 *
 * With a `scanner`, the walk also finds what the discriminator corrections look for in the document it returns
 * (discriminators.ts SchemaScanner): one walk instead of two.
 */
export function markdownDescriptions(document: JsonObject, entryShown: string, scanner?: SchemaScanner): JsonObject {
  const path: (string | number)[] = [];
  // One function per level, not a closure per node: the walk visits every node of a big spec. A node is walked for
  // its descriptions (`described`), for the scanner (`scanned`, by scanSchemas' rules), or both; neither flag comes
  // back once a node is outside it.
  // `scanNames` is the scanner's own reading of whether a node is a map of names (it walks where descriptions do not).
  const child = (key: string | number, value: unknown, depth: number, namesMap: boolean, described: boolean, scanned: boolean, scanNames: boolean): unknown => {
    if (value === null || typeof value !== "object" || !(described || scanned)) return value;
    path.push(key);
    const result = visit(value, depth + 1, namesMap, described, scanned, scanNames);
    path.pop();
    return result;
  };
  const visit = (node: object, depth: number, namesMap: boolean, described: boolean, scanned: boolean, scanNames: boolean): object => {
    if (described && depth > MAX_NESTING) throw tooDeep(formatPointer(entryShown, path));
    let copy: object | undefined;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const next = child(i, node[i], depth, false, described, scanned, false);
        if (next !== node[i]) ((copy ??= [...node]) as unknown[])[i] = next;
      }
      return copy ?? node;
    }
    const obj = node as JsonObject;
    const entered = scanned ? scanner!.enter(obj, path) : undefined;
    for (const key in obj) {
      const value = obj[key];
      let next = value;
      let describedChild = false;
      let childIsNames = false;
      if (!described) {
        // A node only the scanner walks (data to the descriptions' walk, such as a non-map `value`).
      } else if (namesMap) {
        // `callbacks: {name: {expression: pathItem}}`: a callback is itself a map of names.
        describedChild = true;
        childIsNames = path[path.length - 1] === "callbacks";
      } else if (key.startsWith("x-") || DATA_KEYS.has(key)) {
        // Data, except `examples` as a map of Example Objects (their `value` is skipped in turn).
        if (key === "examples" && value !== null && typeof value === "object" && !Array.isArray(value)) describedChild = childIsNames = true;
      } else if (key === "description") {
        if (typeof value === "string" && hasHtml(value)) next = htmlToMarkdown(value);
      } else if (value !== null && typeof value === "object") {
        describedChild = true;
        childIsNames = NAME_MAPS.has(key) && !Array.isArray(value);
      }
      const scannedChild = scanned && scanner!.looksInto(key, scanNames);
      if ((describedChild || scannedChild) && value !== null && typeof value === "object") {
        next = child(key, value, depth, childIsNames, describedChild, scannedChild, scannedChild && scanner!.namesAt(key, value, scanNames));
      }
      if (next !== value) ((copy ??= { ...obj }) as JsonObject)[key] = next;
    }
    scanner?.exit(entered, (copy ?? obj) as JsonObject);
    return copy ?? node;
  };
  const described = visit(document, 0, false, true, scanner !== undefined, false) as JsonObject;
  scanner?.finish(described);
  return described;
}
