import { diffLines } from "diff";

/** The widest line generated code may have (comments and the spec's own long strings excepted). */
export const MAX_LINE = 400;

/** A data table of a generated module: `const name = JSON.parse('…')`, its literal's lines. */
export interface GeneratedTable {
  name: string;
  lines: string[];
  value: unknown;
}

const TABLE = /^(?:export )?const (\w+)(?::[^=]+)? =\s*JSON\.parse\(\s*('(?:[^'\\]|\\[^])*'|"(?:[^"\\]|\\[^])*")/gm;

/** The data tables of a generated module's text, by constant name. */
export function dataTables(text: string): Map<string, GeneratedTable> {
  const tables = new Map<string, GeneratedTable>();
  for (const match of text.matchAll(TABLE)) {
    const literal = match[2]!;
    // The literal's value: its escapes and line continuations read as JavaScript reads them.
    const json = literal.slice(1, -1).replace(/\\(\n|u[0-9a-fA-F]{4}|[^])/g, (_, c: string) => (c === "\n" ? "" : c.length > 1 ? String.fromCharCode(parseInt(c.slice(1), 16)) : c));
    tables.set(match[1]!, { name: match[1]!, lines: literal.split("\n"), value: JSON.parse(json) as unknown });
  }
  return tables;
}

/**
 * The lines of generated code longer than MAX_LINE that are not allowed: a comment line is, and so is a line that
 * holds one long string from the spec and little else (a table's `"description":"…",` member, a string alone in a
 * list; a schema.ts key). Each as `file:line: length`.
 */
export function longLines(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [path, text] of files) {
    if (!/\.(ts|js)$/.test(path)) continue;
    text.split("\n").forEach((line, i) => {
      if (line.length <= MAX_LINE || /^\s*(\*|\/\*|\/\/)/.test(line)) return;
      if (stringMember(line)) return;
      found.push(`${path}:${i + 1}: ${line.length} characters: ${line.slice(0, 120)}…`);
    });
  }
  return found;
}

/** Whether a line is one string (with its key, its comma, its line continuation) and at most 80 other characters. */
function stringMember(line: string): boolean {
  // A table's line is in a single-quoted literal: its JSON is the line with `\\` and `\'` read back.
  const text = line.endsWith("\\") ? line.slice(0, -1).replace(/\\([\\'])/g, "$1") : line;
  const strings = text.match(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g) ?? [];
  const longest = strings.reduce((a, b) => (b.length > a.length ? b : a), "");
  return text.length - longest.length <= 80;
}

/** The lines added and removed between two versions of a table (as a diff shows them), and their characters. */
export function changedLines(before: GeneratedTable | undefined, after: GeneratedTable | undefined): { lines: number; characters: number } {
  const changes = diffLines((before?.lines ?? []).join("\n") + "\n", (after?.lines ?? []).join("\n") + "\n").filter((change) => change.added || change.removed);
  return { lines: changes.reduce((sum, change) => sum + (change.count ?? 0), 0), characters: changes.reduce((sum, change) => sum + change.value.length, 0) };
}
