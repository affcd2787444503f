/**
 * Which line of a spec file a JSON pointer is on, for CI annotations. One pass over the text for all the pointers
 * asked about; a pointer that is not in the file (a schema the loader hoisted from another file, a node inside a
 * flow-style `{…}`) gets the line of its nearest ancestor that is. JSON is scanned exactly; YAML by its block
 * structure (indentation, `- ` items, `key:` lines), which is how OpenAPI documents are written.
 */
import { escapePointerSegment, toJsonPointer } from "../openapi/pointer.js";
import { parsePointer } from "./document.js";

export function locatePointers(text: string, pointers: readonly string[], json: boolean): Map<string, number> {
  const wanted = new Set<string>([""]);
  for (const pointer of pointers) {
    const segments = parsePointer(pointer);
    for (let i = 1; i <= segments.length; i++) wanted.add(toJsonPointer(segments.slice(0, i)));
  }
  const found = json ? scanJson(text, wanted) : scanYaml(text, wanted);
  const result = new Map<string, number>();
  for (const pointer of pointers) {
    const segments = parsePointer(pointer);
    for (let i = segments.length; i >= 0; i--) {
      const line = found.get(toJsonPointer(segments.slice(0, i)));
      if (line !== undefined) {
        result.set(pointer, line);
        break;
      }
    }
  }
  return result;
}


/** Lines of the keys (and array items) on the way to the wanted pointers; everything else is skipped. */
function scanJson(text: string, wanted: Set<string>): Map<string, number> {
  const lines = new Map<string, number>([["", 1]]);
  let i = 0;
  let line = 1;
  const n = text.length;
  const space = () => {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) line++;
      else if (c !== 32 && c !== 9 && c !== 13) break;
    }
  };
  const string = (): string => {
    const start = i;
    for (i++; i < n && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    i++;
    const raw = text.slice(start, i);
    return raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  };
  const skip = () => {
    let depth = 0;
    for (; i < n; i++) {
      const c = text[i];
      if (c === '"') {
        string();
        i--;
      } else if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        if (depth === 0) return;
        depth--;
        if (depth === 0) {
          i++;
          return;
        }
      } else if (c === "\n") line++;
      else if (depth === 0 && (c === "," || c === " " || c === "\r" || c === "\t")) return;
    }
  };
  const value = (pointer: string): void => {
    space();
    const c = text[i];
    if (c === "{") {
      i++;
      for (;;) {
        space();
        if (text[i] === "}") {
          i++;
          return;
        }
        if (text[i] !== '"') return; // not JSON after all
        const keyLine = line;
        const child = `${pointer}/${escapePointerSegment(string())}`;
        space();
        i++; // ':'
        if (wanted.has(child)) {
          lines.set(child, keyLine);
          value(child);
        } else {
          space();
          skip();
        }
        space();
        if (text[i] === ",") i++;
      }
    }
    if (c === "[") {
      i++;
      for (let index = 0; ; index++) {
        space();
        if (text[i] === "]") {
          i++;
          return;
        }
        const child = `${pointer}/${index}`;
        if (wanted.has(child)) {
          lines.set(child, line);
          value(child);
        } else skip();
        space();
        if (text[i] === ",") i++;
        else if (text[i] !== "]") return;
      }
    }
    skip();
  };
  try {
    value("");
  } catch {
    // a broken file: what was found so far
  }
  return lines;
}

interface Frame {
  pointer: string;
  /** Indentation of the `key:` (or `- `) that opened this value; its content is deeper. */
  owner: number;
  kind: "unknown" | "map" | "seq";
  /** Indentation of its keys (map) or of its `- ` items (seq), once seen. */
  indent: number;
  index: number;
}

const KEY = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s'"#-][^#]*?|-[^\s][^#]*?)\s*:(?:\s+(.*))?$/;

function scanYaml(text: string, wanted: Set<string>): Map<string, number> {
  const lines = new Map<string, number>([["", 1]]);
  const stack: Frame[] = [{ pointer: "", owner: -1, kind: "unknown", indent: 0, index: 0 }];
  let blockScalarAbove: number | undefined;
  const all = text.split(/\r?\n/);
  for (let lineIndex = 0; lineIndex < all.length; lineIndex++) {
    const raw = all[lineIndex]!;
    const trimmed = raw.trim();
    const indentOf = raw.length - raw.trimStart().length;
    if (blockScalarAbove !== undefined) {
      if (trimmed === "" || indentOf > blockScalarAbove) continue;
      blockScalarAbove = undefined;
    }
    if (trimmed === "" || trimmed.startsWith("#") || trimmed === "---" || trimmed === "...") continue;
    let column = indentOf;
    let rest = trimmed;
    // `- ` items, possibly several on one line (`- - a`), then maybe a `key: value` inside the last one.
    while (rest === "-" || rest.startsWith("- ")) {
      const frame = container(stack, column, "seq");
      if (!frame) break;
      const pointer = `${frame.pointer}/${frame.index}`;
      if (wanted.has(pointer)) lines.set(pointer, lineIndex + 1);
      frame.index++;
      const after = rest === "-" ? "" : rest.slice(2);
      stack.push({ pointer, owner: column, kind: "unknown", indent: 0, index: 0 });
      column += rest === "-" ? 1 : 2 + (after.length - after.trimStart().length);
      rest = after.trimStart();
    }
    if (rest === "") continue;
    const match = KEY.exec(rest);
    if (!match) continue; // a scalar item or a continuation line
    const frame = container(stack, column, "map");
    if (!frame) continue;
    const key = unquote(match[1]!);
    const pointer = `${frame.pointer}/${escapePointerSegment(key)}`;
    if (wanted.has(pointer)) lines.set(pointer, lineIndex + 1);
    const value = (match[2] ?? "").replace(/\s+#.*$/, "");
    if (/^[|>][-+0-9]*$/.test(value)) blockScalarAbove = column;
    else if (value === "" || /^&\S+$/.test(value)) stack.push({ pointer, owner: column, kind: "unknown", indent: 0, index: 0 });
  }
  return lines;
}

/** The frame a `key:` or `- ` at `column` belongs to; deeper frames are closed. */
function container(stack: Frame[], column: number, kind: "map" | "seq"): Frame | undefined {
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.kind === kind && top.indent === column) return top;
    // A key's value may be a sequence at the key's own indentation (`key:\n- a`), or anything deeper.
    if (top.kind === "unknown" && (column > top.owner || (kind === "seq" && column === top.owner))) {
      top.kind = kind;
      top.indent = column;
      return top;
    }
    if (stack.length === 1) return undefined;
    stack.pop();
  }
  return undefined;
}

function unquote(key: string): string {
  if (key.startsWith('"')) {
    try {
      return JSON.parse(key) as string;
    } catch {
      return key.slice(1, -1);
    }
  }
  if (key.startsWith("'")) return key.slice(1, -1).replace(/''/g, "'");
  return key.trim();
}
