import yaml from "js-yaml";
import { UserError, formatPosition } from "../errors.js";

/**
 * Parses the text of a spec file. JSON goes through `JSON.parse` (several times faster than a YAML parser on the
 * multi-megabyte specs people have); anything else is YAML 1.2 with the core schema, so `2024-01-01` stays a
 * string and `yes` stays a string, as in JSON. Errors name `file:line:column`.
 */
export function parseSpecText(text: string, displayPath: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (looksLikeJson(displayPath, body)) {
    try {
      return JSON.parse(body);
    } catch (error) {
      const offset = jsonErrorOffset(error, body);
      const { line, column } = lineColumn(body, offset);
      throw new UserError(`invalid JSON: ${cleanJsonMessage(error)}`, {
        location: formatPosition(displayPath, line, column),
      });
    }
  }
  try {
    return yaml.load(body, { schema: yaml.CORE_SCHEMA, json: true, filename: displayPath });
  } catch (error) {
    if (error instanceof yaml.YAMLException) {
      const mark = error.mark;
      const location = mark ? formatPosition(displayPath, mark.line + 1, mark.column + 1) : displayPath;
      throw new UserError(`invalid YAML: ${error.reason}`, { location });
    }
    throw error;
  }
}

function looksLikeJson(path: string, text: string): boolean {
  if (/\.json$/i.test(path)) return true;
  if (/\.ya?ml$/i.test(path)) return false;
  const first = text.trimStart()[0];
  return first === "{" || first === "[";
}

/** V8 reports `... at position N` (and, from Node 22, `(line L column C)`); end of input has no position. */
function jsonErrorOffset(error: unknown, text: string): number {
  const message = error instanceof Error ? error.message : "";
  const match = /at position (\d+)/.exec(message);
  if (match) return Number(match[1]);
  return text.length;
}

function cleanJsonMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*in JSON at position \d+.*$/s, "").replace(/^JSON\.parse: /, "");
}

/** 1-based line and column of a UTF-16 offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** A `$ref` whose value YAML read as null, with where it is written and the comment that swallowed its value. */
export interface NullRefLine {
  /** JSON pointer segments of the `$ref` keyword. */
  pointer: string[];
  line: number;
  column: number;
  /** The text YAML read as a comment (`#/components/schemas/Pet`), when the line has one. */
  comment?: string;
}

const NULL_REF_LINE = /^(\s*(?:-\s+)*)(?:(["'])\$ref\2|\$ref)\s*:(?:\s+(#.*?))?\s*$/;

/**
 * The null `$ref`s of a YAML text with their lines. The n-th `$ref:` line without a value (or with only a comment)
 * is the n-th null `$ref` in document order; when the counts differ (anchors, flow style) nothing is returned rather
 * than a wrong line.
 */
export function nullRefLines(text: string): NullRefLine[] {
  let document: unknown;
  try {
    document = yaml.load(text, { schema: yaml.CORE_SCHEMA, json: true });
  } catch {
    return [];
  }
  const pointers: string[][] = [];
  const walk = (node: unknown, pointer: string[]) => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, [...pointer, String(i)]));
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && value === null) pointers.push([...pointer, key]);
      else walk(value, [...pointer, key]);
    }
  };
  walk(document, []);
  const lines = text.split(/\r?\n/);
  const found: Omit<NullRefLine, "pointer">[] = [];
  lines.forEach((content, index) => {
    const match = NULL_REF_LINE.exec(content);
    if (!match) return;
    const indent = match[1]!.length;
    if (match[3] === undefined) {
      // `$ref:` followed by a more indented block has a value after all.
      const next = lines.slice(index + 1).find((l) => l.trim() !== "" && !l.trim().startsWith("#"));
      if (next !== undefined && next.length - next.trimStart().length > indent) return;
    }
    found.push({ line: index + 1, column: indent + 1, comment: match[3] });
  });
  if (found.length !== pointers.length) return [];
  return found.map((line, i) => ({ ...line, pointer: pointers[i]! }));
}
