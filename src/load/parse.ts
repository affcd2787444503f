import yaml from "js-yaml";
import { UserError, formatPointer, formatPosition, type SpecWarning } from "../errors.js";
import { invalidJson } from "./json-error.js";

/**
 * Objects and arrays may nest this deep in a spec file (and in the bundled document). Real specs nest under 30
 * levels (Stripe's deepest is 24); every layer after the parser (bundling, openapi-typescript, the printers, tsc on
 * the output) recurses per level, so a deeper document is refused with its location instead of overflowing a stack.
 */
export const MAX_NESTING = 256;

/**
 * How many values YAML aliases may add to a file once expanded. An alias is cheap to write and to parse (the parser
 * shares the anchored node), but everything after the parser walks the expanded tree: nine levels of nine aliases
 * (824 bytes) are 387 million values. Real specs use a few aliases of small nodes.
 */
export const MAX_ALIAS_EXPANSION = 1_000_000;

/**
 * Parses the text of a spec file. JSON goes through `JSON.parse` (several times faster than a YAML parser on the
 * multi-megabyte specs people have); anything else is YAML 1.2 with the core schema, so `2024-01-01` stays a
 * string and `yes` stays a string, as in JSON. Errors name `file:line:column`.
 */
export function parseSpecText(text: string, displayPath: string): unknown {
  return parseSpec(text, displayPath).document;
}

/** A parsed spec file and the keywords its objects use (see ParsedSpec.keywords). */
export interface ParsedSpec {
  document: unknown;
  /**
   * Every key of the file's objects that starts with `$` (`$ref`, `$id`, `$anchor`, `$defs`…), and `discriminator`
   * and `allOf` where they occur: the later passes that look for one of these skip a document that has none. Read
   * during the walk that checks the file's depth, which sees every key anyway.
   */
  keywords: Set<string>;
  /** Problems that did not stop parsing: a key repeated in a YAML mapping (the last value is used). */
  warnings: SpecWarning[];
}

/** parseSpecText, with the keywords the file uses. */
export function parseSpec(text: string, displayPath: string): ParsedSpec {
  const keywords = new Set<string>();
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (looksLikeJson(displayPath, body)) {
    let document: unknown;
    try {
      document = JSON.parse(body);
    } catch (error) {
      throw invalidJson(error, body, displayPath, "invalid JSON");
    }
    checkShape(document, displayPath, false, keywords);
    return { document, keywords, warnings: [] };
  }
  let document: unknown;
  const warnings: SpecWarning[] = [];
  try {
    document = loadYaml(body, displayPath, warnings);
  } catch (error) {
    if (error instanceof yaml.YAMLException) {
      const mark = error.mark;
      const location = mark ? formatPosition(displayPath, mark.line + 1, mark.column + 1) : displayPath;
      throw new UserError(`invalid YAML: ${error.reason}`, { location });
    }
    // js-yaml recurses once per level: thousands of levels overflow its stack before any check of ours can run.
    if (error instanceof RangeError) throw tooDeep(deepestYamlLine(body, displayPath));
    throw error;
  }
  checkShape(document, displayPath, ANCHOR.test(body), keywords);
  return { document, keywords, warnings };
}

/**
 * YAML text as a value. A key repeated in a mapping is an error in YAML 1.2, and js-yaml's `json` mode takes the last
 * value silently, as JSON.parse does: so the text is first parsed strictly, and when it has a repeated key, that is a
 * warning at the key's line and column (the first one; a file with several shows the next once it is fixed) and the
 * text is parsed again taking the last value.
 */
function loadYaml(body: string, displayPath: string, warnings: SpecWarning[]): unknown {
  try {
    return yaml.load(body, { schema: yaml.CORE_SCHEMA, filename: displayPath });
  } catch (error) {
    if (!(error instanceof yaml.YAMLException) || error.reason !== "duplicated mapping key") throw error;
    const mark = error.mark;
    const line = mark ? body.split(/\r?\n/, mark.line + 1)[mark.line] : undefined;
    const key = line?.slice(mark!.column).split(":")[0]!.trim();
    warnings.push({
      message: `${key ? `the key ${JSON.stringify(key)}` : "a key"} is repeated in its mapping: the later value is used and the earlier one is lost`,
      location: mark ? formatPosition(displayPath, mark.line + 1, mark.column + 1) : displayPath,
      hint: "remove or rename one of the two (YAML mappings have unique keys)",
    });
    return yaml.load(body, { schema: yaml.CORE_SCHEMA, json: true, filename: displayPath });
  }
}

/** An anchor (`&name`) at the start of a node: only then can a YAML text contain aliases. */
const ANCHOR = /(?:^|[\s[{,])&[^\s[\]{},]/m;

/**
 * Refuses a parsed file nested deeper than MAX_NESTING, or whose aliases expand to more than MAX_ALIAS_EXPANSION
 * values, naming the JSON pointer where the limit is crossed. The walk never goes deeper than the limit itself.
 */
function checkShape(document: unknown, displayPath: string, mayHaveAliases: boolean, keywords: Set<string>): void {
  if (document === null || typeof document !== "object") return;
  if (mayHaveAliases) checkAliases(document, displayPath, keywords);
  else checkDepth(document, displayPath, keywords);
}

/** Whether `key` is one ParsedSpec.keywords lists. */
function isKeyword(key: string): boolean {
  return key.charCodeAt(0) === 36 /* $ */ || key === "discriminator" || key === "allOf";
}

/**
 * The depth check alone, for text without aliases (every JSON file): a plain walk, ~20 ms on GitHub's 13 MB. The path
 * of the first node too deep is put together only on the way back from it (the keys in reverse).
 */
function checkDepth(document: object, displayPath: string, keywords: Set<string>): void {
  const visit = (node: object, depth: number): (string | number)[] | undefined => {
    if (depth > MAX_NESTING) return [];
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const value: unknown = node[i];
        if (value === null || typeof value !== "object") continue;
        const tooDeepBelow = visit(value, depth + 1);
        if (tooDeepBelow) {
          tooDeepBelow.push(i);
          return tooDeepBelow;
        }
      }
      return undefined;
    }
    for (const key in node) {
      if (isKeyword(key)) keywords.add(key);
      const value = (node as Record<string, unknown>)[key];
      if (value === null || typeof value !== "object") continue;
      const tooDeepBelow = visit(value, depth + 1);
      if (tooDeepBelow) {
        tooDeepBelow.push(key);
        return tooDeepBelow;
      }
    }
    return undefined;
  };
  const reversed = visit(document, 0);
  if (reversed) throw tooDeep(formatPointer(displayPath, reversed.reverse()));
}

/**
 * Depth and alias expansion together. The parser shares an anchored node between its aliases, so each distinct
 * node is measured once (its expanded size and height remembered): a bomb costs no more to detect than its size on
 * disk, and every second sight of a node (an alias) adds its whole expanded size to the count.
 */
function checkAliases(document: object, displayPath: string, keywords: Set<string>): void {
  const measured = new Map<object, { size: number; height: number }>();
  const path: string[] = [];
  let expansion = 0;
  const visit = (node: object, depth: number): { size: number; height: number } => {
    const known = measured.get(node);
    if (known) {
      expansion += known.size;
      if (expansion > MAX_ALIAS_EXPANSION) {
        throw new UserError(`YAML aliases expand to more than ${MAX_ALIAS_EXPANSION.toLocaleString("en-US")} values (an alias bomb?)`, {
          location: formatPointer(displayPath, path),
          hint: "write the repeated parts out, or $ref a shared definition instead of aliasing it",
        });
      }
      if (depth + known.height > MAX_NESTING) throw tooDeep(formatPointer(displayPath, path));
      return known;
    }
    if (depth > MAX_NESTING) throw tooDeep(formatPointer(displayPath, path));
    let size = 1;
    let height = 0;
    const child = (key: string, value: unknown) => {
      if (value === null || typeof value !== "object") {
        size++;
        return;
      }
      path.push(key);
      const inner = visit(value, depth + 1);
      path.pop();
      size += inner.size;
      if (inner.height + 1 > height) height = inner.height + 1;
    };
    if (Array.isArray(node)) for (let i = 0; i < node.length; i++) child(String(i), node[i]);
    else {
      for (const key in node) {
        if (isKeyword(key)) keywords.add(key);
        child(key, (node as Record<string, unknown>)[key]);
      }
    }
    const result = { size, height };
    measured.set(node, result);
    return result;
  };
  visit(document, 0);
}

export function tooDeep(location: string): UserError {
  return new UserError(`nested more than ${MAX_NESTING} levels deep (objects and arrays); specforge reads documents up to that depth`, {
    location,
    hint: "move nested schemas to components and $ref them",
  });
}

/** `file:line:1` of the first line nested past MAX_NESTING (by flow brackets or indentation), for js-yaml's overflow. */
function deepestYamlLine(text: string, displayPath: string): string {
  const lines = text.split(/\r?\n/);
  let flow = 0;
  let widest = { line: 1, indent: -1 };
  for (let i = 0; i < lines.length; i++) {
    const content = lines[i]!;
    const indent = content.length - content.trimStart().length;
    if (content.trim() !== "" && indent > widest.indent) widest = { line: i + 1, indent };
    for (const char of content) {
      if (char === "[" || char === "{") flow++;
      else if (char === "]" || char === "}") flow--;
      if (flow > MAX_NESTING) return formatPosition(displayPath, i + 1, 1);
    }
  }
  return formatPosition(displayPath, widest.line, widest.indent + 1);
}

export function looksLikeJson(path: string, text: string): boolean {
  if (/\.json$/i.test(path)) return true;
  if (/\.ya?ml$/i.test(path)) return false;
  const first = text.trimStart()[0];
  return first === "{" || first === "[";
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
